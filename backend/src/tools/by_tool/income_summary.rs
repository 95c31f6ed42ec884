//! `income_summary` on the server: `spending_summary`'s, on money coming in.

use agent::runs::Check;
use agent::{SummaryArgs, SummaryResult};

use super::spending_summary::summary_checks;
use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::Row_;
use crate::tools::spending::{summary, summary_lines, Flow};

pub(in crate::tools) use super::spending_summary::{headline, rollup_months, sources};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &SummaryArgs,
) -> Result<SummaryResult, BackendError> {
    summary(cx, a, Flow::In).await
}

pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    a: &SummaryArgs,
    r: &SummaryResult,
) -> Result<Vec<Check>, BackendError> {
    summary_checks(cx, a, r, Flow::In).await
}

pub(in crate::tools) async fn source_page(
    cx: PageCx<'_>,
    a: &SummaryArgs,
) -> Result<Vec<Row_>, BackendError> {
    summary_lines(cx, a, Flow::In).await
}
