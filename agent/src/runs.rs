//! Runs: every answer is a run made of steps (reading the message, the guardian, the
//! router, each tool call, each model call, each verification), stored with their
//! timings, tokens, cost, arguments and sources. This is the trace's wire shape
//! (`GET /api/v1/runs/{id}`), and the one formula for an answer's confidence from its
//! plan and the checks its results passed.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::locale::Locale;
use crate::reason::Confidence;
use crate::tool::ToolCall;

/// A plan has one to this many steps.
pub const MAX_PLAN_STEPS: usize = 10;

/// One step of a plan: a tool call, why it is there and what it should give.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanStep {
    /// `tool` and `args`, as any plan's call.
    #[serde(flatten)]
    pub call: ToolCall,
    /// The step in words: "Dépenses : Courses — année 2025".
    pub title: String,
    pub why: String,
    pub expect: String,
}

/// A plan of several steps, shown to the user before it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunPlan {
    pub steps: Vec<PlanStep>,
    /// The least sure of its steps.
    pub confidence: Confidence,
    /// `parser` or `model`.
    pub by: String,
    pub locale: Locale,
    pub today: Date,
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Its steps are running (or it waits for a model).
    Running,
    /// A plan of several steps waits for the user: accept, edit or reject.
    Proposed,
    /// The user paused it between two steps.
    Paused,
    Done,
    Failed,
    Cancelled,
    Rejected,
    /// The server stopped while it ran and it could not be resumed.
    Interrupted,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Proposed => "proposed",
            RunStatus::Paused => "paused",
            RunStatus::Done => "done",
            RunStatus::Failed => "failed",
            RunStatus::Cancelled => "cancelled",
            RunStatus::Rejected => "rejected",
            RunStatus::Interrupted => "interrupted",
        }
    }

    pub fn parse(s: &str) -> Option<RunStatus> {
        Some(match s {
            "running" => RunStatus::Running,
            "proposed" => RunStatus::Proposed,
            "paused" => RunStatus::Paused,
            "done" => RunStatus::Done,
            "failed" => RunStatus::Failed,
            "cancelled" => RunStatus::Cancelled,
            "rejected" => RunStatus::Rejected,
            "interrupted" => RunStatus::Interrupted,
            _ => return None,
        })
    }

    /// Nothing more will happen to it.
    pub fn is_final(self) -> bool {
        !matches!(self, RunStatus::Running | RunStatus::Proposed | RunStatus::Paused)
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// The parser read the message (or the client's plan was checked).
    Parse,
    /// A model reviewed a plan the parser was not sure of.
    Guardian,
    /// A model chose between the simple and the complex model.
    Route,
    /// A model split a message into a plan of steps.
    Planner,
    /// A tool ran (or a write's dry run was proposed).
    Tool,
    /// A model wrote, or called tools.
    Model,
    /// A tool's result was checked before it was shown.
    Verify,
}

impl StepKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Parse => "parse",
            StepKind::Guardian => "guardian",
            StepKind::Route => "route",
            StepKind::Planner => "planner",
            StepKind::Tool => "tool",
            StepKind::Model => "model",
            StepKind::Verify => "verify",
        }
    }

    pub fn parse(s: &str) -> Option<StepKind> {
        Some(match s {
            "parse" => StepKind::Parse,
            "guardian" => StepKind::Guardian,
            "route" => StepKind::Route,
            "planner" => StepKind::Planner,
            "tool" => StepKind::Tool,
            "model" => StepKind::Model,
            "verify" => StepKind::Verify,
            _ => return None,
        })
    }

    /// The step's name as the trace panel shows it.
    pub fn label(self, locale: Locale) -> &'static str {
        match self {
            StepKind::Parse => locale.pick("Lecture de la question", "Reading the question"),
            StepKind::Guardian => locale.pick("Relecture par un modèle", "Review by a model"),
            StepKind::Route => locale.pick("Choix du modèle", "Choosing the model"),
            StepKind::Planner => locale.pick("Plan proposé par un modèle", "A plan from a model"),
            StepKind::Tool => locale.pick("Outil", "Tool"),
            StepKind::Model => locale.pick("Modèle", "Model"),
            StepKind::Verify => locale.pick("Vérification", "Verification"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Done,
    Failed,
    /// Stopped by the user, or by a client going away.
    Stopped,
    /// Not run: a model's tool call the registry refused (the reason in `error`).
    Refused,
}

impl StepStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Done => "done",
            StepStatus::Failed => "failed",
            StepStatus::Stopped => "stopped",
            StepStatus::Refused => "refused",
        }
    }

    pub fn parse(s: &str) -> Option<StepStatus> {
        Some(match s {
            "done" => StepStatus::Done,
            "failed" => StepStatus::Failed,
            "stopped" => StepStatus::Stopped,
            "refused" => StepStatus::Refused,
            _ => return None,
        })
    }
}

/// What a step's result rests on: the transactions counted, or the dataset rows read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sources {
    /// The first transactions the result counted (at most `SOURCE_PAGE`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transactions: Vec<i64>,
    /// How many transactions the result counted in all (`transactions` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Rows a dataset query returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_rows: Option<u64>,
    /// The dataset it read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
}

impl Sources {
    pub fn is_empty(&self) -> bool {
        self.transactions.is_empty() && self.dataset_rows.is_none()
    }

    /// How many transactions the result counted in all.
    pub fn transaction_count(&self) -> u64 {
        self.count.unwrap_or(self.transactions.len() as u64)
    }
}

/// One step of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// 1, 2, …: the step's place in the run.
    pub seq: u32,
    pub kind: StepKind,
    pub status: StepStatus,
    /// What it did, in words: "spending_summary", "Plan high: Courses, January 2026".
    pub title: String,
    /// The tool's registry name, for a tool step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The tool's arguments as validated by the registry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<serde_json::Value>,
    /// The SQL a dataset step ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    /// Milliseconds from the run's start to the step's.
    pub started_ms: u64,
    /// The step's own time, in microseconds.
    pub duration_us: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
    /// Millionths of a euro.
    #[serde(default)]
    pub cost_eur_micros: u64,
    /// The model has no known price: `cost_eur_micros` is a floor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpriced: bool,
    #[serde(default, skip_serializing_if = "Sources::is_empty")]
    pub sources: Sources,
    /// A verification step's checks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    /// Why it failed, safe to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Step {
    /// A step with nothing measured yet.
    pub fn new(kind: StepKind, title: impl Into<String>) -> Step {
        Step {
            seq: 0,
            kind,
            status: StepStatus::Done,
            title: title.into(),
            tool: None,
            arguments: None,
            sql: None,
            started_ms: 0,
            duration_us: 0,
            provider: None,
            model: None,
            input_tokens: 0,
            output_tokens: 0,
            cost_eur_micros: 0,
            unpriced: false,
            sources: Sources::default(),
            checks: Vec::new(),
            error: None,
        }
    }
}

/// A run as `GET /api/v1/runs/{id}` gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunTrace {
    /// Also the answer's id (`message_id` in the stream's `status`).
    pub id: String,
    pub conversation_id: String,
    pub status: RunStatus,
    /// RFC 3339, UTC.
    pub started_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// From the question to the last event, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_confidence: Option<f32>,
    /// A plan of several steps, as it is now (edited or not), and how many of its steps
    /// ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<RunPlan>,
    #[serde(default)]
    pub next_step: u32,
    pub steps: Vec<Step>,
    /// The first transactions each step rests on (at most [`SOURCE_ROWS`] a step), to
    /// show them; their ids are the first of the step's `sources`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_rows: Vec<crate::tools::TransactionRow>,
}

/// How many of a step's source transactions a trace carries to show.
pub const SOURCE_ROWS: usize = 20;

impl RunTrace {
    pub fn tokens(&self) -> (u64, u64) {
        self.steps.iter().fold((0, 0), |(i, o), s| (i + s.input_tokens, o + s.output_tokens))
    }

    pub fn cost_eur_micros(&self) -> u64 {
        self.steps.iter().map(|s| s.cost_eur_micros).sum()
    }
}

/// What a check looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckCode {
    /// The total equals the sum of its groups.
    TotalOfGroups,
    /// The total and the count equal those of the source transactions, read again.
    TotalOfSources,
    /// The counts shown agree with the sources.
    Counts,
    /// The period lies within the transactions the user has.
    PeriodCoverage,
    /// Amounts in other currencies are reported apart, never added.
    Currencies,
    /// No transaction is dated after today.
    FutureDates,
}

impl CheckCode {
    /// How much a failure of this check leaves of the answer's confidence.
    pub fn weight(self) -> f32 {
        match self {
            CheckCode::TotalOfGroups | CheckCode::TotalOfSources | CheckCode::Counts => 0.5,
            CheckCode::PeriodCoverage => 0.75,
            CheckCode::FutureDates => 0.75,
            CheckCode::Currencies => 1.0,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CheckCode::TotalOfGroups => "total_of_groups",
            CheckCode::TotalOfSources => "total_of_sources",
            CheckCode::Counts => "counts",
            CheckCode::PeriodCoverage => "period_coverage",
            CheckCode::Currencies => "currencies",
            CheckCode::FutureDates => "future_dates",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    Passed,
    /// Something to know, not an error: "12,00 USD are not in the total".
    Note,
    Failed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub code: CheckCode,
    pub outcome: CheckOutcome,
    /// What was checked and found, in the user's language.
    pub text: String,
}

impl Check {
    pub fn passed(code: CheckCode, text: impl Into<String>) -> Check {
        Check { code, outcome: CheckOutcome::Passed, text: text.into() }
    }

    pub fn failed(code: CheckCode, text: impl Into<String>) -> Check {
        Check { code, outcome: CheckOutcome::Failed, text: text.into() }
    }

    /// Passed if `ok`, else failed.
    pub fn of(ok: bool, code: CheckCode, text: impl Into<String>) -> Check {
        if ok {
            Check::passed(code, text)
        } else {
            Check::failed(code, text)
        }
    }

    pub fn note(code: CheckCode, text: impl Into<String>) -> Check {
        Check { code, outcome: CheckOutcome::Note, text: text.into() }
    }
}

/// Below this, the answer shows why.
pub const CONFIDENCE_WARNING: f32 = 0.8;

/// The confidence a plan gives its answer before any check: `high` 1.0; `medium` 0.7,
/// or what a model's review gave it if more (0.9 approved, 0.8 repaired); `low` only
/// what a review gave it (0 without one).
pub fn plan_base(confidence: Confidence, reviewed: f32) -> f32 {
    match confidence {
        Confidence::High => 1.0,
        Confidence::Medium => 0.7_f32.max(reviewed),
        Confidence::Low => reviewed,
    }
}

/// An answer's confidence: its base (the plan's, or 0.8 for a model's answer grounded in
/// a tool, 0.6 for one that is not) times the weight of each failed check, rounded to
/// hundredths. docs/api.md gives the weights.
pub fn answer_confidence(base: f32, checks: &[Check]) -> f32 {
    let c = checks
        .iter()
        .filter(|c| c.outcome == CheckOutcome::Failed)
        .fold(base, |acc, c| acc * c.code.weight());
    (c.clamp(0.0, 1.0) * 100.0).round() / 100.0
}

/// Where a month's model spending stands against its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitState {
    /// Under 80 %, or no limit.
    Ok,
    /// 80 % or more: the user is told.
    Warning,
    /// 100 %: models are not called until the next month; the parser answers alone.
    Reached,
}

/// Calls, tokens and cost of one day, month, provider or model.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageRow {
    /// "2026-11-23", "2026-11", "anthropic" or a model's name.
    pub key: String,
    pub calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_eur_micros: u64,
    /// Some call had no known price: the cost is a floor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpriced: bool,
}

/// A limit and what it leaves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limit {
    /// `user` (the user's own, or the instance's limit per user) or `instance` (all
    /// users together).
    pub scope: String,
    pub limit_eur_micros: u64,
    pub spent_eur_micros: u64,
    /// `spent / limit` in hundredths of a percent.
    pub used_basis_points: u64,
    pub state: LimitState,
}

/// `GET /api/v1/usage`: the user's model calls, and where the month stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageReport {
    /// The month the limits count ("2026-11"), in the server's time zone.
    pub month: String,
    pub spent_eur_micros: u64,
    /// The limits that apply, tightest first.
    pub limits: Vec<Limit>,
    /// The worst state of the limits.
    pub state: LimitState,
    /// The user's own limit, if they set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_limit_eur_micros: Option<u64>,
    /// The last 31 days that had calls, oldest first.
    pub days: Vec<UsageRow>,
    /// The last 12 months that had calls, oldest first.
    pub months: Vec<UsageRow>,
    /// This month, by provider and by model, most expensive first.
    pub providers: Vec<UsageRow>,
    pub models: Vec<UsageRow>,
}

/// Millionths of a euro shown to a ten-thousandth of a euro ("0,0123 €"), in integers
/// like all money.
pub fn eur_micros(v: u64, locale: Locale) -> String {
    let (euros, rest) = (v / 1_000_000, v % 1_000_000 / 100);
    let sep = locale.pick(",", ".");
    format!("{euros}{sep}{rest:04} €")
}

/// The state of `spent` against `limit`.
pub fn limit_state(spent: u64, limit: u64) -> (u64, LimitState) {
    let used = spent.saturating_mul(10_000).checked_div(limit).unwrap_or(u64::MAX);
    let state = if spent >= limit {
        LimitState::Reached
    } else if used >= 8_000 {
        LimitState::Warning
    } else {
        LimitState::Ok
    };
    (used.min(1_000_000), state)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_failed_check_lowers_the_confidence_below_the_warning() {
        let ok = [Check::passed(CheckCode::TotalOfSources, "ok")];
        assert_eq!(answer_confidence(plan_base(Confidence::High, 0.0), &ok), 1.0);
        let beyond = [Check::failed(CheckCode::PeriodCoverage, "starts later")];
        let c = answer_confidence(1.0, &beyond);
        assert_eq!(c, 0.75);
        assert!(c < CONFIDENCE_WARNING);
        // A note never lowers it; two failures multiply.
        assert_eq!(answer_confidence(1.0, &[Check::note(CheckCode::Currencies, "USD apart")]), 1.0);
        let two = [Check::failed(CheckCode::TotalOfGroups, "x"), Check::failed(CheckCode::Counts, "y")];
        assert_eq!(answer_confidence(0.9, &two), 0.23);
        assert_eq!(plan_base(Confidence::Medium, 0.0), 0.7);
        assert_eq!(plan_base(Confidence::Medium, 0.9), 0.9);
        assert_eq!(plan_base(Confidence::Low, 0.0), 0.0);
    }

    #[test]
    fn costs_read_in_each_language() {
        assert_eq!(eur_micros(12_345, Locale::Fr), "0,0123 €");
        assert_eq!(eur_micros(10_000_000, Locale::En), "10.0000 €");
    }

    #[test]
    fn limits_warn_at_80_and_stop_at_100() {
        assert_eq!(limit_state(0, 10_000_000), (0, LimitState::Ok));
        assert_eq!(limit_state(7_999_999, 10_000_000), (7_999, LimitState::Ok));
        assert_eq!(limit_state(8_000_000, 10_000_000), (8_000, LimitState::Warning));
        assert_eq!(limit_state(10_000_000, 10_000_000), (10_000, LimitState::Reached));
        // A limit of zero allows nothing.
        assert_eq!(limit_state(0, 0).1, LimitState::Reached);
    }

    #[test]
    fn names_read_back() {
        for s in [
            RunStatus::Running,
            RunStatus::Proposed,
            RunStatus::Paused,
            RunStatus::Done,
            RunStatus::Failed,
            RunStatus::Cancelled,
            RunStatus::Rejected,
            RunStatus::Interrupted,
        ] {
            assert_eq!(RunStatus::parse(s.as_str()), Some(s));
        }
        for k in [
            StepKind::Parse,
            StepKind::Guardian,
            StepKind::Route,
            StepKind::Planner,
            StepKind::Tool,
            StepKind::Model,
            StepKind::Verify,
        ] {
            assert_eq!(StepKind::parse(k.as_str()), Some(k));
        }
    }
}
