//! What model calls cost a user, and the monthly limits: the instance's per user and in
//! all (configured), and the user's own (Settings → Usage). At 80 % of a limit the user
//! is told; at 100 % no model is called until the month ends, and the parser answers
//! alone.

use std::collections::BTreeMap;

use agent::runs::{limit_state, Limit, LimitState, UsageReport, UsageRow};
use agent::Locale;
use chrono::{Datelike, TimeZone};

use crate::error::BackendError;
use crate::ids::UserId;
use crate::runs::record::Runs;
use crate::store::owner::Owner;

/// The largest limit a user may set: a million euros.
pub const MAX_OWN_LIMIT_EUR_MICROS: u64 = 1_000_000 * 1_000_000;

impl Runs {
    /// The first instant of the month `months_back` months before this one, in the
    /// server's time zone, as a stored timestamp; and that month's key ("2026-11").
    fn month_start(&self, months_back: u32) -> (String, String) {
        let now = chrono::Utc::now().with_timezone(&self.calendar.timezone);
        let mut y = now.year();
        let mut m = now.month() as i32 - months_back as i32;
        while m < 1 {
            m += 12;
            y -= 1;
        }
        // Midnight may not exist on the 1st (a clock change at midnight): the first hour
        // that does.
        let tz = self.calendar.timezone;
        let start = (0..3)
            .find_map(|h| tz.with_ymd_and_hms(y, m as u32, 1, h, 0, 0).earliest())
            .map(|t| t.with_timezone(&chrono::Utc))
            .unwrap_or_else(chrono::Utc::now);
        (crate::store::timestamp(start), format!("{y:04}-{m:02}"))
    }

    /// What `user` and everyone spent on models this month.
    async fn spent_this_month(&self, user: UserId) -> Result<(u64, u64), BackendError> {
        let (since, _) = self.month_start(0);
        let mut db = self.store.tenant_read(user).await?;
        let mine: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(cost_eur_micros), 0) AS BIGINT) FROM model_calls
             WHERE user_id = $1 AND created_at >= $2",
        )
        .bind(user.0)
        .bind(&since)
        .fetch_one(&mut *db)
        .await?;
        db.commit().await?;
        let all: i64 = if self.config.limits.instance_monthly_eur_micros.is_none() {
            0
        } else {
            sqlx::query_scalar(Owner::InstanceSpent.sql(self.store.dialect()))
                .bind(&since)
                .fetch_one(self.store.pool())
                .await?
        };
        Ok((mine.max(0) as u64, all.max(0) as u64))
    }

    /// The user's own limit, if set.
    async fn own_limit(&self, user: UserId) -> Result<Option<u64>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let own: Option<i64> =
            sqlx::query_scalar("SELECT monthly_eur_micros FROM usage_limits WHERE user_id = $1")
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        Ok(own.map(|v| v.max(0) as u64))
    }

    /// The limits that apply to `user` this month, tightest first.
    pub(crate) async fn limits(&self, user: UserId) -> Result<Vec<Limit>, BackendError> {
        let own = self.own_limit(user).await?;
        self.limits_with(user, own).await
    }

    async fn limits_with(&self, user: UserId, own: Option<u64>) -> Result<Vec<Limit>, BackendError> {
        let config = self.config.limits;
        let per_user = match (own, config.user_monthly_eur_micros) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if per_user.is_none() && config.instance_monthly_eur_micros.is_none() {
            return Ok(Vec::new());
        }
        let (mine, all) = self.spent_this_month(user).await?;
        let mut limits = Vec::new();
        let mut push = |scope: &str, limit: u64, spent: u64| {
            let (used, state) = limit_state(spent, limit);
            limits.push(Limit {
                scope: scope.into(),
                limit_eur_micros: limit,
                spent_eur_micros: spent,
                used_basis_points: used,
                state,
            });
        };
        if let Some(l) = per_user {
            push("user", l, mine);
        }
        if let Some(l) = config.instance_monthly_eur_micros {
            push("instance", l, all);
        }
        limits.sort_by_key(|l| std::cmp::Reverse(l.used_basis_points));
        Ok(limits)
    }

    /// `GET /api/v1/usage` and Settings → Usage.
    pub async fn usage(&self, user: UserId) -> Result<UsageReport, BackendError> {
        let own_limit_eur_micros = self.own_limit(user).await?;
        let limits = self.limits_with(user, own_limit_eur_micros).await?;
        let (since_year, _) = self.month_start(11);
        let (_, month) = self.month_start(0);
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<CallRow> = sqlx::query_as(
            "SELECT created_at, provider, model, input_tokens, output_tokens, cost_eur_micros, unpriced
             FROM model_calls WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at",
        )
        .bind(user.0)
        .bind(&since_year)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let tz = self.calendar.timezone;
        let today = chrono::Utc::now().with_timezone(&tz).date_naive();
        let (mut days, mut months, mut providers, mut models) =
            (BTreeMap::new(), BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        for r in rows {
            let Ok(at) = chrono::DateTime::parse_from_rfc3339(&r.created_at) else { continue };
            let local = at.with_timezone(&tz).date_naive();
            let add = |map: &mut BTreeMap<String, UsageRow>, key: String| {
                let row = map.entry(key.clone()).or_insert_with(|| UsageRow { key, ..UsageRow::default() });
                row.calls += 1;
                row.input_tokens += r.input_tokens.max(0) as u64;
                row.output_tokens += r.output_tokens.max(0) as u64;
                row.cost_eur_micros += r.cost_eur_micros.max(0) as u64;
                row.unpriced |= r.unpriced != 0;
            };
            let month_key = local.format("%Y-%m").to_string();
            add(&mut months, month_key.clone());
            if (today - local).num_days() < 31 {
                add(&mut days, local.format("%Y-%m-%d").to_string());
            }
            if month_key == month {
                add(&mut providers, r.provider.clone());
                add(&mut models, r.model.clone());
            }
        }
        let by_cost = |map: BTreeMap<String, UsageRow>| {
            let mut v: Vec<UsageRow> = map.into_values().collect();
            v.sort_by(|a, b| b.cost_eur_micros.cmp(&a.cost_eur_micros).then(a.key.cmp(&b.key)));
            v
        };
        let spent_eur_micros = months.get(&month).map(|r| r.cost_eur_micros).unwrap_or(0);
        let state = limits.iter().map(|l| l.state).max_by_key(|s| rank(*s)).unwrap_or(LimitState::Ok);
        Ok(UsageReport {
            month,
            spent_eur_micros,
            limits,
            state,
            own_limit_eur_micros,
            days: days.into_values().collect(),
            months: months.into_values().collect(),
            providers: by_cost(providers),
            models: by_cost(models),
        })
    }

    /// Sets (or, with `None`, removes) the user's own monthly limit.
    pub async fn set_usage_limit(&self, user: UserId, limit: Option<u64>) -> Result<(), BackendError> {
        if limit.is_some_and(|l| l > MAX_OWN_LIMIT_EUR_MICROS) {
            return Err(BackendError::BadRequest("the limit is larger than a million euros".into()));
        }
        let mut tx = self.store.tenant(user).await?;
        sqlx::query("DELETE FROM usage_limits WHERE user_id = $1").bind(user.0).execute(&mut *tx).await?;
        if let Some(l) = limit {
            sqlx::query("INSERT INTO usage_limits (user_id, monthly_eur_micros) VALUES ($1, $2)")
                .bind(user.0)
                .bind(l as i64)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// A model's call as stored.
#[derive(sqlx::FromRow)]
struct CallRow {
    created_at: String,
    provider: String,
    model: String,
    input_tokens: i64,
    output_tokens: i64,
    cost_eur_micros: i64,
    unpriced: i32,
}

fn rank(s: LimitState) -> u8 {
    match s {
        LimitState::Ok => 0,
        LimitState::Warning => 1,
        LimitState::Reached => 2,
    }
}

/// What the chat says of a limit at 80 % or reached.
pub(crate) fn limit_text(l: &agent::runs::Limit, locale: Locale) -> String {
    let (spent, limit) = (
        agent::runs::eur_micros(l.spent_eur_micros, locale),
        agent::runs::eur_micros(l.limit_eur_micros, locale),
    );
    let server = l.scope == "instance";
    let pct = l.used_basis_points / 100;
    let (fr, en) = match (l.state, server) {
        (LimitState::Reached, false) => (
            "Votre limite mensuelle de dépense en modèles est atteinte".to_string(),
            "Your monthly limit on model spending is reached".to_string(),
        ),
        (LimitState::Reached, true) => (
            "La limite mensuelle de dépense en modèles de ce serveur est atteinte".to_string(),
            "This server's monthly limit on model spending is reached".to_string(),
        ),
        (_, false) => (
            format!("{pct} % de votre limite mensuelle de dépense en modèles est utilisé"),
            format!("{pct} % of your monthly limit on model spending is used"),
        ),
        (_, true) => (
            format!("{pct} % de la limite mensuelle de dépense en modèles de ce serveur est utilisé"),
            format!("{pct} % of this server's monthly limit on model spending is used"),
        ),
    };
    let then = match (l.state, locale) {
        (LimitState::Reached, Locale::Fr) => " : Sou répond avec son analyseur seul jusqu'au mois prochain.",
        (LimitState::Reached, Locale::En) => ": Sou answers with its parser alone until next month.",
        _ => ".",
    };
    match locale {
        Locale::Fr => format!("{fr} ({spent} sur {limit}){then}"),
        Locale::En => format!("{en} ({spent} of {limit}){then}"),
    }
}
