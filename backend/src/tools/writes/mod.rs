//! The write tools' dry run: what a write would change, computed on the data as it is,
//! as rows ([`RowChange`], what execution will write and undo will put back) and as an
//! [`Effect`] the user reads before approving. Nothing here writes the ledger.

pub mod rows;

use std::collections::BTreeMap;

use agent::{
    BudgetEffect, CreateRuleArgs, Date, Effect, EntityRef, Locale, MarkTransfersArgs, MergeMerchantsArgs,
    Money, RecategoriseArgs, SetBudgetArgs, ToolCall, TransactionRow,
};
use sqlx::{AnyConnection, Row};

use super::flows::{budget_in, month_key};
use super::ledger::{decode, every_line, Filters};
use crate::error::BackendError;
use crate::ids::UserId;
use crate::import::fold;
pub use rows::{apply, ApplyError, BudgetRow, MerchantRow, RowChange, Way};

/// The most transactions one write may change: past it, the user is asked to narrow.
pub const MAX_ROWS: usize = agent::writes::MAX_WRITE_ROWS;
/// Transactions an effect shows ("see them").
const SAMPLE: usize = 20;
/// The category transfers between the user's own accounts go to.
pub const TRANSFERS: &str = "transfers";

/// What a write would do: the rows, and the same in words.
#[derive(Debug)]
pub struct DryRun {
    pub rows: Vec<RowChange>,
    pub effect: Effect,
}

/// The dry run of a validated write call for `user`, in `db` (a transaction that may
/// add the default categories, as the rules page does, and nothing else).
pub async fn dry_run(
    db: &mut AnyConnection,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
) -> Result<DryRun, BackendError> {
    crate::demo::seed_categories(db, user).await?;
    let categories = Categories::load(db, user).await?;
    match call {
        ToolCall::SetBudget(a) => set_budget(db, user, a, &categories, locale).await,
        ToolCall::CreateRule(a) => create_rule(db, user, a, &categories, locale).await,
        ToolCall::Recategorise(a) => {
            let to = categories.id(&a.to)?;
            let found = matching(db, user, a.into(), &categories, locale).await?;
            Ok(move_to(found, to, &categories, locale))
        }
        ToolCall::MarkTransfers(a) => {
            let to = categories.id(TRANSFERS)?;
            let found = matching(db, user, a.into(), &categories, locale).await?;
            Ok(move_to(found, to, &categories, locale))
        }
        ToolCall::MergeMerchants(a) => merge_merchants(db, user, a, locale).await,
        _ => Err(BackendError::BadRequest(format!("{} does not change anything", call.name()))),
    }
}

/// The user's categories: id, key and names.
struct Categories(Vec<(i64, String, String, String)>);

impl Categories {
    async fn load(db: &mut AnyConnection, user: UserId) -> Result<Categories, BackendError> {
        let rows: Vec<(i64, String, String, String)> =
            sqlx::query_as("SELECT id, key, name_fr, name_en FROM categories WHERE user_id = $1 ORDER BY id")
                .bind(user.0)
                .fetch_all(&mut *db)
                .await?;
        Ok(Categories(rows))
    }

    fn id(&self, key: &str) -> Result<i64, BackendError> {
        self.0
            .iter()
            .find(|c| c.1 == key)
            .map(|c| c.0)
            .ok_or_else(|| BackendError::BadRequest(format!("unknown category {key:?}")))
    }

    fn by_id(&self, id: i64) -> Option<&(i64, String, String, String)> {
        self.0.iter().find(|c| c.0 == id)
    }

    fn name(&self, id: Option<i64>, locale: Locale) -> String {
        match id.and_then(|id| self.by_id(id)) {
            Some((_, _, fr, en)) => locale.pick(fr, en).clone(),
            None => locale.pick("sans catégorie", "uncategorised").to_string(),
        }
    }

    fn entity(&self, id: i64, locale: Locale) -> EntityRef {
        match self.by_id(id) {
            Some((_, key, fr, en)) => EntityRef { key: key.clone(), label: locale.pick(fr, en).clone() },
            None => EntityRef { key: String::new(), label: String::new() },
        }
    }
}

fn empty(line: String) -> DryRun {
    DryRun { rows: Vec::new(), effect: Effect { lines: vec![line], empty: true, ..Effect::default() } }
}

fn nothing(locale: Locale) -> String {
    locale
        .pick("Rien ne changerait : c'est déjà le cas.", "Nothing would change: it is so already.")
        .to_string()
}

async fn set_budget(
    db: &mut AnyConnection,
    user: UserId,
    a: &SetBudgetArgs,
    categories: &Categories,
    locale: Locale,
) -> Result<DryRun, BackendError> {
    let category = categories.id(&a.category)?;
    let currency = crate::store::currency(db, user).await?;
    if let Some(m) = a.amount.filter(|m| m.currency != currency) {
        return Err(BackendError::BadRequest(format!(
            "budgets are kept in {currency}, the ledger's currency, not in {}",
            m.currency
        )));
    }
    let month = month_key(a.from);
    let history: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
        "SELECT category_id, start_month, amount_minor FROM budgets
         WHERE user_id = $1 AND category_id = $2 AND currency = $3 ORDER BY start_month",
    )
    .bind(user.0)
    .bind(category)
    .bind(currency.as_str())
    .fetch_all(&mut *db)
    .await?;
    let row_now = history
        .iter()
        .find(|r| r.1 == month)
        .map(|r| BudgetRow { amount: r.2, currency: currency.to_string() });
    let earlier: Vec<_> = history.iter().filter(|r| r.1 != month).cloned().collect();
    let before = budget_in(&history, category, &month);
    let inherited = budget_in(&earlier, category, &month);
    let new = a.amount.map(|m| m.minor);
    // Removing a budget only an earlier month set needs a row saying it ends here;
    // otherwise the month's own row goes.
    let after = match new {
        Some(amount) => Some(BudgetRow { amount: Some(amount), currency: currency.to_string() }),
        None if inherited.is_some() => Some(BudgetRow { amount: None, currency: currency.to_string() }),
        None => None,
    };
    let money = |m: Option<i64>| match m {
        Some(minor) => Money::new(minor, currency).format(locale),
        None => locale.pick("aucun", "none").to_string(),
    };
    let label = categories.name(Some(category), locale);
    let line = match locale {
        Locale::Fr => format!(
            "Budget {label} : {} → {} par mois à partir de {}",
            money(before),
            money(new),
            agent::wording::month_label(a.from, locale)
        ),
        Locale::En => format!(
            "{label} budget: {} → {} a month from {}",
            money(before),
            money(new),
            agent::wording::month_label(a.from, locale)
        ),
    };
    if before == new && row_now == after {
        return Ok(empty(nothing(locale)));
    }
    let rows = vec![RowChange::Budget { category, month, before: row_now, after }];
    let effect = Effect {
        lines: vec![line],
        budget: Some(BudgetEffect {
            category: categories.entity(category, locale),
            from: a.from,
            before: before.map(|m| Money::new(m, currency)),
            after: new.map(|m| Money::new(m, currency)),
        }),
        ..Effect::default()
    };
    Ok(DryRun { rows, effect })
}

async fn create_rule(
    db: &mut AnyConnection,
    user: UserId,
    a: &CreateRuleArgs,
    categories: &Categories,
    locale: Locale,
) -> Result<DryRun, BackendError> {
    let pattern =
        crate::rules::clean_pattern(&a.pattern).map_err(|e| BackendError::BadRequest(e.to_string()))?;
    let category = categories.id(&a.category)?;
    let before: Option<i64> =
        sqlx::query_scalar("SELECT category_id FROM category_rules WHERE user_id = $1 AND pattern = $2")
            .bind(user.0)
            .bind(&pattern)
            .fetch_optional(&mut *db)
            .await?;
    let name = categories.name(Some(category), locale);
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    if before != Some(category) {
        rows.push(RowChange::Rule { pattern: pattern.clone(), before, after: Some(category) });
        lines.push(match (before, locale) {
            (None, Locale::Fr) => format!("Nouvelle règle : « {pattern} » → {name}"),
            (None, Locale::En) => format!("New rule: “{pattern}” → {name}"),
            (Some(b), Locale::Fr) => {
                format!("Règle « {pattern} » : {} → {name}", categories.name(Some(b), locale))
            }
            (Some(b), Locale::En) => {
                format!("Rule “{pattern}”: {} → {name}", categories.name(Some(b), locale))
            }
        });
    }
    let mut run = DryRun { rows, effect: Effect { lines, ..Effect::default() } };
    if a.apply_to_past {
        let folded = fold(&pattern);
        let found = all(db, user, locale)
            .await?
            .into_iter()
            .filter(|f| {
                crate::rules::contains(&f.row.label, &folded)
                    || f.row.merchant.as_deref().is_some_and(|m| crate::rules::contains(m, &folded))
            })
            .collect();
        let moved = move_to(found, category, categories, locale);
        run.rows.extend(moved.rows);
        if !moved.effect.empty {
            run.effect.lines.extend(moved.effect.lines);
        }
        run.effect.transactions = moved.effect.transactions;
        run.effect.sample = moved.effect.sample;
    }
    if run.rows.is_empty() {
        return Ok(empty(nothing(locale)));
    }
    Ok(run)
}

/// A transaction as the dry run sees it: shown as a row, with its category and
/// merchant ids.
struct Found {
    row: TransactionRow,
    category: Option<i64>,
    merchant: Option<i64>,
}

/// What `recategorise` and `mark_transfers` select.
struct Selection<'a> {
    period: Option<&'a agent::Period>,
    category: Option<&'a str>,
    merchant: Option<&'a str>,
    text: Option<&'a str>,
    amount_min: Option<Money>,
    amount_max: Option<Money>,
    ids: &'a [i64],
}

impl<'a> From<&'a RecategoriseArgs> for Selection<'a> {
    fn from(a: &'a RecategoriseArgs) -> Selection<'a> {
        Selection {
            period: a.period.as_ref(),
            category: a.category.as_deref(),
            merchant: a.merchant.as_deref(),
            text: a.text.as_deref(),
            amount_min: a.amount_min,
            amount_max: a.amount_max,
            ids: &a.ids,
        }
    }
}

impl<'a> From<&'a MarkTransfersArgs> for Selection<'a> {
    fn from(a: &'a MarkTransfersArgs) -> Selection<'a> {
        Selection {
            period: a.period.as_ref(),
            category: None,
            merchant: a.merchant.as_deref(),
            text: a.text.as_deref(),
            amount_min: a.amount_min,
            amount_max: a.amount_max,
            ids: &a.ids,
        }
    }
}

/// Every day a ledger can hold.
fn all_time() -> agent::Period {
    agent::Period {
        start: Date::new(1, 1, 1).unwrap_or_else(|| Date::from_days(0)),
        end: Date::new(9999, 12, 31).unwrap_or_else(|| Date::from_days(0)),
        label: String::new(),
        words: String::new(),
    }
}

async fn select(
    db: &mut AnyConnection,
    user: UserId,
    filters: Filters<'_>,
    locale: Locale,
) -> Result<Vec<Found>, BackendError> {
    let currency = crate::store::currency(db, user).await?;
    let sql = every_line(&filters, "", "t.date DESC, t.id DESC");
    let rows = filters.bind(&sql, user, currency)?.fetch_all(&mut *db).await?;
    // The ids the shared query does not return.
    let ids: BTreeMap<i64, (Option<i64>, Option<i64>)> =
        sqlx::query("SELECT id, category_id, merchant_id FROM transactions WHERE user_id = $1")
            .bind(user.0)
            .fetch_all(&mut *db)
            .await?
            .iter()
            .map(|r| (r.get(0), (r.get(1), r.get(2))))
            .collect();
    rows.iter()
        .map(|r| {
            let row = decode(r, locale)?.row;
            let (category, merchant) = ids.get(&row.id).copied().unwrap_or((None, None));
            Ok(Found { row, category, merchant })
        })
        .collect()
}

async fn all(db: &mut AnyConnection, user: UserId, locale: Locale) -> Result<Vec<Found>, BackendError> {
    let period = all_time();
    select(db, user, Filters::new(&period), locale).await
}

async fn matching(
    db: &mut AnyConnection,
    user: UserId,
    s: Selection<'_>,
    categories: &Categories,
    locale: Locale,
) -> Result<Vec<Found>, BackendError> {
    if let Some(c) = s.category {
        categories.id(c)?;
    }
    if let Some(m) = s.merchant {
        let known: Option<i64> =
            sqlx::query_scalar("SELECT id FROM merchants WHERE user_id = $1 AND key = $2")
                .bind(user.0)
                .bind(m)
                .fetch_optional(&mut *db)
                .await?;
        if known.is_none() {
            return Err(BackendError::BadRequest(format!("unknown merchant {m:?}")));
        }
    }
    let period = s.period.cloned().unwrap_or_else(all_time);
    let mut filters = Filters::new(&period);
    filters.category = s.category;
    filters.merchant = s.merchant;
    filters.amount_min = s.amount_min;
    filters.amount_max = s.amount_max;
    let text = s.text.map(fold);
    let found = select(db, user, filters, locale).await?;
    let missing: Vec<i64> =
        s.ids.iter().copied().filter(|id| !found.iter().any(|f| f.row.id == *id)).collect();
    if let Some(id) = missing.first() {
        return Err(BackendError::BadRequest(format!("no transaction {id} matches")));
    }
    Ok(found
        .into_iter()
        .filter(|f| text.as_deref().is_none_or(|t| fold(&f.row.label).contains(t)))
        .filter(|f| s.ids.is_empty() || s.ids.contains(&f.row.id))
        .collect())
}

/// Gives category `to` to `found`: each one not already in it is a row to write.
fn move_to(found: Vec<Found>, to: i64, categories: &Categories, locale: Locale) -> DryRun {
    let moving: Vec<Found> = found.into_iter().filter(|f| f.category != Some(to)).collect();
    if moving.is_empty() {
        return empty(nothing(locale));
    }
    let mut from: BTreeMap<String, u32> = BTreeMap::new();
    for f in &moving {
        *from.entry(categories.name(f.category, locale)).or_default() += 1;
    }
    let n = moving.len();
    let name = categories.name(Some(to), locale);
    let origins: Vec<String> = from
        .iter()
        .map(|(c, k)| match locale {
            Locale::Fr => format!("{k} de {c}"),
            Locale::En => format!("{k} from {c}"),
        })
        .collect();
    let line = match (locale, n) {
        (Locale::Fr, 1) => format!("1 opération passe en {name} ({})", origins.join(", ")),
        (Locale::Fr, _) => format!("{n} opérations passent en {name} ({})", origins.join(", ")),
        (Locale::En, 1) => format!("1 transaction moves to {name} ({})", origins.join(", ")),
        (Locale::En, _) => format!("{n} transactions move to {name} ({})", origins.join(", ")),
    };
    let rows = moving
        .iter()
        .map(|f| RowChange::TxCategory { id: f.row.id, before: f.category, after: Some(to) })
        .collect();
    let effect = Effect {
        lines: vec![line],
        transactions: u32::try_from(n).unwrap_or(u32::MAX),
        sample: moving.into_iter().take(SAMPLE).map(|f| f.row).collect(),
        ..Effect::default()
    };
    DryRun { rows, effect }
}

async fn merchant(
    db: &mut AnyConnection,
    user: UserId,
    key: &str,
) -> Result<(i64, MerchantRow), BackendError> {
    let row: Option<(i64, String, String, String, Option<i64>)> = sqlx::query_as(
        "SELECT id, key, name, aliases, category_id FROM merchants WHERE user_id = $1 AND key = $2",
    )
    .bind(user.0)
    .bind(key)
    .fetch_optional(&mut *db)
    .await?;
    let (id, key, name, aliases, category_id) =
        row.ok_or_else(|| BackendError::BadRequest(format!("unknown merchant {key:?}")))?;
    Ok((id, MerchantRow { key, name, aliases, category_id }))
}

/// A merchant's name as given: trimmed, 1 to 60 characters, nothing hidden.
fn clean_name(name: &str) -> Result<String, BackendError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() || name.chars().count() > 60 || agent::text::hidden_control(&name).is_some() {
        return Err(BackendError::BadRequest(
            "a merchant's name is 1 to 60 characters, without control characters".into(),
        ));
    }
    Ok(name)
}

async fn merge_merchants(
    db: &mut AnyConnection,
    user: UserId,
    a: &MergeMerchantsArgs,
    locale: Locale,
) -> Result<DryRun, BackendError> {
    let (into_id, into) = merchant(db, user, &a.into).await?;
    let mut merged = Vec::new();
    for key in &a.merge {
        let (id, m) = merchant(db, user, key).await?;
        if id == into_id || merged.iter().any(|(other, _)| *other == id) {
            return Err(BackendError::BadRequest(format!("{key:?} is named twice")));
        }
        merged.push((id, m));
    }
    let new_aliases: Vec<String> = a.aliases.iter().map(|n| clean_name(n)).collect::<Result<_, _>>()?;
    let name = a.name.as_deref().map(clean_name).transpose()?.unwrap_or_else(|| into.name.clone());
    // The names that will lead to `into`: its own aliases, then the merged merchants'
    // names and aliases, then the new ones; each once.
    let mut aliases: Vec<String> = serde_json::from_str(&into.aliases).unwrap_or_default();
    let mut add = |n: &str| {
        if fold(n) != fold(&name) && !aliases.iter().any(|x| fold(x) == fold(n)) {
            aliases.push(n.to_string());
        }
    };
    if name != into.name {
        add(&into.name);
    }
    for (_, m) in &merged {
        add(&m.name);
        for x in serde_json::from_str::<Vec<String>>(&m.aliases).unwrap_or_default() {
            add(&x);
        }
    }
    for n in &new_aliases {
        add(n);
    }
    let after = MerchantRow {
        name: name.clone(),
        aliases: serde_json::to_string(&aliases).unwrap_or_else(|_| "[]".into()),
        ..into.clone()
    };
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    if after != into {
        rows.push(RowChange::Merchant { id: into_id, before: Some(into.clone()), after: Some(after) });
        if name != into.name {
            lines.push(match locale {
                Locale::Fr => format!("{} s'appelle désormais « {name} »", into.name),
                Locale::En => format!("{} is now called “{name}”", into.name),
            });
        }
    }
    let everything = all(db, user, locale).await?;
    let mut moved = Vec::new();
    for (id, m) in &merged {
        let theirs: Vec<&Found> = everything.iter().filter(|f| f.merchant == Some(*id)).collect();
        lines.push(match locale {
            Locale::Fr => format!("{} rejoint {name} : {} opération(s) suivent", m.name, theirs.len()),
            Locale::En => format!("{} merges into {name}: {} transaction(s) follow", m.name, theirs.len()),
        });
        moved.extend(theirs);
    }
    for alias in &new_aliases {
        let folded = fold(alias);
        let theirs: Vec<&Found> = everything
            .iter()
            .filter(|f| f.merchant != Some(into_id) && !moved.iter().any(|m| m.row.id == f.row.id))
            .filter(|f| crate::rules::contains(&f.row.label, &folded))
            .collect();
        lines.push(match locale {
            Locale::Fr => format!("« {alias} » mène à {name} : {} opération(s)", theirs.len()),
            Locale::En => format!("“{alias}” leads to {name}: {} transaction(s)", theirs.len()),
        });
        moved.extend(theirs);
    }
    rows.extend(moved.iter().map(|f| RowChange::TxMerchant {
        id: f.row.id,
        before: f.merchant,
        after: Some(into_id),
    }));
    // The merged merchants go last, once nothing points at them.
    rows.extend(merged.into_iter().map(|(id, m)| RowChange::Merchant { id, before: Some(m), after: None }));
    if rows.is_empty() {
        return Ok(empty(nothing(locale)));
    }
    let effect = Effect {
        lines,
        transactions: u32::try_from(moved.len()).unwrap_or(u32::MAX),
        sample: moved.iter().take(SAMPLE).map(|f| f.row.clone()).collect(),
        ..Effect::default()
    };
    Ok(DryRun { rows, effect })
}

fn too_many(n: usize) -> BackendError {
    BackendError::BadRequest(format!(
        "this would change {n} transactions, more than {MAX_ROWS} at once: narrow it (a period, a merchant)"
    ))
}

/// Checks a dry run's size.
pub fn check_size(run: &DryRun) -> Result<(), BackendError> {
    let n = run
        .rows
        .iter()
        .filter(|r| matches!(r, RowChange::TxCategory { .. } | RowChange::TxMerchant { .. }))
        .count();
    if n > MAX_ROWS {
        return Err(too_many(n));
    }
    Ok(())
}
