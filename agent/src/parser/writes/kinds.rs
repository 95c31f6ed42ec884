//! The five kinds of change, each read from the words the dispatcher found: a budget, a
//! rule, a recategorisation, transfers, merchants merged or renamed.

use super::*;

impl Read<'_> {
    /// `set_budget`: a category's monthly amount from a month on, or its removal.
    pub(super) fn budget(mut self) -> Option<ParseOutcome> {
        // "set … and remove …" is two writes: the removal stays unread.
        let remove = !self.any(SET | CREATE) && self.any(REMOVE);
        self.mark(SET | CREATE | if remove { REMOVE } else { 0 });
        for i in 0..self.tokens.len() {
            self.used[i] |= is_budget_word(self.w(i));
        }
        // The amount (a removal has none: one said stays unread): the first number left,
        // not a month's year, with its currency.
        let mut amount = None;
        for i in 0..self.tokens.len() {
            let after_month = i > 0 && period::is_time_word(&self.tokens[i - 1]);
            if remove || self.used[i] || self.tokens[i].kind != TokenKind::Number || after_month {
                continue;
            }
            let start = if i > 0 && self.tokens[i - 1].kind == TokenKind::Currency { i - 1 } else { i };
            if let Some((m, last)) = self.money(start) {
                self.use_span(start, last);
                // "raise it by 50", "augmente-le de 10 %": a change by an amount, which a
                // budget set to an amount is not.
                let relative = (0..self.tokens.len()).any(|j| {
                    matches!(
                        self.w(j),
                        "augmente"
                            | "augmenter"
                            | "raise"
                            | "increase"
                            | "baisse"
                            | "baisser"
                            | "lower"
                            | "reduce"
                            | "reduis"
                            | "reduire"
                            | "decrease"
                            | "diminue"
                            | "diminuer"
                            | "bump"
                            | "up"
                            | "cut"
                            | "drop"
                            | "boost"
                            | "monte"
                            | "remonte"
                            | "descends"
                            | "redescends"
                    )
                });
                let before = if start > 0 { self.w(start - 1) } else { "" };
                // "up it by 50": "by" an amount is a change whatever the verb; "add 50",
                // "rajoute 50 €", "50 € de plus", "50 more": an amount added.
                let by = matches!(before, "by" | "de" | "d" | "of");
                let added = before == "by"
                    || (0..self.tokens.len()).any(|j| {
                        matches!(self.w(j), "add" | "ajoute" | "rajoute" | "ajouter" | "rajouter" | "extra")
                            || (self.w(j) == "de" && self.w(j + 1) == "plus")
                            || (j == last + 1 && matches!(self.w(j), "more" | "plus"))
                    });
                let percent = self
                    .message
                    .get(self.tokens[last].end..)
                    .is_some_and(|r| r.trim_start().starts_with('%'));
                // "budget transport +30€", "-20 on restaurants": a sign says a change.
                let signed = self.message.get(..self.tokens[start].start).is_some_and(|r| {
                    let r = r.trim_end();
                    r.ends_with('+') || r.ends_with('-') || r.ends_with('−')
                });
                let added = added || signed;
                // "à 0": no budget is an amount of nothing — a removal, or a slip: asked.
                // ("raise restaurants budget 50": to 50, or by 50? Only "to", "à" say.)
                let to = matches!(before, "to" | "a" | "at" | "au");
                if (relative && (by || !to)) || added || percent || m.minor == 0 {
                    self.note(ReasonCode::UnplacedMeaning, &quote(&self.words(start, last)));
                }
                self.note(ReasonCode::ExplicitAmount, &m.format(self.locale));
                if m.currency != self.currency {
                    self.note(ReasonCode::ForeignCurrency, m.currency.as_str());
                }
                amount = Some(m);
                break;
            }
        }
        // "2400 par an", "par année": a budget is monthly — a twelfth, or a slip? Asked.
        let yearly = (1..self.tokens.len()).find(|&i| {
            matches!(self.w(i - 1), "par" | "per" | "a")
                && matches!(self.w(i), "an" | "annee" | "annum" | "year")
        });
        if let Some(i) = yearly {
            let w = self.words(i - 1, i);
            self.note(ReasonCode::UnplacedMeaning, &quote(&w));
        }
        let from = self.month();
        // "is my grocery budget 300?", "mon budget courses était de 300", "I set a budget
        // of 300, am I over?": a question about a budget, not a change.
        let asked = (0..self.tokens.len()).find(|&i| {
            let (w, next) = (self.w(i), self.w(i + 1));
            matches!(w, "is" | "was" | "were" | "etait" | "over" | "under" | "depasse")
                || (w == "est" && !matches!(self.w(i.wrapping_sub(1)), "c" | "qu"))
                || (w == "am" && next == "i")
                || (w == "suis" && next == "je")
        });
        if let Some(i) = asked {
            let w = self.words(i, i);
            self.note(ReasonCode::UnplacedMeaning, &quote(&w));
        }
        // "juste pour décembre", "only for March": a budget holds from a month on.
        let only = (0..self.tokens.len())
            .find(|&i| matches!(self.w(i), "juste" | "seulement" | "uniquement" | "only" | "just"));
        if let Some(i) = only {
            let w = self.words(i, i);
            self.note(ReasonCode::UnplacedMeaning, &quote(&w));
        }
        // The category: the first name left.
        let Some(&(a, b)) = self.stretches().first() else { return self.ask(CATEGORY, None) };
        let Some(m) = self.whole(a, b).and_then(|m| keep(&m, EntityKind::Category)) else {
            if !self.plain(a, b) {
                return None;
            }
            self.use_span(a, b);
            return self.ask(UNKNOWN_CATEGORY, Some(&self.words(a, b)));
        };
        self.use_span(a, b);
        let p = self.p;
        let category = p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Category)?;
        if amount.is_none() && !remove {
            return self.ask(AMOUNT, None);
        }
        self.done(ToolCall::SetBudget(SetBudgetArgs { category, amount, from }))
    }

    /// "from now on", "à partir de maintenant": only what comes next.
    pub(super) fn says_from_now(&self) -> bool {
        self.tokens
            .windows(2)
            .any(|w| matches!((w[0].norm.as_str(), w[1].norm.as_str()), ("now", "on") | ("de", "maintenant")))
    }

    /// `create_rule`: "a label containing this is that category", for what comes — the
    /// tool's default — and for past transactions too only when the message says so
    /// ("et change aussi les anciens", "apply to past too").
    pub(super) fn rule(mut self) -> Option<ParseOutcome> {
        let from_now = self.says_from_now();
        // ("I already told you", "my existing rule": not the old transactions.)
        let past = (0..self.tokens.len()).any(|i| {
            let said = matches!(self.w(i), "already" | "deja")
                && matches!(self.w(i + 1), "told" | "said" | "asked" | "dit" | "demande" | "explique");
            let of_rule = matches!(self.w(i + 1), "rule" | "rules" | "regle" | "regles")
                || matches!(self.w(i.saturating_sub(1)), "regle" | "regles");
            is_past(self.w(i)) && !said && !of_rule
        });
        // "and fix the old ones", "apply to past too", "et aussi les anciennes": read.
        if past {
            self.read_past_words();
        }
        self.read_from_now_words();
        let asked = self.any(CREATE | ALWAYS) || from_now;
        self.mark(RULE | LABEL | CREATE | FILE | STRONG);
        self.read_around_label();
        let quoted = label_text(self.message, self.tokens, &mut self.used);
        let target = self.target();
        if target == Err(None) && !asked {
            return None;
        }
        // The pattern: quoted, else the words before the category, as written.
        let end = target.as_ref().map_or(self.tokens.len(), |t| t.1);
        let mut pattern = quoted;
        let (first, last, said) = self.label_stretch(end);
        if let (None, Some(a), Some(b)) = (&pattern, first, last) {
            // A word in it, or around the capitals, that would change the plan stops the
            // run.
            let (x, y) = said.map_or((a, b), |(x, y)| (x.min(a), y.max(b)));
            for j in x..=y {
                if changes_meaning(self.w(j)) {
                    return None;
                }
            }
            // "uber in transport and deliveroo", "netflix et spotify", "uber de moins de
            // 20", "buy at action", "transfer from my mum": a list, a condition or words
            // around a name, which a pattern would hold whole — asked (in capitals, a
            // label's words: "TOO GOOD TO GO").
            let lower = |j: usize| !self.typed_in_capitals(j);
            let joins = (a..=b).any(|j| {
                (lower(j)
                    && matches!(
                        self.w(j),
                        "and"
                            | "et"
                            | "or"
                            | "ou"
                            | "over"
                            | "under"
                            | "above"
                            | "below"
                            | "plus"
                            | "moins"
                            | "at"
                            | "from"
                            | "chez"
                            | "in"
                            | "en"
                            | "than"
                            | "que"
                            | "buy"
                            | "bought"
                            | "achete"
                    ))
                    || self.tokens[j].kind == TokenKind::Number
                    || self
                        .message
                        .get(
                            self.tokens[j].end
                                ..self.tokens.get(j + 1).map_or(self.tokens[j].end, |t| t.start),
                        )
                        .is_some_and(|g| g.contains(','))
                        && j < b
            });
            // "mes courses picard", "netflix subscription": a category's name beside a
            // label, which no bank label holds.
            let named = |j: usize, kind: EntityKind| {
                self.whole(j, j).is_some_and(|m| !m.fuzzy && keep(&m, kind).is_some())
            };
            let category_beside = b > a
                && self.whole(a, b).is_none()
                && (a..=b).any(|j| lower(j) && named(j, EntityKind::Category))
                && (a..=b).any(|j| named(j, EntityKind::Merchant));
            if joins || category_beside {
                let words = self.words(a, b);
                self.note(ReasonCode::UnplacedMeaning, &quote(&words));
            }
            self.use_span(x, y);
            pattern = Some(self.words(a, b));
        }
        let category = match target {
            Ok((key, _)) => key,
            Err(Some(words)) => return self.ask(UNKNOWN_CATEGORY, Some(&words)),
            Err(None) => return self.ask(CATEGORY, None),
        };
        // ("point p": a pattern of one letter would match nearly every label.)
        let Some(pattern) = pattern.filter(|p| p.chars().filter(|c| c.is_alphanumeric()).count() >= 3) else {
            return self.ask(PATTERN, None);
        };
        // "move amazon to shopping and make it a rule", "mets uber en transport et fais-en
        // une règle": the ones already there too, or only the next? Asked.
        let moved_too = (0..self.tokens.len()).any(|i| {
            matches!(
                self.w(i),
                "move"
                    | "put"
                    | "mets"
                    | "classe"
                    | "recategorise"
                    | "recategorize"
                    | "recat"
                    | "passe"
                    | "range"
            )
        }) && ((0..self.tokens.len()).any(|i| matches!(self.w(i), "and" | "et"))
            || self.message.contains('+'));
        if moved_too && !past && !from_now {
            self.note(ReasonCode::UnplacedMeaning, &quote(self.message));
        }
        self.note(ReasonCode::ExplicitText, &quote(&pattern));
        self.done(ToolCall::CreateRule(CreateRuleArgs { pattern, category, apply_to_past: past }))
    }

    /// A rule's words for past transactions too ("and fix the old ones", "apply to past
    /// too", "y compris les anciennes"), read.
    fn read_past_words(&mut self) {
        for i in 0..self.tokens.len() {
            let w = self.w(i);
            // (A word in capitals is a label's: "TOO GOOD TO GO".)
            let capitals = self.word_in_capitals(i);
            self.used[i] |= !capitals
                && (is_past(w)
                    || matches!(
                        w,
                        "apply"
                        | "applique"
                        | "appliquer"
                        | "appliquez"
                        | "fix"
                        | "corrige"
                        | "corriger"
                        | "too"
                        | "aussi"
                        | "also"
                        | "egalement"
                        | "ones"
                        | "well"
                        | "celles"
                        | "ceux"
                        | "change"
                        | "changes"
                        | "changer"
                        | "modifie"
                        | "transactions"
                        | "operations"
                        | "it"
                        | "les"
                        // "passé compris", "y compris les anciennes", "including the
                        // ones already there", "redo the old ones".
                        | "compris"
                        | "including"
                        | "included"
                        | "inclus"
                        | "redo"
                        | "refais"
                        | "there"
                        | "la"
                    ));
        }
    }

    /// "now on", "de maintenant", "from now", "à partir": what comes, the rule's default,
    /// read.
    fn read_from_now_words(&mut self) {
        for i in 0..self.tokens.len() {
            let w = self.w(i);
            let next = if i + 1 < self.tokens.len() { self.w(i + 1) } else { "" };
            if matches!((w, next), ("now", "on") | ("de", "maintenant") | ("from", "now") | ("a", "partir")) {
                self.used[i] = true;
                self.used[i + 1] = true;
            }
        }
    }

    /// The words that introduce a rule's label, not of it ("les prélèvements",
    /// "containing", "everything with"), read.
    fn read_around_label(&mut self) {
        // "les prélèvements Harmonie Mutuelle": the transactions' noun is not the label's
        // (in capitals it is: "VIREMENT SALAIRE").
        // "quand tu vois uber", "ce qui vient d'amazon", "whenever uber appears", "my sncf
        // tickets", "basic fit membership": how the label is met, or what was bought,
        // not the label's words (in capitals they are).
        let around = |w: &str| {
            matches!(
                w,
                "vois"
                    | "voit"
                    | "voyez"
                    | "see"
                    | "sees"
                    | "vient"
                    | "viennent"
                    | "venant"
                    | "appears"
                    | "appear"
                    | "tickets"
                    | "ticket"
                    | "billets"
                    | "billet"
                    | "membership"
            )
        };
        for i in 0..self.tokens.len() {
            let capitals = self.typed_in_capitals(i);
            self.used[i] |= (self.is(i, ROWS) && !self.is(i, TRANSFER) || around(self.w(i))) && !capitals;
        }
        for i in 0..self.tokens.len() {
            self.used[i] |= matches!(
                self.w(i),
                "contenant"
                    | "containing"
                    | "contient"
                    | "contains"
                    | "lines"
                    | "line"
                    | "entries"
                    | "lignes"
            );
            // "everything with TOTALENERGIES", "tout ce qui a PAYPAL": the label's opener.
            let opener = |w: &str| {
                matches!(
                    w,
                    "everything" | "anything" | "whatever" | "all" | "stuff" | "tout" | "tous" | "toutes"
                )
            };
            if i + 1 < self.tokens.len() && opener(self.w(i)) && matches!(self.w(i + 1), "with" | "avec") {
                self.used[i] = true;
                self.used[i + 1] = true;
            }
        }
    }

    /// A rule's label among the words before `end`: its first and last token (none when
    /// no word is left), and the whole stretch said around it when it is in capitals.
    /// A verb after it ("soit", "is") is read.
    fn label_stretch(&mut self, end: usize) -> (Option<usize>, Option<usize>, Option<(usize, usize)>) {
        let (mut first, mut last) = (None, None);
        for i in 0..end {
            if self.open(i) {
                first.get_or_insert(i);
                last = Some(i);
            }
        }
        let mut said = None;
        if let (Some(a), Some(b)) = (first, last) {
            let (c, d, whole) = self.label_in_capitals(a, b, end);
            first = Some(c);
            last = Some(d);
            said = Some(whole);
        }
        // "BOUYGUES soit en factures", "LECLERC is groceries": the verb is not the label.
        while let (Some(a), Some(b)) = (first, last) {
            if b > a && self.is(b, AS) {
                self.used[b] = true;
                last = Some(b - 1);
            } else {
                break;
            }
        }
        (first, last, said)
    }

    /// The label in the open words `a..=b` (before `end`), through the capital words
    /// around them: its first and last token, and the whole stretch said.
    fn label_in_capitals(&self, a: usize, b: usize, end: usize) -> (usize, usize, (usize, usize)) {
        // "ORANGE SA": a label in capitals goes on through its capital words ("SA" is
        // also a French word that carries nothing).
        let b = self.in_capitals(a, b).min(end.saturating_sub(1)).max(b);
        // "LA POSTE": and back through the capital words before it.
        let caps = |i: usize| {
            self.message
                .get(self.tokens[i].start..self.tokens[i].end)
                .is_some_and(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase))
        };
        // ("L OREAL PRO": a capital letter alone, a space after it, is of the label —
        // not "l'" said as an article.)
        let spaced = |i: usize| {
            self.tokens.get(i + 1).is_some_and(|next| {
                self.message.get(self.tokens[i].end..next.start).is_some_and(|g| g == " ")
            })
        };
        let letter = |i: usize| self.tokens[i].end - self.tokens[i].start == 1 && spaced(i);
        let mut a = a;
        while a > 0
            && caps(a)
            && caps(a - 1)
            && (!self.used[a - 1] || letter(a - 1))
            && !self.gap(a, ":")
            && !self.gap(a, ",")
        {
            a -= 1;
        }
        // "une règle total energies en transport": "total", which alone names no
        // filter, is TotalEnergies' when a label follows it.
        if a > 0 && self.w(a - 1) == "total" && !self.gap(a, ",") {
            a -= 1;
        }
        // "anything from HELLOFRESH is filed under groceries": a label in capitals is
        // the label, not the words around it.
        if let Some(c) = (a..=b).find(|&i| {
            caps(i) && (self.tokens[i].end - self.tokens[i].start >= 2 || (i < b && letter(i) && caps(i + 1)))
        }) {
            let mut d = c;
            while d < b && caps(d + 1) {
                d += 1;
            }
            return (c, d, (a, b));
        }
        (a, b, (a, b))
    }

    /// "that contain PAYPAL", "matching REVOLUT", "qui contiennent", "with the word": the
    /// words that lead in a label, not the label's (in capitals they are).
    fn read_label_openers(&mut self) {
        for i in 0..self.tokens.len() {
            let capitals = self.typed_in_capitals(i);
            let opener = matches!(
                self.w(i),
                "contain"
                    | "contains"
                    | "containing"
                    | "include"
                    | "includes"
                    | "matching"
                    | "match"
                    | "matches"
                    | "contiennent"
                    | "contient"
                    | "contenant"
                    | "comportant"
                    | "labelled"
                    | "labeled"
                    | "libelle"
                    | "libelles"
            ) || (matches!(self.w(i), "word" | "mot" | "mention" | "text" | "texte")
                && matches!(self.w(i.saturating_sub(1)), "the" | "le" | "la"));
            // (Only before a label in capitals or quotes: "labelled transfer to livret"
            // is read as before.)
            let (t, next) = (&self.tokens[i], self.tokens.get(i + 1));
            let label = next.is_some_and(|n| {
                self.typed_in_capitals(i + 1)
                    || self.message.get(t.end..n.start).is_some_and(|g| g.contains(['"', '«', '“', '\'']))
            }) || (matches!(self.w(i), "word" | "mot" | "mention" | "text" | "texte")
                && next.is_some());
            if opener && !capitals && label {
                self.used[i] = true;
                if matches!(self.w(i.saturating_sub(1)), "the" | "le" | "la") && i > 0 {
                    self.used[i - 1] = true;
                }
            }
        }
    }

    /// A label read two ways: in capitals cut short ("labelled TRANSFER TO ANZ" read as
    /// "ANZ": its "TO" taken for the word before the category), or a lowercase word
    /// before a name ("compte pro Qonto") — asked.
    fn note_cut_label(&mut self, text: Option<&str>) {
        let Some(t) = text else { return };
        // "vers mon compte pro Qonto": a word of the account's kind before a name — is
        // the label "pro Qonto", or "Qonto"? Asked.
        let words: Vec<&str> = t.split_whitespace().collect();
        let lower = |w: &str| w.chars().all(|c| !c.is_uppercase());
        let upper_first = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
        if words.len() >= 2 && lower(words[0]) && words[1..].iter().any(|w| upper_first(w)) {
            self.note(ReasonCode::UnplacedMeaning, &quote(t));
            return;
        }
        let Some(at) = self.message.find(t) else { return };
        let before = self.message.get(..at).unwrap_or("").trim_end();
        let word = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        if word.chars().count() >= 2 && word.chars().all(|c| c.is_uppercase()) {
            let label = format!("{word} {t}");
            self.note(ReasonCode::UnplacedMeaning, &quote(&label));
        }
    }

    /// `recategorise`: the transactions named move to the category after "en", "to".
    pub(super) fn recategorise(mut self) -> Option<ParseOutcome> {
        self.read_label_openers();
        let (strong, said) = (self.any(STRONG) || self.arrowed(), self.any(ROWS));
        self.mark(FILE | STRONG | ROWS);
        let from = self.currently_in();
        let target = self.target();
        let mut rows = self.rows(false);
        if rows.category.is_none() {
            rows.category = from;
        }
        rows.said |= said;
        let to = match target {
            Ok((key, _)) if strong || rows.said => key,
            Err(Some(words)) if strong || rows.said => return self.ask(UNKNOWN_CATEGORY, Some(&words)),
            Err(None) if strong => return self.ask(CATEGORY, None),
            _ => return None,
        };
        if rows.none() && rows.category.is_none() {
            return self.ask(WHICH_ROWS, None);
        }
        // "recategorise my gym stuff as health", "move my gym payments this year to
        // health": "gym" is one of Leisure's names, but moving all of Leisure (over a
        // period, above an amount) may not be what is meant.
        if let (None, None, Some(words)) = (&rows.merchant, &rows.text, &rows.category_alias) {
            self.note(ReasonCode::UnplacedMeaning, &quote(words));
        }
        // "from January put uber in transport", "à partir de mars": from a month on,
        // not that month alone.
        let from_on = (0..self.tokens.len()).find(|&i| {
            // ("the amazon stuff from october": of October.)
            (matches!(self.w(i), "starting" | "partir" | "des") || (i == 0 && self.w(i) == "from"))
                && self
                    .tokens
                    .get(i + 1)
                    .is_some_and(|t| period::is_time_word(t) || matches!(t.norm.as_str(), "de" | "d"))
        });
        if let Some(i) = from_on.filter(|_| rows.period.is_some()) {
            let w = self.words(i, i);
            self.note(ReasonCode::UnplacedMeaning, &quote(&w));
        }
        self.note_cut_label(rows.text.as_deref());
        self.done(ToolCall::Recategorise(RecategoriseArgs {
            to,
            period: rows.period,
            category: rows.category,
            merchant: rows.merchant,
            text: rows.text,
            amount_min: rows.min,
            amount_max: rows.max,
            ids: Vec::new(),
        }))
    }

    /// "… actuellement en Shopping", "… currently in shopping": the category they are in
    /// now, which they leave (its tokens used).
    fn currently_in(&mut self) -> Option<String> {
        let at = (0..self.tokens.len()).find(|&i| {
            matches!(self.w(i), "actuellement" | "currently" | "presently") && self.is(i + 1, TO)
        })?;
        let (a, b) = self.stretches().into_iter().find(|&(a, _)| a == at + 2)?;
        let m = self.whole(a, b).and_then(|m| keep(&m, EntityKind::Category))?;
        let p = self.p;
        let key = p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Category)?;
        self.use_span(at, b);
        Some(key)
    }

    /// `mark_transfers`: the transactions named are transfers between the user's accounts.
    pub(super) fn transfers(mut self) -> Option<ParseOutcome> {
        self.read_label_openers();
        self.mark(MARK);
        let rows = self.rows(true);
        if let Some(k) = &rows.category {
            let name = self.p.vocabulary().label_of(k, self.locale);
            self.note(ReasonCode::UnplacedMeaning, &quote(&name));
        }
        // "mark the transfers in October", "mark transfers over 500": a period or a floor
        // alone holds every transaction in it, not the transfers the words mean — a
        // label, a merchant, one exact amount, or amounts in a period say which.
        let exact = rows.min.is_some() && rows.min == rows.max;
        let bounded = rows.period.is_some() && (rows.min.is_some() || rows.max.is_some());
        if rows.none() || (rows.text.is_none() && rows.merchant.is_none() && !exact && !bounded) {
            return self.ask(WHICH_ROWS, None);
        }
        self.note_cut_label(rows.text.as_deref());
        self.done(ToolCall::MarkTransfers(MarkTransfersArgs {
            period: rows.period,
            merchant: rows.merchant,
            text: rows.text,
            amount_min: rows.min,
            amount_max: rows.max,
            ids: Vec::new(),
        }))
    }
}

/// A word that says past transactions too: "anciens", "past", "already", "retroactively".
fn is_past(w: &str) -> bool {
    matches!(
        w,
        "anciens"
            | "anciennes"
            | "passe"
            | "passees"
            | "passes"
            | "existantes"
            | "existants"
            | "deja"
            | "past"
            | "existing"
            | "already"
            | "old"
            | "previous"
            | "earlier"
            | "retroactively"
            | "retroactivement"
    )
}
