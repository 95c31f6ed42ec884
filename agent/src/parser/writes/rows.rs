//! Which transactions a write names: label text, amounts, a period, one name — and
//! the month a budget starts.

use super::*;

/// Which transactions a write is about.
#[derive(Default)]
pub(super) struct Rows {
    pub(super) period: Option<Period>,
    pub(super) category: Option<String>,
    pub(super) merchant: Option<String>,
    pub(super) text: Option<String>,
    pub(super) min: Option<Money>,
    pub(super) max: Option<Money>,
    /// "opérations", "purchases", a label or a name: the message names transactions.
    pub(super) said: bool,
    /// The category was named by one of its other names ("gym" for Leisure), which
    /// may be a part of it.
    pub(super) category_alias: Option<String>,
}

impl Rows {
    pub(super) fn none(&self) -> bool {
        self.period.is_none()
            && self.merchant.is_none()
            && self.text.is_none()
            && self.min.or(self.max).is_none()
    }
}

impl Read<'_> {
    /// Which transactions the message names: label text (quoted), amounts, a period, and
    /// one name — a merchant, a category, label text when nothing matches it, and an
    /// account's name as label text where `accounts` allows. Other names stay unread.
    pub(super) fn rows(&mut self, accounts: bool) -> Rows {
        // "le libellé contient NAVIGO": the text is after the verb.
        self.mark(LABEL);
        let mut rows =
            Rows { text: label_text(self.message, self.tokens, &mut self.used), ..Rows::default() };
        if let Some(t) = &rows.text {
            let detail = quote(t);
            self.note(ReasonCode::ExplicitText, &detail);
            rows.said = true;
        }
        let found = amount::find(self.tokens, &self.used, self.locale, self.currency)
            .filter(|a| !super::super::are_days(self.tokens, a));
        if let Some(a) = found {
            self.use_span(a.first, a.last);
            self.note(ReasonCode::ExplicitAmount, &amount::describe(a.min, a.max, self.locale));
            (rows.min, rows.max) = (a.min, a.max);
        } else if let Some((j, m, last)) = self.exact_amount() {
            // "les virements de 300 € en octobre": that amount exactly.
            self.use_span(j, last);
            self.note(ReasonCode::ExplicitAmount, &amount::describe(Some(m), Some(m), self.locale));
            (rows.min, rows.max) = (Some(m), Some(m));
        }
        if let Some(f) = period::find(self.tokens, &self.used, self.message, self.today, self.locale) {
            self.use_span(f.first, f.last);
            if f.apart {
                self.note(ReasonCode::UnplacedMeaning, &quote(&f.period.words));
            }
            self.note(ReasonCode::ExplicitPeriod, &f.period.label);
            rows.period = Some(f.period);
        }
        for i in 0..self.tokens.len() {
            rows.said |= self.is(i, ROWS) && !self.used[i];
        }
        self.mark(ROWS);
        let Some(&(a, b)) = self.stretches().first() else { return rows };
        let b = self.in_capitals(a, b);
        let p = self.p;
        let f = p.finder();
        let found = self.whole(a, b);
        let words = self.plain(a, b).then(|| self.words(a, b));
        let pronoun = (a..=b).all(|j| is_pronoun(self.w(j)));
        // "my Leclerc shopping": a label that holds one of the user's names, not written
        // as a bank writes it (in capitals) nor quoted, may be that name and a word
        // around it — asked.
        let caps = self.in_capitals(a, b) == b
            && (a..=b).all(|j| {
                self.message
                    .get(self.tokens[j].start..self.tokens[j].end)
                    .is_some_and(|w| !w.chars().any(char::is_lowercase))
            });
        let holds_a_name =
            !caps && !self.quoted(a, b) && b > a && (a..=b).any(|j| self.whole(j, j).is_some());
        let (locale, reasons) = (self.locale, &mut self.reasons);
        match found {
            Some(m) => {
                if let Some(m) = keep(&m, EntityKind::Merchant) {
                    rows.merchant = f.pick(&[m], locale, reasons, EntityKind::Merchant);
                } else if let (Some(_), true, None) = (keep(&m, EntityKind::Account), accounts, &rows.text) {
                    reasons.push(Reason::new(ReasonCode::NameAsText, locale, &quote(&m.words)));
                    rows.text = Some(m.words);
                } else if let Some(m) = keep(&m, EntityKind::Category) {
                    let named = m.ids.first().and_then(|id| p.vocabulary().term(*id)).is_some_and(|t| {
                        let said = crate::text::normalize(&m.words);
                        [&t.name_fr, &t.name_en].iter().any(|n| {
                            let n = crate::text::normalize(n);
                            // "restos" for Restaurants is the name, shortened.
                            let stem = |x: &str| x.chars().take(4).collect::<String>();
                            said == n || (said.chars().count() >= 4 && stem(&said) == stem(&n))
                        })
                    });
                    if !named && !m.fuzzy {
                        rows.category_alias = Some(m.words.clone());
                    }
                    rows.category = f.pick(&[m], locale, reasons, EntityKind::Category);
                } else {
                    return rows;
                }
            }
            // "that one", "those": a pronoun names no label.
            None if pronoun => return rows,
            None if rows.text.is_none() && words.is_some() => {
                rows.text = words;
                let t = rows.text.as_deref().unwrap_or_default();
                reasons.push(Reason::new(ReasonCode::ExplicitText, locale, &quote(t)));
                // "the transfers to my wife", "the ikea stuff": a word in lower case that
                // names nothing Sou knows may be no label at all — asked. Labels are
                // written as banks write them ("PAYPAL", "Revolut"), or quoted.
                if !t.chars().any(char::is_uppercase) || holds_a_name {
                    reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quote(t)));
                }
            }
            None => return rows,
        }
        rows.said = true;
        self.use_span(a, b);
        // "my Starbucks from Restaurants to Leisure": the category they are in now, after
        // a merchant.
        if rows.merchant.is_some() && rows.category.is_none() {
            let next = self
                .stretches()
                .into_iter()
                .find(|&(c, _)| c > 0 && self.w(c - 1) == "from" && !self.used[c - 1]);
            if let Some((c, d)) = next {
                if let Some(m) = self.whole(c, d).and_then(|m| keep(&m, EntityKind::Category)) {
                    let p = self.p;
                    rows.category =
                        p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Category);
                    self.use_span(c - 1, d);
                }
            }
        }
        rows
    }

    /// Whether the name `a..=b` is cut by a sign within a word ("H&M", "C&A", "M+"):
    /// the tokens stop where the name goes on.
    pub(super) fn cut(&self, a: usize, b: usize) -> bool {
        let sign = |c: Option<char>| matches!(c, Some('&' | '+'));
        let after = self.message.get(self.tokens[b].end..).and_then(|r| r.chars().next());
        let before = self.message.get(..self.tokens[a].start).and_then(|r| r.chars().next_back());
        sign(after) || sign(before)
    }

    /// "de 300 €", "of €500": an amount with its currency after "de"/"of" — the first
    /// token, the money and its last token.
    pub(super) fn exact_amount(&self) -> Option<(usize, Money, usize)> {
        (0..self.tokens.len()).find_map(|j| {
            // ("the 1000€ transfer", "ces virements de 500 €".)
            if !matches!(
                self.w(j),
                "de" | "of" | "d" | "the" | "le" | "la" | "les" | "this" | "those" | "these"
            ) || self.used[j]
            {
                return None;
            }
            let (m, mut last) = self.money(j + 1)?;
            // "de 200 € pile": exactly that.
            if matches!(
                self.tokens.get(last + 1).map(|t| t.norm.as_str()),
                Some("pile" | "exactement" | "exactly")
            ) {
                last += 1;
            }
            let said = (j + 1..=last).any(|k| {
                let t = &self.tokens[k];
                t.kind == TokenKind::Currency || t.norm.starts_with("eur") || t.norm == "balles"
            });
            (said && (j + 1..=last).all(|k| !self.used[k])).then_some((j, m, last))
        })
    }

    /// A label written in capitals ends with its last word in capitals, even one that
    /// carries nothing elsewhere ("VIR LIVRET A", "PAIEMENT PAR CB"): the last token of
    /// the stretch `a..=b` so extended.
    pub(super) fn in_capitals(&self, a: usize, b: usize) -> usize {
        let caps = |i: usize| {
            self.message
                .get(self.tokens[i].start..self.tokens[i].end)
                .is_some_and(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase))
        };
        if !(a..=b).all(caps) || (a..=b).all(|i| self.tokens[i].end - self.tokens[i].start < 2) {
            return b;
        }
        // (A word of it another reading took goes on too — "TOO GOOD TO GO", "AMZN MKTP
        // DE" — when written in capitals as the rest, two letters or more.)
        let mut end = b;
        while end + 1 < self.tokens.len()
            && (!self.used[end + 1] || self.tokens[end + 1].end - self.tokens[end + 1].start >= 2)
            && caps(end + 1)
            && self.tokens[end + 1].kind == TokenKind::Word
            && !self.gap(end + 1, ",")
            && !self.gap(end + 1, "=")
            && !self.gap(end + 1, ":")
        {
            end += 1;
        }
        end
    }

    /// An amount as written from token `i` ("300 €", "€1,234.56", "1.5k", "400"), read
    /// by the amount reader as the bound of "over": (money, last token).
    pub(super) fn money(&self, i: usize) -> Option<(Money, usize)> {
        let over = Token { norm: "over".to_string(), start: 0, end: 0, kind: TokenKind::Word };
        let mut tokens = vec![over];
        tokens.extend_from_slice(self.tokens.get(i..)?);
        let mut used = vec![false];
        used.extend_from_slice(self.used.get(i..)?);
        let found = amount::find(&tokens, &used, self.locale, self.currency).filter(|f| f.first == 0)?;
        Some((found.min?, i + found.last - 1))
    }

    /// The first month a budget change applies to: the month named — without a year,
    /// the next such month ("à partir de janvier" in November is next January) — else
    /// this one. Another period (a year, a quarter) is not a month: unread.
    pub(super) fn month(&mut self) -> Date {
        let this = self.today.first_of_month();
        let mut start = this;
        let mut code = ReasonCode::DefaultMonth;
        if let Some(f) = period::find(self.tokens, &self.used, self.message, self.today, self.locale) {
            self.use_span(f.first, f.last);
            let p = f.period;
            let mut said = false;
            for j in f.first..=f.last {
                said |= self.tokens[j].kind == TokenKind::Number
                    || matches!(
                        self.w(j),
                        "dernier" | "derniere" | "last" | "precedent" | "previous" | "passe"
                    );
            }
            // ("from October", said in November: the one just gone, or next year's?
            // Asked. "from January": the next one.)
            let gone = !said && p.start < this;
            let just_gone = gone && p.start >= this.add_months(-6);
            start = if gone { p.start.add_months(12) } else { p.start }.first_of_month();
            code = match p.start.day() == 1 && p.end == p.start.add_months(1) && !f.apart && !just_gone {
                true => ReasonCode::ExplicitPeriod,
                false => ReasonCode::UnplacedMeaning,
            };
        }
        self.note(code, &wording::month_label(start, self.locale));
        start
    }
}
