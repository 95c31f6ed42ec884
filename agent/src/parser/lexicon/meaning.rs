//! Words that would change a plan if they were read — an exclusion, a write, an
//! aggregate no tool computes, the world outside the ledger — and questions about that
//! world. Left unread, such words stop the run rather than be dropped.

use super::is_average_word;
use crate::text::Token;

/// A question about the world, not the user's money: "qui a gagné…", "who won…",
/// "comment contester un prélèvement", "how to…", "qu'est-ce que le prélèvement à la
/// source", "c'est quoi un PEA", "what is an ETF". No tool answers these; a model may.
pub(crate) fn asks_about_world(tokens: &[Token]) -> bool {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let article = |x: &str| matches!(x, "le" | "la" | "les" | "l" | "un" | "une" | "a" | "an");
    // "qui a gagné", "who won": someone else's doing.
    let someone = matches!(w(0), "qui" | "who")
        && matches!(
            w(1),
            "a" | "est"
                | "doit"
                | "va"
                | "etait"
                | "sont"
                | "won"
                | "is"
                | "was"
                | "will"
                | "has"
                | "were"
                | "invented"
                | "wrote"
                | "owns"
                | "pays"
        );
    let how_to = (0..tokens.len()).any(|j| match (w(j), w(j + 1)) {
        ("how", "to" | "does" | "far" | "old") => true,
        // "how long does a transfer take" — not "how long since I last paid EDF".
        ("how", "long") => !(j + 2..j + 6).any(|k| w(k) == "since"),
        ("how", "do") => w(j + 2) == "you",
        // "comment contester", "comment ça marche", "comment on fait".
        ("comment", next) => {
            matches!(next, "ca" | "on" | "faire" | "fonctionne" | "marche")
                || (next.len() > 4 && ["er", "ir", "re", "oir"].iter().any(|e| next.ends_with(e)))
        }
        _ => false,
    });
    // "c'est quoi le total de mes courses" is about the user's money.
    // ("c'est quoi le solde du livret", "c'est quoi notre cash flow": the user's too.)
    let mine = tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "my" | "mes" | "mon" | "ma" | "i" | "j" | "je" | "notre" | "nos" | "nous" | "our" | "we"
        )
    }) || (0..tokens.len()).any(|j| {
        w(j) == "quoi"
            && matches!(w(j + 2), "solde" | "soldes" | "total" | "montant" | "budget" | "budgets" | "plus")
    });
    let what_is = !mine
        && (0..tokens.len()).any(|j| {
            (w(j) == "qu"
                && w(j + 1) == "est"
                && w(j + 2) == "ce"
                && matches!(w(j + 3), "que" | "qu")
                && article(w(j + 4)))
                || (w(j) == "c" && w(j + 1) == "est" && w(j + 2) == "quoi" && article(w(j + 3)))
                || (w(j) == "what"
                    && matches!(w(j + 1), "is" | "s" | "are")
                    && matches!(w(j + 2), "a" | "an"))
                || matches!(
                    w(j),
                    "define" | "definition" | "definir" | "signifie" | "meaning" | "explain" | "explique"
                )
        });
    // ("who were my top merchants": the user's money.)
    (someone && !mine) || how_to || what_is
}

/// An exclusion or a negation: "hors Picard", "excluding Deliveroo", "sans le loyer".
pub fn is_exclusion_word(w: &str) -> bool {
    EXCLUSION_WORDS.contains(&w)
}

const EXCLUSION_WORDS: &[&str] = &[
    "hors",
    "sauf",
    "excepte",
    "exceptee",
    "exceptes",
    "exceptees",
    "exclu",
    "exclus",
    "exclue",
    "exclues",
    "exclure",
    "excluant",
    "excluding",
    "exclude",
    "excluded",
    "except",
    "excepting",
    "without",
    "sans",
    "besides",
];

/// A word that negates or leaves something out, in any of its forms: the exclusion
/// words above, "not", "n't" written without its apostrophe ("dont", "didnt"), "never",
/// "other (than)", "apart (from)", "pas", "ne", "jamais", "autre (que)", "(en) dehors",
/// "(à) part". Read, it is an exclusion (`Finder::excluded`); left unread, it stops the
/// run: a negation dropped gives the opposite answer.
pub fn is_negation_word(w: &str) -> bool {
    is_exclusion_word(w)
        || matches!(
            w,
            "not"
                | "no"
                | "never"
                | "nor"
                | "neither"
                | "none"
                | "dont"
                | "didnt"
                | "doesnt"
                | "isnt"
                | "wasnt"
                | "arent"
                | "werent"
                | "havent"
                | "hasnt"
                | "hadnt"
                | "wont"
                | "cant"
                | "cannot"
                | "shouldnt"
                | "wouldnt"
                | "couldnt"
                | "aint"
                | "excl"
                | "exc"
                | "apart"
                | "other"
                | "others"
                | "outside"
                | "minus"
                | "omit"
                | "omitting"
                | "ignore"
                | "ignoring"
                | "skip"
                | "skipping"
                | "leaving"
                | "barring"
                | "pas"
                | "ne"
                | "n"
                | "non"
                | "jamais"
                | "ni"
                | "aucun"
                | "aucune"
                | "rien"
                | "autre"
                | "autres"
                | "dehors"
                | "part"
                | "hormis"
                | "enleve"
                | "enlever"
                | "enlevant"
                | "ignorer"
                | "ignorant"
                | "oublie"
        )
}

/// Whether the token at `i` negates: a negation word, or the "t" of an English "n't"
/// ("don't", "didn't", "isn't": the apostrophe splits the word in two).
pub fn negates_at(tokens: &[Token], i: usize) -> bool {
    let Some(t) = tokens.get(i) else { return false };
    if is_french_dont(tokens, i) {
        return false;
    }
    if is_negation_word(&t.norm) {
        return true;
    }
    t.norm == "t"
        && i > 0
        && matches!(
            tokens[i - 1].norm.as_str(),
            "don"
                | "didn"
                | "doesn"
                | "isn"
                | "wasn"
                | "aren"
                | "weren"
                | "haven"
                | "hasn"
                | "hadn"
                | "won"
                | "can"
                | "shouldn"
                | "wouldn"
                | "couldn"
                | "ain"
                | "mustn"
                | "needn"
        )
}

/// A verb asking Sou to change something it keeps: a budget ("set", "fixe"), money
/// ("vire", "transfère", "move"), a rule or a category ("crée", "supprime",
/// "recatégorise"), a card ("bloque"). Sou only reads, for now.
pub fn is_write_word(w: &str) -> bool {
    WRITE_WORDS.contains(&w)
}

const WRITE_WORDS: &[&str] = &[
    "set",
    "fixe",
    "fixer",
    "definis",
    "definir",
    "modifie",
    "modifier",
    "changer",
    "vire",
    "virer",
    "transfere",
    "transferer",
    "move",
    "cree",
    "creer",
    "create",
    "ajoute",
    "ajouter",
    "supprime",
    "supprimer",
    "delete",
    "remove",
    "recategorise",
    "recategoriser",
    "recategorize",
    "bloque",
    "bloquer",
    "block",
    "send",
    "envoie",
    "envoyer",
];

/// A word that would change what a plan computes if it were read: an exclusion, an
/// aggregate other than a total, a write, a question about the world. Left unplaced by
/// the parser, it stops the run (a `low` plan) rather than be dropped. A second period
/// is the other such kind ([`crate::period::is_time_word`]). Words that also occur in
/// plain reads ("send me", "add up", "my last transfer", "payé") are not here; "change"
/// is ("frais de change" is not the category "charges": better asked than guessed).
pub(crate) fn changes_meaning(w: &str) -> bool {
    is_negation_word(w) || is_average_word(w) || misspells_meaning(w) || changes_meaning_exactly(w)
}

/// One typo away from a word that changes the plan ("averge", "exluding", "moyene"):
/// misspelt, it still must not be dropped.
fn misspells_meaning(w: &str) -> bool {
    const LONG: &[&str] =
        &["average", "moyenne", "excluding", "except", "without", "exclude", "excepte", "median", "mediane"];
    w.chars().count() >= 5
        && LONG
            .iter()
            .any(|k| k.chars().next() == w.chars().next() && crate::text::edit_distance(w, k, 1) <= 1)
}

fn changes_meaning_exactly(w: &str) -> bool {
    is_write_word(w)
        || matches!(
            w,
            // Aggregates other than a sum or an average.
            "median" | "mediane" | "maximum" | "minimum" | "max" | "min"
                // Acts in the world, and "change", which is also money changed.
                | "change" | "schedule" | "book" | "reserve" | "reserver" | "annule" | "annuler"
                // The world outside the ledger.
                | "meteo" | "weather" | "hotel" | "flight" | "meeting" | "meetings" | "reunion"
                | "appointment" | "rdv" | "agenda" | "calendar" | "cac" | "bourse" | "stock" | "stocks"
                | "bitcoin" | "crypto" | "pin" | "apr" | "taux" | "rate" | "interet" | "interets"
                | "interest" | "equation" | "solve" | "resoudre"
                // What is left: of a balance or of a budget, not what was spent.
                | "reste" | "restant" | "rester" | "left" | "remaining"
        )
}

/// French "dont" ("les opérations dont le libellé contient …"): "whose", no "don't" —
/// after transactions named, before an article or a subject, where the English never is.
pub(crate) fn is_french_dont(tokens: &[Token], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.norm == "dont")
        && i > 0
        && matches!(
            tokens[i - 1].norm.as_str(),
            "operations"
                | "transactions"
                | "depenses"
                | "achats"
                | "paiements"
                | "virements"
                | "prelevements"
                | "mouvements"
                | "lignes"
        )
        && tokens.get(i + 1).is_some_and(|n| {
            matches!(
                n.norm.as_str(),
                "le" | "la"
                    | "les"
                    | "l"
                    | "je"
                    | "j"
                    | "tu"
                    | "il"
                    | "elle"
                    | "on"
                    | "nous"
                    | "vous"
                    | "ils"
                    | "elles"
                    | "un"
                    | "une"
                    | "des"
                    | "mon"
                    | "ma"
                    | "mes"
                    | "ce"
                    | "cette"
                    | "ces"
            )
        })
}
