//! Requests to change what Sou keeps: a budget ("mets un budget de 300 € pour les
//! restos"), a rule ("always put Deliveroo in restaurants"), transactions' category
//! ("classe les opérations PAUL en Courses"), merchants ("fusionne Franprix et
//! Monoprix", "rename Basic Fit to Basic-Fit") and transfers between the user's
//! accounts ("ces opérations BOURSORAMA sont des virements internes").
//!
//! A write plan runs only once the user has approved its dry run, but it must still
//! mean exactly what was said: every value is read from the message or asked for, an
//! unknown category is asked, never guessed, and a word left unread stops the run.
//! Written for size (it ships to the browser): one table of words, plain loops.

mod kinds;
mod merge;
mod rows;

use super::build::plan;
use super::entities::EntityMatch;
use super::lexicon::{changes_meaning, is_budget_word, is_stopword, is_transaction_word, label_text};
use super::{Context, Parser};
use crate::amount;
use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::money::{Currency, Money};
use crate::period;
use crate::plan::{Clarification, ParseOutcome};
use crate::reason::{Reason, ReasonCode};
use crate::text::{Token, TokenKind};
use crate::tool::ToolCall;
use crate::tool::{
    create_rule::CreateRuleArgs, mark_transfers::MarkTransfersArgs, merge_merchants::MergeMerchantsArgs,
    recategorise::RecategoriseArgs, set_budget::SetBudgetArgs,
};
use crate::vocab::EntityKind;
use crate::wording;

// Word classes: a bit each, its words in `WORDS` at the same rank.
/// A budget set or changed.
const SET: u32 = 1;
const REMOVE: u32 = 1 << 1;
/// Transactions put in a category, when they are named ("move", "mets").
const FILE: u32 = 1 << 2;
/// The same, said alone ("classe", "recatégorise").
const STRONG: u32 = 1 << 3;
const RULE: u32 = 1 << 4;
/// What a rule does, not a one-off change.
const ALWAYS: u32 = 1 << 5;
const MERGE: u32 = 1 << 6;
const RENAME: u32 = 1 << 7;
const MARK: u32 = 1 << 8;
/// Read past: how people ask, and the words around a write's values.
const GLUE: u32 = 1 << 9;
/// Transactions named without a name: "opérations", "virements".
const ROWS: u32 = 1 << 10;
/// Before the category wanted: "en Loisirs", "to Transport".
const TO: u32 = 1 << 11;
/// A question: a read, whatever its verbs.
const ASKS: u32 = 1 << 12;
const CREATE: u32 = 1 << 13;
const SAME: u32 = 1 << 14;
const TRANSFER: u32 = 1 << 15;
const AS: u32 = 1 << 16;
const OWN: u32 = 1 << 17;
const ARTICLE: u32 = 1 << 18;
const AND: u32 = 1 << 19;
const SHOP: u32 = 1 << 20;
const LABEL: u32 = 1 << 21;

const WORDS: [&str; 22] = [
    "set put fixe fixer mets mettre met change changer modifie modifier definis definir ajuste adjust update passe passer augmente augmenter raise increase baisse baisser lower reduce reduis reduire decrease diminue diminuer bump descends descendre monte monter fixez mettez modifiez definissez augmentez baissez passez",
    "supprime supprimer enleve enlever remove delete supprimez enlevez annule annuler annulez cancel kill scrap ditch",
    "move put mets mettre met passe passer passent vont va ira iront go goes aille aillent mettez",
    "classe classer range ranger recategorise recategoriser recategorize file reclasse reclasser classez reclassez rangez categorise categorize categoriser categorisez classes classee classees ranges rangee rangees categorises categorisee categorisees relevent",
    "regle rule",
    "toujours always automatiquement automatically quand when whenever desormais dorenavant avenir future forward onwards henceforth",
    "fusionne fusionner merge link relie relier associe associer fusionnez reliez associez rattache rattacher rattachez alias aliases",
    "renomme renommer rename renommez",
    "marque marquer mark flag considere considerer treat marquez considerez",
    "categorised categorized partir starting onwards per monthly mensuel mois month vers compter tels telles sorte them it em correct corrige corriger corrigez fix contenant containing contient contains portant bearing",
    "virements virement transfers transfer depenses expenses spending prelevements lignes rides ride trips trajets orders commandes",
    "en in into to dans as sous under vers",
    "combien how what whats quel quelle quels quelles which why pourquoi did where",
    "cree creer create ajoute ajouter add make new nouvelle nouveau creez ajoutez fais faites",
    "same meme",
    "transferts transfert virements virement transfers transfer",
    "comme as sont are est is soit soient be",
    "internes interne internal entre between mes my nos our comptes accounts own",
    "la le les l the my un une a an des de d c tous toutes tout all both everything anything categorie category",
    "et and avec with pis",
    "marchand marchands merchant merchants commercant enseigne groupe group chaine chain magasin magasins store stores boutique affaire chose thing owner owners proprietaire proprietaires patron",
    "libelle libelles label labels mention mentions intitule reference",
];

/// The classes phrases give their words, beyond each word's own: "le mois passé" is a
/// period, "should be in", "ought to be" a recategorisation, "change X" with no budget
/// too, "je veux un budget" one to make, "another name for" a merge, "chaque fois" a
/// rule's, and the words around its label ("qu'il y a", "shows up") not of it; a
/// question of when asks.
fn phrases(tokens: &[Token], message: &str, budget: bool, c: &mut [u32]) {
    // "quand est-ce que j'ai payé Free la dernière fois", "how often…": a question of
    // when, which asks as "combien" does ("quand" alone is a rule's word).
    if let Some((_, a, _)) = crate::parser::intent::when::find(tokens, &vec![false; tokens.len()]) {
        c[a] |= ASKS;
    }
    // "qu'est-ce que je paye tous les mois": what, asked; "j'ai budgété 300, j'en suis
    // où ?", "where am I with it": where one stands, asked.
    for i in 2..tokens.len() {
        let three = [tokens[i - 2].norm.as_str(), &tokens[i - 1].norm, &tokens[i].norm];
        if matches!(
            three,
            ["qu", "est", "ce"] | ["en", "suis", "ou"] | ["ou", "en", "suis"] | ["where", "am", "i"]
        ) {
            c[i - 2] |= ASKS;
        }
    }
    // "les paiements du mois passé": the period's word, not "passer X en Y".
    for i in 1..tokens.len() {
        if matches!(tokens[i].norm.as_str(), "passe" | "passee" | "passes" | "passees")
            && matches!(
                tokens[i - 1].norm.as_str(),
                "mois" | "an" | "annee" | "semaine" | "trimestre" | "semestre" | "weekend"
            )
            && !message.get(tokens[i - 1].end..tokens[i].start).is_some_and(|g| g.contains([',', ';', '.']))
        {
            c[i] &= !(FILE | SET);
        }
    }
    // "Deliveroo should be in restaurants", "ça devrait être en courses": where the
    // transactions belong, a recategorisation.
    for i in 1..tokens.len() {
        // "Franprix ought to be groceries".
        if i >= 2 && tokens[i - 2].norm == "ought" && tokens[i - 1].norm == "to" && tokens[i].norm == "be" {
            c[i - 2] |= FILE;
            c[i - 1] |= GLUE;
        }
        let belongs = matches!(tokens[i - 1].norm.as_str(), "should" | "devrait" | "devraient")
            && matches!(tokens[i].norm.as_str(), "be" | "go" | "etre" | "aller");
        if belongs && i >= 2 && !matches!(tokens[i - 2].norm.as_str(), "what" | "where" | "how" | "which") {
            c[i - 1] |= FILE;
        }
    }
    // "change the category of the Fnac purchases to leisure", "change Pharmacie du
    // Centre to health": with no budget named, a change of category.
    if !budget {
        for (i, t) in tokens.iter().enumerate() {
            if matches!(t.norm.as_str(), "change" | "changer" | "modifie" | "modifier" | "switch") {
                c[i] |= FILE;
            }
        }
    }
    // "je veux un budget resto", "I'd like a budget for eating out": a budget wanted is
    // one to make.
    for i in 2..tokens.len() {
        let wants = matches!(
            tokens[i - 2].norm.as_str(),
            "veux" | "voudrais" | "voulais" | "aimerais" | "want" | "like" | "need"
        );
        if wants
            && matches!(tokens[i - 1].norm.as_str(), "un" | "a" | "another" | "nouveau")
            && is_budget_word(&tokens[i].norm)
        {
            c[i - 2] |= CREATE;
        }
    }
    // "remove the budget set for travel", "supprimer le budget que j'avais fixé": the
    // budget as it was set, when it is removed.
    if c.iter().any(|k| k & REMOVE != 0) {
        for i in 1..tokens.len() {
            let of_it = is_budget_word(&tokens[i - 1].norm)
                || matches!(tokens[i - 1].norm.as_str(), "i" | "avais" | "ai" | "jai" | "javais");
            if of_it && c[i] & SET != 0 {
                c[i] = GLUE;
            }
        }
    }
    // "add AMZN MKTP as another name for Amazon", "un autre nom pour Amazon": a merge.
    for i in 1..tokens.len() {
        let other = matches!(tokens[i - 1].norm.as_str(), "another" | "other" | "autre");
        if other && matches!(tokens[i].norm.as_str(), "name" | "names" | "nom" | "noms") {
            c[i] |= MERGE;
            c[i - 1] |= GLUE;
        }
    }
    // "chaque fois qu'il y a INTERFLORA", "every time": what a rule does.
    for i in 1..tokens.len() {
        let every = matches!(tokens[i - 1].norm.as_str(), "chaque" | "every" | "each");
        if every && matches!(tokens[i].norm.as_str(), "fois" | "time") {
            c[i - 1] |= ALWAYS | GLUE;
            c[i] |= ALWAYS | GLUE;
            // "chaque fois qu'il y a PAYPAL", "every time UBER EATS shows up": the
            // words around the label are not of it.
            for (j, t) in tokens.iter().enumerate().skip(i + 1) {
                let around = matches!(
                    t.norm.as_str(),
                    "qu" | "il"
                        | "y"
                        | "a"
                        | "shows"
                        | "show"
                        | "up"
                        | "appears"
                        | "apparait"
                        | "there"
                        | "is"
                        | "comes"
                );
                if around {
                    c[j] |= GLUE;
                }
            }
        }
    }
}

fn class(w: &str) -> u32 {
    let mut c = 0;
    for (bit, group) in WORDS.iter().enumerate() {
        if group.split(' ').any(|x| x == w) {
            c |= 1 << bit;
        }
    }
    if is_transaction_word(w) {
        c |= ROWS;
    }
    if is_stopword(w) || c & (ALWAYS | ARTICLE | SHOP | LABEL | AS) != 0 {
        c |= GLUE;
    }
    c
}

/// A missing value's name and the question asking for it, French then English.
const ASK: [[&str; 4]; 9] = [
    ["montant", "amount", "Quel montant par mois ?", "What amount a month?"],
    ["catégorie", "category", "Quelle catégorie ?", "Which category?"],
    [
        "opérations",
        "transactions",
        "Quelles opérations ? Nommez un marchand, un libellé ou une période.",
        "Which transactions? Name a merchant, a label or a period.",
    ],
    ["libellé", "label", "Quel libellé ?", "Which label?"],
    ["marchand", "merchant", "Quel marchand ?", "Which merchant?"],
    ["nouveau nom", "new name", "Quel nouveau nom ?", "What new name?"],
    [
        "",
        "",
        "Je ne connais pas cette catégorie. Laquelle voulez-vous ?",
        "I know no such category. Which one?",
    ],
    ["", "", "Je ne reconnais pas ce marchand. Lequel voulez-vous ?", "I know no such merchant. Which one?"],
    [
        "marchand gardé",
        "merchant kept",
        "Lequel garder ? Dites « fusionne X dans Y » : Y reste.",
        "Which one stays? Say “merge X into Y”: Y stays.",
    ],
];
const AMOUNT: usize = 0;
const CATEGORY: usize = 1;
const WHICH_ROWS: usize = 2;
const PATTERN: usize = 3;
const MERCHANT: usize = 4;
const NAME: usize = 5;
const UNKNOWN_CATEGORY: usize = 6;
const UNKNOWN_MERCHANT: usize = 7;
const KEPT: usize = 8;

fn quote(s: &str) -> String {
    format!("« {s} »")
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
        let mut c = Vec::with_capacity(tokens.len());
        let (mut budget, mut currency) = (false, false);
        for t in tokens {
            c.push(class(&t.norm));
            budget |= is_budget_word(&t.norm);
            currency |= t.kind == TokenKind::Currency || t.norm.starts_with("eur");
        }
        phrases(tokens, message, budget, &mut c);
        // Phrases that carry nothing ("du coup", "…, j'en ai marre") are read.
        let mut used = vec![false; tokens.len()];
        super::set_aside_harmless(tokens, &mut used, message);
        let mut r = Read {
            p: self,
            tokens,
            message,
            locale,
            today: cx.today,
            used,
            c,
            reasons: vec![Reason::new(ReasonCode::WriteRequest, locale, "")],
            currency: self.vocabulary().currency.unwrap_or(Currency::EUR),
        };
        // "mets 250 de budget resto et dis-moi où j'en suis": a second request after the
        // change, which the change would leave unanswered.
        let second = (1..tokens.len()).find(|&i| {
            matches!(tokens[i - 1].norm.as_str(), "et" | "and" | "puis" | "then")
                && matches!(
                    tokens[i].norm.as_str(),
                    "dis" | "dites" | "tell" | "show" | "montre" | "montrez" | "combien" | "how" | "what"
                )
        });
        // "mark the REMITLY transfers as internal and create a rule for the next ones":
        // two changes, which one card would not both make.
        if r.any(MARK) && r.any(RULE) {
            r.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quote(message)));
        }
        // "undo the merge of franprix", "annule la règle": a change undone, not made
        // ("cancel the budget" removes it).
        let undo = tokens.iter().filter(|_| !budget).find(|t| {
            matches!(
                t.norm.as_str(),
                "undo"
                    | "revert"
                    | "reverse"
                    | "cancel"
                    | "unmerge"
                    | "annule"
                    | "annuler"
                    | "defais"
                    | "defaire"
            )
        });
        if let Some(t) = undo {
            let w = message.get(t.start..t.end).unwrap_or_default();
            r.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quote(w)));
        }
        if let Some(k) = second {
            let rest = message.get(tokens[k].start..).unwrap_or_default();
            r.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quote(rest)));
        }
        if r.any(ASKS) {
            None
        } else if r.any(RULE)
            || ((r.any(ALWAYS) || r.says_from_now())
                && (r.any(FILE | STRONG | AS) || r.equals() || r.arrowed()))
        {
            // "from now on anything with STEAM is leisure": said of what comes, a rule —
            // "…c'est des virements internes" too: the category of that name.
            r.rule()
        } else if let Some((a, b)) = r.transfer_phrase() {
            r.use_span(a, b);
            r.transfers()
        } else if r.any(MERGE | RENAME) || (r.any(SAME) && r.any(SHOP)) || r.label_is_merchant() {
            r.merge()
        } else if budget && (r.any(SET | CREATE | REMOVE) || currency || amount_alone(tokens)) {
            r.budget()
        } else if r.any(FILE | STRONG) || r.arrowed() {
            // ("Deliveroo -> restos": an arrow says where they go.)
            r.recategorise()
        } else {
            None
        }
    }
}

/// Words that point at transactions without naming them ("that one", "celles-là").
fn is_pronoun(w: &str) -> bool {
    matches!(
        w,
        "one"
            | "ones"
            | "it"
            | "that"
            | "this"
            | "those"
            | "these"
            | "them"
            | "ca"
            | "cela"
            | "ceci"
            | "celle"
            | "celui"
            | "ceux"
            | "celles"
            | "la"
            | "ci"
            | "le"
            | "les"
    )
}

/// "budget bouffe 400", "budget transport 120 from january 2027": a number that is no
/// year, said with a budget and no question, is the amount to set.
fn amount_alone(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| {
        t.kind == TokenKind::Number
            && !crate::period::is_time_word(t)
            && t.norm.parse::<u32>().is_ok_and(|n| n >= 5)
    })
}

/// The ids of `m` of one kind, if any.
fn keep(m: &EntityMatch, kind: EntityKind) -> Option<EntityMatch> {
    let mut ids = Vec::new();
    for id in &m.ids {
        if id.kind == kind {
            ids.push(*id);
        }
    }
    (!ids.is_empty()).then(|| EntityMatch { ids, fuzzy: m.fuzzy, words: m.words.clone() })
}

/// One write message being read: the tokens its values used, and why.
struct Read<'a> {
    p: &'a Parser,
    tokens: &'a [Token],
    message: &'a str,
    locale: Locale,
    today: Date,
    used: Vec<bool>,
    /// Each token's word classes.
    c: Vec<u32>,
    reasons: Vec<Reason>,
    currency: Currency,
}

impl Read<'_> {
    fn w(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.norm.as_str())
    }

    /// Whether token `j` is typed with no lowercase letter ("PAYPAL", "TO"): a label's
    /// word, when capitals are.
    fn typed_in_capitals(&self, j: usize) -> bool {
        self.tokens
            .get(j)
            .and_then(|t| self.message.get(t.start..t.end))
            .is_some_and(|x| !x.chars().any(char::is_lowercase))
    }

    /// Whether token `j` is two or more characters typed in capitals ("AMZN", not "A").
    fn word_in_capitals(&self, j: usize) -> bool {
        self.tokens.get(j).is_some_and(|t| t.end - t.start >= 2) && self.typed_in_capitals(j)
    }

    fn is(&self, i: usize, class: u32) -> bool {
        self.c.get(i).is_some_and(|c| c & class != 0)
    }

    fn any(&self, class: u32) -> bool {
        self.c.iter().any(|c| c & class != 0)
    }

    /// The first token of `class` from `i` on.
    fn find(&self, mut i: usize, class: u32) -> Option<usize> {
        while i < self.tokens.len() {
            if self.is(i, class) {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// The user's words from token `a` to token `b`, as written.
    fn words(&self, a: usize, b: usize) -> String {
        match (self.tokens.get(a), self.tokens.get(b)) {
            (Some(x), Some(y)) => self.message.get(x.start..y.end).unwrap_or_default().to_string(),
            _ => String::new(),
        }
    }

    fn mark(&mut self, class: u32) {
        for i in 0..self.tokens.len() {
            self.used[i] |= self.is(i, class);
        }
    }

    fn use_span(&mut self, a: usize, b: usize) {
        for u in self.used.iter_mut().take(b + 1).skip(a) {
            *u = true;
        }
    }

    fn note(&mut self, code: ReasonCode, detail: &str) {
        self.reasons.push(Reason::new(code, self.locale, detail));
    }

    /// Whether token `i` is left unread and carries something.
    fn open(&self, i: usize) -> bool {
        // ("chez TOTAL", "at TOTAL": a label in capitals after a shop's word, in a message
        // in lowercase, is the label though the word alone carries nothing.)
        let label = self.word_in_capitals(i)
            && matches!(self.w(i.wrapping_sub(1)), "chez" | "at" | "from")
            && self.message.chars().any(char::is_lowercase);
        !self.used[i] && (!self.is(i, GLUE) || label) && self.tokens[i].kind != TokenKind::Currency
    }

    /// The words left unread that carry something, each quoted; empty when none is.
    fn left(&self) -> String {
        let mut out = String::new();
        for i in 0..self.tokens.len() {
            if self.open(i) {
                if !out.is_empty() {
                    out.push_str(", ");
                }
                out.push_str(&quote(&self.words(i, i)));
            }
        }
        out
    }

    /// Plain words (no number, period or word that changes the plan) from `a` to `b`:
    /// a name.
    fn plain(&self, a: usize, b: usize) -> bool {
        // Quoted, it is a name as written.
        if self.quoted(a, b) {
            return true;
        }
        for t in &self.tokens[a..=b] {
            if t.kind != TokenKind::Word || changes_meaning(&t.norm) || period::is_time_word(t) {
                return false;
            }
        }
        true
    }

    /// Whether tokens `a..=b` are inside one pair of quotes.
    fn quoted(&self, a: usize, b: usize) -> bool {
        let (Some(x), Some(y)) = (self.tokens.get(a), self.tokens.get(b)) else { return false };
        quoted_spans(self.message).iter().any(|&(s, e)| x.start >= s && y.end <= e)
    }

    /// The plan for `call`: words left unread stop it.
    fn done(mut self, call: ToolCall) -> Option<ParseOutcome> {
        let left = self.left();
        if !left.is_empty() {
            self.note(ReasonCode::UnplacedMeaning, &left);
        }
        Some(ParseOutcome::Plan(plan(call, self.reasons, self.locale, self.today)))
    }

    /// A question for a value the write needs (`ASK[what]`), or about an unknown name.
    /// With other words left unread, the message is not read as a write at all: the
    /// read stops it, as any other.
    fn ask(&self, what: usize, unknown: Option<&str>) -> Option<ParseOutcome> {
        if !self.left().is_empty() {
            return None;
        }
        let [fr, en, question_fr, question_en] = ASK[what];
        let reason = match unknown {
            Some(words) => Reason::new(ReasonCode::UnknownName, self.locale, &quote(words)),
            None => Reason::new(ReasonCode::MissingValue, self.locale, self.locale.pick(fr, en)),
        };
        Some(ParseOutcome::Clarification(Clarification {
            question: self.locale.pick(question_fr, question_en).to_string(),
            reasons: vec![reason],
            suggestions: Vec::new(),
            locale: self.locale,
        }))
    }

    /// "comme transferts internes", "as transfers between my accounts", "sont des
    /// virements internes": the first and last tokens of the phrase.
    fn transfer_phrase(&self) -> Option<(usize, usize)> {
        for k in 1..self.tokens.len() {
            let mut a = k;
            while a > 1 && self.is(a - 1, ARTICLE | OWN) {
                a -= 1;
            }
            // "as transfers between my accounts"; "as internal", "c'est entre mes comptes"
            // said of transfers named before.
            let own = matches!(self.w(k), "internal" | "interne" | "internes" | "entre" | "between")
                && (0..k).any(|j| self.is(j, TRANSFER));
            if !(self.is(k, TRANSFER) || own) || !self.is(a - 1, AS) {
                continue;
            }
            let mut b = k;
            while self.is(b + 1, OWN) {
                b += 1;
            }
            return Some((a - 1, b));
        }
        None
    }

    /// The stretches of words left unread — between the words read, "et", "and" and
    /// commas — from their first to their last word that carries something.
    fn stretches(&self) -> Vec<(usize, usize)> {
        let n = self.tokens.len();
        let mut out = Vec::new();
        let mut cur: Option<(usize, usize)> = None;
        // A name in quotes is one name, as written: "« AMZN MKTP DE » c'est Amazon".
        let quotes = quoted_spans(self.message);
        let quote_of = |i: usize| {
            let t = &self.tokens[i];
            quotes.iter().position(|&(a, b)| t.start >= a && t.end <= b)
        };
        for i in 0..=n {
            if i < n && cur.is_some_and(|(a, _)| quote_of(a).is_some() && quote_of(a) == quote_of(i)) {
                cur = cur.map(|(a, _)| (a, i));
                continue;
            }
            // (A quoted name ends at its quote: "\"AMZN MKTP UK\" lines are Amazon".)
            let quoted_before = cur.is_some_and(|(a, _)| quote_of(a).is_some());
            if i == n
                || quoted_before
                || (i < n && quote_of(i).is_some())
                || self.used[i]
                || self.is(i, AND | TO | AS)
                || matches!(self.w(i), "from" | "since" | "depuis")
                || self.gap(i, ",")
                || self.arrow(i)
                || self.gap(i, "=")
            {
                out.extend(cur.take());
            }
            // ("AMZN MKTP DE": a word in capitals after capitals is the label's, though
            // it carries nothing alone.)
            let goes_on = i < n
                && i > 0
                && cur.is_some_and(|(_, b)| b == i - 1)
                && self.word_in_capitals(i - 1)
                && self.word_in_capitals(i);
            if i < n && (self.open(i) || goes_on) && !self.is(i, AND | TO) {
                cur = Some((cur.map_or(i, |c| c.0), i));
            }
        }
        out
    }

    /// Whether the text between tokens `i - 1` and `i` holds `what`.
    fn gap(&self, i: usize, what: &str) -> bool {
        match (i.checked_sub(1).and_then(|h| self.tokens.get(h)), self.tokens.get(i)) {
            (Some(x), Some(y)) => self.message.get(x.end..y.start).is_some_and(|g| g.contains(what)),
            _ => false,
        }
    }

    /// An arrow before token `i`: "Uber Eats → Restaurants".
    /// Whether an equals sign joins two words: "désormais STARBUCKS = restaurants".
    fn equals(&self) -> bool {
        (1..self.tokens.len()).any(|i| self.gap(i, "=") && !self.arrow(i))
    }

    /// "NFLX.COM c'est Netflix", "PICARD SURGELES is Picard": a label in capitals said
    /// to be a merchant the user has, and nothing else.
    fn label_is_merchant(&self) -> bool {
        let caps = |i: usize| {
            self.message
                .get(self.tokens[i].start..self.tokens[i].end)
                .is_some_and(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase))
        };
        let Some(as_at) = (1..self.tokens.len()).find(|&i| self.is(i, AS)) else { return false };
        // (A name the user has already, "LIDL is Lidl", is no new label.)
        let label = (0..as_at).all(|i| caps(i) || self.is(i, ARTICLE))
            && (0..as_at).any(caps)
            && self.whole(0, as_at - 1).is_none();
        let mut b = as_at + 1;
        while b < self.tokens.len() && self.is(b, AS | ARTICLE) {
            b += 1;
        }
        let rest = b..self.tokens.len();
        label
            && !rest.is_empty()
            && self.whole(b, self.tokens.len() - 1).is_some_and(|m| keep(&m, EntityKind::Merchant).is_some())
    }

    /// Whether an arrow joins two words of the message.
    fn arrowed(&self) -> bool {
        (1..self.tokens.len()).any(|i| self.arrow(i))
    }

    fn arrow(&self, i: usize) -> bool {
        self.gap(i, "→") || self.gap(i, "->") || self.gap(i, "=>")
    }

    /// The name the vocabulary has for the stretch `a..=b` — with the articles before it
    /// and the words after it that carry nothing ("Le Petit Bistrot", "savings account")
    /// — or for its one word, with one typo.
    fn whole(&self, a: usize, b: usize) -> Option<EntityMatch> {
        let n = self.tokens.len();
        let free = |j: usize| !self.used[j] && self.is(j, GLUE) && !self.is(j, AND | TO);
        let (mut start, mut end) = (a, b);
        while start > 0 && free(start - 1) {
            start -= 1;
        }
        while end + 1 < n && free(end + 1) {
            end += 1;
        }
        let mut mask = vec![true; n];
        for u in mask.iter_mut().take(end + 1).skip(start) {
            *u = false;
        }
        let f = self.p.finder();
        for i in start..=a {
            if let Some((m, k)) = f.match_at(self.tokens, &mask, i, self.message) {
                if i + k > b {
                    return Some(m);
                }
            }
        }
        let t = &self.tokens[a];
        let m = EntityMatch { ids: f.fuzzy(&t.norm), fuzzy: true, words: self.words(a, a) };
        (a == b && t.kind == TokenKind::Word && !changes_meaning(&t.norm) && !m.ids.is_empty()).then_some(m)
    }

    /// The category wanted: the name after a connector ("en Loisirs", "to Transport",
    /// "→ Restaurants"), the last one that is a category; its tokens used. Ok: its key
    /// and the connector's token. Err: the name after the last connector, if it could
    /// be one nothing matched.
    fn target(&mut self) -> Result<(String, usize), Option<String>> {
        let mut unknown = None;
        for (a, b) in self.stretches().into_iter().rev() {
            let mut c = a;
            while c > 0 && self.is(c - 1, ARTICLE) && !self.used[c - 1] {
                c -= 1;
            }
            let arrow = self.arrow(c);
            // "en Loisirs", "to Transport", "→ Restaurants", "= Restaurants", "is groceries",
            // "c'est du shopping".
            let to = c > 0 && (self.is(c - 1, TO | AS) || self.gap(c, "="));
            if c == 0 || !(arrow || (to && !self.used[c - 1])) {
                continue;
            }
            let c = if arrow || self.gap(c, "=") { c } else { c - 1 };
            if let Some(m) = self.whole(a, b).and_then(|m| keep(&m, EntityKind::Category)) {
                self.use_span(c, b);
                let p = self.p;
                if let Some(key) = p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Category)
                {
                    return Ok((key, c));
                }
            }
            unknown.get_or_insert((b - a < 4 && self.plain(a, b)).then_some((a, b)));
        }
        let (a, b) = unknown.flatten().ok_or(None)?;
        self.use_span(a, b);
        Err(Some(self.words(a, b)))
    }
}

/// The byte ranges inside quotes ("…", «…», “…”) in `message`.
fn quoted_spans(message: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (open, close) in [('"', '"'), ('«', '»'), ('“', '”')] {
        let mut rest = 0;
        while let Some(a) = message.get(rest..).and_then(|m| m.find(open)).map(|a| rest + a + open.len_utf8())
        {
            let Some(b) = message.get(a..).and_then(|m| m.find(close)).map(|b| a + b) else { break };
            out.push((a, b));
            rest = b + close.len_utf8();
        }
    }
    if let Some((a, n)) = super::lexicon::single_quoted(message) {
        out.push((a, a + n));
    }
    out
}
