//! The words of a message, one by one: which ask for what (spending, income, a list, a
//! balance…), how (a breakdown, a ranking, an average), and which side of the ledger.
//! What they say together is read after, in `read`.

use super::rank::top_groups;
use super::words::fuzzy_intent_word;
use super::words::side_turned_down;
use super::{Asked, Intent, Kind, DEFAULT_LARGEST, DEFAULT_TOP, SAVED};
use crate::parser::lexicon::{
    cash_flow_phrase, direction_words, group_word, income_phrase, is_advice, is_average_word,
    is_balance_word, is_breakdown_word, is_budget_word, is_card, is_cash_flow_word, is_income_word,
    is_latest_word, is_list_word, is_recurring_word, is_spend_word, is_subscription_word,
    is_transaction_word, largest_marker, saves_before, time_group_word,
};
use crate::text::{Token, TokenKind};
use crate::{AveragePer, Direction, GroupBy};

/// Reads each word not yet used into `intent` and `a`; "abonnements" and a side of the
/// ledger turned down are kept for `read` to decide.
// Over 120 lines; to split (issue 49).
#[allow(clippy::too_many_lines)]
pub(super) fn words(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    intent: &mut Intent,
    a: &mut Asked,
    (subscription_words, turned_down): (&mut Vec<usize>, &mut Option<(Direction, usize, usize)>),
) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    for i in 0..tokens.len() {
        if used[i] {
            continue;
        }
        let w = tokens[i].norm.as_str();
        let span = |a: usize, b: usize| message.get(tokens[a].start..tokens[b].end).unwrap_or(w).to_string();
        if is_advice(tokens, i) {
            intent.advice = true;
            continue;
        }
        // Two-word markers first: "cash flow", "taux d'épargne", "savings rate".
        if let Some(n) = cash_flow_phrase(tokens, used, i) {
            a.cash = true;
            // "mis de côté", "put aside": kept back, or moved to savings?
            if matches!(w, "mis" | "put") {
                intent.saved = Some(span(i, i + n - 1));
            }
            intent.words.push(span(i, i + n - 1));
            used[i..i + n].iter_mut().for_each(|u| *u = true);
            continue;
        }
        // "show me everything from yesterday": the transactions, unless the message says
        // what to compute of them ("everything I spent").
        if w == "everything" {
            a.everything = true;
            used[i] = true;
            continue;
        }
        // "broken down by week", "split by merchant": the breakdown "by" names.
        if matches!((w, norm(i + 1)), ("broken", "down") | ("split", "by") | ("split", "per")) {
            used[i] = true;
            if w == "broken" {
                used[i + 1] = true;
            }
            continue;
        }
        // "break my spending down by merchant".
        if w == "break" && (i + 1..(i + 4).min(tokens.len())).any(|j| norm(j) == "down" && !used[j]) {
            a.breakdown = true;
            intent.words.push(span(i, i));
            used[i] = true;
            if let Some(j) = (i + 1..(i + 4).min(tokens.len())).find(|&j| norm(j) == "down") {
                used[j] = true;
            }
            continue;
        }
        if is_average_word(w) {
            intent.average = true;
            intent.words.push(span(i, i));
            used[i] = true;
            // "panier moyen": per purchase.
            if i > 0 && norm(i - 1) == "panier" && !used[i - 1] {
                intent.average_per = Some(AveragePer::Transaction);
                used[i - 1] = true;
            }
            // "the average Uber ride", "average purchase at Fnac": per one of them.
            let one = |w: &str| {
                matches!(w, "ride" | "purchase" | "order" | "trip" | "ticket" | "payment" | "basket")
            };
            if let Some(j) = (i + 1..(i + 3).min(tokens.len())).find(|&j| one(norm(j)) && !used[j]) {
                intent.average_per = Some(AveragePer::Transaction);
                used[j] = true;
            }
            continue;
        }
        // "par opération", "per visit", "each purchase", "per trip": an average, per
        // transaction.
        let one_of = |w: &str| {
            is_transaction_word(w)
                || matches!(w, "trip" | "ride" | "order" | "ticket" | "trajet" | "commande")
        };
        // ("on a commandé" is French "has ordered": "a" is English here.)
        let per_one = matches!(w, "par" | "per" | "each")
            || (w == "a"
                && matches!(norm(i + 1), "trip" | "ride" | "order" | "ticket" | "transaction" | "purchase"));
        if per_one && one_of(norm(i + 1)) && !used[i + 1] {
            intent.average = true;
            intent.average_per = Some(AveragePer::Transaction);
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        // "how much went to rent": money going out.
        if matches!(w, "went" | "goes" | "go") && matches!(norm(i + 1), "to" | "on") && !used[i + 1] {
            a.spend = true;
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        // "how much cash did I take out": withdrawals, money out.
        if matches!(w, "take" | "took" | "taken" | "taking" | "pull" | "pulled" | "pulling")
            && norm(i + 1) == "out"
            && !used[i + 1]
        {
            a.spend = true;
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        // "what's my net for October": money in less money out.
        if w == "net" && i > 0 && matches!(norm(i - 1), "my" | "mon" | "the" | "le") {
            a.cash = true;
            intent.words.push(span(i, i));
            used[i] = true;
            continue;
        }
        // "what went out of the current account", "how much went out": spending.
        // "mon salaire est tombé ?", "la facture est passée ?", "tout ce qui est passé
        // sur le livret": whether, and what, went through — the lines.
        if w == "est"
            && matches!(norm(i + 1), "tombe" | "tombee" | "passe" | "passee" | "arrive" | "arrivee")
            && !used[i + 1]
            && !tokens
                .iter()
                .any(|t| matches!(t.norm.as_str(), "combien" | "cb" | "cmb" | "total" | "montant"))
        {
            a.list = true;
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        // "month-wise cash flow", "category-wise spending": by month, by category.
        if norm(i + 1) == "wise" && !used[i + 1] {
            if let Some(g) = crate::parser::lexicon::group_word(w) {
                intent.second_ask |= intent.group_by.is_some_and(|h| h != g);
                intent.group_by = Some(g);
                intent.words.push(span(i, i + 1));
                used[i] = true;
                used[i + 1] = true;
                continue;
            }
        }
        // "how much has the rent come to this year": a total, which is asked already.
        if matches!(w, "come" | "came" | "comes")
            && norm(i + 1) == "to"
            && !used[i + 1]
            && (i + 2 >= tokens.len()
                || matches!(norm(i + 2), "this" | "last" | "in" | "so" | "for" | "over"))
        {
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        if matches!(w, "went" | "goes" | "gone" | "going" | "came" | "come" | "comes")
            && norm(i + 1) == "out"
            && !used[i + 1]
        {
            a.spend = true;
            // ("list what went out": the debits.)
            if tokens.iter().any(|t| matches!(t.norm.as_str(), "list" | "liste" | "lister")) {
                intent.direction = intent.direction.or(Some(Direction::Debit));
            }
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            if norm(i + 2) == "of" && !used[i + 2] {
                used[i + 2] = true;
            }
            continue;
        }
        // "combien j'ai mis en restos", "on a filé combien à Foncia", "ai-je versé à la
        // MAIF": money put somewhere, in the past — spent (not "mis de côté", read above;
        // not onto one's own accounts, which stays unread).
        // ("le montant versé à la MAIF": what was paid, too.)
        let aux = (1..=3).any(|k| i >= k && matches!(norm(i - k), "ai" | "jai" | "a" | "avons" | "g" | "as"))
            || (i >= 1 && matches!(norm(i - 1), "montant" | "somme" | "total"));
        let own = (i + 1..(i + 4).min(tokens.len()))
            .any(|k| matches!(norm(k), "livret" | "compte" | "epargne" | "cote" | "pel" | "ldds"));
        if aux
            && !own
            && matches!(w, "mis" | "file" | "verse")
            && (i + 1..(i + 3).min(tokens.len()))
                .any(|k| matches!(norm(k), "en" | "chez" | "dans" | "pour" | "a" | "au" | "aux"))
        {
            a.spend = true;
            intent.words.push(span(i, i));
            used[i] = true;
            continue;
        }
        // "how much did I transfer to savings", "combien j'ai viré": money moved, in the
        // past — a read of what went out, not a request to move it.
        let past = (i >= 2
            && matches!((norm(i - 2), norm(i - 1)), ("did" | "have", "i") | ("j", "ai") | ("i", "ve")))
            || (i >= 1 && norm(i - 1) == "jai");
        if past
            && matches!(
                w,
                "transfer" | "transferred" | "moved" | "move" | "vire" | "transfere" | "sent" | "verse"
            )
        {
            a.spend = true;
            intent.moved = true;
            intent.words.push(span(i, i));
            used[i] = true;
            continue;
        }
        if let Some(n) = income_phrase(tokens, used, i) {
            a.income = true;
            intent.words.push(span(i, i + n - 1));
            used[i..i + n].iter_mut().for_each(|u| *u = true);
            continue;
        }
        // "paid by card", "payé par carte": the usual way, which changes nothing. Other
        // ways (cheque, transfer, cash) are filters no tool has: left unread.
        if matches!(w, "by" | "par") && !used.get(i + 1).copied().unwrap_or(true) && is_card(norm(i + 1)) {
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        // "send me my spending": the answer is the message.
        if w == "send" && matches!(norm(i + 1), "me" | "us") {
            used[i] = true;
            continue;
        }
        if w == "direct" && matches!(norm(i + 1), "debit" | "debits") && !used[i + 1] {
            a.recurring = true;
            intent.words.push(span(i, i + 1));
            used[i] = true;
            used[i + 1] = true;
            continue;
        }
        if let Some((other, last)) = side_turned_down(tokens, used, i).filter(|_| turned_down.is_none()) {
            *turned_down = Some((other, i, last));
            used[i..=last].iter_mut().for_each(|u| *u = true);
            continue;
        }
        if let Some((dir, n)) = direction_words(tokens, used, i) {
            intent.direction = Some(dir);
            intent.words.push(span(i, i + n - 1));
            used[i..i + n].iter_mut().for_each(|u| *u = true);
            continue;
        }
        let mark = |flag: &mut bool, intent: &mut Intent, used: &mut [bool]| {
            *flag = true;
            intent.words.push(span(i, i));
            used[i] = true;
        };
        // "which merchants received the most of my money": they received, the user paid.
        // "how much did EDF take (from me)", "how much has it had off me": the same
        // ("how much did I take out": not that).
        let theirs = |w: &str, i: usize| {
            let asked = (1..=4).any(|k| i >= k && matches!(norm(i - k), "did" | "has" | "have"));
            (matches!(w, "received" | "receive" | "recu" | "recus" | "recoivent")
                && (i + 1..i + 6)
                    .any(|k| matches!((norm(k), norm(k + 1)), ("my", "money") | ("mon", "argent"))))
                || (matches!(w, "take" | "took" | "taken")
                    && asked
                    && i >= 1
                    && !matches!(norm(i - 1), "i" | "we" | "you")
                    && norm(i + 1) != "out")
                || (w == "had" && matches!((norm(i + 1), norm(i + 2)), ("off", "me" | "us")))
        };
        // "les soldes d'hiver" are the sales.
        let sales = w == "soldes" && norm(i + 1) == "d" && matches!(norm(i + 2), "hiver" | "ete");
        // "impôt sur le revenu", "income tax": a tax, not money coming in.
        let tax = (is_income_word(w) && matches!(norm(i + 1), "tax" | "taxes"))
            || (is_income_word(w) && i >= 3 && norm(i - 3) == "impot" && norm(i - 2) == "sur");
        if tax || sales {
            continue;
        }
        if is_balance_word(w) && !matches!(norm(i + 1), "net" | "nette") {
            mark(&mut a.balance, intent, used);
        } else if is_budget_word(w) {
            mark(&mut a.budget, intent, used);
        } else if is_recurring_word(w) {
            mark(&mut a.recurring, intent, used);
            // "a recurring charge", "recurring charges": the payments, not the housing
            // category's "charges".
            if matches!(norm(i + 1), "charge" | "charges" | "debit" | "debits") && !used[i + 1] {
                used[i + 1] = true;
            }
        } else if is_subscription_word(w) {
            subscription_words.push(i);
        } else if is_cash_flow_word(w) || (w == "epargne" && saves_before(tokens, i)) {
            // "combien j'ai épargné", "how much did I save": what was kept back (money in
            // less money out), or what was moved to savings? Writers read both.
            let verb = SAVED.contains(&w) || w == "epargne";
            if verb && !(i >= 2 && matches!(norm(i - 1), "d") && matches!(norm(i - 2), "taux" | "capacite")) {
                intent.saved = Some(span(i, i));
            }
            mark(&mut a.cash, intent, used);
        } else if is_spend_word(w) || theirs(w, i) {
            mark(&mut a.spend, intent, used);
        } else if is_income_word(w) {
            mark(&mut a.income, intent, used);
        } else if is_list_word(w)
            && !(1..=3).any(|k| i >= k && crate::parser::lexicon::negates_at(tokens, i - k))
        {
            // "without the SNCF tickets": the transactions left out, not a list asked for.
            mark(&mut a.list, intent, used);
        } else if is_breakdown_word(w) {
            mark(&mut a.breakdown, intent, used);
        } else if matches!(
            w,
            "combien" | "cb" | "total" | "totale" | "totales" | "totaux" | "montant" | "somme"
        ) || (w == "much" && i > 0 && tokens[i - 1].norm == "how")
        {
            intent.asks_amount = true;
            // "cb il me reste", texting for "combien" (not the card: "paiements CB").
            if w == "cb"
                && (i == 0
                    || !matches!(norm(i - 1), "par" | "en" | "by" | "carte" | "paiements" | "paiement"))
            {
                used[i] = true;
            }
        } else if w == "au" && norm(i + 1) == "jour" && norm(i + 2) == "le" && norm(i + 3) == "jour" {
            // "au jour le jour": day by day.
            intent.second_ask |= intent.group_by.is_some_and(|h| h != GroupBy::Day);
            intent.group_by = Some(GroupBy::Day);
            intent.words.push(span(i, i + 3));
            used[i..=i + 3].iter_mut().for_each(|u| *u = true);
        } else if w == "add" && norm(i + 1) == "up" && !used[i + 1] {
            // "add up my restaurant spending": a total.
            intent.asks_amount = true;
            used[i] = true;
            used[i + 1] = true;
        } else if matches!(w, "par" | "by" | "per")
            // "how much a month do I spend on takeaway": per month.
            || (w == "a"
                && norm(i + 2) != "ago"
                && ((i >= 2 && norm(i - 2) == "how" && norm(i - 1) == "much")
                    || (i >= 1 && matches!(norm(i - 1), "spend" | "cost" | "costs" | "blow"))))
        {
            if let Some(g) = tokens
                .get(i + 1)
                .filter(|_| !used.get(i + 1).copied().unwrap_or(true))
                .and_then(|t| group_word(&t.norm))
            {
                // "per month, and per week": two breakdowns, two asks.
                intent.second_ask |= intent.group_by.is_some_and(|h| h != g);
                intent.group_by = Some(g);
                intent.rate_word = false;
                intent.words.push(span(i, i + 1));
                used[i] = true;
                used[i + 1] = true;
                // "semaine par semaine", "mois par mois".
                if i > 0 && !used[i - 1] && group_word(norm(i - 1)) == Some(g) {
                    used[i - 1] = true;
                }
                // "how much per day do I blow", "combien par mois": a rate, the average.
                // "how much do I spend per month on…", "combien je dépense par semaine
                // en…": a habit, right after its verb in the present.
                // ("how much do I spend on navigo per month", "combien dépensons-nous par
                // mois en restaurants": the verb need not be right before.)
                // ("dépense", "coûte" are also past participles, "m'a coûté": right before
                // only.)
                let present = |j: usize| {
                    matches!(
                        norm(j),
                        "spend"
                            | "spends"
                            | "spending"
                            | "paying"
                            | "depensons"
                            | "depensez"
                            | "depensent"
                            | "blow"
                            | "pay"
                            | "payons"
                            | "payez"
                    ) || (j + 1 == i
                        && matches!(norm(j), "depense" | "depenses" | "coute" | "coutent" | "cost" | "costs"))
                };
                let past = |j: usize| {
                    matches!(
                        norm(j),
                        "did"
                            | "have"
                            | "has"
                            | "had"
                            | "ai"
                            | "jai"
                            | "as"
                            | "avons"
                            | "avez"
                            | "avait"
                            | "avais"
                    )
                };
                let habit = (0..i).any(present) && !(0..i).any(past);
                let asked = (0..i)
                    .any(|j| norm(j) == "combien" || (norm(j) == "much" && j > 0 && norm(j - 1) == "how"));
                // ("burn per day": a burn rate.)
                let rate = (i >= 2 && norm(i - 2) == "how" && norm(i - 1) == "much")
                    || (i >= 1 && norm(i - 1) == "burn" && w == "per")
                    || (i >= 1 && norm(i - 1) == "combien")
                    || (habit && asked);
                if rate && matches!(g, GroupBy::Month | GroupBy::Week | GroupBy::Day) {
                    intent.average = true;
                }
            }
        } else if let Some((g, n, first, last)) = top_groups(tokens, used, i) {
            intent.group_by = Some(g);
            intent.top = Some(n);
            intent.words.push(span(first, last));
            used[first..=last].iter_mut().for_each(|u| *u = true);
        } else if w == "top" {
            // "top 5 dépenses": the largest transactions; "top 3 restos": the first
            // merchants of a category, once its name is read (`top_of_name`).
            let n = tokens
                .get(i + 1)
                .filter(|t| t.kind == TokenKind::Number && !used[i + 1])
                .and_then(|t| t.norm.parse::<u32>().ok())
                .filter(|n| (1..=50).contains(n));
            // ("top 3 des dépenses loisirs", "top 5 of my expenses": the same.)
            let mut k = i + 1 + usize::from(n.is_some());
            // ("top 10 biggest debits": the largest.)
            while matches!(
                norm(k),
                "des" | "de" | "d" | "of" | "my" | "mes" | "the" | "les" | "biggest" | "largest"
            ) {
                k += 1;
            }
            let next = norm(k);
            let items = is_transaction_word(next)
                || matches!(
                    next,
                    "depenses"
                        | "expenses"
                        | "purchases"
                        | "achats"
                        | "commandes"
                        | "orders"
                        | "debits"
                        | "payments"
                        | "paiements"
                );
            used[i] = true;
            if n.is_some() {
                used[i + 1] = true;
            }
            intent.words.push(span(i, i + usize::from(n.is_some())));
            if items {
                intent.largest = true;
                intent.limit = Some(n.unwrap_or(DEFAULT_LARGEST));
            } else {
                intent.top_of_name = Some(n.unwrap_or(DEFAULT_TOP));
                // "top 5 grocery stores": the merchants of the name, said after it.
                let shops = |w: &str| {
                    matches!(w, "stores" | "shops" | "merchants" | "magasins" | "marchands" | "enseignes")
                };
                if let Some(j) = (k + 1..(k + 3).min(tokens.len())).find(|&j| !used[j] && shops(norm(j))) {
                    used[j] = true;
                }
            }
        } else if let Some(g) = time_group_word(w) {
            intent.second_ask |= intent.group_by.is_some_and(|h| h != g);
            intent.rate_word = intent.group_by.is_none();
            intent.group_by = Some(g);
            intent.words.push(span(i, i));
            used[i] = true;
        } else if let Some(n) = largest_marker(tokens, used, i) {
            intent.largest = true;
            // "biggest first": the whole list in that order, not the few largest.
            if norm(i + n - 1) == "first" {
                intent.limit = Some(crate::DEFAULT_LIST_LIMIT);
            }
            intent.words.push(span(i, i + n - 1));
            used[i..i + n].iter_mut().for_each(|u| *u = true);
        } else if is_latest_word(w) && !used[i] {
            intent.latest = true;
            intent.words.push(span(i, i));
            used[i] = true;
        } else if let Some((kind, word)) = fuzzy_intent_word(w) {
            let flag = match kind {
                Kind::Balance => &mut a.balance,
                Kind::Budget => &mut a.budget,
                Kind::Recurring => &mut a.recurring,
                Kind::CashFlow => &mut a.cash,
                Kind::Income => &mut a.income,
                Kind::List => &mut a.list,
                Kind::Spending => &mut a.spend,
            };
            *flag = true;
            intent.fuzzy = Some(format!("« {} » → {word}", span(i, i)));
            used[i] = true;
        }
    }
}
