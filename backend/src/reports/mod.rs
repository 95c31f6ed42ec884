//! Shared reports: made from an answer or composed for a month, listed, changed and
//! revoked by their owner only, and read by anyone with the link.
//!
//! A report keeps plans (never SQL) and, as a snapshot, the results they gave when it
//! was made: its page is rendered from what was stored, however the ledger changes. A
//! live report runs its plans again, as its owner, on each view. Either way the
//! results go through `agent::reports::redact` before they leave this module, so no
//! internal id reaches a page, nor a merchant when the owner shares categories only.

use agent::protocol::{ChatEvent, TextFormat};
use agent::reports::{
    parse_period, AutoTitle, Block, BlockKind, Figures, Freshness, Names, ReportContent, ReportKind,
    ReportSummary,
};
use agent::{Confidence, Date, Locale, PlanMeta, ToolCallPlan, ToolOutput};
use argon2::password_hash::rand_core::{OsRng, RngCore};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::json;

use crate::calendar::Calendar;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::registry::Registry;
use crate::store::Store;
use crate::vocabulary::Parsers;

mod limit;
mod page;
mod refusal;

pub use limit::VIEWS_PER_MINUTE;
use refusal::refuse;
pub use refusal::{Refusal, ReportError};

/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 120;
/// Answers pinned to one monthly report, at most.
pub const MAX_PINS: usize = 10;
/// Reports one user keeps, at most.
pub const MAX_REPORTS: i64 = 200;

/// What the owner chooses when sharing (all optional: a snapshot with amounts and
/// merchant names, titled by Sou, until revoked).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportOptions {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub mode: Freshness,
    #[serde(default)]
    pub figures: Figures,
    #[serde(default)]
    pub names: Names,
    /// The last day the link works.
    #[serde(default)]
    pub expires_on: Option<Date>,
}

/// `POST /api/v1/reports`: what to share, then the options.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum NewReport {
    Answer {
        message_id: String,
        #[serde(flatten)]
        options: ReportOptions,
    },
    Monthly {
        /// `2026-10`, `2026` or `2026-01-01..2026-03-31`.
        period: String,
        /// Answers (their `message_id`) added after the report's own blocks.
        #[serde(default)]
        pins: Vec<String>,
        #[serde(flatten)]
        options: ReportOptions,
    },
}

/// `PATCH /api/v1/reports/{id}`: each field present is changed; `expires_on: null`
/// removes the expiry.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportChange {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub mode: Option<Freshness>,
    #[serde(default)]
    pub figures: Option<Figures>,
    #[serde(default)]
    pub names: Option<Names>,
    #[serde(default, deserialize_with = "some_or_null")]
    pub expires_on: Option<Option<Date>>,
}

/// A field that may be absent (`None`), `null` (`Some(None)`) or set.
fn some_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<Date>>, D::Error> {
    Option::<Date>::deserialize(d).map(Some)
}

/// The link's id: 128 random bits, base64url (22 characters).
pub(crate) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether `id` could be a link's id at all (checked before any query).
pub fn well_formed(id: &str) -> bool {
    id.len() == 22 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A title Sou made from the user's words and names: without control or text-direction
/// characters, at most [`MAX_TITLE_CHARS`].
fn clean_title(title: &str) -> String {
    title.chars().filter(|c| !agent::text::is_hidden_control(*c)).take(MAX_TITLE_CHARS).collect()
}

fn check_title(title: &str) -> Result<String, ReportError> {
    let title = title.trim();
    let n = title.chars().count();
    if n == 0 || n > MAX_TITLE_CHARS {
        return Err(refuse(Refusal::Title));
    }
    if agent::text::hidden_control(title).is_some() {
        return Err(refuse(Refusal::Title));
    }
    Ok(title.to_string())
}

/// The first moment the link no longer works: the day after `last`, at midnight in the
/// server's time zone, as a stored timestamp.
fn expiry(last: Date, tz: chrono_tz::Tz) -> Option<String> {
    use chrono::TimeZone as _;
    let next = last.add_days(1);
    let day = chrono::NaiveDate::from_ymd_opt(next.year(), next.month(), next.day())?;
    // Midnight may not exist (a clock moved forward then): the first hour that does.
    let local = (0..3).find_map(|h| tz.from_local_datetime(&day.and_hms_opt(h, 0, 0)?).earliest());
    let utc = match local {
        Some(t) => t.with_timezone(&chrono::Utc),
        None => day.and_hms_opt(0, 0, 0)?.and_utc(),
    };
    Some(crate::store::timestamp(utc))
}

/// A plan Sou composes for a monthly report, checked by the registry like any other.
fn plan(
    tool: &str,
    args: serde_json::Value,
    locale: Locale,
    today: Date,
) -> Result<ToolCallPlan, ReportError> {
    let call = Registry::get().validate(&json!({"tool": tool, "args": args}))?;
    Ok(ToolCallPlan {
        call,
        meta: PlanMeta { confidence: Confidence::High, confidence_reasons: Vec::new(), locale, today },
    })
}

/// The answer a message holds, as a block: its plan, the results it showed, a model's
/// words. Sou's own sentence is not kept: the page writes it again from the results.
struct StoredAnswer {
    block: Block,
    /// What the plan computes, in words ("Dépenses chez Carrefour — janvier 2026").
    title: String,
    /// The same without names ("Réponse de Sou — janvier 2026").
    generic_title: String,
    /// The day the answer was given, in the server's time zone: its figures' date.
    answered_on: Option<Date>,
}

/// Shared reports: made from answers, listed, changed and revoked by their owner; their
/// pages, read by anyone with the link within its request limit.
#[derive(Clone)]
pub struct Reports {
    store: Store,
    pub(crate) calendar: Calendar,
    parsers: Parsers,
    /// Requests one shared link serves a minute (`0`: every one).
    pub(crate) views_per_minute: usize,
}

impl Reports {
    pub(crate) fn new(store: Store, calendar: Calendar, parsers: Parsers) -> Reports {
        Reports { store, calendar, parsers, views_per_minute: VIEWS_PER_MINUTE }
    }

    /// Requests one shared link serves a minute (`0`: every one).
    pub fn views_per_minute(&self) -> usize {
        self.views_per_minute
    }

    async fn stored_answer(
        &self,
        user: UserId,
        public_id: &str,
        locale: Locale,
    ) -> Result<StoredAnswer, ReportError> {
        let mut db = self.store.tenant_read(user).await?;
        let (plan, events, created_at): (Option<String>, Option<String>, String) = sqlx::query_as(
            "SELECT m.plan, m.events, m.created_at FROM messages m
             JOIN conversations c ON c.id = m.conversation_id AND c.user_id = m.user_id AND c.visitor IS NULL
             WHERE m.public_id = $1 AND m.user_id = $2 AND m.role = 'assistant'",
        )
        .bind(public_id)
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?
        .ok_or(BackendError::NotFound)?;
        db.commit().await?;
        let answered_on = chrono::DateTime::parse_from_rfc3339(&created_at).ok().and_then(|t| {
            use chrono::Datelike as _;
            let local = t.with_timezone(&self.calendar.timezone);
            Date::new(local.year(), local.month(), local.day())
        });
        let plan: Option<ToolCallPlan> = plan
            .map(|p| serde_json::from_str(&p))
            .transpose()
            .map_err(|e| BackendError::Corrupt(format!("stored plan: {e}")))?;
        let events: Vec<ChatEvent> = events
            .map(|e| serde_json::from_str(&e))
            .transpose()
            .map_err(|e| BackendError::Corrupt(format!("stored events: {e}")))?
            .unwrap_or_default();
        let mut outputs = Vec::new();
        let mut markdown = String::new();
        let mut notes = Vec::new();
        for e in events {
            match e {
                ChatEvent::ToolResult(output) => outputs.push(output),
                ChatEvent::Token { content, format: TextFormat::Markdown } => markdown.push_str(&content),
                // The warning the chat showed under the answer (see app/src/render/events.rs).
                ChatEvent::Status { uncertainty, usage, .. } => {
                    let unsure = uncertainty.answer_confidence > 0.0 && uncertainty.answer_confidence < 0.8;
                    if unsure || (usage.route != "parser" && !uncertainty.warnings.is_empty()) {
                        notes = uncertainty.warnings;
                    }
                }
                _ => {}
            }
        }
        if outputs.is_empty() && markdown.trim().is_empty() {
            return Err(refuse(Refusal::NoResult));
        }
        // A parser's answer is one plan and its one result; a model's may have run
        // several tools whose plans are not kept, so it can only be frozen.
        let plans = match &plan {
            Some(p) if outputs.len() == 1 && markdown.is_empty() => vec![p.clone()],
            _ => Vec::new(),
        };
        // Titled in the conversation's language, as its period's label is ("Dépenses :
        // Courses — janvier 2026", whoever shares it in whatever language).
        let locale = plan.as_ref().map_or(locale, |p| p.meta.locale);
        let generic = locale.pick("Réponse de Sou", "Sou's answer");
        let generic_title = match plan.as_ref().and_then(|p| p.call.period()) {
            Some(period) => format!("{generic} — {}", period.label),
            None => generic.to_string(),
        };
        let title = match plans.first() {
            Some(p) => self.parsers.get(&self.store, user, None).await?.describe(&p.call, locale),
            None => generic_title.clone(),
        };
        let (title, generic_title) = (clean_title(&title), clean_title(&generic_title));
        let markdown = (!markdown.trim().is_empty()).then_some(markdown);
        let block = Block { kind: BlockKind::Answer, plans, outputs, markdown, notes };
        Ok(StoredAnswer { block, title, generic_title, answered_on })
    }

    /// Checks that an answer block can be shared with these options.
    fn shareable(block: &Block, options: &ReportOptions) -> Result<(), ReportError> {
        if block.markdown.is_some()
            && (options.figures == Figures::Shares || options.names == Names::Categories)
        {
            return Err(refuse(Refusal::ModelWords));
        }
        if options.mode == Freshness::Live && block.plans.is_empty() {
            return Err(refuse(Refusal::LiveNeedsPlan));
        }
        // A live report keeps plans, never SQL: an answer computed by SQL is frozen.
        let sql = block.plans.iter().any(|p| matches!(p.call, agent::ToolCall::RunSql(_)));
        if options.mode == Freshness::Live && sql {
            return Err(refuse(Refusal::LiveSql));
        }
        // A dataset's rows are the user's own columns: Sou cannot tell a merchant in them.
        let dataset = block.plans.iter().any(|p| p.call.is_dataset())
            || block.outputs.iter().any(|o| {
                matches!(o, ToolOutput::QueryDataset(_) | ToolOutput::RunSql(_) | ToolOutput::DatasetInfo(_))
            });
        if options.names == Names::Categories && dataset {
            return Err(refuse(Refusal::DatasetNames));
        }
        Ok(())
    }

    /// The blocks of a monthly report: spending by category against the period before,
    /// cash flow, budgets, the top merchants and the recurring payments of the last
    /// twelve months.
    fn monthly_blocks(
        period: &agent::Period,
        locale: Locale,
        today: Date,
    ) -> Result<Vec<Block>, ReportError> {
        let previous = agent::reports::previous(period, locale);
        let months = {
            let (a, b) = (period.start, period.end);
            (b.year() - a.year()) * 12 + b.month() as i32 - a.month() as i32
        };
        let by_month =
            if months > 1 && period.start.day() == 1 && period.end.day() == 1 { "month" } else { "none" };
        let year_before = agent::period::range(period.end.add_months(-12), period.end, locale);
        let block =
            |kind, plans| Block { kind, plans, outputs: Vec::new(), markdown: None, notes: Vec::new() };
        Ok(vec![
            block(
                BlockKind::Categories,
                vec![
                    plan(
                        "spending_summary",
                        json!({"period": period, "group_by": "category"}),
                        locale,
                        today,
                    )?,
                    plan(
                        "spending_summary",
                        json!({"period": previous, "group_by": "category"}),
                        locale,
                        today,
                    )?,
                ],
            ),
            block(
                BlockKind::CashFlow,
                vec![plan("cash_flow", json!({"period": period, "group_by": by_month}), locale, today)?],
            ),
            block(BlockKind::Budgets, vec![plan("budget_status", json!({"period": period}), locale, today)?]),
            block(
                BlockKind::Merchants,
                vec![plan(
                    "spending_summary",
                    json!({"period": period, "group_by": "merchant", "top": 5}),
                    locale,
                    today,
                )?],
            ),
            block(
                BlockKind::Recurring,
                vec![plan("recurring_payments", json!({"period": year_before}), locale, today)?],
            ),
        ])
    }

    /// Runs a block's plans as `owner` (a live report's view, or a snapshot being made).
    pub(super) async fn run_block(
        &self,
        owner: UserId,
        block: &mut Block,
        locale: Locale,
    ) -> Result<(), BackendError> {
        let mut outputs = Vec::with_capacity(block.plans.len());
        for p in &block.plans {
            outputs
                .push(crate::tools::run(&self.store, owner, &p.call, locale, self.calendar.today()).await?);
        }
        block.outputs = outputs;
        Ok(())
    }

    /// Shares an answer or a month. Answers the new report as its owner lists it.
    pub async fn create(
        &self,
        user: UserId,
        new: NewReport,
        locale: Locale,
    ) -> Result<ReportSummary, ReportError> {
        let today = self.calendar.today();
        // A shared answer's figures are those it showed, on the day it was given.
        let mut as_of = today;
        let (kind, options, content, default_title) = match new {
            NewReport::Answer { message_id, options } => {
                let answer = self.stored_answer(user, &message_id, locale).await?;
                Self::shareable(&answer.block, &options)?;
                if options.mode == Freshness::Snapshot {
                    as_of = answer.answered_on.unwrap_or(today);
                }
                let auto = AutoTitle { named: answer.title, plain: answer.generic_title };
                let title = auto.pick(options.figures, options.names).to_string();
                let content =
                    ReportContent { period: None, blocks: vec![answer.block], auto_title: Some(auto) };
                (ReportKind::Answer, options, content, title)
            }
            NewReport::Monthly { period, pins, options } => {
                let period = parse_period(&period, locale).ok_or_else(|| refuse(Refusal::Period))?;
                if pins.len() > MAX_PINS {
                    return Err(refuse(Refusal::TooManyPins));
                }
                let mut blocks = Self::monthly_blocks(&period, locale, today)?;
                for pin in &pins {
                    let answer = self.stored_answer(user, pin, locale).await?;
                    Self::shareable(&answer.block, &options)?;
                    blocks.push(answer.block);
                }
                let title = format!("{} — {}", locale.pick("Bilan", "Report"), period.label);
                let content = ReportContent { period: Some(period), blocks, auto_title: None };
                (ReportKind::Monthly, options, content, title)
            }
        };
        let mut content = content;
        let title = match &options.title {
            Some(t) => {
                content.auto_title = None;
                check_title(t)?
            }
            None => default_title,
        };
        if options.expires_on.is_some_and(|d| d < today) {
            return Err(refuse(Refusal::ExpiryPast));
        }
        // A snapshot's figures are the ones computed now (monthly) or the ones the answer
        // showed; a live report keeps only its plans.
        for block in content.blocks.iter_mut() {
            match options.mode {
                Freshness::Snapshot if block.outputs.is_empty() => {
                    self.run_block(user, block, locale).await?
                }
                Freshness::Snapshot => {}
                Freshness::Live => block.outputs.clear(),
            }
        }
        let json = serde_json::to_string(&content).map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let id = new_id();
        let now = crate::store::timestamp(chrono::Utc::now());
        let expires_at = options.expires_on.and_then(|d| expiry(d, self.calendar.timezone));
        let mut tx = self.store.tenant(user).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reports WHERE user_id = $1")
            .bind(user.0)
            .fetch_one(&mut *tx)
            .await?;
        if count >= MAX_REPORTS {
            return Err(refuse(Refusal::TooMany));
        }
        sqlx::query(
            "INSERT INTO reports (id, user_id, kind, title, mode, figures, names, locale, content, as_of,
                                  created_at, expires_on, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(kind.as_str())
        .bind(&title)
        .bind(options.mode.as_str())
        .bind(options.figures.as_str())
        .bind(options.names.as_str())
        .bind(locale.as_str())
        .bind(json)
        .bind(as_of.to_string())
        .bind(&now)
        .bind(options.expires_on.map(|d| d.to_string()))
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        tracing::info!(user = %crate::trace::user(user), kind = kind.as_str(), mode = options.mode.as_str(), "report shared");
        Ok(ReportSummary {
            url: format!("/r/{id}"),
            id,
            title,
            kind,
            mode: options.mode,
            figures: options.figures,
            names: options.names,
            created_at: now,
            expires_on: options.expires_on,
            views: 0,
        })
    }

    /// One of the user's shared reports; anyone else's is `NotFound`.
    pub async fn get(&self, user: UserId, id: &str) -> Result<ReportSummary, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let row: Option<SummaryRow> =
            sqlx::query_as(&format!("SELECT {SUMMARY_COLUMNS} FROM reports WHERE id = $1 AND user_id = $2"))
                .bind(id)
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        row.ok_or(BackendError::NotFound)?.summary()
    }

    /// The user's shared reports, newest first.
    pub async fn list(&self, user: UserId) -> Result<Vec<ReportSummary>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<SummaryRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM reports WHERE user_id = $1 ORDER BY created_at DESC, id"
        ))
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        rows.into_iter().map(SummaryRow::summary).collect()
    }

    /// Changes one of the user's reports; anyone else's is `NotFound`. Turning a live
    /// report into a snapshot freezes its figures as they are now.
    pub async fn change(
        &self,
        user: UserId,
        id: &str,
        change: ReportChange,
    ) -> Result<ReportSummary, ReportError> {
        if !well_formed(id) {
            return Err(BackendError::NotFound.into());
        }
        let mut db = self.store.tenant_read(user).await?;
        let (stored, was, owner_locale, figures, names): (String, String, String, String, String) =
            sqlx::query_as(
                "SELECT content, mode, locale, figures, names FROM reports WHERE id = $1 AND user_id = $2",
            )
            .bind(id)
            .bind(user.0)
            .fetch_optional(&mut *db)
            .await?
            .ok_or(BackendError::NotFound)?;
        db.commit().await?;
        let mut content: ReportContent = serde_json::from_str(&stored)
            .map_err(|e| BackendError::Corrupt(format!("stored report: {e}")))?;
        let was = Freshness::parse(&was).unwrap_or_default();
        let owner_locale = Locale::from_tag(&owner_locale).unwrap_or_default();
        let mut title = change.title.as_deref().map(check_title).transpose()?;
        if let Some(Some(d)) = change.expires_on {
            if d < self.calendar.today() {
                return Err(refuse(Refusal::ExpiryPast));
            }
        }
        // What the report will be once changed: every block must still be shareable so.
        let options = ReportOptions {
            title: None,
            mode: change.mode.unwrap_or(was),
            figures: change.figures.unwrap_or(Figures::parse(&figures).unwrap_or_default()),
            names: change.names.unwrap_or(Names::parse(&names).unwrap_or_default()),
            expires_on: None,
        };
        for block in &content.blocks {
            Self::shareable(block, &options)?;
        }
        // A title the owner writes stays; Sou's own follows the options.
        if title.is_some() {
            content.auto_title = None;
        } else if let Some(auto) = &content.auto_title {
            title = Some(auto.pick(options.figures, options.names).to_string());
        }
        let mut as_of = None;
        match (was, change.mode) {
            (Freshness::Live, Some(Freshness::Snapshot)) => {
                for block in content.blocks.iter_mut() {
                    self.run_block(user, block, owner_locale).await?;
                }
                as_of = Some(self.calendar.today().to_string());
            }
            (Freshness::Snapshot, Some(Freshness::Live)) => {
                for block in content.blocks.iter_mut() {
                    block.outputs.clear();
                }
            }
            _ => {}
        }
        let json = serde_json::to_string(&content).map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let expires = change
            .expires_on
            .map(|d| (d.map(|d| d.to_string()), d.and_then(|d| expiry(d, self.calendar.timezone))));
        let mut tx = self.store.tenant(user).await?;
        let q = sqlx::query(
            "UPDATE reports SET title = COALESCE($3, title), mode = COALESCE($4, mode),
                    figures = COALESCE($5, figures), names = COALESCE($6, names), content = $7,
                    as_of = COALESCE($8, as_of),
                    expires_on = CASE WHEN $9 = 1 THEN $10 ELSE expires_on END,
                    expires_at = CASE WHEN $9 = 1 THEN $11 ELSE expires_at END
             WHERE id = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(user.0)
        .bind(title)
        .bind(change.mode.map(Freshness::as_str))
        .bind(change.figures.map(Figures::as_str))
        .bind(change.names.map(Names::as_str))
        .bind(json)
        .bind(as_of)
        .bind(i64::from(expires.is_some()))
        .bind(expires.as_ref().and_then(|e| e.0.clone()))
        .bind(expires.and_then(|e| e.1));
        let changed = q.execute(&mut *tx).await?.rows_affected();
        tx.commit().await?;
        if changed == 0 {
            return Err(BackendError::NotFound.into());
        }
        Ok(self.get(user, id).await?)
    }

    /// Revokes one of the user's reports: its link answers 404 from now on, as if it
    /// had never existed. Anyone else's is `NotFound`.
    pub async fn revoke(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        if !well_formed(id) {
            return Err(BackendError::NotFound);
        }
        let query = sqlx::query("DELETE FROM reports WHERE id = $1 AND user_id = $2").bind(id).bind(user.0);
        if !self.store.change(user, query).await? {
            return Err(BackendError::NotFound);
        }
        tracing::info!(user = %crate::trace::user(user), "report revoked");
        Ok(())
    }
}

/// The columns a [`SummaryRow`] reads.
const SUMMARY_COLUMNS: &str = "id, title, kind, mode, figures, names, created_at, expires_on, views";

/// A report as its owner's list shows it, as stored.
#[derive(sqlx::FromRow)]
struct SummaryRow {
    id: String,
    title: String,
    kind: String,
    mode: String,
    figures: String,
    names: String,
    created_at: String,
    expires_on: Option<String>,
    views: i64,
}

impl SummaryRow {
    fn summary(self) -> Result<ReportSummary, BackendError> {
        let corrupt = |what: &str| BackendError::Corrupt(format!("stored report {what}"));
        Ok(ReportSummary {
            url: format!("/r/{}", self.id),
            id: self.id,
            title: self.title,
            kind: ReportKind::parse(&self.kind).ok_or_else(|| corrupt("kind"))?,
            mode: Freshness::parse(&self.mode).ok_or_else(|| corrupt("mode"))?,
            figures: Figures::parse(&self.figures).ok_or_else(|| corrupt("figures"))?,
            names: Names::parse(&self.names).ok_or_else(|| corrupt("names"))?,
            created_at: self.created_at,
            expires_on: self.expires_on.and_then(|d| Date::parse_iso(&d)),
            views: u64::try_from(self.views).unwrap_or(0),
        })
    }
}

/// An answer the owner may pin to a monthly report: its id and the question it answered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pinnable {
    pub message_id: String,
    pub question: String,
}

impl Reports {
    /// The user's latest answers that ran a plan (at most `limit`), newest first, with
    /// the question each answered.
    pub async fn pinnable_answers(&self, user: UserId, limit: u32) -> Result<Vec<Pinnable>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<(String, Option<String>)> = sqlx::query_as(
            "SELECT a.public_id,
                    (SELECT q.content FROM messages q WHERE q.conversation_id = a.conversation_id
                       AND q.user_id = a.user_id AND q.role = 'user' AND q.id < a.id ORDER BY q.id DESC LIMIT 1)
             FROM messages a
             JOIN conversations c ON c.id = a.conversation_id AND c.user_id = a.user_id AND c.visitor IS NULL
             WHERE a.user_id = $1 AND a.role = 'assistant' AND a.public_id IS NOT NULL AND a.plan IS NOT NULL
             ORDER BY a.id DESC LIMIT $2",
        )
        .bind(user.0)
        .bind(i64::from(limit))
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows
            .into_iter()
            .map(|(message_id, question)| Pinnable {
                message_id,
                question: question.unwrap_or_default().chars().take(120).collect(),
            })
            .collect())
    }
}
