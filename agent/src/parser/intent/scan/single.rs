//! Words read alone, once no phrase has taken them: what they ask for (a balance, a
//! total, a list…), how (by month, the top 5, the largest, the newest), or an intent
//! keyword misspelt.

use super::Scan;
use crate::args::GroupBy;
use crate::parser::intent::rank::top_groups;
use crate::parser::intent::words::fuzzy_intent_word;
use crate::parser::intent::{Kind, DEFAULT_LARGEST, DEFAULT_TOP, SAVED};
use crate::parser::lexicon::{
    group_word, is_balance_word, is_breakdown_word, is_budget_word, is_cash_flow_word, is_income_word,
    is_latest_word, is_list_word, is_recurring_word, is_spend_word, is_subscription_word,
    is_transaction_word, largest_marker, saves_before, time_group_word,
};
use crate::text::TokenKind;

/// Whether the word is a tax on income or the sales, which asks nothing: left unread.
pub(super) fn tax_or_sales(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "les soldes d'hiver" are the sales.
    let sales = w == "soldes" && s.norm(i + 1) == "d" && matches!(s.norm(i + 2), "hiver" | "ete");
    // "impôt sur le revenu", "income tax": a tax, not money coming in.
    let tax = (is_income_word(w) && matches!(s.norm(i + 1), "tax" | "taxes"))
        || (is_income_word(w) && i >= 3 && s.norm(i - 3) == "impot" && s.norm(i - 2) == "sur");
    tax || sales
}

/// Whether the word says money was taken by someone else ("how much did EDF take"): spending.
fn taken_by_them(s: &Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "which merchants received the most of my money": they received, the user paid.
    // "how much did EDF take (from me)", "how much has it had off me": the same
    // ("how much did I take out": not that).
    let asked = (1..=4).any(|k| i >= k && matches!(s.norm(i - k), "did" | "has" | "have"));
    (matches!(w, "received" | "receive" | "recu" | "recus" | "recoivent")
        && (i + 1..i + 6).any(|k| matches!((s.norm(k), s.norm(k + 1)), ("my", "money") | ("mon", "argent"))))
        || (matches!(w, "take" | "took" | "taken")
            && asked
            && i >= 1
            && !matches!(s.norm(i - 1), "i" | "we" | "you")
            && s.norm(i + 1) != "out")
        || (w == "had" && matches!((s.norm(i + 1), s.norm(i + 2)), ("off", "me" | "us")))
}

/// Whether the word asks for a balance, a budget, recurring payments, subscriptions, cash
/// flow, spending, income, a list or a breakdown.
pub(super) fn ask_word(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if is_balance_word(w) && !matches!(s.norm(i + 1), "net" | "nette") {
        s.a.balance = true;
        s.take();
    } else if is_budget_word(w) {
        s.a.budget = true;
        s.take();
    } else if is_recurring_word(w) {
        s.a.recurring = true;
        s.take();
        // "a recurring charge", "recurring charges": the payments, not the housing
        // category's "charges".
        if matches!(s.norm(i + 1), "charge" | "charges" | "debit" | "debits") && !s.used[i + 1] {
            s.used[i + 1] = true;
        }
    } else if is_subscription_word(w) {
        s.subscription_words.push(i);
    } else if is_cash_flow_word(w) || (w == "epargne" && saves_before(s.tokens, i)) {
        // "combien j'ai épargné", "how much did I save": what was kept back (money in
        // less money out), or what was moved to savings? Writers read both.
        let verb = SAVED.contains(&w) || w == "epargne";
        if verb && !(i >= 2 && matches!(s.norm(i - 1), "d") && matches!(s.norm(i - 2), "taux" | "capacite")) {
            s.intent.saved = Some(s.span(i, i));
        }
        s.a.cash = true;
        s.take();
    } else if is_spend_word(w) || taken_by_them(s) {
        s.a.spend = true;
        s.take();
    } else if is_income_word(w) {
        s.a.income = true;
        s.take();
    } else if is_list_word(w)
        && !(1..=3).any(|k| i >= k && crate::parser::lexicon::negates_at(s.tokens, i - k))
    {
        // "without the SNCF tickets": the transactions left out, not a list asked for.
        s.a.list = true;
        s.take();
    } else if is_breakdown_word(w) {
        s.a.breakdown = true;
        s.take();
    } else {
        return false;
    }
    true
}

/// Whether the word asks an amount: "combien", "total", "how much".
pub(super) fn amount_word(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if matches!(w, "combien" | "cb" | "total" | "totale" | "totales" | "totaux" | "montant" | "somme")
        || (w == "much" && i > 0 && s.tokens[i - 1].norm == "how")
    {
        s.intent.asks_amount = true;
        // "cb il me reste", texting for "combien" (not the card: "paiements CB").
        if w == "cb"
            && (i == 0 || !matches!(s.norm(i - 1), "par" | "en" | "by" | "carte" | "paiements" | "paiement"))
        {
            s.used[i] = true;
        }
        return true;
    }
    false
}

/// Whether the word starts "au jour le jour": by day.
pub(super) fn day_by_day(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if w == "au" && s.norm(i + 1) == "jour" && s.norm(i + 2) == "le" && s.norm(i + 3) == "jour" {
        // "au jour le jour": day by day.
        s.intent.second_ask |= s.intent.group_by.is_some_and(|h| h != GroupBy::Day);
        s.intent.group_by = Some(GroupBy::Day);
        s.intent.words.push(s.span(i, i + 3));
        s.used[i..=i + 3].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word starts "add up": a total.
pub(super) fn add_up(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if w == "add" && s.norm(i + 1) == "up" && !s.used[i + 1] {
        // "add up my restaurant spending": a total.
        s.intent.asks_amount = true;
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word is "par", "by", "per" (or "a" in "how much a month"): a breakdown by
/// the unit named next, if one is, and an average when it is a rate.
pub(super) fn per_unit(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    let per = matches!(w, "par" | "by" | "per")
        // "how much a month do I spend on takeaway": per month.
        || (w == "a"
            && s.norm(i + 2) != "ago"
            && ((i >= 2 && s.norm(i - 2) == "how" && s.norm(i - 1) == "much")
                || (i >= 1 && matches!(s.norm(i - 1), "spend" | "cost" | "costs" | "blow"))));
    if !per {
        return false;
    }
    if let Some(g) = s
        .tokens
        .get(i + 1)
        .filter(|_| !s.used.get(i + 1).copied().unwrap_or(true))
        .and_then(|t| group_word(&t.norm))
    {
        // "per month, and per week": two breakdowns, two asks.
        s.intent.second_ask |= s.intent.group_by.is_some_and(|h| h != g);
        s.intent.group_by = Some(g);
        s.intent.rate_word = false;
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        // "semaine par semaine", "mois par mois": a breakdown, never an average.
        let repeated = i > 0 && !s.used[i - 1] && group_word(s.norm(i - 1)) == Some(g);
        if repeated {
            s.used[i - 1] = true;
        }
        let over_time = matches!(g, GroupBy::Month | GroupBy::Week | GroupBy::Day);
        if asks_rate(s) && over_time && !(cfg!(feature = "readings") && repeated) {
            s.intent.average = true;
        } else if over_time
            && i >= 1
            && (matches!(s.norm(i - 1), "spent" | "paid")
                || (i >= 2
                    && matches!(s.norm(i - 1), "spend" | "depense")
                    && matches!(s.norm(i - 2), "i" | "we" | "ai" | "jai" | "avons")))
        {
            // "how much did I spend per week since September": a week's average, or
            // week by week? Right after a verb in the past, either.
            s.intent.rate_word = true;
        }
    }
    true
}

/// Whether the unit after the word being read is a rate ("how much per day"), not a breakdown.
fn asks_rate(s: &Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "how much per day do I blow", "combien par mois": a rate, the average.
    // "how much do I spend per month on…", "combien je dépense par semaine
    // en…": a habit, right after its verb in the present.
    // ("how much do I spend on navigo per month", "combien dépensons-nous par
    // mois en restaurants": the verb need not be right before.)
    // ("dépense", "coûte" are also past participles, "m'a coûté": right before
    // only.)
    let present = |j: usize| {
        matches!(
            s.norm(j),
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
            && matches!(s.norm(j), "depense" | "depenses" | "coute" | "coutent" | "cost" | "costs"))
    };
    let past = |j: usize| {
        matches!(
            s.norm(j),
            "did" | "have" | "has" | "had" | "ai" | "jai" | "as" | "avons" | "avez" | "avait" | "avais"
        )
    };
    let habit = (0..i).any(present) && !(0..i).any(past);
    let asked =
        (0..i).any(|j| s.norm(j) == "combien" || (s.norm(j) == "much" && j > 0 && s.norm(j - 1) == "how"));
    // ("burn per day": a burn rate.)
    (i >= 2 && s.norm(i - 2) == "how" && s.norm(i - 1) == "much")
        || (i >= 1 && s.norm(i - 1) == "burn" && w == "per")
        || (i >= 1 && s.norm(i - 1) == "combien")
        || (habit && asked)
}

/// Whether the word starts a ranking of groups ("top 5 marchands").
pub(super) fn top_groups_named(s: &mut Scan<'_>) -> bool {
    if let Some((g, n, first, last)) = top_groups(s.tokens, s.used, s.i) {
        s.intent.group_by = Some(g);
        s.intent.top = Some(n);
        s.intent.words.push(s.span(first, last));
        s.used[first..=last].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word is "top": the largest transactions, or the first of what is named.
pub(super) fn top(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if w != "top" {
        return false;
    }
    // "top 5 dépenses": the largest transactions; "top 3 restos": the first
    // merchants of a category, once its name is read (`top_of_name`).
    let n = s
        .tokens
        .get(i + 1)
        .filter(|t| t.kind == TokenKind::Number && !s.used[i + 1])
        .and_then(|t| t.norm.parse::<u32>().ok())
        .filter(|n| (1..=50).contains(n));
    // ("top 3 des dépenses loisirs", "top 5 of my expenses": the same.)
    let mut k = i + 1 + usize::from(n.is_some());
    // ("top 10 biggest debits": the largest.)
    while matches!(
        s.norm(k),
        "des" | "de" | "d" | "of" | "my" | "mes" | "the" | "les" | "biggest" | "largest"
    ) {
        k += 1;
    }
    let next = s.norm(k);
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
    s.used[i] = true;
    if n.is_some() {
        s.used[i + 1] = true;
    }
    s.intent.words.push(s.span(i, i + usize::from(n.is_some())));
    if items {
        s.intent.largest = true;
        s.intent.limit = Some(n.unwrap_or(DEFAULT_LARGEST));
    } else {
        s.intent.top_of_name = Some(n.unwrap_or(DEFAULT_TOP));
        // "top 5 grocery stores": the merchants of the name, said after it.
        let shops =
            |w: &str| matches!(w, "stores" | "shops" | "merchants" | "magasins" | "marchands" | "enseignes");
        if let Some(j) = (k + 1..(k + 3).min(s.tokens.len())).find(|&j| !s.used[j] && shops(s.norm(j))) {
            s.used[j] = true;
        }
    }
    true
}

/// Whether the word is a breakdown over time in one word ("daily", "mensuelles").
pub(super) fn time_group(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if let Some(g) = time_group_word(w) {
        s.intent.second_ask |= s.intent.group_by.is_some_and(|h| h != g);
        s.intent.rate_word = s.intent.group_by.is_none();
        s.intent.group_by = Some(g);
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word starts a marker of the largest amounts ("biggest", "plus gros").
pub(super) fn largest(s: &mut Scan<'_>) -> bool {
    let i = s.i;
    if let Some(n) = largest_marker(s.tokens, s.used, i) {
        s.intent.largest = true;
        // "biggest first": the whole list in that order, not the few largest.
        if s.norm(i + n - 1) == "first" {
            s.intent.limit = Some(crate::args::DEFAULT_LIST_LIMIT);
        }
        s.intent.words.push(s.span(i, i + n - 1));
        s.used[i..i + n].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word asks for the newest transactions ("last", "dernières").
pub(super) fn latest(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if is_latest_word(w) && !s.used[i] {
        s.intent.latest = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word is an intent keyword misspelt ("budjet"): what it asks, and the typo said.
pub(super) fn misspelt(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if let Some((kind, word)) = fuzzy_intent_word(w) {
        let flag = match kind {
            Kind::Balance => &mut s.a.balance,
            Kind::Budget => &mut s.a.budget,
            Kind::Recurring => &mut s.a.recurring,
            Kind::CashFlow => &mut s.a.cash,
            Kind::Income => &mut s.a.income,
            Kind::List => &mut s.a.list,
            Kind::Spending | Kind::Activity => &mut s.a.spend,
        };
        *flag = true;
        s.intent.fuzzy = Some(format!("« {} » → {word}", s.span(i, i)));
        s.used[i] = true;
        return true;
    }
    false
}
