//! A form turned down beside the question: before it ("I don't want the list, just the
//! total at Monoprix", "pas besoin du détail, juste…") or after it ("…, pas la liste
//! hein, juste le chiffre"). The question runs if read surely and is not what was
//! turned down.

use super::lexicon;
use super::remark::is_thanks;
use crate::text::tokenize;

/// What a refusal before the question turns down: the list of transactions, a
/// breakdown, a total, an average, or another tool's answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Refused {
    List,
    Breakdown,
    Total,
    Average,
    Compare,
    Budgets,
    Balance,
    Income,
    /// "Je ne veux rien changer", "don't recategorise anything": a write.
    Change,
}

fn refused_form(w: &str) -> Option<Refused> {
    match w {
        "list" | "liste" | "listed" | "lister" | "transactions" | "transaction" | "operations"
        | "operation" | "details" | "detail" | "lignes" | "line" | "lines" | "everything" | "payment"
        | "payments" | "paiement" | "paiements" => Some(Refused::List),
        "breakdown" | "repartition" | "ventilation" | "split" | "chart" | "graph" | "graphique"
        | "categories" | "category" | "categorie" | "merchant" | "marchand" | "magasin" | "magasins"
        | "store" | "stores" | "month" | "mois" | "break" | "broken" => Some(Refused::Breakdown),
        "total" => Some(Refused::Total),
        "compare" | "comparer" | "comparison" | "comparaison" => Some(Refused::Compare),
        "average" | "moyenne" => Some(Refused::Average),
        "budgets" | "budget" => Some(Refused::Budgets),
        "balance" | "solde" => Some(Refused::Balance),
        "income" | "revenus" => Some(Refused::Income),
        "changer" | "change" | "modifier" | "recategorise" | "recategorize" | "recategoriser"
        | "reclasser" => Some(Refused::Change),
        _ => None,
    }
}

/// "I don't want the list, just the total at Monoprix in October", "pas besoin du
/// détail, juste le total des restos", "not the total, I want to see each Fnac purchase":
/// a form turned down, then the question after the break or after "just" — (the
/// question, the refusal, what it turns down). The refusal holds nothing but a negation,
/// wanting or needing, and the one thing turned down.
pub(super) fn refusal(message: &str) -> Option<(&str, &str, Refused)> {
    let tokens = tokenize(message);
    let brk =
        |i: usize| message[tokens[i - 1].end..tokens[i].start].contains([',', '.', ';', ':', '—', '–', '-']);
    // "Non, pas par magasin, …": a no before the refusal says the same; "Bonjour, je ne
    // veux pas la liste, …": so does a greeting.
    let from = match tokens.first().map(|t| t.norm.as_str()) {
        Some("non" | "no" | "nope") if tokens.len() > 1 && brk(1) => 1,
        _ => (1..tokens.len()).find(|&i| brk(i)).filter(|&i| is_thanks(&tokens[..i])).unwrap_or(0),
    };
    let k = (from + 1..tokens.len()).find(|&i| brk(i) || JUST.contains(&tokens[i].norm.as_str()))?;
    let head = &tokens[from..k];
    let negated = head.iter().any(|t| NEGATIONS.contains(&t.norm.as_str()));
    let detail = head.iter().any(|t| matches!(t.norm.as_str(), "detail" | "details"));
    let mut refused = None;
    for t in head {
        let w = t.norm.as_str();
        if let Some(r) = refused_form(w) {
            // "la liste des transactions", "month by month": one thing turned down, said
            // twice. "Le détail par catégorie" is the breakdown.
            let r = match refused {
                Some(Refused::List) if r == Refused::Breakdown && detail => Refused::Breakdown,
                Some(Refused::Breakdown) if r == Refused::List && detail => Refused::Breakdown,
                _ => r,
            };
            if refused.is_some_and(|before| before != r && !(detail && before == Refused::List)) {
                return None;
            }
            refused = Some(r);
        } else if !REFUSAL_WORDS.contains(&w) && !NEGATIONS.contains(&w) && !lexicon::is_stopword(w) {
            return None;
        }
    }
    let refused = refused.filter(|_| negated)?;
    // The question after the break, "just" and "tell me" aside.
    let mut q = k;
    while tokens.get(q).is_some_and(|t| QUESTION_LEADS.contains(&t.norm.as_str())) {
        q += 1;
    }
    let question = message[tokens.get(q)?.start..].trim();
    let said = message[..tokens[k - 1].end].trim();
    Some((question, said, refused))
}

/// "combien ce mois sans le loyer, pas la liste hein, juste le chiffre": a form turned
/// down after the question, and what is wanted instead — (the question, the refusal,
/// what it turns down). The wanted form is a figure: a total, a number, an amount.
pub(super) fn refusal_after(message: &str) -> Option<(&str, &str, Refused)> {
    let tokens = tokenize(message);
    let brk = |i: usize| message[tokens[i - 1].end..tokens[i].start].contains([',', '.', ';', ':', '—', '–']);
    // The refusal starts at a break, or at "mais" ("amazon cette année mais pas la liste").
    let k = (1..tokens.len()).rev().find(|&i| {
        (brk(i) || tokens[i].norm == "mais")
            && tokens[i..].iter().any(|t| NEGATIONS.contains(&t.norm.as_str()))
    })?;
    let start = if tokens[k].norm == "mais" { k + 1 } else { k };
    let mut refused = None;
    let mut wanted = false;
    let mut just = false;
    for t in &tokens[start..] {
        let w = t.norm.as_str();
        if JUST.contains(&w) {
            just = true;
        } else if just
            && matches!(w, "total" | "chiffre" | "montant" | "nombre" | "number" | "sum" | "somme" | "figure")
        {
            wanted = true;
        } else if let Some(r) = refused_form(w).filter(|_| !just) {
            if refused.is_some_and(|before| before != r) {
                return None;
            }
            refused = Some(r);
        } else if !REFUSAL_WORDS.contains(&w) && !NEGATIONS.contains(&w) && !lexicon::is_stopword(w) {
            return None;
        }
    }
    let refused = refused.filter(|r| wanted && *r == Refused::List)?;
    let question = message[..tokens[k - 1].end].trim();
    let said = message[tokens[start].start..].trim();
    Some((question, said, refused))
}

/// "just", "only": the question follows, even with no comma before it.
const JUST: &[&str] = &["just", "juste", "only", "seulement", "simplement", "uniquement"];
/// The negations a refusal may hold: "don't", "not", "pas", "never mind", "forget".
const NEGATIONS: &[&str] =
    &["don", "dont", "not", "no", "pas", "point", "ne", "n", "didn", "doesn", "never", "forget", "oublie"];
/// The other words a refusal may hold: wanting, needing, caring, articles.
const REFUSAL_WORDS: &[&str] = &[
    "i",
    "je",
    "j",
    "do",
    "t",
    "want",
    "need",
    "require",
    "chaque",
    "each",
    "every",
    "veux",
    "voulais",
    "souhaite",
    "souhaitais",
    "rien",
    "anything",
    "nothing",
    "demande",
    "desire",
    "vous",
    "it",
    "down",
    "voudrais",
    "veut",
    "besoin",
    "de",
    "du",
    "d",
    "des",
    "la",
    "le",
    "les",
    "l",
    "the",
    "a",
    "any",
    "un",
    "une",
    "of",
    "me",
    "show",
    "montre",
    "give",
    "donne",
    "mes",
    "my",
    "mon",
    "ma",
    "full",
    "whole",
    "complete",
    "toute",
    "tout",
    "entire",
    "needed",
    "necessary",
    "inutile",
    "ai",
    "care",
    "fussed",
    "bothered",
    "about",
    "mind",
    "rn",
    "now",
    "right",
    "for",
    "pour",
    "instant",
    "thing",
    "stuff",
    "truc",
    "m",
    "im",
    "asking",
    "talking",
    "interested",
    "in",
    "it",
    "down",
    "to",
    "by",
    "per",
    "par",
    "every",
    "each",
    "single",
    "chaque",
    "all",
    "so",
    "really",
    "vraiment",
    "see",
    "voir",
    "please",
    "pls",
    "svp",
    "stp",
    "hein",
    "peine",
    "lister",
    "souhaite",
    "nous",
    "voulons",
    "on",
    "or",
    "anything",
    "ou",
];
/// Words before the question itself: "just", "only", "tell me".
const QUESTION_LEADS: &[&str] = &[
    "mais",
    "but",
    "just",
    "juste",
    "only",
    "seulement",
    "simplement",
    "uniquement",
    "tell",
    "dis",
    "me",
    "moi",
    "one",
    "number",
    "chiffre",
    "le",
    "the",
    "je",
    "voulais",
    "i",
    "wanted",
    "dites",
];

impl Refused {
    /// Whether `call` is what was turned down.
    pub(super) fn is(self, call: &crate::tool::ToolCall) -> bool {
        use crate::tool::ToolCall as T;
        match self {
            Refused::List => matches!(call, T::ListTransactions(_)),
            Refused::Breakdown => match call {
                T::SpendingSummary(a) | T::IncomeSummary(a) => a.group_by != crate::args::GroupBy::None,
                T::CashFlow(a) => a.group_by != crate::args::GroupBy::None,
                _ => false,
            },
            Refused::Total => match call {
                T::SpendingSummary(a) | T::IncomeSummary(a) => {
                    a.group_by == crate::args::GroupBy::None && a.average.is_none()
                }
                T::CashFlow(a) => a.group_by == crate::args::GroupBy::None,
                _ => false,
            },
            Refused::Average => match call {
                T::SpendingSummary(a) | T::IncomeSummary(a) => a.average.is_some(),
                _ => false,
            },
            Refused::Compare => matches!(call, T::ComparePeriods(_)),
            Refused::Budgets => matches!(call, T::BudgetStatus(_)),
            Refused::Balance => matches!(call, T::Balances(_)),
            Refused::Income => matches!(call, T::IncomeSummary(_) | T::CashFlow(_)),
            Refused::Change => call.is_write(),
        }
    }
}
