//! Rankings said in words: "top 5 marchands", "my biggest purchase" (one, or several).

use super::{Asked, Intent, DEFAULT_TOP};
use crate::args::{Direction, GroupBy};
use crate::parser::lexicon::{group_word, is_largest_word, is_latest_word, is_purchase_word, is_stopword};
use crate::text::{Token, TokenKind};

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
    let spending =
        |j: usize| matches!(word(j), Some("spending" | "spend" | "expense" | "expenses" | "depenses"));
    if spending(j) && word(j + 1).and_then(group_word).is_some() {
        j += 1;
    }
    // ("top 3 dépenses par catégorie": the categories, not the payments; five unless
    // said, whatever the number of the word after "par".)
    let by = cfg!(feature = "readings")
        && spending(j)
        && matches!(word(j + 1), Some("par" | "by"))
        && word(j + 2).and_then(group_word).is_some();
    if by {
        j += 2;
    }
    let g = group_word(word(j)?)?;
    if g.is_time() {
        return None;
    }
    let singular = !by && !word(j)?.ends_with('s');
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
                | "credit"
                | "withdrawal"
                | "retrait"
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
    // "les plus grosse depense": the article says more than one, whatever the noun.
    let plural_article = (1..tokens.len())
        .any(|j| tokens[j].norm == "plus" && matches!(tokens[j - 1].norm.as_str(), "les" | "mes" | "des"));
    (singular || article) && !plural_article && !tokens.iter().any(|t| plural(&t.norm))
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
    } else if cfg!(feature = "readings")
        && (0..tokens.len())
            .any(|j| matches!(norm(j), "lequel" | "laquelle") || (norm(j), norm(j + 1)) == ("which", "one"))
    {
        // "le resto où j'ai le plus claqué, c'est lequel": the one (on the server,
        // `readings`: the browser's badge shows the ranking).
        intent.top = Some(1);
    }
}

/// Whether the groups are ranked though no "par"/"by" says so ("quelles catégories m'ont
/// coûté le plus"); then "the most", "le plus" of a ranking used.
pub(super) fn groups_ranked(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    intent: &mut Intent,
    a: &mut Asked,
) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "quelles catégories m'ont coûté le plus", "which merchants cost me most": the
    // groups ranked, though no "par"/"by" says so.
    let ranks = tokens.iter().any(|t| matches!(t.norm.as_str(), "most" | "quelles" | "quels" | "which"))
        || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus");
    if intent.group_by.is_none() && ranks {
        which_groups(tokens, used, message, intent, a);
    }
    // "the most", "le plus" of a ranking read above ("quelles catégories m'ont coûté
    // le plus": the groups ranked).
    if intent.top.is_some() || intent.top_of_name.is_some() || (ranks && intent.group_by.is_some()) {
        for (j, u) in used.iter_mut().enumerate() {
            *u |= norm(j) == "most" || (norm(j) == "plus" && j > 0 && norm(j - 1) == "le");
        }
    }
}

/// Which groups a ranking names: several ("quelles catégories"), the one that ranks first
/// ("quel marchand"), or the first of the name said next ("which restaurant").
fn which_groups(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent, a: &mut Asked) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    if let Some(i) = (0..tokens.len()).find(|&i| {
        !used[i]
            && matches!(
                norm(i),
                "categories"
                    | "marchands"
                    | "commercants"
                    | "merchants"
                    | "comptes"
                    | "accounts"
                    | "magasins"
                    | "stores"
                    | "shops"
            )
    }) {
        intent.group_by = group_word(norm(i));
        intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        used[i] = true;
        // "les 10 marchands où je dépense le plus": the first ten.
        let n = (i > 0 && !used[i - 1] && tokens[i - 1].kind == TokenKind::Number)
            .then(|| norm(i - 1).parse::<u32>().ok())
            .flatten()
            .filter(|n| (1..=50).contains(n));
        if let Some(n) = n {
            intent.top = Some(n);
            used[i - 1] = true;
        } else if tokens.iter().any(|t| t.norm == "most")
            || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus")
        {
            // "les magasins où je dépense le plus": the first five, as "top merchants".
            intent.top = Some(DEFAULT_TOP);
        }
    } else if let Some(i) = (0..tokens.len()).find(|&i| {
        // "quel marchand me coûte le plus", "what day did I spend the most": the one
        // group that ranks first.
        !used[i]
            && matches!(
                norm(i),
                "categorie"
                    | "category"
                    | "marchand"
                    | "commercant"
                    | "merchant"
                    | "magasin"
                    | "store"
                    | "shop"
                    | "compte"
                    | "account"
                    | "jour"
                    | "day"
                    | "mois"
                    | "month"
                    | "semaine"
                    | "week"
            )
            // ("my biggest category", "ma plus grosse catégorie": the one too.)
            && (i == 0
                || matches!(
                    norm(i - 1),
                    "quel" | "quelle" | "which" | "what" | "le" | "la" | "the" | "biggest" | "largest" | "grosse" | "gros"
                ))
    }) {
        intent.group_by = group_word(norm(i));
        intent.top = Some(1);
        intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        used[i] = true;
        a.spend = a.spend || !a.income;
    } else if let Some(i) = (0..tokens.len()).find(|&i| {
        // "which restaurant did I spend the most at": the first merchant of the
        // category named next (read once the name is, as "top 3 restos").
        let most = tokens.iter().any(|t| t.norm == "most")
            || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus");
        let named = i + 1 < tokens.len() && !used[i + 1] && !is_stopword(norm(i + 1));
        let grouped = tokens.iter().any(|t| group_word(&t.norm).is_some());
        most && named && !grouped && !used[i] && matches!(norm(i), "which" | "quel" | "quelle")
    }) {
        if intent.top_of_name.is_none() && intent.top.is_none() {
            intent.top_of_name = Some(1);
            used[i] = true;
            a.spend = a.spend || !a.income;
        }
    }
}

/// Whether the largest asked are groups, not transactions ("mon mois le plus cher"), and
/// how many.
pub(super) fn largest_groups(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    intent: &mut Intent,
    a: &mut Asked,
) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "mon mois le plus cher", "my 3 most expensive months": the groups ranked, not
    // transactions. One, unless a number or a plural says how many.
    if intent.largest && intent.group_by.is_none() {
        // "my biggest grocery shop" is one trip to the shops, not a merchant; "my three
        // biggest grocery shops", trips or stores, is not read as either.
        let group = (0..tokens.len()).find_map(|i| {
            let g = group_word(norm(i))
                .filter(|_| !used[i] && !matches!(norm(i), "shop" | "store" | "shops" | "stores"))?;
            Some((i, g))
        });
        if let Some((i, g)) = group {
            let plural = norm(i).ends_with('s') && norm(i) != "mois";
            // "mes 3 mois les plus chers", "my 3 most expensive months": a number just before.
            let before = (i.saturating_sub(3)..i)
                .rev()
                .find(|&j| !used[j] && tokens[j].kind == TokenKind::Number && tokens[j].norm.len() <= 2);
            let n = before.and_then(|j| tokens[j].norm.parse::<u32>().ok()).filter(|n| (1..=50).contains(n));
            let plural =
                plural || n.is_some_and(|n| n > 1) || matches!(norm(i.wrapping_sub(1)), "mes" | "my");
            intent.group_by = Some(g);
            intent.top = Some(n.unwrap_or(if plural { DEFAULT_TOP } else { 1 }));
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
            if let Some(j) = before {
                used[j] = true;
            }
            intent.largest = false;
            a.spend = a.spend || !a.income;
        }
    }
}

/// How many of the largest or latest transactions are asked, and on which side of the
/// ledger; with a breakdown, none.
pub(super) fn largest_or_latest(tokens: &[Token], used: &mut [bool], intent: &mut Intent, a: &mut Asked) {
    // "les 5 dernières opérations", "my 3 biggest expenses": a number next to the
    // marker says how many.
    if intent.largest || intent.latest {
        intent.limit = intent.limit.or_else(|| {
            (0..tokens.len()).find_map(|j| {
                let t = &tokens[j];
                let near_marker = (j + 1..(j + 3).min(tokens.len())).any(|k| {
                    used[k] && (is_latest_word(&tokens[k].norm) || is_largest_word(&tokens[k].norm))
                }) || (j > 0 && used[j - 1] && is_latest_word(&tokens[j - 1].norm));
                let n = (t.kind == TokenKind::Number && !used[j] && near_marker)
                    .then(|| t.norm.parse::<u32>().ok())
                    .flatten()
                    .filter(|n| (1..=crate::args::MAX_LIST_LIMIT).contains(n))?;
                used[j] = true;
                Some(n)
            })
        });
        // "my biggest purchase", "ma plus grosse dépense", "my last Uber ride": one.
        if intent.limit.is_none() && (intent.largest || intent.latest) && singular_item(tokens) {
            intent.limit = Some(1);
        }
        if intent.group_by.is_none() && (intent.largest || a.list) {
            // "biggest expenses" are debits; "largest transactions" are either.
            // "le resto le plus cher": what cost, so paid.
            let purchase = tokens.iter().any(|t| {
                is_purchase_word(&t.norm)
                    || matches!(
                        t.norm.as_str(),
                        "cher"
                            | "chere"
                            | "chers"
                            | "cheres"
                            | "expensive"
                            | "couteux"
                            | "couteuse"
                            | "bill"
                            | "bills"
                            | "facture"
                            | "factures"
                    )
            });
            // "the five largest incoming payments": received.
            let incoming = tokens.iter().any(|t| {
                matches!(
                    t.norm.as_str(),
                    "incoming" | "received" | "recus" | "recues" | "entrants" | "entrantes" | "rentrees"
                )
            }) || tokens
                .windows(2)
                .any(|w| matches!(w[0].norm.as_str(), "i" | "we") && w[1].norm == "got")
                || tokens
                    .windows(2)
                    .any(|w| matches!(w[0].norm.as_str(), "came" | "come" | "coming") && w[1].norm == "in");
            // "mes trois plus gros revenus": the largest credits.
            if intent.largest && (incoming || (a.income && !a.spend && !purchase)) {
                intent.direction = Some(Direction::Credit);
            } else if intent.largest && (a.spend || purchase) {
                intent.direction = Some(Direction::Debit);
            }
            a.spend = false;
            a.list = true;
        } else {
            // "la moyenne par semaine, et la semaine la plus chère": an average and the
            // largest of its units are two asks.
            if intent.largest && intent.average {
                intent.second_ask = true;
            }
            intent.largest = false;
            intent.latest = false;
            intent.limit = None;
        }
    }
}
