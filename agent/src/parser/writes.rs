//! Requests to change what Sou keeps: a budget ("mets un budget de 300 € pour les
//! restos"), a rule ("always put Deliveroo in restaurants"), transactions' category
//! ("classe les opérations PAUL en Courses"), merchants ("fusionne Franprix et
//! Monoprix", "rename Basic Fit to Basic-Fit") and transfers between the user's
//! accounts ("ces opérations BOURSORAMA sont des virements internes").
//!
//! A write plan runs only once the user has approved its dry run, but it must still
//! mean exactly what was said: every value is read from the message or asked for, an
//! unknown category is asked, never guessed, and a word left unread stops the run.

mod budget;
mod merchants;

use super::build::plan;
use super::entities::EntityMatch;
use super::lexicon::{changes_meaning, is_budget_word, is_transaction_word, label_text, STOPWORDS};
use super::{Context, Parser};
use crate::reason::{Reason, ReasonCode};
use crate::text::{Token, TokenKind};
use crate::vocab::EntityKind;
use crate::{amount, period};
use crate::{
    Clarification, CreateRuleArgs, Currency, Date, Locale, MarkTransfersArgs, Money, ParseOutcome, Period,
    RecategoriseArgs, Suggestion, ToolCall,
};

#[derive(Clone, Copy)]
enum Tool {
    Budget,
    Rule,
    Recategorise,
    Merge,
    Rename,
    Transfers,
}

/// A budget set or changed: "set", "fixe", "mets", "change", "crée".
fn sets(w: &str) -> bool {
    creates(w)
        || matches!(
            w,
            "set"
                | "fixe"
                | "fixer"
                | "mets"
                | "mettre"
                | "met"
                | "change"
                | "changer"
                | "modifie"
                | "modifier"
                | "definis"
                | "definir"
                | "ajuste"
                | "ajuster"
                | "adjust"
                | "update"
                | "passe"
                | "passer"
        )
}

fn creates(w: &str) -> bool {
    matches!(
        w,
        "cree" | "creer" | "create" | "ajoute" | "ajouter" | "add" | "make" | "new" | "nouvelle" | "nouveau"
    )
}

fn removes(w: &str) -> bool {
    matches!(w, "supprime" | "supprimer" | "enleve" | "enlever" | "remove" | "delete")
}

/// Verbs that put transactions in a category. The first ones say it alone; "move",
/// "put", "mets" need transactions or a name to be about them.
fn files(w: &str) -> bool {
    files_strongly(w)
        || matches!(
            w,
            "move"
                | "put"
                | "mets"
                | "mettre"
                | "met"
                | "passe"
                | "passer"
                | "passent"
                | "vont"
                | "go"
                | "goes"
        )
}

fn files_strongly(w: &str) -> bool {
    matches!(w, "classe" | "classer" | "range" | "ranger" | "recategorise" | "recategoriser" | "recategorize")
}

/// Words that say which transactions without naming them: "opérations", "achats",
/// "virements", "dépenses".
fn is_rows(w: &str) -> bool {
    is_transaction_word(w)
        || matches!(
            w,
            "virements"
                | "virement"
                | "transfers"
                | "transfer"
                | "depenses"
                | "expenses"
                | "prelevements"
                | "lignes"
        )
}

/// The words a write reads past: how people ask, and the words around its values
/// ("à partir de", "par mois", "les libellés contenant").
fn glue(w: &str) -> bool {
    STOPWORDS.contains(&w)
        || matches!(
            w,
            "partir"
                | "starting"
                | "onwards"
                | "per"
                | "monthly"
                | "mensuel"
                | "marchand"
                | "marchands"
                | "merchant"
                | "merchants"
                | "commercant"
                | "libelles"
                | "libelle"
                | "labels"
                | "label"
                | "contenant"
                | "containing"
                | "contient"
                | "contains"
                | "vers"
                | "categorie"
                | "category"
        )
        || always(w)
}

/// "always", "toujours", "quand": what a rule does, not a one-off change.
fn always(w: &str) -> bool {
    matches!(w, "toujours" | "always" | "automatiquement" | "automatically" | "quand" | "when" | "whenever")
}

/// "comme transferts internes", "as transfers between my accounts", "sont des virements
/// internes": the first and last tokens of the phrase.
fn transfer_phrase(tokens: &[Token]) -> Option<(usize, usize)> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    (1..tokens.len()).find_map(|k| {
        if !matches!(w(k), "transferts" | "transfert" | "virements" | "virement" | "transfers" | "transfer") {
            return None;
        }
        let mut a = k;
        while a > 1
            && matches!(w(a - 1), "des" | "de" | "d" | "a" | "an" | "un" | "une" | "internal" | "internes")
        {
            a -= 1;
        }
        if !matches!(w(a - 1), "comme" | "as" | "sont" | "are" | "est" | "is") {
            return None;
        }
        let mut b = k;
        while matches!(
            w(b + 1),
            "internes"
                | "interne"
                | "internal"
                | "entre"
                | "between"
                | "mes"
                | "my"
                | "nos"
                | "our"
                | "comptes"
                | "accounts"
                | "own"
        ) {
            b += 1;
        }
        Some((a - 1, b))
    })
}

/// Which write a message asks for, if any. A question ("combien…", "how much…") is a
/// read, whatever its verbs.
fn tool(tokens: &[Token]) -> Option<Tool> {
    let has = |f: &dyn Fn(&str) -> bool| tokens.iter().any(|t| f(&t.norm));
    if has(&|w| {
        matches!(
            w,
            "combien"
                | "how"
                | "what"
                | "whats"
                | "quel"
                | "quelle"
                | "quels"
                | "quelles"
                | "which"
                | "why"
                | "pourquoi"
                | "did"
                | "where"
        )
    }) {
        return None;
    }
    let currency = has(&|w| matches!(w, "€" | "$" | "£" | "eur" | "euro" | "euros" | "dollars"));
    Some(if transfer_phrase(tokens).is_some() {
        Tool::Transfers
    } else if has(&|w| matches!(w, "regle" | "rule")) || (has(&always) && has(&files)) {
        Tool::Rule
    } else if has(&|w| matches!(w, "renomme" | "renommer" | "rename")) {
        Tool::Rename
    } else if has(&|w| matches!(w, "fusionne" | "fusionner" | "merge"))
        || (has(&|w| matches!(w, "same" | "meme"))
            && has(&|w| matches!(w, "marchand" | "merchant" | "commercant")))
    {
        Tool::Merge
    } else if has(&is_budget_word) && (has(&sets) || has(&removes) || currency) {
        Tool::Budget
    } else if has(&files) {
        Tool::Recategorise
    } else {
        return None;
    })
}

impl Parser {
    /// The write a message asks for, as a plan or a question for what it misses; `None`
    /// when it asks no write (a read, or words that only look like one).
    pub(super) fn write(
        &self,
        tokens: &[Token],
        message: &str,
        locale: Locale,
        cx: &Context<'_>,
    ) -> Option<ParseOutcome> {
        let tool = tool(tokens)?;
        let r = Read {
            p: self,
            tokens,
            message,
            locale,
            today: cx.today,
            used: vec![false; tokens.len()],
            reasons: vec![Reason::new(ReasonCode::WriteRequest, locale, "")],
            currency: self.vocabulary().currency.unwrap_or(Currency::EUR),
        };
        match tool {
            Tool::Budget => r.budget(),
            Tool::Rule => r.rule(),
            Tool::Recategorise => r.recategorise(),
            Tool::Merge => r.merge(),
            Tool::Rename => r.rename(),
            Tool::Transfers => r.transfers(),
        }
    }
}

/// Which transactions a write is about.
#[derive(Default)]
struct Rows {
    period: Option<Period>,
    category: Option<String>,
    merchant: Option<String>,
    text: Option<String>,
    min: Option<Money>,
    max: Option<Money>,
    /// "opérations", "purchases", a quoted label: the message is about transactions.
    said: bool,
}

impl Rows {
    fn any(&self) -> bool {
        self.period.is_some()
            || self.category.is_some()
            || self.merchant.is_some()
            || self.text.is_some()
            || self.min.is_some()
            || self.max.is_some()
    }
}

/// What is wanted back: `Err(Some(words))` names no category, `Err(None)` names none.
type Target = Result<(String, usize), Option<String>>;

/// One write message being read: the tokens its values used, and why.
struct Read<'a> {
    p: &'a Parser,
    tokens: &'a [Token],
    message: &'a str,
    locale: Locale,
    today: Date,
    used: Vec<bool>,
    reasons: Vec<Reason>,
    currency: Currency,
}

impl Read<'_> {
    fn w(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.norm.as_str())
    }

    /// The user's words from token `a` to token `b`, as written.
    fn words(&self, a: usize, b: usize) -> String {
        match (self.tokens.get(a), self.tokens.get(b)) {
            (Some(x), Some(y)) => self.message.get(x.start..y.end).unwrap_or_default().to_string(),
            _ => String::new(),
        }
    }

    fn mark(&mut self, f: impl Fn(&str) -> bool) {
        for (u, t) in self.used.iter_mut().zip(self.tokens) {
            *u |= f(&t.norm);
        }
    }

    fn use_span(&mut self, a: usize, b: usize) {
        self.used.iter_mut().take(b + 1).skip(a).for_each(|u| *u = true);
    }

    fn note(&mut self, code: ReasonCode, detail: &str) {
        self.reasons.push(Reason::new(code, self.locale, detail));
    }

    /// The tokens left unread that carry something.
    fn left(&self) -> Vec<usize> {
        (0..self.tokens.len())
            .filter(|&i| !self.used[i] && !glue(self.w(i)) && self.tokens[i].kind != TokenKind::Currency)
            .collect()
    }

    fn quote(&self, at: &[usize]) -> String {
        at.iter().map(|&i| format!("« {} »", self.words(i, i))).collect::<Vec<_>>().join(", ")
    }

    /// The plan for `call`: words left unread stop it.
    fn done(mut self, call: ToolCall) -> Option<ParseOutcome> {
        let left = self.left();
        if !left.is_empty() {
            let detail = self.quote(&left);
            self.note(ReasonCode::UnplacedMeaning, &detail);
        }
        Some(ParseOutcome::Plan(plan(call, self.reasons, self.locale, self.today)))
    }

    /// A question for a value the write needs. With other words left unread, the
    /// message is not read as a write at all: the read stops it, as any other.
    fn ask(
        &self,
        code: ReasonCode,
        detail: &str,
        question: [&str; 2],
        suggestions: Vec<Suggestion>,
    ) -> Option<ParseOutcome> {
        if !self.left().is_empty() {
            return None;
        }
        Some(ParseOutcome::Clarification(Clarification {
            question: self.locale.pick(question[0], question[1]).to_string(),
            reasons: vec![Reason::new(code, self.locale, detail)],
            suggestions,
            locale: self.locale,
        }))
    }

    fn ask_category(&self, target: Option<String>) -> Option<ParseOutcome> {
        match target {
            Some(words) => self.ask(
                ReasonCode::UnknownName,
                &format!("« {words} »"),
                [
                    "Je ne connais pas cette catégorie. Laquelle voulez-vous ?",
                    "I know no such category. Which one do you mean?",
                ],
                Vec::new(),
            ),
            None => self.ask(
                ReasonCode::MissingValue,
                self.locale.pick("catégorie", "category"),
                ["Quelle catégorie ?", "Which category?"],
                Vec::new(),
            ),
        }
    }

    fn ask_rows(&self) -> Option<ParseOutcome> {
        self.ask(
            ReasonCode::MissingValue,
            self.locale.pick("opérations", "transactions"),
            [
                "Quelles opérations ? Nommez un marchand, un libellé ou une période.",
                "Which transactions? Name a merchant, a label or a period.",
            ],
            Vec::new(),
        )
    }

    /// The category right after a connector ("en Loisirs", "to Transport", "→
    /// Restaurants"), the last that names one; its tokens used. Returns its key and the
    /// connector's token.
    fn target(&mut self) -> Target {
        let n = self.tokens.len();
        let mut unknown = None;
        for s in (1..n).rev() {
            let gap = self.message.get(self.tokens[s - 1].end..self.tokens[s].start).unwrap_or("");
            let arrow = gap.contains('→') || gap.contains("->") || gap.contains("=>");
            let joined = !self.used[s - 1]
                && matches!(self.w(s - 1), "en" | "in" | "into" | "to" | "dans" | "as" | "sous" | "under");
            if self.used[s] || !(arrow || joined) {
                continue;
            }
            let mut a = s;
            while a + 1 < n
                && matches!(self.w(a), "la" | "le" | "les" | "l" | "the" | "my" | "categorie" | "category")
            {
                a += 1;
            }
            if let Some((m, k)) = self.category_at(a) {
                let c = if arrow { s } else { s - 1 };
                self.use_span(c, a + k - 1);
                let p = self.p;
                if let Some(key) = p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Category)
                {
                    return Ok((key, c));
                }
            }
            // The words after the last connector, when they could be a name.
            let name = (a..n).all(|j| !self.used[j] && self.tokens[j].kind == TokenKind::Word)
                && n - a <= 4
                && !period::is_time_word(&self.tokens[a]);
            unknown.get_or_insert(name.then_some(a));
        }
        match unknown.flatten() {
            Some(a) => {
                self.use_span(a, n - 1);
                Err(Some(self.words(a, n - 1)))
            }
            None => Err(None),
        }
    }

    /// A category named exactly at token `a` (or with one typo, one word): the match and
    /// how many tokens it spans.
    fn category_at(&self, a: usize) -> Option<(EntityMatch, usize)> {
        let f = self.p.finder();
        let cats = |m: EntityMatch| {
            let ids: Vec<_> = m.ids.iter().copied().filter(|id| id.kind == EntityKind::Category).collect();
            (!ids.is_empty()).then_some(EntityMatch { ids, ..m })
        };
        if let Some((m, k)) = f.match_at(self.tokens, &self.used, a, self.message) {
            return cats(m).map(|m| (m, k));
        }
        let t = self.tokens.get(a).filter(|t| t.kind == TokenKind::Word && !self.used[a])?;
        if changes_meaning(&t.norm) || STOPWORDS.contains(&t.norm.as_str()) {
            return None;
        }
        cats(EntityMatch { ids: f.fuzzy(&t.norm), fuzzy: true, words: self.words(a, a) }).map(|m| (m, 1))
    }

    /// Which transactions the message names: label text (quoted, or a name nothing
    /// matched), amounts, a period, a category, a merchant; an account's name is label
    /// text where `accounts` allows, else unread.
    fn rows(&mut self, accounts: bool) -> Rows {
        // "le libellé contient NAVIGO": the text is after the verb.
        for i in 1..self.tokens.len() {
            if matches!(self.w(i - 1), "libelle" | "libelles" | "label" | "labels")
                && matches!(
                    self.w(i),
                    "contient" | "contiennent" | "contains" | "contain" | "contenant" | "containing"
                )
            {
                self.used[i - 1] = true;
            }
        }
        let mut rows =
            Rows { text: label_text(self.message, self.tokens, &mut self.used), ..Rows::default() };
        rows.said = rows.text.is_some();
        if let Some(t) = &rows.text {
            let detail = format!("« {t} »");
            self.note(ReasonCode::ExplicitText, &detail);
        }
        if let Some(a) = amount::find(self.tokens, &self.used, self.locale, self.currency) {
            self.use_span(a.first, a.last);
            self.note(ReasonCode::ExplicitAmount, &amount::describe(a.min, a.max, self.locale));
            (rows.min, rows.max) = (a.min, a.max);
        }
        if let Some(f) = period::find(self.tokens, &self.used, self.message, self.today, self.locale) {
            self.use_span(f.first, f.last);
            if f.apart {
                self.note(ReasonCode::UnplacedMeaning, &format!("« {} »", f.period.words));
            }
            self.note(ReasonCode::ExplicitPeriod, &f.period.label);
            rows.period = Some(f.period);
        }
        for i in 0..self.tokens.len() {
            if !self.used[i] && is_rows(self.w(i)) {
                self.used[i] = true;
                rows.said = true;
            }
        }
        let before = self.used.clone();
        let e = self.p.finder().entities(self.tokens, &mut self.used, self.message);
        let f = self.p.finder();
        rows.category = f.pick(&e.categories, self.locale, &mut self.reasons, EntityKind::Category);
        rows.merchant = f.pick(&e.merchants, self.locale, &mut self.reasons, EntityKind::Merchant);
        for m in &e.accounts {
            if accounts && rows.text.is_none() && e.accounts.len() == 1 {
                rows.text = Some(m.words.clone());
                self.note(ReasonCode::NameAsText, &format!("« {} »", m.words));
            } else {
                self.note(ReasonCode::UnplacedMeaning, &format!("« {} »", m.words));
            }
        }
        // A name nothing matched ("LIBRAIRIE DUPONT"), or a merchant's name with more
        // words ("Uber Eats", no merchant): the label text, as written, when it is one
        // stretch of plain words.
        let left = self.left();
        if let (Some(&(mut a)), Some(&(mut b)), None) = (left.first(), left.last(), &rows.text) {
            let inside = (a, b);
            if let [m] = e.merchants.as_slice() {
                let n = self.tokens.len();
                let named = |x: usize, y: usize| {
                    y < n && (x..=y).all(|j| self.used[j] && !before[j]) && self.words(x, y) == m.words
                };
                if let Some(k) = (1..=a).find(|&k| named(a - k, a - 1)) {
                    a -= k;
                } else if let Some(k) = (1..n - b).find(|&k| named(b + 1, b + k)) {
                    b += k;
                }
            }
            let plain = (a..=b).all(|j| {
                let t = &self.tokens[j];
                (!self.used[j] || j < inside.0 || j > inside.1)
                    && t.kind == TokenKind::Word
                    && !changes_meaning(&t.norm)
                    && !period::is_time_word(t)
            });
            if plain {
                if (a, b) != inside {
                    (rows.merchant, rows.said) = (None, true);
                    self.reasons
                        .retain(|r| !matches!(r.code, ReasonCode::ExactMerchant | ReasonCode::FuzzyMerchant));
                }
                rows.text = Some(self.words(a, b));
                self.use_span(a, b);
                let detail = format!("« {} »", self.words(a, b));
                self.note(ReasonCode::ExplicitText, &detail);
            }
        }
        rows
    }

    /// `create_rule`: "a label containing this is that category", past transactions too.
    fn rule(mut self) -> Option<ParseOutcome> {
        let asked = self.tokens.iter().any(|t| creates(&t.norm) || always(&t.norm));
        self.mark(|w| {
            matches!(
                w,
                "regle"
                    | "rule"
                    | "libelles"
                    | "libelle"
                    | "contenant"
                    | "containing"
                    | "contient"
                    | "contains"
            ) || creates(w)
                || files(w)
        });
        let quoted = label_text(self.message, self.tokens, &mut self.used);
        let target = self.target();
        if matches!(target, Err(None)) && !asked {
            return None;
        }
        // The pattern: quoted, else the words before the category, as written.
        let end = target.as_ref().map_or(self.tokens.len(), |t| t.1);
        let words: Vec<usize> = (0..end).filter(|&i| !self.used[i] && !glue(self.w(i))).collect();
        let pattern = match (quoted, words.first(), words.last()) {
            (Some(q), ..) => Some(q),
            (None, Some(&a), Some(&b)) => {
                let meaning: Vec<usize> = (a..=b).filter(|&j| changes_meaning(self.w(j))).collect();
                if !meaning.is_empty() {
                    let detail = self.quote(&meaning);
                    self.note(ReasonCode::UnplacedMeaning, &detail);
                    if target.is_err() {
                        return None;
                    }
                }
                self.use_span(a, b);
                Some(self.words(a, b))
            }
            _ => None,
        };
        let (category, _) = match target {
            Ok(found) => found,
            Err(unknown) => return self.ask_category(unknown),
        };
        let Some(pattern) = pattern else {
            let detail = self.locale.pick("libellé", "label");
            return self.ask(
                ReasonCode::MissingValue,
                detail,
                ["Quel libellé ?", "Which label?"],
                Vec::new(),
            );
        };
        self.note(ReasonCode::ExplicitText, &format!("« {pattern} »"));
        self.done(ToolCall::CreateRule(CreateRuleArgs { pattern, category, apply_to_past: true }))
    }

    /// `recategorise`: the transactions named move to the category after "en", "to".
    fn recategorise(mut self) -> Option<ParseOutcome> {
        let strong = self.tokens.iter().any(|t| files_strongly(&t.norm));
        self.mark(files);
        let target = self.target();
        let rows = self.rows(false);
        if !(strong || rows.said || rows.merchant.is_some() || rows.category.is_some()) {
            return None;
        }
        let to = match target {
            Ok((key, _)) => key,
            Err(None) if !strong => return None,
            Err(unknown) => return self.ask_category(unknown),
        };
        if !rows.any() {
            return self.ask_rows();
        }
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

    /// `mark_transfers`: the transactions named are transfers between the user's accounts.
    fn transfers(mut self) -> Option<ParseOutcome> {
        let (a, b) = transfer_phrase(self.tokens)?;
        self.use_span(a, b);
        self.mark(|w| matches!(w, "marque" | "marquer" | "mark" | "flag" | "considere" | "treat"));
        let rows = self.rows(true);
        if let Some(k) = &rows.category {
            let name = self.p.vocabulary().label_of(k, self.locale);
            self.note(ReasonCode::UnplacedMeaning, &format!("« {name} »"));
        }
        if !rows.any() {
            return self.ask_rows();
        }
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
