//! Every tool result is checked before it is shown: its total against its groups and
//! against its source transactions read again, its counts, its period against the
//! transactions the user has, its currencies, its dates. A failed check lowers the
//! answer's confidence (`agent::runs::answer_confidence`) and says why.

use std::collections::BTreeMap;

use agent::runs::{Check, CheckCode, CheckOutcome};
use agent::{Currency, Date, Locale, Money, Period, ToolCall, ToolOutput};
use sqlx::AnyConnection;

use super::ledger::dated_by_ids;
use crate::error::BackendError;
use crate::ids::UserId;

/// At most this many source ids are read again one by one (a result carries a page).
const MAX_REREAD: usize = 1_000;

/// The checks of one ledger tool's result, read in the transaction that read the result
/// (the same rows: a change committed in between cannot fail a check). `checked`: what
/// [`checked_months`] found for `call`.
pub(crate) async fn verify_in(
    db: &mut AnyConnection,
    user: UserId,
    (call, output): (&ToolCall, &ToolOutput),
    checked: Option<(Date, Date)>,
    locale: Locale,
    today: Date,
) -> Result<Vec<Check>, BackendError> {
    let span = data_span(db, user).await?;
    let mut cx = super::CheckCx { db, user, span, checked, locale, today };
    // Each tool's checks are in its file (`by_tool`).
    super::ledger_checks(&mut cx, call, output).await
}

/// The first and last dates of the user's transactions.
async fn data_span(db: &mut AnyConnection, user: UserId) -> Result<Option<(Date, Date)>, BackendError> {
    let (first, last): (Option<String>, Option<String>) =
        // Two subqueries: each reads one end of the (user, date) index.
        sqlx::query_as(
            "SELECT (SELECT MIN(date) FROM transactions WHERE user_id = $1),
                    (SELECT MAX(date) FROM transactions WHERE user_id = $1)",
        )
            .bind(user.0)
            .fetch_one(&mut *db)
            .await?;
    Ok(first.zip(last).and_then(|(a, b)| Date::parse_iso(&a).zip(Date::parse_iso(&b))))
}

/// Whether `period` lies within the transactions the user has. A period that ends
/// after the last transaction is flagged when more than a week of it has passed
/// without one (a bank file not imported yet, say). A period Sou chose (no words of the
/// user's: "my last 10 transactions" looks back a year) is only noted.
pub(crate) fn coverage(period: &Period, span: Option<(Date, Date)>, today: Date, locale: Locale) -> Check {
    let check = coverage_of(period, span, today, locale);
    if period.words.is_empty() && check.outcome == CheckOutcome::Failed {
        return Check::note(CheckCode::PeriodCoverage, check.text);
    }
    check
}

fn coverage_of(period: &Period, span: Option<(Date, Date)>, today: Date, locale: Locale) -> Check {
    let label = if period.label.is_empty() {
        agent::wording::range_label(period.start, period.end.add_days(-1), locale)
    } else {
        period.label.clone()
    };
    let day = |d: Date| agent::wording::day_label(d, locale);
    let Some((first, last)) = span else {
        return Check::failed(
            CheckCode::PeriodCoverage,
            locale.pick("Vous n'avez encore aucune opération.", "You have no transactions yet."),
        );
    };
    let fail = |fr: String, en: String| Check::failed(CheckCode::PeriodCoverage, locale.pick(fr, en));
    if period.end <= first {
        return fail(
            format!("Vos opérations commencent le {} : avant, Sou n'a rien ({label}).", day(first)),
            format!("Your transactions start on {}: before that, Sou has nothing ({label}).", day(first)),
        );
    }
    if period.start < first {
        return fail(
            format!("Vos opérations commencent le {} : le début de {label} n'est pas compté.", day(first)),
            format!("Your transactions start on {}: the start of {label} is not counted.", day(first)),
        );
    }
    let until = period.end.min(today.add_days(1));
    if period.start > last && last.add_days(8) < until {
        return fail(
            format!("Vos opérations s'arrêtent le {} : Sou n'a rien pour {label}.", day(last)),
            format!("Your transactions end on {}: Sou has nothing for {label}.", day(last)),
        );
    }
    if period.start > last {
        // The period has just begun: nothing in it yet, which is no error.
        return Check::note(
            CheckCode::PeriodCoverage,
            locale.pick(
                format!("Aucune opération encore pour {label} ; la dernière date du {}.", day(last)),
                format!("No transaction yet for {label}; the last one is from {}.", day(last)),
            ),
        );
    }
    if last.add_days(8) < until {
        return fail(
            format!("Vos opérations s'arrêtent le {} : {label} est peut-être incomplet.", day(last)),
            format!("Your transactions end on {}: {label} may be incomplete.", day(last)),
        );
    }
    Check::passed(
        CheckCode::PeriodCoverage,
        locale.pick(
            format!("Vos opérations couvrent la période (du {} au {}).", day(first), day(last)),
            format!("Your transactions cover the period ({} to {}).", day(first), day(last)),
        ),
    )
}

/// Reads source transactions again by id (the first page a result carries, or a
/// recurring payment's few): every one must be found.
pub(super) async fn reread(
    db: &mut AnyConnection,
    user: UserId,
    ids: &[i64],
    locale: Locale,
    checks: &mut Vec<Check>,
) -> Result<Vec<(Date, Money)>, BackendError> {
    let ids = &ids[..ids.len().min(MAX_REREAD)];
    let rows = dated_by_ids(db, user, ids).await?;
    if rows.len() != ids.len() {
        checks.push(count_check(false, ids.len() as u32, rows.len(), locale));
    }
    Ok(rows)
}

/// The part of `period` after `today`, if it has one.
pub(super) fn after_today(period: &Period, today: Date) -> Option<Period> {
    let from = today.add_days(1).max(period.start);
    (from < period.end).then(|| Period { start: from, ..period.clone() })
}

pub(super) fn future_check(future: i64, locale: Locale) -> Check {
    if future == 0 {
        Check::passed(
            CheckCode::FutureDates,
            locale.pick("Aucune opération datée après aujourd'hui.", "No transaction is dated after today."),
        )
    } else {
        Check::failed(
            CheckCode::FutureDates,
            locale.pick(
                format!("{future} opérations sont datées après aujourd'hui."),
                format!("{future} transactions are dated after today."),
            ),
        )
    }
}

/// A sum and a count.
type Sums = (i64, i64);

/// Other currencies are reported apart: each must be what the sources hold.
pub(super) fn currencies(
    found: &BTreeMap<Currency, Sums>,
    reported: &[Money],
    locale: Locale,
    checks: &mut Vec<Check>,
) {
    if found.is_empty() && reported.is_empty() {
        return;
    }
    let ok = found.len() == reported.len()
        && reported.iter().all(|m| {
            found.get(&m.currency).is_some_and(|(s, _)| s.saturating_abs() == m.minor.saturating_abs())
        });
    let listed = reported.iter().map(|m| m.format(locale)).collect::<Vec<_>>().join(", ");
    checks.push(if ok {
        Check::note(
            CheckCode::Currencies,
            locale.pick(
                format!("Hors du total, dans leur devise : {listed}."),
                format!("Not in the total, in their own currency: {listed}."),
            ),
        )
    } else {
        Check::failed(
            CheckCode::Currencies,
            locale.pick(
                "Les montants en autres devises ne correspondent pas aux opérations.",
                "The amounts in other currencies do not match the transactions.",
            ),
        )
    });
}

pub(super) fn count_check(ok: bool, said: u32, found: usize, locale: Locale) -> Check {
    let text = locale.pick(
        format!("{said} opérations annoncées, {found} trouvées."),
        format!("{said} transactions said, {found} found."),
    );
    Check::of(ok, CheckCode::Counts, text)
}

pub(super) fn money(minor: i64, currency: Currency, locale: Locale) -> String {
    Money::new(minor, currency).format(locale)
}

/// A dataset result: every row has as many cells as there are columns.
pub(crate) fn dataset_checks(output: &ToolOutput, locale: Locale) -> Vec<Check> {
    let (ToolOutput::QueryDataset(r) | ToolOutput::RunSql(r)) = output else { return Vec::new() };
    let width = r.result.columns.len();
    let ok = r.result.rows.iter().all(|row| row.len() == width);
    let text = locale.pick(
        format!("{} lignes de {width} colonnes.", r.result.rows.len()),
        format!("{} rows of {width} columns.", r.result.rows.len()),
    );
    vec![Check::of(ok, CheckCode::Counts, text)]
}
