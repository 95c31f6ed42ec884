//! The tools: each takes a validated call and the user it runs for; every query is
//! scoped by `user_id`. Money is integer minor units throughout. The ledger's tools
//! are grouped by family (`spending.rs`, `flows.rs`, `recurring.rs`) on the shared
//! query of `ledger.rs`; the analyst tools read datasets through the SQL sandbox.

mod by_tool;
mod checked;
mod cx;
pub(crate) mod flows;
mod ledger;
pub mod recurring;
mod rollup;
mod spending;
pub mod verify;
pub mod writes;

use agent::{DatasetInfoResult, DatasetResult, Date, Locale, ToolCall, ToolOutput};

use crate::datasets;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::Store;
pub(crate) use by_tool::{CheckCx, PageCx, RunCx};

/// The first source transactions of each step of a trace, in each step's order (the
/// trace panel shows them).
pub(crate) async fn source_rows(
    store: &Store,
    user: UserId,
    trace: &agent::runs::RunTrace,
    locale: Locale,
) -> Result<Vec<agent::TransactionRow>, BackendError> {
    let mut ids: Vec<i64> = Vec::new();
    for s in &trace.steps {
        for id in s.sources.transactions.iter().take(agent::runs::SOURCE_ROWS) {
            if !ids.contains(id) {
                ids.push(*id);
            }
        }
    }
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    rows_by_id(store, user, &ids, locale).await
}

/// The user's transactions with these ids, in the order asked (an id that is not the
/// user's is left out).
pub(crate) async fn rows_by_id(
    store: &Store,
    user: UserId,
    ids: &[i64],
    locale: Locale,
) -> Result<Vec<agent::TransactionRow>, BackendError> {
    let mut tx = store.tenant_read(user).await?;
    let mut rows: std::collections::HashMap<i64, agent::TransactionRow> =
        ledger::by_ids(&mut tx, user, ids, locale).await?.into_iter().map(|r| (r.row.id, r.row)).collect();
    tx.commit().await?;
    Ok(ids.iter().filter_map(|id| rows.remove(id)).collect())
}

/// The transactions `call` rests on, read again in its order: `limit` of them after
/// the first `offset` (the pages past the first that results carry). A result whose
/// sources are all in it (recurring payments) has none here.
pub async fn source_page(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
    (limit, offset): (usize, usize),
) -> Result<Vec<agent::TransactionRow>, BackendError> {
    let mut tx = store.tenant_read(user).await?;
    let currency = crate::store::currency(&mut tx, user).await?;
    let cx = PageCx { db: &mut tx, user, currency, locale, page: (limit, offset) };
    let rows = page_of(cx, call).await?;
    tx.commit().await?;
    Ok(rows.into_iter().map(|r| r.row).collect())
}

/// What the caller already read of the user with their question: their parser, whose
/// vocabulary names their categories, merchants and accounts and gives their main
/// currency. A tool takes these from it instead of reading them again; a key it does
/// not have is read (and an unknown one refused there). Empty: everything is read.
#[derive(Clone, Default)]
pub(crate) struct Known(Option<std::sync::Arc<agent::Parser>>);

impl Known {
    /// What the user's `parser` knows (built from their vocabulary as of their question).
    pub(crate) fn from(parser: std::sync::Arc<agent::Parser>) -> Known {
        Known(Some(parser))
    }

    fn currency(&self) -> Option<agent::Currency> {
        self.0.as_ref()?.vocabulary().currency
    }

    fn label(&self, kind: ledger::Entity, key: &str, locale: Locale) -> Option<String> {
        let v = self.0.as_ref()?.vocabulary();
        let terms = match kind {
            ledger::Entity::Category => &v.categories,
            ledger::Entity::Merchant => &v.merchants,
            ledger::Entity::Account => &v.accounts,
        };
        terms.iter().find(|t| t.key == key).map(|t| t.label(locale).to_string())
    }
}

/// A ledger tool's transaction, left open for the checks of its result
/// (`verify::verify_in`), and the whole months those checks may read from the roll-up:
/// found in it, before the result (compared with their rows first if need be).
pub(crate) struct ForChecks {
    pub(crate) tx: crate::store::Tenant,
    pub(crate) months: Result<Option<(Date, Date)>, BackendError>,
}

/// Compares up to `max` months whose roll-up changed since it was last compared with
/// its rows, of every user, and records those found equal: the server's maintenance
/// does it ahead of questions, so that the first summary over them reads the roll-up at
/// once. A month that differs is left as it is (the next answer over it reads its rows
/// and says so). Returns how many months were found equal.
pub async fn check_months(store: &Store, max: u32) -> Result<u64, BackendError> {
    let mut equal = 0;
    for (user, month) in checked::unchecked_everywhere(store, max).await? {
        // One month at a time: one that differs does not keep the others from being
        // recorded.
        if checked::compare(store, user, vec![month]).await? {
            equal += 1;
        } else {
            tracing::warn!(user = %crate::trace::user(user), %month, "a month's roll-up differs from its rows");
        }
    }
    Ok(equal)
}

/// Rows returned inside a spending summary; the total always covers every row.
pub const SUMMARY_ROWS: usize = 100;

/// Runs a validated call. `today` is the date the plan was made against (the plan's
/// `meta.today`): balances never look past it and budgets say how much of a current
/// period has elapsed.
pub async fn run(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
    today: Date,
) -> Result<ToolOutput, BackendError> {
    let (output, open) = read(store, user, &Known::default(), call, locale, today).await?;
    if let Some(open) = open {
        open.tx.commit().await?;
    }
    Ok(output)
}

/// Runs a validated call and checks its result, as an answer does: a ledger tool's
/// checks read in its own transaction, against the same `today`. A failed comparison
/// of its months with their rows is an error here (an answer shows the result, and
/// says its checks could not run). For tests and benchmarks (`backend::testing::tools`).
#[cfg(feature = "test-support")]
pub async fn run_checked(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
    today: Date,
) -> Result<(ToolOutput, Vec<agent::runs::Check>), BackendError> {
    let (output, open) = read(store, user, &Known::default(), call, locale, today).await?;
    let checks = match open {
        None => verify::dataset_checks(&output, locale),
        Some(ForChecks { mut tx, months }) => {
            let checks = verify::verify_in(&mut tx, user, (call, &output), months?, locale, today).await?;
            tx.commit().await?;
            checks
        }
    };
    Ok((output, checks))
}

/// Runs a validated call and, for a ledger tool, returns the transaction it read in,
/// still open, for its checks. A dataset tool reads through the sandbox, in no
/// transaction of the store's.
pub(crate) async fn read(
    store: &Store,
    user: UserId,
    known: &Known,
    call: &ToolCall,
    locale: Locale,
    today: Date,
) -> Result<(ToolOutput, Option<ForChecks>), BackendError> {
    if call.is_dataset() {
        return Ok((dataset_tool(store, user, call, locale).await?, None));
    }
    let mut tx = store.tenant_read(user).await?;
    let mut months = Ok(None);
    if let Some((first, last)) = rollup_months(call) {
        let unchecked = checked::unchecked(&mut tx, user, first, last).await?;
        months = if unchecked.is_empty() {
            Ok(Some((first, last)))
        } else {
            // Comparing takes connections of its own: this one is given back first, and
            // the result is read after, in a transaction that sees what was compared.
            tx.commit().await?;
            let matched = checked::compare(store, user, unchecked).await;
            tx = store.tenant_read(user).await?;
            matched.map(|all| all.then_some((first, last)))
        };
    }
    let output = run_ledger(&mut RunCx { db: &mut tx, user, known, locale, today }, call).await?;
    Ok((output, Some(ForChecks { tx, months })))
}

/// The dispatches over the tools of the ledger, each to its file in `by_tool`.
macro_rules! ledger_tools {
    (
        ledger: [$($l:ident $L:ident,)*]
        dataset: [$($d:ident $D:ident,)*]
        write: [$($w:ident $W:ident,)*]
    ) => {
        /// Runs a read over the ledger, in `cx`'s transaction.
        async fn run_ledger(cx: &mut RunCx<'_>, call: &ToolCall) -> Result<ToolOutput, BackendError> {
            match call {
                $(ToolCall::$L(a) => by_tool::$l::run(cx, a).await.map(ToolOutput::$L),)*
                $(ToolCall::$D(_))|* => Err(BackendError::BadRequest(format!("{} reads no ledger", call.name()))),
                // A write never runs as a read: it goes through an approval (`crate::approvals`).
                $(ToolCall::$W(_))|* => {
                    Err(BackendError::BadRequest(format!("{} needs the user's approval", call.name())))
                }
            }
        }

        /// The checks of a ledger tool's result (a dataset's are `verify::dataset_checks`).
        pub(crate) async fn ledger_checks(
            cx: &mut CheckCx<'_>,
            call: &ToolCall,
            output: &ToolOutput,
        ) -> Result<Vec<agent::runs::Check>, BackendError> {
            match (call, output) {
                $((ToolCall::$L(a), ToolOutput::$L(r)) => by_tool::$l::checks(cx, a, r).await,)*
                // Checked apart: they read no ledger.
                $((_, ToolOutput::$D(_)))|* => Ok(Vec::new()),
                _ => Err(BackendError::BadRequest(format!("a result that is not {}'s", call.name()))),
            }
        }

        /// The first ids of the transactions a result rests on (at most
        /// [`agent::SOURCE_PAGE`], in the result's order), and how many there are in all.
        pub fn sources(output: &ToolOutput) -> (Vec<i64>, u64) {
            match output {
                $(ToolOutput::$L(r) => by_tool::$l::sources(r),)*
                // A dataset's table: no transaction of its own.
                $(ToolOutput::$D(_))|* => (Vec::new(), 0),
            }
        }

        /// The headline amount of a tool's output (its total), for
        /// [`crate::trace::bucket`]; `None` for tools whose results are not money
        /// (datasets).
        pub fn headline(output: &ToolOutput) -> Option<i64> {
            match output {
                $(ToolOutput::$L(r) => Some(by_tool::$l::headline(r)),)*
                $(ToolOutput::$D(_))|* => None,
            }
        }

        /// The whole months of a call's period (first days; the last one excluded) that
        /// its checks may read from the roll-up once they are found equal to their rows.
        fn rollup_months(call: &ToolCall) -> Option<(Date, Date)> {
            match call {
                $(ToolCall::$L(a) => by_tool::$l::rollup_months(a),)*
                $(ToolCall::$D(_))|* | $(ToolCall::$W(_))|* => None,
            }
        }

        /// A page of the transactions a call rests on.
        async fn page_of(cx: PageCx<'_>, call: &ToolCall) -> Result<Vec<ledger::Row_>, BackendError> {
            match call {
                $(ToolCall::$L(a) => by_tool::$l::source_page(cx, a).await,)*
                $(ToolCall::$D(_))|* | $(ToolCall::$W(_))|* => Ok(Vec::new()),
            }
        }
    };
}

agent::for_each_tool!(ledger_tools);

/// The analyst tools: they read datasets through the SQL sandbox, not the ledger.
async fn dataset_tool(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
) -> Result<ToolOutput, BackendError> {
    let shown = |e: datasets::DatasetError| match e {
        datasets::DatasetError::Db(e) => BackendError::Db(e),
        e @ datasets::DatasetError::Busy(_) => BackendError::QueriesBusy(e.message(locale)),
        e => BackendError::BadRequest(e.message(locale)),
    };
    match call {
        ToolCall::QueryDataset(a) => {
            let result = datasets::query_plan(store, user, a, locale).await.map_err(shown)?;
            let title = agent::tool::query_dataset::dataset_title(a, locale);
            let chart = agent::chart::shaped(&result, &title, a.chart);
            Ok(ToolOutput::QueryDataset(DatasetResult {
                dataset: Some(a.dataset.clone()),
                title,
                result,
                chart,
            }))
        }
        ToolCall::RunSql(a) => {
            let result = datasets::query(store, user, &a.sql).await.map_err(shown)?;
            let title = match locale {
                Locale::Fr => "Requête SQL",
                Locale::En => "SQL query",
            }
            .to_string();
            let chart = agent::chart::suggest(&result, &title);
            Ok(ToolOutput::RunSql(DatasetResult { dataset: None, title, result, chart }))
        }
        _ => {
            let list = datasets::list(store, user).await.map_err(shown)?;
            let dialect = match store.dialect() {
                crate::ids::Dialect::Sqlite => "sqlite",
                crate::ids::Dialect::Postgres => "postgresql",
            };
            Ok(ToolOutput::DatasetInfo(DatasetInfoResult { datasets: list, dialect: dialect.to_string() }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::flows::months_touched;
    use super::ledger::{basis_points, div_round};
    use super::recurring::{detect, median, normalise_label, regular_amounts};
    use super::*;
    use agent::Cadence;

    fn d(s: &str) -> Date {
        Date::parse_iso(s).unwrap()
    }

    crate::on_both_databases!(known_names_on_sqlite, known_names_on_postgres, |store| known_names(store));

    /// What a tool takes from the user's parser is what it would have read: the same
    /// results in both languages; a key the parser lacks is still read, and refused.
    async fn known_names(store: Store) {
        let user = store.ensure_user("alice").await.unwrap();
        crate::demo::seed(&store, user).await.unwrap();
        let known =
            Known::from(std::sync::Arc::new(agent::Parser::new(store.vocabulary(user).await.unwrap())));
        assert!(known.currency().is_some());
        let today = d("2026-11-20");
        let p = serde_json::json!({"start": "2026-01-01", "end": "2026-11-01", "label": "2026"});
        let calls = [
            serde_json::json!({"tool": "spending_summary", "args": {"period": p, "category": "groceries", "group_by": "merchant"}}),
            serde_json::json!({"tool": "spending_summary", "args": {"period": p, "merchant": "monoprix", "account": "compte_courant"}}),
            serde_json::json!({"tool": "spending_summary", "args": {"period": p, "exclude_category": "groceries", "exclude_merchant": "monoprix", "group_by": "category"}}),
            serde_json::json!({"tool": "list_transactions", "args": {"period": p, "category": "groceries", "limit": 5}}),
            serde_json::json!({"tool": "cash_flow", "args": {"period": p, "account": "compte_courant", "group_by": "month"}}),
            serde_json::json!({"tool": "balances", "args": {"period": p, "account": "compte_courant"}}),
            serde_json::json!({"tool": "recurring_payments", "args": {"period": p, "merchant": "monoprix"}}),
        ];
        let read_with = |known: Known, call: ToolCall, locale| {
            let store = store.clone();
            async move {
                let (output, open) = read(&store, user, &known, &call, locale, today).await?;
                if let Some(open) = open {
                    open.tx.commit().await?;
                }
                Ok::<_, BackendError>(output)
            }
        };
        for call in calls {
            let call: ToolCall = serde_json::from_value(call).unwrap();
            for locale in [Locale::Fr, Locale::En] {
                let read_all = read_with(Known::default(), call.clone(), locale).await.unwrap();
                let taken = read_with(known.clone(), call.clone(), locale).await.unwrap();
                assert_eq!(read_all, taken, "{call:?}");
            }
        }
        let unknown: ToolCall = serde_json::from_value(
            serde_json::json!({"tool": "spending_summary", "args": {"period": p, "category": "nope"}}),
        )
        .unwrap();
        let refused = read_with(known, unknown, Locale::En).await;
        assert!(matches!(refused, Err(BackendError::BadRequest(m)) if m.contains("unknown category")));
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(div_round(5, 2), 3);
        assert_eq!(div_round(-5, 2), -3);
        assert_eq!(div_round(4, 3), 1);
        assert_eq!(div_round(-4, 3), -1);
        // 0.10 € of net on 2 000 € of income is half a basis point.
        assert_eq!(basis_points(10, 200_000), Some(1));
        assert_eq!(basis_points(-10, 200_000), Some(-1));
        assert_eq!(basis_points(9, 200_000), Some(0));
        assert_eq!(basis_points(1, 0), None);
        assert_eq!(basis_points(1, 3), Some(3333));
        assert_eq!(basis_points(2, 3), Some(6667));
    }

    #[test]
    fn months_touched_counts_calendar_months() {
        let p = |a: &str, b: &str| agent::Period {
            start: d(a),
            end: d(b),
            label: String::new(),
            words: String::new(),
        };
        assert_eq!(months_touched(&p("2026-11-01", "2026-12-01")), 1);
        assert_eq!(months_touched(&p("2026-11-30", "2026-12-01")), 1);
        assert_eq!(months_touched(&p("2026-01-15", "2026-03-03")), 3);
        assert_eq!(months_touched(&p("2026-01-15", "2026-03-01")), 2);
        assert_eq!(months_touched(&p("2025-12-31", "2026-01-02")), 2);
        assert_eq!(months_touched(&p("2026-01-01", "2027-01-01")), 12);
    }

    #[test]
    fn medians_and_stable_amounts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3, 1, 2]), Some(2));
        assert_eq!(median(&[1, 2, 3, 4]), Some(3));
        assert_eq!(median(&[1349, 1349, 1499, 1499]), Some(1424));
        // Every amount within 20 %: all kept.
        assert_eq!(regular_amounts(&[1349, 1349, 1499]), Some(vec![true, true, true]));
        // Fixed instalments and one adjustment: the adjustment is dropped.
        let edf = [8900, 8900, 8900, 4200, 8900, 9400, 9400];
        assert_eq!(regular_amounts(&edf), Some(vec![true, true, true, false, true, true, true]));
        // Shopping-like amounts are not a series.
        assert_eq!(regular_amounts(&[850, 6500, 2300, 4100, 1200, 5600]), None);
        assert_eq!(regular_amounts(&[2000, 4000, 6000, 4000, 2000, 6000]), None);
    }

    #[test]
    fn cadences_need_regular_intervals_and_enough_payments() {
        let dates = |v: &[&str]| v.iter().map(|s| d(s)).collect::<Vec<_>>();
        let monthly = dates(&["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
        assert_eq!(detect(&monthly, false), Some(Cadence::Monthly));
        assert_eq!(detect(&monthly[..2], true), None, "two monthly payments are not enough");
        let weekly = dates(&["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-27"]);
        assert_eq!(detect(&weekly, false), Some(Cadence::Weekly));
        let quarterly = dates(&["2025-01-10", "2025-04-10", "2025-07-10", "2025-10-10"]);
        assert_eq!(detect(&quarterly, false), Some(Cadence::Quarterly));
        let yearly = dates(&["2024-11-08", "2025-11-08"]);
        assert_eq!(detect(&yearly, true), Some(Cadence::Yearly));
        assert_eq!(detect(&yearly, false), None, "two payments need a 13-month lookback");
        // A median that fits but intervals all over the place: 3 of 6 fit.
        let erratic = dates(&[
            "2026-01-01",
            "2026-01-31",
            "2026-03-02",
            "2026-03-05",
            "2026-04-04",
            "2026-04-06",
            "2026-06-20",
        ]);
        assert_eq!(detect(&erratic, false), None);
        // Shopping several times a week.
        let groceries =
            dates(&["2026-01-02", "2026-01-03", "2026-01-07", "2026-01-09", "2026-01-14", "2026-01-15"]);
        assert_eq!(detect(&groceries, false), None);
    }

    #[test]
    fn labels_lose_dates_and_payment_words() {
        assert_eq!(normalise_label("PRLV SEPA MAIF ASSURANCE HABITATION"), "MAIF ASSURANCE HABITATION");
        assert_eq!(normalise_label("CB NETFLIX.COM 15/01"), "NETFLIX.COM");
        assert_eq!(normalise_label("RETRAIT DAB 12/03 PARIS 11"), "RETRAIT DAB PARIS");
        assert_eq!(normalise_label("VIR SEPA"), "VIR SEPA");
    }
}
