//! The parser's words: what says spending, income, a list, a balance, a budget,
//! recurring payments or cash flow; breakdowns, follow-ups, comparisons, advice; and
//! the small readers of phrases made of them. Word lists only — no plans.

mod label;
mod locale;
mod meaning;
mod phrases;
mod stopwords;

#[cfg(feature = "writes")]
pub(crate) use label::single_quoted;
pub(crate) use label::{is_text_marker, label_text};
pub(crate) use locale::detect_locale;
pub(crate) use meaning::{asks_about_world, changes_meaning, is_french_dont};
pub use meaning::{is_exclusion_word, is_negation_word, is_write_word, negates_at};
pub(crate) use phrases::{cash_flow_phrase, direction_words, income_phrase};
#[cfg(feature = "asides")]
pub(crate) use stopwords::closing_remark_at;
#[cfg(any(feature = "asides", feature = "readings"))]
pub(crate) use stopwords::phrase_at;
pub(crate) use stopwords::{harmless_phrase_at, is_stopword};

use crate::args::GroupBy;
use crate::text::{Token, TokenKind};

/// Words that say "money going out".
pub(crate) fn is_spend_word(w: &str) -> bool {
    w.starts_with("depens")
        || matches!(
            w,
            "spend"
                | "spent"
                | "spending"
                | "spends"
                | "expense"
                | "expenses"
                | "expenditure"
                | "expenditures"
                | "cost"
                | "costs"
                | "costing"
                | "coute"
                | "coutent"
                | "paye"
                | "payes"
                | "payee"
                | "payer"
                | "paid"
                | "pay"
                | "claque"
                | "claquer"
                | "flambe"
                | "flambes"
                | "payees"
                | "claques"
                | "lache"
                | "laches"
                | "lacher"
                | "commande"
                | "ordered"
                | "laisse"
                | "withdraw"
                | "withdrew"
                | "withdrawn"
                | "retire"
                | "retires"
                | "retiree"
                | "retirees"
                | "retirer"
                | "preleve"
                | "prelevee"
                | "preleves"
                | "prelevees"
                | "blow"
                | "given"
                | "gave"
                | "blew"
                | "burn"
                | "burned"
                | "burnt"
                | "blown"
        )
}

/// Words that say "money coming in".
pub(crate) fn is_income_word(w: &str) -> bool {
    INCOME_WORDS.contains(&w)
}

const INCOME_WORDS: &[&str] = &[
    "gagne", "gagnee", "gagner", "revenus", "revenu", "rentrees", "rentree", "recu", "recus", "percu",
    "percus", "touche", "earn", "earned", "earnings", "income", "received", "receive", "incoming",
];

pub(crate) fn is_list_word(w: &str) -> bool {
    LIST_WORDS.contains(&w)
}

// Transactions named by what they were ("the uber rides", "mes billets SNCF"), and asking
// for them.
const LIST_WORDS: &[&str] = &[
    "rides",
    "ride",
    "tickets",
    "ticket",
    "billets",
    "billet",
    "trajets",
    "trajet",
    "transactions",
    "transaction",
    "operations",
    "operation",
    "liste",
    "lister",
    "list",
    "listing",
    "paiements",
    "paiement",
    "payments",
    "payment",
    "mouvements",
    "opes",
    "runs",
    "ope",
    "ops",
    "orders",
    "commandes",
    "achats",
    "purchases",
    "releve",
    "cherche",
    "chercher",
    "recherche",
    "rechercher",
    "recherchez",
    "cherchez",
    "search",
    "find",
    "buy",
    "bought",
    "achete",
    "achetes",
    "achetee",
];

/// "plus gros", "plus grosse", "biggest", "largest", "most expensive": the tokens used.
pub(crate) fn largest_marker(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    let free = |j: usize| j < tokens.len() && !used[j];
    let w = tokens.get(i).filter(|_| free(i))?.norm.as_str();
    let next = tokens.get(i + 1).filter(|_| free(i + 1)).map_or("", |t| t.norm.as_str());
    match (w, next) {
        ("plus", n) if is_largest_word(n) => Some(2),
        ("most", "expensive") => Some(2),
        // "biggest first", "largest first": the order of a list.
        ("biggest" | "largest", "first") => Some(2),
        (w, _) if is_largest_word(w) && matches!(w, "biggest" | "largest" | "highest") => Some(1),
        _ => None,
    }
}

pub(crate) fn is_largest_word(w: &str) -> bool {
    LARGEST_WORDS.contains(&w)
}

const LARGEST_WORDS: &[&str] = &[
    "gros",
    "grosse",
    "grosses",
    "grand",
    "grande",
    "grandes",
    "grands",
    "importante",
    "importantes",
    "cher",
    "chere",
    "cheres",
    "chers",
    "biggest",
    "largest",
    "highest",
    "expensive",
    "depensier",
    "depensiere",
    "depensiers",
    "depensieres",
];

/// "dernières opérations", "latest transactions", "recent payments".
pub(crate) fn is_latest_word(w: &str) -> bool {
    LATEST_WORDS.contains(&w)
}

const LATEST_WORDS: &[&str] =
    &["dernieres", "derniers", "derniere", "dernier", "last", "latest", "recent", "recentes", "recents"];

/// "solde", "balance": what an account holds.
pub(crate) fn is_balance_word(w: &str) -> bool {
    matches!(w, "solde" | "soldes" | "balance" | "balances")
}

pub(crate) fn is_budget_word(w: &str) -> bool {
    BUDGET_WORDS.contains(&w)
}

const BUDGET_WORDS: &[&str] =
    &["budget", "budgets", "budgete", "budgetes", "budgeted", "enveloppe", "enveloppes", "budgetaire"];

/// Payments that repeat: "prélèvements", "récurrents", "recurring".
pub(crate) fn is_recurring_word(w: &str) -> bool {
    RECURRING_WORDS.contains(&w)
}

const RECURRING_WORDS: &[&str] = &[
    "recurrent",
    "recurrents",
    "recurrente",
    "recurrentes",
    "recurring",
    "recurrence",
    "recurrences",
    "prelevements",
    "prelevement",
    "mensualites",
    "reguliers",
    "regulieres",
    "regular",
    "repeating",
];

pub(crate) fn is_subscription_word(w: &str) -> bool {
    matches!(w, "abonnements" | "abonnement" | "abos" | "abo" | "subscriptions" | "subscription" | "subs")
}

/// Money in against money out, in one word.
pub(crate) fn is_cash_flow_word(w: &str) -> bool {
    CASH_FLOW_WORDS.contains(&w)
}

const CASH_FLOW_WORDS: &[&str] = &[
    "tresorerie",
    "cashflow",
    "bilan",
    "surplus",
    "deficit",
    "economise",
    "economises",
    "economisee",
    "economiser",
    "economies",
    "saved",
    "save",
    "epargnes",
    "epargnee",
    "epargner",
];

/// "épargné" folds to "epargne", the savings category's name: after "ai", "as",
/// "avons", "taux d'" it is the verb (or the rate), a cash-flow question.
pub(crate) fn saves_before(tokens: &[Token], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j)).map_or("", |t| t.norm.as_str());
    matches!(before(1), "ai" | "as" | "avons" | "avez" | "jai" | "capacite" | "j" | "je" | "on" | "nous")
        || (before(1) == "d" && matches!(before(2), "taux" | "capacite"))
}

/// What was bought: "my biggest purchase" is a debit.
pub(crate) fn is_purchase_word(w: &str) -> bool {
    matches!(w, "purchase" | "purchases" | "achat" | "achats" | "buy" | "bought" | "runs")
}

/// "in vs out", "entrées vs sorties", "spending vs income", "what's coming in vs going
/// out", "income minus spending", "entrées moins dépenses": money in against money out,
/// either way round, which is cash flow — not two periods compared, nor one side with
/// the other left out. The index of the word that joins them.
pub(crate) fn in_against_out(tokens: &[Token]) -> Option<usize> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let money_in = |w: &str| {
        matches!(
            w,
            "entrees" | "in" | "income" | "revenus" | "inflows" | "earn" | "earned" | "gagne" | "rentrees"
        )
    };
    let money_out = |w: &str| {
        matches!(
            w,
            "sorties"
                | "out"
                | "expenses"
                | "depenses"
                | "spending"
                | "outflows"
                | "spend"
                | "spent"
                | "depense"
        )
    };
    // The first word of a side, past "money", "what", "going": "money out", "what went out".
    let lead = |j: usize| {
        matches!(w(j), "money" | "what" | "going" | "went" | "goes" | "les" | "mes" | "my" | "the")
    };
    (1..tokens.len()).find(|&v| {
        let mut k = v + 1;
        while lead(k) && k < v + 3 {
            k += 1;
        }
        // A bare "in" or "out" after the joining word is a side only facing the other bare
        // word or after a lead ("money in", "going out"): "groceries vs in 2025" is a
        // preposition.
        let bare = matches!(w(k), "in" | "out") && k == v + 1 && !matches!(w(v - 1), "in" | "out");
        matches!(w(v), "vs" | "versus" | "contre" | "minus" | "moins")
            && !bare
            && ((money_in(w(v - 1)) && money_out(w(k))) || (money_out(w(v - 1)) && money_in(w(k))))
    })
}

/// "moyenne", "average": an average is asked.
pub(crate) fn is_average_word(w: &str) -> bool {
    matches!(w, "moyenne" | "moyennes" | "moyen" | "moyens" | "average" | "averages" | "avg" | "mean")
}

/// What an average per transaction counts: "par opération", "per purchase".
pub(crate) fn is_transaction_word(w: &str) -> bool {
    TRANSACTION_WORDS.contains(&w)
}

const TRANSACTION_WORDS: &[&str] = &[
    "operation",
    "operations",
    "transaction",
    "transactions",
    "achat",
    "achats",
    "paiement",
    "paiements",
    "purchase",
    "purchases",
    "visite",
    "visites",
    "visit",
    "visits",
    "passage",
    "passages",
    "payment",
    "payments",
    "line",
    "lines",
    "ecriture",
    "ecritures",
];

/// A card, the usual way to pay: "by card", "par carte", "par CB".
pub(crate) fn is_card(w: &str) -> bool {
    matches!(w, "card" | "carte" | "cb")
}

/// How a payment was made: "by card", "par chèque", "par virement".
pub(crate) fn is_payment_method(w: &str) -> bool {
    PAYMENT_METHOD_WORDS.contains(&w)
}

const PAYMENT_METHOD_WORDS: &[&str] = &[
    "card",
    "carte",
    "cb",
    "cheque",
    "cheques",
    "check",
    "virement",
    "transfer",
    "prelevement",
    "direct",
    "cash",
    "especes",
    "liquide",
    "apple",
    "google",
    "paypal",
    "phone",
    "contactless",
    "sans",
    "credit",
    "debit",
    "visa",
    "mastercard",
    "amex",
];

/// "where did I shop most", "où ai-je le plus dépensé": where the money went, by
/// merchant. French "ou" is also "or": it counts first, or before a verb.
pub(crate) fn asks_where_most(tokens: &[Token]) -> bool {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let where_ = (0..tokens.len()).any(|j| {
        w(j) == "where"
            || (w(j) == "ou" && (j == 0 || matches!(w(j + 1), "est" | "ai" | "j" | "as" | "avons" | "ont")))
    });
    let most = (0..tokens.len()).any(|j| w(j) == "most" || (w(j) == "le" && w(j + 1) == "plus"));
    where_ && most
}

/// Advice or an opinion: "should I", "devrais-je", "est-ce que je peux me permettre",
/// "conseil", "why", "pourquoi". No tool answers these; a model may.
pub(crate) fn is_advice(tokens: &[Token], i: usize) -> bool {
    let w = tokens[i].norm.as_str();
    let next = tokens.get(i + 1).map_or("", |t| t.norm.as_str());
    // "Deliveroo should be in restaurants": where something belongs, not advice.
    let after = tokens.get(i + 2).map_or("", |t| t.norm.as_str());
    let belongs = matches!(next, "be" | "go" | "etre" | "aller")
        || (matches!(next, "just" | "really" | "all" | "only") && matches!(after, "be" | "go"));
    if matches!(w, "should" | "devrait" | "devraient") && belongs {
        return false;
    }
    // "I should like to know…": British for "I would like", a request.
    if w == "should" && next == "like" && i > 0 && matches!(tokens[i - 1].norm.as_str(), "i" | "we") {
        return false;
    }
    matches!(
        w,
        "should"
            | "shall"
            | "devrais"
            | "devrait"
            | "devrions"
            | "faudrait"
            | "conseil"
            | "conseils"
            | "conseille"
            | "conseiller"
            | "conseilles"
            | "advice"
            | "advise"
            | "recommend"
            | "recommande"
            | "recommandes"
            | "suggere"
            | "suggest"
            | "afford"
            | "permettre"
            | "why"
            | "pourquoi"
            | "astuces"
            | "tips"
            | "idees"
            | "ideas"
            | "optimiser"
            | "optimize"
            | "invest"
            | "investir"
            | "investment"
            | "investments"
            | "investissement"
            | "investissements"
            | "placement"
            | "placements"
            | "placer"
            | "cancel"
            | "resilier"
            | "arreter"
            | "reduire"
            | "diminuer"
            | "reduce"
            | "cook"
            | "cuisiner"
            | "recette"
            | "recipe"
            | "weather"
            | "meteo"
    ) || matches!((w, next), ("dois", "je") | ("how", "do") | ("how", "can") | ("comment", "faire"))
        || matches!((w, next), ("cut", "back" | "down"))
        || matches!((w, next), ("worth", _) | ("vaut", "le"))
}

/// "monthly", "hebdomadaire", "daily"…: a breakdown over time in one word.
pub(crate) fn time_group_word(w: &str) -> Option<GroupBy> {
    match w {
        "monthly" | "mensuel" | "mensuelle" | "mensuelles" | "mensuels" => Some(GroupBy::Month),
        "weekly" | "hebdomadaire" | "hebdomadaires" | "hebdo" => Some(GroupBy::Week),
        "daily" | "quotidien" | "quotidienne" | "quotidiennes" | "quotidiens" | "journalier"
        | "journaliere" | "journalieres" | "journaliers" => Some(GroupBy::Day),
        _ => None,
    }
}

pub(crate) fn is_breakdown_word(w: &str) -> bool {
    BREAKDOWN_WORDS.contains(&w)
}

const BREAKDOWN_WORDS: &[&str] = &[
    "repartition",
    "classement",
    "ranking",
    "rank",
    "ranked",
    "breakdown",
    "ventilation",
    "split",
    "reparti",
    "repartis",
    "repartie",
    "reparties",
    "repartit",
    "repartissent",
    "ventile",
    "ventilee",
    "ventilees",
    "ventiles",
];

pub(crate) fn group_word(w: &str) -> Option<GroupBy> {
    match w {
        "categorie" | "categories" | "category" | "categories_" | "cat" | "poste" | "postes" => {
            Some(GroupBy::Category)
        }
        "marchand" | "marchands" | "commercant" | "commercants" | "fournisseur" | "fournisseurs"
        | "enseigne" | "enseignes" | "magasin" | "magasins" | "merchant" | "merchants" | "store"
        | "stores" | "shop" | "shops" | "vendor" | "vendors" | "boutique" | "boutiques" | "places"
        | "endroits" => Some(GroupBy::Merchant),
        "compte" | "comptes" | "account" | "accounts" => Some(GroupBy::Account),
        "mois" | "month" | "months" => Some(GroupBy::Month),
        "semaine" | "semaines" | "week" | "weeks" => Some(GroupBy::Week),
        "jour" | "jours" | "day" | "days" => Some(GroupBy::Day),
        _ => None,
    }
}

/// Words that ask for a comparison, consumed; the user's words for the badge.
pub(crate) fn compare_words(tokens: &[Token], used: &mut [bool], message: &str) -> Option<String> {
    let mut words = Vec::new();
    for i in 0..tokens.len() {
        let w = tokens[i].norm.as_str();
        let single = matches!(
            w,
            "vs" | "versus"
                | "contre"
                | "compare"
                | "compared"
                | "comparer"
                | "comparez"
                | "comparee"
                | "comparees"
                | "compares"
                | "comparaison"
                | "comparatif"
                | "comparing"
                | "comparison"
                | "against"
        );
        let pair = matches!(
            (w, tokens.get(i + 1).map(|t| t.norm.as_str())),
            ("par", Some("rapport")) | ("relative", Some("to"))
        );
        if single {
            used[i] = true;
            words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or(w).to_string());
        } else if pair && !used[i] {
            used[i] = true;
            used[i + 1] = true;
            words.push(message.get(tokens[i].start..tokens[i + 1].end).unwrap_or(w).to_string());
        }
    }
    // "more in October than in September", "plus en octobre qu'en septembre".
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let find = |pred: &dyn Fn(usize) -> bool| (0..tokens.len()).find(|&j| !used[j] && pred(j));
    // "plus de 100 €" is an amount; "plus de resto que…" a comparison.
    let not_amount = |j: usize| {
        let k = if matches!(norm(j + 1), "de" | "d") { j + 2 } else { j + 1 };
        tokens.get(k).is_some_and(|t| t.kind == TokenKind::Word)
    };
    // ("worse than last month", "pire qu'en octobre": more spent.)
    // "j'ai dépensé plus que ce que j'ai gagné", "did I spend more than I earned": the
    // two sides of the ledger, not two periods — not read here.
    let other_side = (0..tokens.len()).any(|j| matches!(norm(j), "than" | "que" | "qu"))
        && tokens.iter().any(|t| is_income_word(&t.norm))
        && tokens.iter().any(|t| is_spend_word(&t.norm));
    if other_side {
        return (!words.is_empty()).then(|| words.join(" "));
    }
    let more = find(&|j| {
        matches!(
            norm(j),
            "more"
                | "less"
                | "plus"
                | "moins"
                | "worse"
                | "better"
                | "higher"
                | "lower"
                | "pire"
                | "mieux"
                | "davantage"
        ) && not_amount(j)
    });
    if let Some(m) = more {
        let than = find(&|j| {
            j > m
                && (norm(j) == "than"
                    || (matches!(norm(j), "qu" | "que")
                        && matches!(
                            norm(j + 1),
                            "en" | "au" | "l" | "le" | "la" | "pendant" | "durant" | "ce"
                        )))
                && tokens.get(j + 1).is_some_and(|t| t.kind == TokenKind::Word)
        });
        // "plus ou moins qu'en 2024", "more or less than last year": either way, one
        // comparison.
        let either = matches!(norm(m + 1), "ou" | "or")
            && matches!(norm(m + 2), "moins" | "less" | "plus" | "more")
            && !used[m + 1]
            && !used[m + 2];
        if let Some(t) = than {
            used[m] = true;
            used[t] = true;
            if either {
                used[m + 1] = true;
                used[m + 2] = true;
            }
            words.push(format!("{} … {}", norm(m), norm(t)));
        }
    }
    (!words.is_empty()).then(|| words.join(" "))
}

pub(crate) fn is_followup(tokens: &[Token]) -> bool {
    let first = tokens.first().map(|t| t.norm.as_str());
    let second = tokens.get(1).map(|t| t.norm.as_str());
    matches!(
        first,
        Some(
            "et" | "and"
                | "pareil"
                | "idem"
                | "same"
                | "meme"
                | "aussi"
                | "also"
                | "puis"
                | "then"
                | "only"
                | "seulement"
                | "uniquement"
                | "juste"
                | "just"
        )
    ) || matches!((first, second), (Some("what" | "how"), Some("about")) | (Some("and"), _))
}

/// A noun for money spent, one transaction at a time: "expenses", "dépenses", "achats",
/// "orders", "purchases".
pub(crate) fn is_item_noun(w: &str) -> bool {
    ITEM_NOUNS.contains(&w)
}

const ITEM_NOUNS: &[&str] = &[
    "depenses",
    "ride",
    "rides",
    "ticket",
    "tickets",
    "billet",
    "billets",
    "trajet",
    "trajets",
    "expense",
    "expenses",
    "achat",
    "achats",
    "purchase",
    "purchases",
    "order",
    "orders",
    "commande",
    "commandes",
];
