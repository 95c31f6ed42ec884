//! Counts: "how many Uber rides", "combien de fois chez Lidl" (how often money was
//! spent there, which a total carries), "nombre de transactions" (their list).

use super::{Asked, Intent};
use crate::parser::lexicon::is_transaction_word;
use crate::text::Token;

/// Money paid, one item at a time: what a count or a total of spending covers. All
/// transactions ("how many transactions") go both ways: their list.
pub(super) fn paid(w: &str) -> bool {
    matches!(
        w,
        "rides"
            | "tickets"
            | "billets"
            | "trajets"
            | "paiements"
            | "payments"
            | "orders"
            | "commandes"
            | "achats"
            | "purchases"
            | "retraits"
            | "withdrawals"
            | "runs"
            | "trips"
    )
}

/// "how many", "combien de", "nombre de", "number of" at `j`.
pub(super) fn how_many(tokens: &[Token], j: usize) -> bool {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    matches!(
        (norm(j), norm(j + 1)),
        ("how", "many") | ("combien", "de" | "d") | ("nombre" | "nb", "de" | "d") | ("number", "of")
    )
}

/// Going somewhere, taking or ordering something: what a count, or how often, reads
/// with it ("how many times did I go to Lidl", "je vais souvent chez Picard").
pub(super) fn went(w: &str) -> bool {
    matches!(
        w,
        "go" | "went"
            | "gone"
            | "been"
            | "visited"
            | "visit"
            | "took"
            | "taken"
            | "take"
            | "ordered"
            | "order"
            | "used"
            | "pris"
            | "vais"
            | "va"
            | "alle"
            | "allee"
            | "passe"
            | "passee"
            | "commande"
            | "utilise"
            | "mange"
    )
}

/// Reads the counts asked: whether payments are counted ("how many Uber rides"), and
/// where "how often" starts ("combien de fois").
pub(super) fn read(
    tokens: &[Token],
    used: &mut [bool],
    a: &mut Asked,
    intent: &mut Intent,
) -> (bool, Option<usize>) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "how many Uber rides", "combien de paiements chez Lidl": a count, which a total
    // carries with the amount — unless a list is asked for.
    let count = (0..tokens.len()).any(|j| how_many(tokens, j) && (j + 2..j + 4).any(|k| paid(norm(k))));
    // "combien de fois j'ai pris un Uber", "how many times did I go to Lidl", "nombre de
    // passages chez Franprix": how often money was spent there — the count a total
    // carries. The going, taking or ordering is read with it.
    let times = |w: &str| matches!(w, "fois" | "times" | "passages" | "visits" | "visites");
    let how_often = (0..tokens.len()).find(|&j| !used[j] && how_many(tokens, j) && times(norm(j + 2)));
    if let Some(j) = how_often {
        for (k, t) in tokens.iter().enumerate() {
            if (j..=j + 2).contains(&k) || went(&t.norm) {
                used[k] = true;
            }
        }
        // ("combien de fois ai-je pris un billet": the ticket is what was counted.)
        let list_asked =
            tokens.iter().any(|t| matches!(t.norm.as_str(), "liste" | "list" | "show" | "montre"));
        if a.list && !list_asked {
            a.list = false;
        }
        if !(a.list || a.income || a.balance || a.budget || a.recurring || a.cash) {
            a.spend = true;
        }
        intent.asks_amount = true;
        intent.words.push(format!("{} {} {}", norm(j), norm(j + 1), norm(j + 2)));
    }
    // "nombre de transactions sur le livret A", "number of transactions": their list,
    // which says how many.
    for j in 0..tokens.len() {
        if matches!((norm(j), norm(j + 1)), ("nombre" | "nb", "de" | "d") | ("number", "of"))
            && is_transaction_word(norm(j + 2))
            && !used[j]
        {
            used[j] = true;
            used[j + 1] = true;
            a.list = true;
            intent.words.push(format!("{} {} {}", norm(j), norm(j + 1), norm(j + 2)));
        }
    }
    (count, how_often)
}
