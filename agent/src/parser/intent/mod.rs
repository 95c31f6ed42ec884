//! What a message asks to compute — spending, income, a list, cash flow, balances,
//! budgets, recurring payments — and how: a breakdown, the top N, the largest or the
//! latest, one side of the ledger. Read from the words, before periods and filters.

use super::lexicon::{asks_where_most, is_transaction_word};
use crate::args::{AveragePer, Direction, GroupBy};
use crate::text::Token;

mod count;
mod lines;
mod rank;
mod scan;
pub(crate) mod when;
mod words;
use crate::locale::Locale;
pub use crate::tool::spending_summary::DEFAULT_TOP;
pub(crate) use when::When;
pub(crate) use words::topic;
use words::{CREDIT_SIDE, DEBIT_SIDE};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Spending,
    Income,
    List,
    CashFlow,
    Balance,
    Budget,
    Recurring,
    /// When and how often: the activity of a name.
    Activity,
}

/// What the message asks for, before the period and filters.
#[derive(Clone, Default)]
pub(crate) struct Intent {
    pub(crate) kind: Option<Kind>,
    pub(crate) explicit: bool,
    pub(crate) group_by: Option<GroupBy>,
    /// The user's words that carried the intent.
    pub(crate) words: Vec<String>,
    /// "combien", "how much", "total": a quantity is asked, but of what is unsaid.
    pub(crate) asks_amount: bool,
    /// "top 5 merchants": keep the N largest groups.
    pub(crate) top: Option<u32>,
    /// "remboursements", "credits", "débits": one side of the ledger.
    pub(crate) direction: Option<Direction>,
    /// "should I", "devrais-je", "conseil": advice, which no tool gives.
    pub(crate) advice: bool,
    /// Only a breakdown was asked ("by month"): in a follow-up, the tool stays.
    pub(crate) group_only: bool,
    /// The intent word was misspelt: "« budjet » → budget".
    pub(crate) fuzzy: Option<String>,
    /// "my biggest expenses", "ma plus grosse dépense": largest amounts first.
    pub(crate) largest: bool,
    /// "my last 10 transactions": the newest ones, whatever the period.
    pub(crate) latest: bool,
    /// How many transactions: "les 5 dernières opérations", "my 3 biggest expenses".
    pub(crate) limit: Option<u32>,
    /// "moyenne", "average", "panier moyen": an average is asked…
    pub(crate) average: bool,
    /// …per month, week, day or transaction, when the message says.
    pub(crate) average_per: Option<AveragePer>,
    /// "did I transfer", "j'ai viré": money moved between accounts, asked in the past.
    pub(crate) moved: bool,
    /// Words asking for two things no one tool answers ("mon solde et mes revenus",
    /// "budgets and income"): the plan would drop one of them.
    pub(crate) second_ask: bool,
    /// "top 3 restos": the first N of what the message names, which the question reads
    /// once it knows the name.
    pub(crate) top_of_name: Option<u32>,
    /// "liste", "list": the transactions themselves are asked for.
    pub(crate) list_verb: bool,
    /// "everything", "tout ce que…": all the transactions the rest selects.
    pub(crate) everything: bool,
    /// Recurring payments read from "subscriptions" alone, with no word asking which
    /// ("subscriptions over the past 12 months": those payments, or what they cost?).
    pub(crate) bare_subscriptions: bool,
    /// Only names were shown ("montre le compte courant"): the transactions, or an
    /// account alone, its balance.
    pub(crate) shown_names: bool,
    /// "combien j'ai épargné", "how much did I save", "mis de côté": money kept back or
    /// moved to savings — the words, when said.
    pub(crate) saved: Option<String>,
    /// The breakdown over time was one word ("daily spend", "dépenses mensuelles"),
    /// which people use for a rate as much as for a breakdown.
    pub(crate) rate_word: bool,
    /// "la dernière fois", "since when", "how often": when, or how often, money went.
    pub(crate) when: Option<When>,
}

/// What the words ask for, before one kind is chosen: several may be said at once.
#[derive(Default)]
pub(super) struct Asked {
    pub(super) spend: bool,
    pub(super) income: bool,
    pub(super) list: bool,
    pub(super) breakdown: bool,
    pub(super) balance: bool,
    pub(super) budget: bool,
    pub(super) recurring: bool,
    pub(super) cash: bool,
    /// "everything", "tout ce que…".
    pub(super) everything: bool,
}

/// Transactions shown for "my biggest expenses" when the message gives no number.
pub const DEFAULT_LARGEST: u32 = 5;
/// Transactions shown for "my latest transactions" when the message gives no number.
pub const DEFAULT_LATEST: u32 = 10;

/// Reads what the message asks to compute, and how, from the words not yet used; the
/// words read are marked used.
pub(crate) fn read(tokens: &[Token], used: &mut [bool], message: &str) -> Intent {
    let mut intent = Intent::default();
    let mut a = Asked::default();
    // "abonnements" asks for the subscriptions themselves unless an amount is asked.
    let mut subscription_words = Vec::new();
    // "…, pas les remboursements", "not the refunds": one side of the ledger turned
    // down — the other side, if the message asks for it too (read at the end).
    let mut turned_down: Option<(Direction, usize, usize)> = None;
    #[cfg(feature = "activity")]
    when::read(tokens, used, message, &mut intent);
    scan::words(tokens, used, message, &mut intent, &mut a, (&mut subscription_words, &mut turned_down));
    subscriptions(tokens, message, subscription_words, &mut intent, &mut a);
    where_money_goes(tokens, used, message, &mut intent, &mut a);
    rank::groups_ranked(tokens, used, message, &mut intent, &mut a);
    trend(tokens, used, message, &mut intent);
    // "where did I shop most for groceries": the spending by merchant.
    if intent.group_by.is_none() && !a.income && asks_where_most(tokens) {
        rank::where_most(tokens, used, message, &mut intent);
        a.spend = true;
    }
    if a.breakdown && intent.group_by.is_none() {
        intent.group_by = Some(GroupBy::Category);
    }
    rank::largest_groups(tokens, used, message, &mut intent, &mut a);
    most_and_every(tokens, used, &intent);
    rank::largest_or_latest(tokens, used, &mut intent, &mut a);
    average(&mut intent, &mut a);
    let (count, how_often) = count::read(tokens, used, &mut a, &mut intent);
    lines::received(tokens, &mut intent, &mut a);
    lines::what_paid(tokens, &mut intent, &mut a);
    lines::total_or_list(tokens, count, how_often, &mut intent, &mut a);
    let shown = lines::shown(tokens);
    lines::everything_shown(shown, &intent, &mut a);
    lines::what_came_in(tokens, shown, &mut intent, &mut a);
    let show_verb = lines::show_verb(tokens);
    lines::direct_debits(tokens, show_verb, &mut intent, &mut a);
    lines::names_shown(show_verb, &mut intent, &mut a);
    what_is_left(tokens, used, message, &mut intent, &mut a);
    held(tokens, &mut intent, &mut a);
    choose_kind(&mut intent, &a);
    turned_down_read(tokens, used, message, turned_down, &mut intent);
    intent.explicit = intent.kind.is_some();
    intent
}

/// Whether "abonnements" asks for the recurring payments: yes, unless anything else is
/// asked of them.
fn subscriptions(
    tokens: &[Token],
    message: &str,
    subscription_words: Vec<usize>,
    intent: &mut Intent,
    a: &mut Asked,
) {
    // "mes abonnements": the recurring payments; "paiements récurrents dans les
    // abonnements": the word is then the category, read as a name.
    // "my subscription payments": the payments, in the category.
    let payments_named = tokens
        .iter()
        .any(|t| matches!(t.norm.as_str(), "payments" | "paiements" | "prelevements" | "debits"));
    if !subscription_words.is_empty()
        && !a.spend
        && !a.income
        && !intent.asks_amount
        && !a.cash
        && !a.recurring
        && !payments_named
    {
        a.recurring = true;
        intent.bare_subscriptions = !tokens.iter().any(|t| {
            matches!(
                t.norm.as_str(),
                "quels"
                    | "quelles"
                    | "quel"
                    | "which"
                    | "what"
                    | "whats"
                    | "quoi"
                    | "list"
                    | "liste"
                    | "show"
                    | "montre"
                    | "affiche"
                    | "rank"
                    | "current"
                    | "cours"
                    | "actuels"
                    | "recurrents"
                    | "recurring"
            )
        });
        // The word is also the category's name: left for the names, it filters the
        // recurring payments on it ("which subscriptions do I pay").
        for i in subscription_words {
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        }
    }
}

/// Whether the money is asked where it goes: a breakdown by category.
fn where_money_goes(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent, a: &mut Asked) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "where did my money go", "où passe mon argent": a breakdown by category.
    let asks_where = tokens.iter().any(|t| matches!(t.norm.as_str(), "where" | "ou"));
    if asks_where {
        if let Some(i) = (0..tokens.len()).find(|&i| {
            !used[i]
                && matches!(norm(i), "go" | "goes" | "went" | "gone" | "passe" | "part" | "partent" | "file")
        }) {
            a.breakdown = true;
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
        }
    }
    // "combien j'ai dépensé, et où", "how much, and where": by merchant (on the server,
    // `readings`: the browser's badge shows the total).
    let n = tokens.len();
    if cfg!(feature = "readings")
        && n >= 3
        && matches!(norm(n - 2), "et" | "and")
        && matches!(norm(n - 1), "ou" | "where")
        && !used[n - 1]
    {
        intent.group_by = Some(GroupBy::Merchant);
        used[n - 2] = true;
        used[n - 1] = true;
    }
}

/// Whether a trend is asked: month by month, unless a breakdown is said.
fn trend(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "l'évolution de mes dépenses", "my spending trend": month by month, unless a
    // breakdown is said.
    if let Some(i) = (0..tokens.len())
        .find(|&i| !used[i] && matches!(norm(i), "evolution" | "trend" | "trends" | "tendance" | "tendances"))
    {
        used[i] = true;
        intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        if intent.group_by.is_none() {
            intent.group_by = Some(GroupBy::Month);
        }
        // ("évolution mensuelle": over time, not a rate.)
        intent.rate_word = false;
    }
}

/// Uses "most" once a ranking is read, and "every transaction", which a list is.
fn most_and_every(tokens: &[Token], used: &mut [bool], intent: &Intent) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "where I spent the most", once a ranking is read; "every transaction", "chaque
    // achat": all of them, which a list is.
    let ranked = intent.top.is_some() || intent.largest || intent.group_by.is_some();
    for (i, u) in used.iter_mut().enumerate() {
        let all = matches!(norm(i), "every" | "each" | "chaque")
            && (is_transaction_word(norm(i + 1))
                || matches!(norm(i + 1), "expense" | "depense" | "order" | "commande" | "single"));
        if (norm(i) == "most" && ranked) || all {
            *u = true;
        }
    }
}

/// The average's unit, from the breakdown's when unsaid; an average of nothing else is
/// of spending.
fn average(intent: &mut Intent, a: &mut Asked) {
    // "average monthly spend", "moyenne par semaine": the breakdown's unit is the
    // average's. Without "average", "par opération" asked nothing.
    if intent.average && intent.average_per.is_none() {
        intent.average_per = match intent.group_by {
            Some(GroupBy::Month) => Some(AveragePer::Month),
            Some(GroupBy::Week) => Some(AveragePer::Week),
            Some(GroupBy::Day) => Some(AveragePer::Day),
            _ => None,
        };
    }
    // "weekly spending breakdown": the breakdown, said twice.
    intent.rate_word &= !a.breakdown;
    if intent.average && !a.balance && !a.budget && !a.recurring && !a.cash && !a.income && !a.list {
        a.spend = true;
    }
}

/// Whether "what's left" asks for the balance (or the budget's, when one is named).
fn what_is_left(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent, a: &mut Asked) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "what's left on my current account", "il reste combien sur le compte joint": the
    // balance — or the budget's, when one is named. Left of spending is neither, nor
    // "how much is left" with no account or bank said (a budget's, or the balance?):
    // the word stays unread.
    if let Some(i) =
        (0..tokens.len()).find(|&i| !used[i] && matches!(norm(i), "left" | "reste" | "restant" | "remaining"))
    {
        let somewhere = (0..tokens.len()).any(|k| {
            matches!(
                norm(k),
                "sur"
                    | "on"
                    | "in"
                    | "en"
                    | "dans"
                    | "dessus"
                    | "account"
                    | "accounts"
                    | "compte"
                    | "comptes"
                    | "bank"
                    | "banque"
                    | "livret"
            )
        });
        if a.budget
            || (somewhere && !a.spend && !a.income && !a.list && !a.recurring && !a.cash && !intent.average)
        {
            a.balance |= !a.budget;
            used[i] = true;
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        }
    }
}

/// Whether what the accounts hold is asked: "j'ai combien sur mes comptes", "jai cb en
/// tout sur mes comptes", "how much do I have in my accounts" — "ai", "have" said of
/// holding, not of a past deed ("j'ai dépensé sur mes comptes" is spending).
fn held(tokens: &[Token], intent: &mut Intent, a: &mut Asked) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let accounts = |j: usize| matches!(norm(j), "comptes" | "accounts" | "compte" | "account");
    let have = (0..tokens.len()).find(|&j| {
        matches!(norm(j), "ai" | "jai" | "have" | "avons")
            && matches!(norm(j + 1), "combien" | "cb" | "en" | "sur" | "in" | "on" | "dans" | "de")
    });
    let on_accounts = (0..tokens.len()).any(|j| {
        matches!(norm(j), "sur" | "on" | "in" | "dans")
            && (accounts(j + 1)
                || (matches!(norm(j + 1), "mes" | "my" | "nos" | "our" | "les" | "the") && accounts(j + 2)))
    });
    if let (Some(j), true) = (have, on_accounts) {
        a.balance = true;
        intent.words.push(tokens[j].norm.clone());
    }
}

/// The one kind of answer the asks make, and whether they make a second one.
fn choose_kind(intent: &mut Intent, a: &Asked) {
    // Asks that no one tool answers together: a balance with anything else, a budget
    // with income or cash flow, … (spending with income is cash flow; a list, a budget
    // or recurring payments show what was spent).
    intent.second_ask |= (a.balance && (a.budget || a.recurring || a.cash || a.spend || a.income || a.list))
        || (a.budget && (a.income || a.cash || a.recurring || a.list))
        || (a.recurring && (a.income || a.cash))
        || (a.cash && a.list);
    if intent.when.is_some() {
        // "la dernière fois que j'ai été payée": money in, when said so.
        if a.income && intent.direction.is_none() {
            intent.direction = Some(Direction::Credit);
        }
        // "lidl combien ce mois et c'était quand la dernière fois": an amount, and when.
        // "my biggest purchase this year and when did I last go to Decathlon": a
        // ranking, and when.
        let ranked = intent.largest || intent.top.is_some() || intent.average || a.breakdown;
        intent.second_ask |= a.balance || a.budget || a.recurring || a.cash || intent.asks_amount || ranked;
        intent.kind = Some(Kind::Activity);
        return;
    }
    intent.kind = if a.balance {
        Some(Kind::Balance)
    } else if a.budget {
        Some(Kind::Budget)
    } else if a.recurring {
        Some(Kind::Recurring)
    } else if a.cash || (a.spend && a.income) {
        Some(Kind::CashFlow)
    } else if a.list || intent.direction.is_some() {
        Some(Kind::List)
    } else if a.income {
        Some(Kind::Income)
    } else if a.spend || intent.group_by.is_some() {
        intent.group_only = !a.spend;
        Some(Kind::Spending)
    } else {
        None
    };
}

/// Whether the side of the ledger turned down is read: only when the other is asked for.
fn turned_down_read(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    turned_down: Option<(Direction, usize, usize)>,
    intent: &mut Intent,
) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // The side turned down is read only when the other is asked for in so many words
    // ("debits only, not the refunds", "les virements reçus, pas les dépenses"); else
    // the negation stays unread.
    if let Some((other, a, b)) = turned_down {
        let outside =
            |f: &dyn Fn(&str) -> bool| (0..tokens.len()).any(|j| !(a..=b).contains(&j) && f(norm(j)));
        let asked = match other {
            Direction::Debit => outside(&|w| DEBIT_SIDE.contains(&w) || matches!(w, "commandes" | "orders")),
            Direction::Credit => outside(&|w| {
                CREDIT_SIDE.contains(&w)
                    || matches!(w, "recu" | "recus" | "received" | "came" | "revenus" | "income")
            }),
        };
        let agrees = intent.direction.is_none_or(|d| d == other);
        // Spending is the debits, income credits: turning the other side down says the
        // same. A list, or money in and out, keeps the side asked for.
        let same = matches!(
            (intent.kind, other),
            (Some(Kind::Spending), Direction::Debit) | (Some(Kind::Income), Direction::Credit)
        );
        let listed = matches!(intent.kind, Some(Kind::List | Kind::CashFlow));
        if asked && agrees && (same || listed) {
            if listed {
                intent.direction = Some(other);
                intent.kind = Some(Kind::List);
            }
            intent.words.push(message.get(tokens[a].start..tokens[b].end).unwrap_or_default().to_string());
        } else {
            used[a..=b].iter_mut().for_each(|u| *u = false);
        }
    }
}

/// Saving said as a verb.
const SAVED: &[&str] = &[
    "saving",
    "economise",
    "economises",
    "economisee",
    "economiser",
    "saved",
    "save",
    "epargnes",
    "epargnee",
    "epargner",
];

pub(crate) fn kind_label(kind: Kind, locale: Locale) -> &'static str {
    match (locale, kind) {
        (Locale::Fr, Kind::Income) => "total des revenus",
        (Locale::En, Kind::Income) => "total income",
        (Locale::Fr, Kind::List) => "liste des opérations",
        (Locale::En, Kind::List) => "list of transactions",
        (Locale::Fr, Kind::Spending) => "total des dépenses",
        (Locale::En, Kind::Spending) => "total spending",
        (Locale::Fr, Kind::CashFlow) => "entrées et sorties",
        (Locale::En, Kind::CashFlow) => "cash flow",
        (Locale::Fr, Kind::Balance) => "solde des comptes",
        (Locale::En, Kind::Balance) => "account balances",
        (Locale::Fr, Kind::Budget) => "suivi des budgets",
        (Locale::En, Kind::Budget) => "budget status",
        (Locale::Fr, Kind::Recurring) => "paiements récurrents",
        (Locale::En, Kind::Recurring) => "recurring payments",
        (Locale::Fr, Kind::Activity) => "fréquence et dates",
        (Locale::En, Kind::Activity) => "how often and when",
    }
}
