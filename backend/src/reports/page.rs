//! A shared report as anyone with its link reads it: found by its id alone (on
//! PostgreSQL through the owner's functions, as no user is known), a live one's plans
//! run as its owner, every result redacted for the report's options.

use agent::reports::{redact, Figures, Freshness, Names, ReportContent, ReportKind, ReportPage};
use agent::{Date, Locale};

use super::{well_formed, Reports};
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::owner::Owner;

/// A shared report as its page reads it (`Owner::PeekReport`, `Owner::ViewReport`).
#[derive(sqlx::FromRow)]
struct PageRow {
    user_id: i64,
    kind: String,
    title: String,
    mode: String,
    figures: String,
    names: String,
    locale: String,
    content: String,
    as_of: String,
}

impl Reports {
    /// What a report's preview picture depends on (its title, options and date), read
    /// without counting a view or running a live report's plans: `None` when the link
    /// does not work.
    pub async fn stamp(&self, id: &str) -> Result<Option<String>, BackendError> {
        if !well_formed(id) {
            return Ok(None);
        }
        let now = crate::store::timestamp(chrono::Utc::now());
        let sql = Owner::ReportTitle.sql(self.store.dialect());
        let row: Option<(String, String, String, String, String)> =
            sqlx::query_as(sql).bind(id).bind(&now).fetch_optional(self.store.pool()).await?;
        Ok(row
            .map(|(title, mode, figures, names, as_of)| [title, mode, figures, names, as_of].join("\u{1f}")))
    }

    /// The page behind a link, for anyone: `None` when the id is unknown, revoked or
    /// expired (all alike). `count` records a view (the page, not its preview image).
    /// A live report runs its plans as its owner, in `viewer`'s language if given.
    pub async fn page(
        &self,
        id: &str,
        count: bool,
        viewer: Option<Locale>,
    ) -> Result<Option<ReportPage>, BackendError> {
        if !well_formed(id) {
            return Ok(None);
        }
        let now = crate::store::timestamp(chrono::Utc::now());
        // No user is known yet.
        let read = if count { Owner::ViewReport } else { Owner::PeekReport };
        let row: Option<PageRow> = sqlx::query_as(read.sql(self.store.dialect()))
            .bind(id)
            .bind(&now)
            .fetch_optional(self.store.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let owner = UserId(row.user_id);
        let kind = ReportKind::parse(&row.kind).unwrap_or(ReportKind::Answer);
        let title = row.title;
        let mode = Freshness::parse(&row.mode).unwrap_or_default();
        let figures = Figures::parse(&row.figures).unwrap_or_default();
        let names = Names::parse(&row.names).unwrap_or_default();
        let owner_locale = Locale::from_tag(&row.locale).unwrap_or_default();
        let mut content: ReportContent = serde_json::from_str(&row.content)
            .map_err(|e| BackendError::Corrupt(format!("stored report: {e}")))?;
        let as_of = Date::parse_iso(&row.as_of).unwrap_or_else(|| self.calendar.today());
        // A warning may quote the user's words: names, amounts.
        if names == Names::Categories || figures == Figures::Shares {
            let locale = viewer.filter(|_| mode == Freshness::Live).unwrap_or(owner_locale);
            for block in content.blocks.iter_mut().filter(|b| !b.notes.is_empty()) {
                block.notes = vec![locale
                    .pick(
                        "Sou n'était pas tout à fait sûr de la façon de lire cette question.",
                        "Sou was not entirely sure how to read this question.",
                    )
                    .to_string()];
            }
        }
        let (locale, as_of) = match mode {
            Freshness::Snapshot => (owner_locale, as_of),
            Freshness::Live => {
                let locale = viewer.unwrap_or(owner_locale);
                for block in content.blocks.iter_mut() {
                    if locale != owner_locale {
                        for p in block.plans.iter_mut() {
                            if let Some(period) = p.call.period_mut() {
                                *period = agent::period::relabel(period.clone(), locale);
                            }
                        }
                    }
                    // A part that cannot be computed any more (a category deleted since)
                    // says so; the rest of the page stands.
                    if let Err(e) = self.run_block(owner, block, locale).await {
                        tracing::warn!(error = %e, "a live report's part could not be computed");
                        block.outputs.clear();
                        block.notes = vec![locale
                            .pick(
                                "Cette partie n'a pas pu être recalculée.",
                                "This part could not be computed again.",
                            )
                            .to_string()];
                    }
                }
                if let Some(p) = content.period.take() {
                    content.period = Some(agent::period::relabel(p, locale));
                }
                (locale, self.calendar.today())
            }
        };
        for block in content.blocks.iter_mut() {
            let outputs = std::mem::take(&mut block.outputs);
            block.outputs = outputs
                .into_iter()
                .enumerate()
                .map(|(i, o)| redact(o, block.plans.get(i).map(|p| &p.call), names, locale))
                .collect();
        }
        let summary = agent::reports::summary_line(kind, &content, figures, locale);
        Ok(Some(ReportPage {
            title,
            summary,
            kind,
            mode,
            figures,
            names,
            locale,
            as_of,
            period: content.period,
            blocks: content.blocks,
        }))
    }
}
