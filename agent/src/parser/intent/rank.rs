//! Rankings said in words: "top 5 marchands", "my biggest purchase" (one, or several).

use super::{Intent, DEFAULT_TOP};
use crate::parser::lexicon::group_word;
use crate::text::{Token, TokenKind};
use crate::GroupBy;

/// "top 5 marchands", "mes 3 principales catégories", "biggest merchants": the group,
/// how many, and the tokens used.
pub(super) fn top_groups(tokens: &[Token], used: &[bool], i: usize) -> Option<(GroupBy, u32, usize, usize)> {
    let free = |j: usize| j < tokens.len() && !used[j];
    let word = |j: usize| free(j).then(|| tokens[j].norm.as_str());
    let number = |j: usize| {
        word(j)
            .filter(|_| tokens[j].kind == TokenKind::Number)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=50).contains(n))
    };
    let w = word(i)?;
    // The word after the marker: "top [5] merchants", "plus gros marchands".
    let mut j = i + 1;
    if w == "plus" {
        if !matches!(word(j), Some("gros" | "grosses" | "grands" | "grandes" | "importants" | "importantes"))
        {
            return None;
        }
        j += 1;
    } else if !matches!(w, "top" | "principaux" | "principales" | "main" | "biggest" | "largest" | "major") {
        return None;
    }
    let mut first = i;
    let mut n = None;
    if let Some(k) = number(j) {
        n = Some(k);
        j += 1;
    } else if i > 0 {
        // "mes 3 principaux marchands"
        if let Some(k) = number(i - 1) {
            n = Some(k);
            first = i - 1;
        }
    }
    if matches!(word(j), Some("des" | "de" | "d" | "of")) {
        j += 1;
    }
    // ("the top 5 spending categories": of spending, which a ranking is.)
    if matches!(word(j), Some("spending" | "spend" | "expense" | "expenses"))
        && word(j + 1).and_then(group_word).is_some()
    {
        j += 1;
    }
    let g = group_word(word(j)?)?;
    if g.is_time() {
        return None;
    }
    let singular = !word(j)?.ends_with('s');
    // "my main account" is an account's name, not a ranking ("my main merchants" is).
    if w == "main" && n.is_none() && singular {
        return None;
    }
    // "my biggest category", "top merchant": the first one; "biggest merchants": five.
    Some((g, n.unwrap_or(if singular { 1 } else { DEFAULT_TOP }), first, j))
}

/// A transaction named in the singular and none in the plural: "my biggest purchase",
/// "la plus grosse dépense" ("j'ai dépensé" is a verb, not the noun).
pub(super) fn singular_item(tokens: &[Token]) -> bool {
    let item = |w: &str| {
        matches!(
            w,
            "depense"
                | "expense"
                | "purchase"
                | "achat"
                | "transaction"
                | "operation"
                | "ope"
                | "payment"
                | "paiement"
                | "order"
                | "commande"
                | "debit"
                | "outflow"
                | "inflow"
                | "bill"
                | "facture"
                | "ride"
                | "ticket"
                | "billet"
                | "trajet"
                | "virement"
                | "transfer"
                | "refund"
                | "remboursement"
                | "rentree"
                | "entree"
                | "money"
                | "deposit"
                | "depot"
                | "amount"
                | "montant"
                | "sum"
                | "somme"
                | "thing"
                | "truc"
        )
    };
    let plural = |w: &str| w.len() > 3 && w.ends_with('s') && item(&w[..w.len() - 1]);
    let verb = |j: usize| {
        j > 0 && matches!(tokens[j - 1].norm.as_str(), "ai" | "jai" | "have" | "i" | "avez" | "as")
    };
    let singular = (0..tokens.len()).any(|j| item(&tokens[j].norm) && !verb(j));
    // "le resto le plus cher", "la course la plus chère": a singular article before
    // the superlative, and none plural anywhere.
    let article = (1..tokens.len())
        .any(|j| tokens[j].norm == "plus" && matches!(tokens[j - 1].norm.as_str(), "le" | "la"))
        && !tokens.iter().any(|t| matches!(t.norm.as_str(), "les" | "mes" | "des"));
    (singular || article) && !tokens.iter().any(|t| plural(&t.norm))
}

/// "where did I shop most for groceries", "les trois restaurants où j'ai le plus
/// dépensé": the spending by merchant, its words used — and how many, if a number says.
pub(super) fn where_most(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    for i in 0..tokens.len() {
        let le_plus = norm(i) == "plus" && i > 0 && norm(i - 1) == "le";
        if !used[i] && (matches!(norm(i), "where" | "ou" | "most" | "shop" | "shopped") || le_plus) {
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
        }
    }
    intent.group_by = Some(GroupBy::Merchant);
    let n = (0..tokens.len()).find_map(|j| {
        let n = if tokens[j].kind == TokenKind::Number {
            norm(j).parse().ok()
        } else {
            crate::text::number_word(norm(j))
        };
        n.filter(|n| !used[j] && (2..=50).contains(n) && j + 1 < tokens.len() && !used[j + 1]).map(|n| (j, n))
    });
    if let Some((j, n)) = n {
        intent.top = Some(n);
        used[j] = true;
    }
}
