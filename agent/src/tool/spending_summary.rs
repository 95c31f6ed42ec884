//! `spending_summary`: money going out over a period, optionally filtered, broken down,
//! ranked ("top 5 merchants") or averaged. Its arguments and result are shared with
//! `income_summary`.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::answer::{average_sentence, left_out, share};
use crate::chart::spec::ChartSpec;
use crate::json::{string, u32_, unit, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::{money, period as read_period};
use super::Hide;
use crate::tools::{Average, EntityRef, Group, TransactionRow};
use crate::wording::{group_label, per_label};
use crate::args::{AveragePer, GroupBy, Period};
use crate::locale::Locale;
use crate::money::Money;

/// Groups shown for "top merchants" when the message gives no number.
pub const DEFAULT_TOP: u32 = 5;

ledger_args! {
    /// Arguments of `spending_summary` (money going out) and `income_summary` (money
    /// coming in) over a period, optionally filtered by category or merchant, optionally
    /// broken down.
    pub struct SummaryArgs {
        pub period: Period,
        /// A category key of the user's vocabulary ("groceries").
        pub category?: String,
        /// A merchant key of the user's vocabulary ("carrefour").
        pub merchant?: String,
        /// An account key of the user's vocabulary ("compte_courant").
        pub account?: String,
        [amounts]
        [exclude]
        #[serde(default)]
        pub group_by: GroupBy,
        /// With `group_by`: keep only the N largest groups ("top 5 merchants").
        pub top?: u32,
        /// Also the average per month, week, day or transaction.
        pub average?: AveragePer,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    #[serde(default)]
    pub account: Option<EntityRef>,
    /// The merchant and the category left out ("hors Deliveroo").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<EntityRef>,
    pub group_by: GroupBy,
    /// Money spent (spending_summary) or received (income_summary), as a positive
    /// amount in the ledger's main currency.
    pub total: Money,
    /// Transactions counted in `total`.
    pub count: u32,
    /// Amounts in other currencies, not converted and not in `total`.
    pub other_currencies: Vec<Money>,
    /// Largest first, or in date order for months, weeks and days; empty unless
    /// `group_by` is set.
    pub groups: Vec<Group>,
    /// The average asked for (`average` in the arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average: Option<Average>,
    /// "top 5 merchants" (1..=50): `groups` holds the N largest, and `transactions`
    /// only theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<u8>,
    /// For months, weeks or days (two or more): the groups as a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartSpec>,
    /// The matching transactions, newest first, at most `transactions_limit`.
    pub transactions: Vec<TransactionRow>,
    pub transactions_truncated: bool,
    /// Ids of the transactions counted, newest first: the first [`crate::tools::SOURCE_PAGE`]
    /// of them (the rest are paged on demand, `/runs/{id}/sources`).
    pub source_ids: Vec<i64>,
    /// How many transactions the result counted, in every currency.
    #[serde(default)]
    pub source_count: u64,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Money spent (outgoing transactions of expense categories) over a period, \
     optionally for one category or merchant, optionally grouped by category, \
     merchant or month. Returns the total, groups, matching transactions and their ids.";

pub type Args = SummaryArgs;
pub type Output = SummaryResult;

pub(crate) const EXPECT: (&str, &str) = ("Un total de dépenses", "A spending total");

const FIELDS: &[&str] = &[
    "period",
    "category",
    "merchant",
    "account",
    "amount_min",
    "amount_max",
    "exclude_category",
    "exclude_merchant",
    "group_by",
    "top",
    "average",
];

pub(crate) fn read(json: &Json) -> R<SummaryArgs> {
    let f = Fields::of(json, Some(FIELDS))?;
    Ok(SummaryArgs {
        period: f.req("period", read_period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        exclude_category: f.opt("exclude_category", string)?,
        exclude_merchant: f.opt("exclude_merchant", string)?,
        group_by: f.or("group_by", unit, GroupBy::default)?,
        top: f.opt("top", u32_)?,
        average: f.opt("average", unit)?,
    })
}

pub(crate) fn filters(a: &SummaryArgs) -> Filters<'_> {
    Filters {
        period: Some(&a.period),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        exclude_category: a.exclude_category.as_deref(),
        exclude_merchant: a.exclude_merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
    }
}

pub(crate) fn filters_mut(a: &mut SummaryArgs) -> FiltersMut<'_> {
    FiltersMut {
        period: Some(&mut a.period),
        category: Some(&mut a.category),
        merchant: Some(&mut a.merchant),
        account: Some(&mut a.account),
        excluded: Some((&mut a.exclude_category, &mut a.exclude_merchant)),
        amounts: Some((&mut a.amount_min, &mut a.amount_max)),
        written_category: None,
    }
}

pub(crate) fn title(a: &SummaryArgs, h: &Heading<'_>, locale: Locale) -> String {
    let (filter, period) = (&h.filter, h.period);
    if a.average.is_some() {
        return average_title(a, true, h, locale);
    }
    if a.group_by != GroupBy::None && a.top.is_some() {
        let n = a.top.unwrap_or(DEFAULT_TOP);
        let what = match (locale, a.group_by) {
            (Locale::Fr, GroupBy::Merchant) => format!("Top {n} des marchands"),
            (Locale::Fr, GroupBy::Month) => format!("Les {n} mois les plus chers"),
            (Locale::Fr, GroupBy::Week) => format!("Les {n} semaines les plus chères"),
            (Locale::Fr, GroupBy::Day) => format!("Les {n} jours les plus chers"),
            (Locale::Fr, GroupBy::Account) => format!("Top {n} des comptes"),
            (Locale::Fr, _) => format!("Top {n} des catégories"),
            (Locale::En, GroupBy::Merchant) => format!("Top {n} merchants"),
            (Locale::En, GroupBy::Month) => format!("The {n} most expensive months"),
            (Locale::En, GroupBy::Week) => format!("The {n} most expensive weeks"),
            (Locale::En, GroupBy::Day) => format!("The {n} most expensive days"),
            (Locale::En, GroupBy::Account) => format!("Top {n} accounts"),
            (Locale::En, _) => format!("Top {n} categories"),
        };
        return match filter {
            Some(f) => format!("{what} ({f}) — {period}"),
            None => format!("{what} — {period}"),
        };
    }
    if a.group_by != GroupBy::None {
        let base = match (locale, filter) {
            (Locale::Fr, Some(f)) => format!("Dépenses {f}"),
            (Locale::En, Some(f)) => format!("{f} spending"),
            (Locale::Fr, None) => "Dépenses".to_string(),
            (Locale::En, None) => "Spending".to_string(),
        };
        return format!("{base} {} — {period}", group_label(a.group_by, locale));
    }
    match (locale, filter) {
        (Locale::Fr, Some(f)) => format!("Dépenses : {f} — {period}"),
        (Locale::Fr, None) => format!("Total des dépenses — {period}"),
        (Locale::En, Some(f)) => format!("Spending: {f} — {period}"),
        (Locale::En, None) => format!("Total spending — {period}"),
    }
}

/// "Dépense moyenne par mois : Courses — 2025", "Average income per month — 2025".
pub(crate) fn average_title(a: &SummaryArgs, spending: bool, h: &Heading<'_>, locale: Locale) -> String {
    let what = match (locale, spending) {
        (Locale::Fr, true) => "Dépense moyenne",
        (Locale::Fr, false) => "Revenu moyen",
        (Locale::En, true) => "Average spending",
        (Locale::En, false) => "Average income",
    };
    let per = a.average.map_or("", |p| per_label(p, locale));
    let period = h.period;
    match (locale, &h.filter) {
        (Locale::Fr, Some(f)) => format!("{what} {per} : {f} — {period}"),
        (Locale::En, Some(f)) => format!("{what} {per}: {f} — {period}"),
        (_, None) => format!("{what} {per} — {period}"),
    }
}

pub(crate) fn answer(r: &SummaryResult, locale: Locale) -> String {
    if r.top.is_some() && !r.groups.is_empty() && !r.group_by.is_time() {
        return top_sentence(r, locale);
    }
    let total = r.total.format(locale);
    let filter = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
    let period = &format!("{}{}", r.period.label, left_out(&r.excluded, locale));
    let mut s = match (locale, filter, r.merchant.is_some()) {
        (Locale::Fr, Some(f), true) => format!("Vous avez dépensé {total} chez {f} — {period}"),
        (Locale::Fr, Some(f), false) => format!("Vous avez dépensé {total} en {f} — {period}"),
        (Locale::Fr, None, _) => format!("Vous avez dépensé {total} — {period}"),
        (Locale::En, Some(f), true) => format!("You spent {total} at {f} — {period}"),
        (Locale::En, Some(f), false) => format!("You spent {total} on {f} — {period}"),
        (Locale::En, None, _) => format!("You spent {total} — {period}"),
    };
    s.push_str(&match (locale, r.count) {
        (Locale::Fr, 0) => ", aucune opération.".to_string(),
        (Locale::Fr, 1) => ", en 1 opération.".to_string(),
        (Locale::Fr, n) => format!(", en {n} opérations."),
        (Locale::En, 0) => ", no transactions.".to_string(),
        (Locale::En, 1) => ", in 1 transaction.".to_string(),
        (Locale::En, n) => format!(", in {n} transactions."),
    });
    // The largest group — the first of equals; months, weeks and days are in date
    // order, so it is not always the first.
    if let Some(top) = r.groups.iter().rev().max_by_key(|g| g.total.minor) {
        let amount = top.total.format(locale);
        s.push_str(&match (locale, r.group_by.is_time()) {
            (Locale::Fr, false) => format!(" Poste principal : {} ({amount}).", top.label),
            (Locale::Fr, true) => format!(" Le plus : {} ({amount}).", top.label),
            (Locale::En, false) => format!(" Largest: {} ({amount}).", top.label),
            (Locale::En, true) => format!(" Highest: {} ({amount}).", top.label),
        });
    }
    if !r.other_currencies.is_empty() {
        let others = r.other_currencies.iter().map(|m| m.format(locale)).collect::<Vec<_>>().join(", ");
        s.push_str(&match locale {
            Locale::Fr => format!(" Non inclus (autres devises) : {others}."),
            Locale::En => format!(" Not included (other currencies): {others}."),
        });
    }
    // An average asked for is the answer; the total it divides follows.
    if let Some(a) = &r.average {
        s = format!("{} {s}", average_sentence(a, locale));
    }
    s
}

/// "Vos 5 premiers marchands — T3 2026 : Carrefour 1 200,00 € (10,6 %), … Ensemble
/// 4 500,00 €, soit 39,7 % de vos 11 326,02 € de dépenses.": a top N speaks of the N.
fn top_sentence(r: &SummaryResult, locale: Locale) -> String {
    let n = r.groups.len();
    let what = match (locale, r.group_by, n) {
        (Locale::Fr, GroupBy::Merchant, 1) => "Votre premier marchand".to_string(),
        (Locale::Fr, GroupBy::Merchant, n) => format!("Vos {n} premiers marchands"),
        (Locale::Fr, GroupBy::Month, 1) => "Votre mois le plus cher".to_string(),
        (Locale::Fr, GroupBy::Month, n) => format!("Vos {n} mois les plus chers"),
        (Locale::Fr, GroupBy::Week, 1) => "Votre semaine la plus chère".to_string(),
        (Locale::Fr, GroupBy::Week, n) => format!("Vos {n} semaines les plus chères"),
        (Locale::Fr, GroupBy::Day, 1) => "Votre jour le plus cher".to_string(),
        (Locale::Fr, GroupBy::Day, n) => format!("Vos {n} jours les plus chers"),
        (Locale::En, GroupBy::Month, 1) => "Your most expensive month".to_string(),
        (Locale::En, GroupBy::Month, n) => format!("Your {n} most expensive months"),
        (Locale::En, GroupBy::Week, 1) => "Your most expensive week".to_string(),
        (Locale::En, GroupBy::Week, n) => format!("Your {n} most expensive weeks"),
        (Locale::En, GroupBy::Day, 1) => "Your most expensive day".to_string(),
        (Locale::En, GroupBy::Day, n) => format!("Your {n} most expensive days"),
        (Locale::Fr, GroupBy::Account, 1) => "Votre premier compte".to_string(),
        (Locale::Fr, GroupBy::Account, n) => format!("Vos {n} premiers comptes"),
        (Locale::Fr, _, 1) => "Votre première catégorie".to_string(),
        (Locale::Fr, _, n) => format!("Vos {n} premières catégories"),
        (Locale::En, GroupBy::Merchant, 1) => "Your top merchant".to_string(),
        (Locale::En, GroupBy::Merchant, n) => format!("Your top {n} merchants"),
        (Locale::En, GroupBy::Account, 1) => "Your top account".to_string(),
        (Locale::En, GroupBy::Account, n) => format!("Your top {n} accounts"),
        (Locale::En, _, 1) => "Your top category".to_string(),
        (Locale::En, _, n) => format!("Your top {n} categories"),
    };
    let within = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
    let what = match (locale, within) {
        (Locale::Fr, Some(f)) => format!("{what} en {f}"),
        (Locale::En, Some(f)) => format!("{what} in {f}"),
        (_, None) => what,
    };
    let period = format!("{}{}", r.period.label, left_out(&r.excluded, locale));
    let part = |minor: i64| -> i64 {
        if r.total.minor <= 0 {
            return 0;
        }
        let (n, d) = (i128::from(minor) * 10_000, i128::from(r.total.minor));
        i64::try_from((n + d / 2) / d).unwrap_or(0)
    };
    let each: Vec<String> = r
        .groups
        .iter()
        .map(|g| format!("{} {} ({})", g.label, g.total.format(locale), share(part(g.total.minor), locale)))
        .collect();
    let together: i64 = r.groups.iter().map(|g| g.total.minor).sum();
    let sum = Money::new(together, r.total.currency).format(locale);
    let total = r.total.format(locale);
    let of_all = share(part(together), locale);
    match locale {
        Locale::Fr if n == 1 => {
            format!("{what} — {period} : {}. Sur {total} de dépenses en tout.", each.join(", "))
        }
        Locale::En if n == 1 => {
            format!("{what} — {period}: {}. Out of {total} spent in all.", each.join(", "))
        }
        Locale::Fr => format!(
            "{what} — {period} : {}. Ensemble {sum}, soit {of_all} de vos {total} de dépenses.",
            each.join(", ")
        ),
        Locale::En => format!(
            "{what} — {period}: {}. Together {sum}, {of_all} of your {total} spending.",
            each.join(", ")
        ),
    }
}

pub(crate) fn period(r: &SummaryResult) -> &Period {
    &r.period
}

/// No transaction id; with categories only, no merchant named: a merchant group reads
/// "Commerçant 1", a line's title "a merchant".
pub(crate) fn redact(mut r: SummaryResult, hide: &Hide) -> SummaryResult {
    r.source_ids.clear();
    hide.rows(&mut r.transactions);
    hide.merchant(&mut r.merchant);
    hide.excluded(&mut r.excluded);
    // A line's title names what it is of ("Dépenses par mois — Carrefour, 2025").
    if let (true, true, Some(chart)) = (hide.categories, r.merchant.is_some(), r.chart.as_mut()) {
        chart.title = format!("{} — {}, {}", chart.y, hide.someone().label, r.period.label);
    }
    if hide.categories && r.group_by == GroupBy::Merchant {
        for (i, g) in r.groups.iter_mut().enumerate() {
            g.key = format!("{}", i + 1);
            g.label = format!("{} {}", hide.locale.pick("Commerçant", "Merchant"), i + 1);
        }
    }
    r
}
