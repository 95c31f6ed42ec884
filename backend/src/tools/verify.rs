//! Every tool result is checked before it is shown: its total against its groups and
//! against its source transactions read again, its counts, its period against the
//! transactions the user has, its currencies, its dates. A failed check lowers the
//! answer's confidence (`agent::runs::answer_confidence`) and says why.

use std::collections::BTreeMap;

use agent::runs::{Check, CheckCode, CheckOutcome};
use agent::{Currency, Date, Locale, Money, Period, ToolCall, ToolOutput};
use sqlx::AnyConnection;

use super::flows::cash_flow_from_rows;
use super::ledger::dated_by_ids;
use super::rollup::whole_months;
use super::spending::{summary_from_rollup, summary_from_rows, Flow};
use crate::error::BackendError;
use crate::ids::UserId;

/// At most this many source ids are read again one by one (a result carries a page).
const MAX_REREAD: usize = 1_000;

/// The whole months of a summary's period (first days; the last one excluded) that
/// its checks may read from the roll-up once they are found equal to their rows.
pub(super) fn rollup_months(call: &ToolCall) -> Option<(Date, Date)> {
    match call {
        ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a)
            if a.amount_min.is_none() && a.amount_max.is_none() =>
        {
            whole_months(a.period.start, a.period.end)
        }
        ToolCall::CashFlow(a) => whole_months(a.period.start, a.period.end),
        _ => None,
    }
}

/// The checks of one ledger tool's result, read in the transaction that read the result
/// (the same rows: a change committed in between cannot fail a check). `checked`: what
/// [`checked_months`] found for `call`.
// Over 120 lines; to split (issue 49).
#[allow(clippy::too_many_lines)]
pub(crate) async fn verify_in(
    db: &mut AnyConnection,
    user: UserId,
    (call, output): (&ToolCall, &ToolOutput),
    checked: Option<(Date, Date)>,
    locale: Locale,
    today: Date,
) -> Result<Vec<Check>, BackendError> {
    let span = data_span(db, user).await?;
    let mut checks = Vec::new();
    let pick = |fr: String, en: String| locale.pick(fr, en);
    match output {
        ToolOutput::SpendingSummary(r) | ToolOutput::IncomeSummary(r) => {
            checks.push(coverage(&r.period, span, today, locale));
            let top = match call {
                ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.top,
                _ => None,
            };
            if !r.groups.is_empty() {
                let sum: i64 = r.groups.iter().map(|g| g.total.minor).sum();
                let count: u32 = r.groups.iter().map(|g| g.count).sum();
                let whole = top.is_none_or(|n| r.groups.len() < n as usize);
                let ok = if whole { sum == r.total.minor && count == r.count } else { sum <= r.total.minor };
                let text = pick(
                    format!(
                        "Somme des groupes : {} ; total : {}.",
                        money(sum, r.total.currency, locale),
                        r.total.format(locale)
                    ),
                    format!(
                        "Sum of the groups: {}; total: {}.",
                        money(sum, r.total.currency, locale),
                        r.total.format(locale)
                    ),
                );
                checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
            }
            let (a, flow) = match call {
                ToolCall::SpendingSummary(a) => (a, Flow::Out),
                ToolCall::IncomeSummary(a) => (a, Flow::In),
                _ => return Err(BackendError::BadRequest("a summary from another call".into())),
            };
            // Read again from the rows themselves (the answer used the monthly roll-up);
            // the whole months whose roll-up was found equal to their rows, and has not
            // changed since, from the roll-up.
            let currency = r.total.currency;
            let ((sum, n), others) = match checked {
                Some(months) => summary_from_rollup(db, user, a, flow, currency, months).await?,
                None => summary_from_rows(db, user, a, flow, currency, None).await?,
            };
            let shown = money(sum, currency, locale);
            let text = match checked {
                Some(_) => pick(
                    format!(
                        "Relu dans vos opérations : {shown} sur {n} opérations ; les mois entiers d'après \
                         leur cumul, comparé à leurs opérations depuis leur dernier changement."
                    ),
                    format!(
                        "Read again from your transactions: {shown} over {n} transactions; whole months \
                         from their roll-up, compared with their transactions since they last changed."
                    ),
                ),
                None => pick(
                    format!("Relu dans vos opérations : {shown} sur {n} opérations."),
                    format!("Read again from your transactions: {shown} over {n} transactions."),
                ),
            };
            let ok = sum == r.total.minor && n == i64::from(r.count);
            checks.push(Check::of(ok, CheckCode::TotalOfSources, text));
            currencies(&others, &r.other_currencies, locale, &mut checks);
            reread(db, user, &r.source_ids, locale, &mut checks).await?;
            let future = match after_today(&a.period, today) {
                Some(later) => {
                    let ((_, n), others) =
                        summary_from_rows(db, user, a, flow, currency, Some(&later)).await?;
                    n + others.values().map(|(_, n)| n).sum::<i64>()
                }
                None => 0,
            };
            checks.push(future_check(future, locale));
        }
        ToolOutput::ListTransactions(r) => {
            checks.push(coverage(&r.period, span, today, locale));
            let page = (r.count as usize).min(agent::SOURCE_PAGE);
            let ok = r.source_ids.len() == page && r.transactions.len() <= r.count as usize;
            checks.push(count_check(ok, r.count, r.source_ids.len().max(r.count as usize), locale));
            let rows = reread(db, user, &r.source_ids, locale, &mut checks).await?;
            let future = rows.iter().filter(|(d, _)| *d > today).count();
            checks.push(future_check(future as i64, locale));
        }
        ToolOutput::ComparePeriods(r) => {
            checks.push(coverage(&r.current.period, span, today, locale));
            checks.push(coverage(&r.reference.period, span, today, locale));
            let ok = r.difference.minor == r.current.total.minor - r.reference.total.minor;
            let text = pick(
                format!(
                    "Écart : {} − {} = {}.",
                    r.current.total.format(locale),
                    r.reference.total.format(locale),
                    r.difference.format(locale)
                ),
                format!(
                    "Difference: {} − {} = {}.",
                    r.current.total.format(locale),
                    r.reference.total.format(locale),
                    r.difference.format(locale)
                ),
            );
            checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
        }
        ToolOutput::CashFlow(r) => {
            checks.push(coverage(&r.period, span, today, locale));
            let mut ok = r.net.minor == r.income.minor - r.spending.minor;
            if !r.rows.is_empty() {
                let income: i64 = r.rows.iter().map(|x| x.income.minor).sum();
                let spending: i64 = r.rows.iter().map(|x| x.spending.minor).sum();
                ok &= income == r.income.minor && spending == r.spending.minor;
            }
            let text = pick(
                format!(
                    "Entrées {} − sorties {} = {} ; les lignes s'additionnent.",
                    r.income.format(locale),
                    r.spending.format(locale),
                    r.net.format(locale)
                ),
                format!(
                    "Income {} − spending {} = {}; the rows add up.",
                    r.income.format(locale),
                    r.spending.format(locale),
                    r.net.format(locale)
                ),
            );
            checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
            if let ToolCall::CashFlow(a) = call {
                let currency = r.net.currency;
                let (income, spending, n) = cash_flow_from_rows(db, user, a, currency, checked).await?;
                let (shown_in, shown_out) =
                    (money(income, currency, locale), money(spending, currency, locale));
                let text = match checked {
                    Some(_) => pick(
                        format!(
                            "Relu dans vos opérations : entrées {shown_in}, sorties {shown_out}, sur {n} \
                             opérations ; les mois entiers d'après leur cumul, comparé à leurs opérations \
                             depuis leur dernier changement."
                        ),
                        format!(
                            "Read again from your transactions: income {shown_in}, spending {shown_out}, over \
                             {n} transactions; whole months from their roll-up, compared with their \
                             transactions since they last changed."
                        ),
                    ),
                    None => pick(
                        format!(
                            "Relu dans vos opérations : entrées {shown_in}, sorties {shown_out}, sur {n} opérations."
                        ),
                        format!(
                            "Read again from your transactions: income {shown_in}, spending {shown_out}, over \
                             {n} transactions."
                        ),
                    ),
                };
                let ok = income == r.income.minor && spending == r.spending.minor && n == r.source_count;
                checks.push(Check::of(ok, CheckCode::TotalOfSources, text));
            }
            let rows = reread(db, user, &r.source_ids, locale, &mut checks).await?;
            let future = rows.iter().filter(|(d, _)| *d > today).count();
            checks.push(future_check(future as i64, locale));
        }
        ToolOutput::Balances(r) => {
            let day =
                Period { start: r.date, end: r.date.add_days(1), label: String::new(), words: String::new() };
            if span.is_some_and(|(first, _)| r.date < first) {
                checks.push(coverage(&day, span, today, locale));
            }
            let sum: i64 = r
                .accounts
                .iter()
                .filter(|a| a.balance.currency == r.total.currency)
                .map(|a| a.balance.minor)
                .sum();
            let text = pick(
                format!("Somme des comptes : {}.", money(sum, r.total.currency, locale)),
                format!("Sum of the accounts: {}.", money(sum, r.total.currency, locale)),
            );
            checks.push(Check::of(sum == r.total.minor, CheckCode::TotalOfGroups, text));
            let apart: Vec<Money> = r
                .accounts
                .iter()
                .filter(|a| a.balance.currency != r.total.currency)
                .map(|a| a.balance)
                .collect();
            if !apart.is_empty() {
                let listed = apart.iter().map(|m| m.format(locale)).collect::<Vec<_>>().join(", ");
                checks.push(Check::note(
                    CheckCode::Currencies,
                    pick(
                        format!("Hors du total, dans leur devise : {listed}."),
                        format!("Not in the total, in their own currency: {listed}."),
                    ),
                ));
            }
        }
        ToolOutput::BudgetStatus(r) => {
            checks.push(coverage(&r.period, span, today, locale));
            let budget: i64 = r.lines.iter().map(|l| l.budget.minor).sum();
            let spent: i64 = r.lines.iter().map(|l| l.spent.minor).sum();
            let lines_ok = r.lines.iter().all(|l| l.remaining.minor == l.budget.minor - l.spent.minor);
            let ok = budget == r.budget.minor && spent == r.spent.minor && lines_ok;
            let text = pick(
                format!(
                    "Les lignes s'additionnent : budget {}, dépensé {}.",
                    money(budget, r.budget.currency, locale),
                    money(spent, r.spent.currency, locale)
                ),
                format!(
                    "The lines add up: budget {}, spent {}.",
                    money(budget, r.budget.currency, locale),
                    money(spent, r.spent.currency, locale)
                ),
            );
            checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
        }
        ToolOutput::RecurringPayments(r) => {
            checks.push(coverage(&r.period, span, today, locale));
            let yearly: i64 = r.items.iter().map(|i| i.yearly_cost.minor).sum();
            let text = pick(
                format!("Somme des paiements par an : {}.", money(yearly, r.yearly_total.currency, locale)),
                format!("Sum of the payments per year: {}.", money(yearly, r.yearly_total.currency, locale)),
            );
            checks.push(Check::of(yearly == r.yearly_total.minor, CheckCode::TotalOfGroups, text));
            let ids: Vec<i64> = r.items.iter().flat_map(|i| i.source_ids.iter().copied()).collect();
            let rows = reread(db, user, &ids, locale, &mut checks).await?;
            let future = rows.iter().filter(|(d, _)| *d > today).count();
            checks.push(future_check(future as i64, locale));
        }
        // Checked apart (`dataset_checks`): they read no ledger.
        ToolOutput::QueryDataset(_) | ToolOutput::RunSql(_) | ToolOutput::DatasetInfo(_) => {}
    }
    Ok(checks)
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
async fn reread(
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
fn after_today(period: &Period, today: Date) -> Option<Period> {
    let from = today.add_days(1).max(period.start);
    (from < period.end).then(|| Period { start: from, ..period.clone() })
}

fn future_check(future: i64, locale: Locale) -> Check {
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
fn currencies(found: &BTreeMap<Currency, Sums>, reported: &[Money], locale: Locale, checks: &mut Vec<Check>) {
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

fn count_check(ok: bool, said: u32, found: usize, locale: Locale) -> Check {
    let text = locale.pick(
        format!("{said} opérations annoncées, {found} trouvées."),
        format!("{said} transactions said, {found} found."),
    );
    Check::of(ok, CheckCode::Counts, text)
}

fn money(minor: i64, currency: Currency, locale: Locale) -> String {
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
