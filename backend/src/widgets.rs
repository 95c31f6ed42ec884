//! Widget sites: Sou on another web site. Their owner creates, lists, disables and
//! revokes them; a visitor of the host page reaches one through its public id with a
//! token of its own (a [`Visitor`]), and asks what the site's scope allows, as its
//! owner's data, apart from the owner's conversations and from other visitors'.
//!
//! A visitor is anonymous and short-lived: the embed page draws a random token, the
//! browser sends it with each request, and only its SHA-256 is stored, on the
//! conversations it held. Those go with the site, and a day after they began. A
//! visitor never reaches a model (it would spend the owner's key): the parser answers,
//! and asks when unsure.

use agent::widgets::{
    origin, NewWidgetSite, WidgetScope, WidgetSite, WidgetTheme, LEDGER_TOOLS, MAX_GREETING_CHARS,
    MAX_NAME_CHARS, MAX_ORIGINS, MAX_RATE_PER_HOUR,
};
use agent::{Locale, Vocabulary};
use argon2::password_hash::rand_core::{OsRng, RngCore};
use base64::Engine as _;
use thiserror::Error;

use crate::error::{BackendError, ErrorKind, UserError};
use crate::ids::UserId;
use crate::store::owner::{Owner, Sweep};
use crate::store::Store;
use crate::vocabulary::Parsers;

/// Sites one user keeps, at most.
pub const MAX_SITES: i64 = 20;
/// How long a visitor's conversation lasts, in hours.
pub const VISITOR_HOURS: i64 = 24;
/// One widget visitor may ask this share of its site's hourly questions, in percent,
/// unless configured (`Sou::with_widget_visitor_percent`): a fifth.
pub const DEFAULT_VISITOR_PERCENT: u32 = 20;

/// The questions one visitor may ask in an hour on a site that takes `site_rate`.
pub fn visitor_rate(site_rate: u32, percent: u32) -> u32 {
    (u64::from(site_rate) * u64::from(percent.clamp(1, 100)) / 100).clamp(1, u64::from(site_rate.max(1)))
        as u32
}

/// Why a site was refused. `Display` is for logs; [`UserError`] for the owner.
#[derive(Debug, Error)]
pub enum WidgetError {
    #[error("the site's name is empty, too long or holds control characters")]
    Name,
    #[error("not an origin: {0:?}")]
    Origin(String),
    #[error("no origin, or more than the limit")]
    Origins,
    #[error("not a ledger read tool: {0:?}")]
    Tool(String),
    #[error("no such dataset: {0:?}")]
    Dataset(String),
    #[error("the scope is empty")]
    EmptyScope,
    #[error("the greeting is too long or holds control characters")]
    Greeting,
    #[error("the rate limit is out of range")]
    Rate,
    #[error("too many sites")]
    TooMany,
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<sqlx::Error> for WidgetError {
    fn from(e: sqlx::Error) -> Self {
        WidgetError::Backend(e.into())
    }
}

impl UserError for WidgetError {
    fn code(&self) -> &'static str {
        match self {
            WidgetError::Name => "widget_name",
            WidgetError::Origin(_) | WidgetError::Origins => "widget_origin",
            WidgetError::Tool(_) | WidgetError::Dataset(_) | WidgetError::EmptyScope => "widget_scope",
            WidgetError::Greeting => "widget_greeting",
            WidgetError::Rate => "widget_rate",
            WidgetError::TooMany => "widget_limit",
            WidgetError::Backend(e) => e.code(),
        }
    }

    fn message(&self, locale: Locale) -> String {
        let pick = |fr: &str, en: &str| locale.pick(fr, en).to_string();
        match self {
            WidgetError::Name => pick(
                &format!("Donnez au site un nom de 1 à {MAX_NAME_CHARS} caractères, sans caractère de contrôle."),
                &format!("Give the site a name of 1 to {MAX_NAME_CHARS} characters, with no control character."),
            ),
            WidgetError::Origin(o) => pick(
                &format!("« {o} » n'est pas une origine : écrivez https://exemple.fr (sans chemin), une par ligne."),
                &format!("“{o}” is not an origin: write https://example.com (no path), one per line."),
            ),
            WidgetError::Origins => pick(
                &format!("Indiquez de 1 à {MAX_ORIGINS} origines autorisées, une par ligne."),
                &format!("List 1 to {MAX_ORIGINS} allowed origins, one per line."),
            ),
            WidgetError::Tool(_) => pick(
                "Un widget ne peut proposer que les lectures du compte.",
                "A widget may only offer the ledger's reads.",
            ),
            WidgetError::Dataset(d) => pick(
                &format!("Vous n'avez pas de jeu de données « {d} »."),
                &format!("You have no dataset “{d}”."),
            ),
            WidgetError::EmptyScope => pick(
                "Choisissez au moins une question du compte ou un jeu de données.",
                "Choose at least one ledger question or one dataset.",
            ),
            WidgetError::Greeting => pick(
                &format!("Le message d'accueil a au plus {MAX_GREETING_CHARS} caractères, sans caractère de contrôle."),
                &format!("The greeting has at most {MAX_GREETING_CHARS} characters, with no control character."),
            ),
            WidgetError::Rate => pick(
                &format!("La limite est de 1 à {MAX_RATE_PER_HOUR} questions par heure."),
                &format!("The limit is 1 to {MAX_RATE_PER_HOUR} questions per hour."),
            ),
            WidgetError::TooMany => pick(
                &format!("Vous avez déjà {MAX_SITES} sites : révoquez-en un d'abord."),
                &format!("You already have {MAX_SITES} sites: revoke one first."),
            ),
            WidgetError::Backend(e) => e.message(locale),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            WidgetError::TooMany => ErrorKind::Conflict,
            WidgetError::Backend(e) => e.kind(),
            _ => ErrorKind::Invalid,
        }
    }
}

/// A visitor of a site's widget: the site (enabled when it was read), its owner, and
/// the digest of the visitor's token, which names the visitor's conversations.
#[derive(Clone, Debug)]
pub struct Visitor {
    pub owner: UserId,
    pub site: WidgetSite,
    pub(crate) key: String,
}

/// A new visitor's token: 256 random bits, base64url. The page holds it; Sou stores
/// only its digest.
pub fn visitor_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn well_formed_token(token: &str) -> bool {
    token.len() == 43 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A checked site: its origins normalised, its scope known, its texts clean.
fn check(new: NewWidgetSite, datasets: &[String]) -> Result<NewWidgetSite, WidgetError> {
    let name = new.name.trim().to_string();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME_CHARS || agent::text::hidden_control(&name).is_some() {
        return Err(WidgetError::Name);
    }
    let mut origins = Vec::new();
    for o in new.origins.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
        let o = origin(o).ok_or_else(|| WidgetError::Origin(o.chars().take(100).collect()))?;
        if !origins.contains(&o) {
            origins.push(o);
        }
    }
    if origins.is_empty() || origins.len() > MAX_ORIGINS {
        return Err(WidgetError::Origins);
    }
    let mut tools: Vec<String> = Vec::new();
    for t in &new.tools {
        if !LEDGER_TOOLS.contains(&t.as_str()) {
            return Err(WidgetError::Tool(t.chars().take(60).collect()));
        }
        if !tools.contains(t) {
            tools.push(t.clone());
        }
    }
    let mut chosen: Vec<String> = Vec::new();
    for d in &new.datasets {
        if !datasets.contains(d) {
            return Err(WidgetError::Dataset(d.chars().take(60).collect()));
        }
        if !chosen.contains(d) {
            chosen.push(d.clone());
        }
    }
    if tools.is_empty() && chosen.is_empty() {
        return Err(WidgetError::EmptyScope);
    }
    let greeting = new.greeting.trim().to_string();
    if greeting.chars().count() > MAX_GREETING_CHARS || agent::text::hidden_control(&greeting).is_some() {
        return Err(WidgetError::Greeting);
    }
    if new.rate_per_hour == 0 || new.rate_per_hour > MAX_RATE_PER_HOUR {
        return Err(WidgetError::Rate);
    }
    Ok(NewWidgetSite { name, origins, tools, datasets: chosen, greeting, ..new })
}

fn json_list(text: &str) -> Result<Vec<String>, BackendError> {
    serde_json::from_str(text).map_err(|e| BackendError::Corrupt(format!("stored widget site: {e}")))
}

const COLUMNS: &str =
    "id, name, origins, tools, datasets, greeting, theme, rate_per_hour, status, created_at";

/// A site as stored ([`COLUMNS`]).
#[derive(sqlx::FromRow)]
struct SiteRow {
    id: String,
    name: String,
    origins: String,
    tools: String,
    datasets: String,
    greeting: String,
    theme: String,
    rate_per_hour: i64,
    status: String,
    created_at: String,
}

/// A site with its owner, as a visitor reaches it (`Owner::WidgetSite`).
#[derive(sqlx::FromRow)]
struct OwnedSite {
    #[sqlx(flatten)]
    site: SiteRow,
    user_id: i64,
}

impl SiteRow {
    fn site(self) -> Result<WidgetSite, BackendError> {
        Ok(WidgetSite {
            id: self.id,
            name: self.name,
            origins: json_list(&self.origins)?,
            scope: WidgetScope { tools: json_list(&self.tools)?, datasets: json_list(&self.datasets)? },
            greeting: self.greeting,
            theme: WidgetTheme::parse(&self.theme).unwrap_or_default(),
            rate_per_hour: u32::try_from(self.rate_per_hour).unwrap_or(1),
            enabled: self.status == "enabled",
            created_at: self.created_at,
        })
    }
}

/// Widget sites, as their owner manages them and as a visitor reaches one.
#[derive(Clone)]
pub struct Widgets {
    store: Store,
    parsers: Parsers,
    /// The share of a site's hourly questions one visitor may ask, in percent.
    pub(crate) visitor_percent: u32,
}

impl Widgets {
    pub(crate) fn new(store: Store, parsers: Parsers, visitor_percent: u32) -> Widgets {
        Widgets { store, parsers, visitor_percent }
    }

    /// Creates a site for `user`, after checking every field.
    pub async fn create(&self, user: UserId, new: NewWidgetSite) -> Result<WidgetSite, WidgetError> {
        let datasets = crate::datasets::list(&self.store, user)
            .await
            .map_err(|e| BackendError::BadRequest(e.to_string()))?
            .into_iter()
            .map(|d| d.name)
            .collect::<Vec<_>>();
        let new = check(new, &datasets)?;
        let id = crate::reports::new_id();
        let now = crate::store::timestamp(chrono::Utc::now());
        let json = |v: &Vec<String>| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
        let mut db = self.store.tenant(user).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM widget_sites WHERE user_id = $1")
            .bind(user.0)
            .fetch_one(&mut *db)
            .await?;
        if count >= MAX_SITES {
            return Err(WidgetError::TooMany);
        }
        sqlx::query(
            "INSERT INTO widget_sites (id, user_id, name, origins, tools, datasets, greeting, theme, rate_per_hour,
                                       status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'enabled', $10)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(&new.name)
        .bind(json(&new.origins))
        .bind(json(&new.tools))
        .bind(json(&new.datasets))
        .bind(&new.greeting)
        .bind(new.theme.as_str())
        .bind(i64::from(new.rate_per_hour))
        .bind(&now)
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        Ok(WidgetSite {
            id,
            name: new.name,
            origins: new.origins,
            scope: WidgetScope { tools: new.tools, datasets: new.datasets },
            greeting: new.greeting,
            theme: new.theme,
            rate_per_hour: new.rate_per_hour,
            enabled: true,
            created_at: now,
        })
    }

    /// The user's sites, newest first.
    pub async fn list(&self, user: UserId) -> Result<Vec<WidgetSite>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<SiteRow> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM widget_sites WHERE user_id = $1 ORDER BY created_at DESC, id"
        ))
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        rows.into_iter().map(SiteRow::site).collect()
    }

    /// Turns one of the user's sites on or off; anyone else's is `NotFound`. An off
    /// site answers like one that never existed, until it is turned on again.
    pub async fn set_enabled(&self, user: UserId, id: &str, enabled: bool) -> Result<(), BackendError> {
        let status = if enabled { "enabled" } else { "disabled" };
        let query = sqlx::query("UPDATE widget_sites SET status = $3 WHERE id = $1 AND user_id = $2")
            .bind(id.to_string())
            .bind(user.0)
            .bind(status);
        if !self.store.change(user, query).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// Revokes one of the user's sites at once: the row goes, and its visitors'
    /// conversations with it.
    pub async fn revoke(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let query = sqlx::query("DELETE FROM widget_sites WHERE id = $1 AND user_id = $2")
            .bind(id.to_string())
            .bind(user.0);
        if !self.store.change(user, query).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// The enabled site behind a public id, and its owner; `None` for an unknown,
    /// disabled or revoked one, alike.
    pub async fn site(&self, id: &str) -> Result<Option<(UserId, WidgetSite)>, BackendError> {
        if !crate::reports::well_formed(id) {
            return Ok(None);
        }
        // No user is known yet.
        let row: Option<OwnedSite> = sqlx::query_as(Owner::WidgetSite.sql(self.store.dialect()))
            .bind(id.to_string())
            .fetch_optional(self.store.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some((UserId(row.user_id), row.site.site()?)))
    }

    /// The visitor holding `token` on site `id`: `NotFound` when the site is unknown,
    /// disabled or revoked, a bad request when the token is not one Sou could draw.
    pub async fn visitor(&self, id: &str, token: &str) -> Result<Visitor, BackendError> {
        if !well_formed_token(token) {
            return Err(BackendError::BadRequest("the visitor's token is missing or malformed".into()));
        }
        let (owner, site) = self.site(id).await?.ok_or(BackendError::NotFound)?;
        let key = crate::auth::digest(token);
        Ok(Visitor { owner, site, key })
    }

    /// What a visitor's parser knows: the owner's names within the site's scope.
    pub async fn visitor_vocabulary(&self, visitor: &Visitor) -> Result<Vocabulary, BackendError> {
        Ok(visitor
            .site
            .scope
            .vocabulary(self.parsers.get(&self.store, visitor.owner, None).await?.vocabulary().clone()))
    }

    /// Whether the visitor may ask one more question this hour: the site's visitors
    /// together under the site's rate, this visitor under its share of it. A question
    /// refused as outside the site's scope counts for neither. `Busy` when not.
    pub(crate) async fn check_visitor_rate(&self, visitor: &Visitor) -> Result<(), BackendError> {
        let since = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::hours(1));
        let mut db = self.store.tenant_read(visitor.owner).await?;
        // A refusal's answer holds its error event; a message's own words are escaped
        // in that JSON, so no question can look like one.
        let (site, mine): (i64, i64) = sqlx::query_as(
            "SELECT
               COALESCE(SUM(CASE WHEN m.role = 'user' THEN 1 ELSE 0 END), 0)
                 - COALESCE(SUM(CASE WHEN m.role = 'assistant' AND m.events LIKE $5 THEN 1 ELSE 0 END), 0),
               COALESCE(SUM(CASE WHEN c.visitor = $4 AND m.role = 'user' THEN 1 ELSE 0 END), 0)
                 - COALESCE(SUM(CASE WHEN c.visitor = $4 AND m.role = 'assistant' AND m.events LIKE $5
                                THEN 1 ELSE 0 END), 0)
             FROM messages m JOIN conversations c ON c.id = m.conversation_id
             WHERE c.user_id = $1 AND c.site_id = $2 AND m.created_at > $3",
        )
        .bind(visitor.owner.0)
        .bind(visitor.site.id.clone())
        .bind(since)
        .bind(visitor.key.clone())
        .bind(r#"%"code":"outside_scope"%"#)
        .fetch_one(&mut *db)
        .await?;
        db.commit().await?;
        let rate = visitor.site.rate_per_hour;
        let own = visitor_rate(rate, self.visitor_percent);
        if site >= i64::from(rate) || mine >= i64::from(own) {
            return Err(BackendError::Busy);
        }
        Ok(())
    }

    /// Whether conversation `id` is this visitor's, on this site, and still current.
    pub(crate) async fn check_visitor(&self, visitor: &Visitor, id: &str) -> Result<(), BackendError> {
        let since = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::hours(VISITOR_HOURS));
        let mut db = self.store.tenant_read(visitor.owner).await?;
        let mine: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM conversations
             WHERE id = $1 AND user_id = $2 AND site_id = $3 AND visitor = $4 AND created_at > $5",
        )
        .bind(id.to_string())
        .bind(visitor.owner.0)
        .bind(visitor.site.id.clone())
        .bind(visitor.key.clone())
        .bind(since)
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        mine.map(|_| ()).ok_or(BackendError::NotFound)
    }

    /// Deletes visitors' conversations begun over [`VISITOR_HOURS`] ago, for every
    /// site. Returns how many went.
    pub async fn purge_visitors(&self) -> Result<u64, BackendError> {
        let cutoff = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::hours(VISITOR_HOURS));
        Ok(self.store.sweep(Sweep::Visitors, &cutoff).await?)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn new(origins: &[&str], tools: &[&str], datasets: &[&str]) -> NewWidgetSite {
        NewWidgetSite {
            name: "Boutique".into(),
            origins: origins.iter().map(|s| s.to_string()).collect(),
            tools: tools.iter().map(|s| s.to_string()).collect(),
            datasets: datasets.iter().map(|s| s.to_string()).collect(),
            greeting: "Bonjour".into(),
            theme: WidgetTheme::Light,
            rate_per_hour: 60,
        }
    }

    #[test]
    fn a_site_is_checked_field_by_field() {
        let ok =
            check(new(&["https://Shop.example/", "https://shop.example"], &["balances"], &[]), &[]).unwrap();
        assert_eq!(ok.origins, vec!["https://shop.example"]);
        assert!(matches!(check(new(&[], &["balances"], &[]), &[]), Err(WidgetError::Origins)));
        assert!(matches!(
            check(new(&["shop.example"], &["balances"], &[]), &[]),
            Err(WidgetError::Origin(_))
        ));
        assert!(matches!(
            check(new(&["https://a.example"], &["run_sql"], &[]), &[]),
            Err(WidgetError::Tool(_))
        ));
        assert!(matches!(check(new(&["https://a.example"], &[], &[]), &[]), Err(WidgetError::EmptyScope)));
        assert!(matches!(
            check(new(&["https://a.example"], &[], &["ventes"]), &[]),
            Err(WidgetError::Dataset(_))
        ));
        assert!(check(new(&["https://a.example"], &[], &["ventes"]), &["ventes".into()]).is_ok());
        let mut bidi = new(&["https://a.example"], &["balances"], &[]);
        bidi.greeting = "Hi \u{202E}there".into();
        assert!(matches!(check(bidi, &[]), Err(WidgetError::Greeting)));
        let mut rate = new(&["https://a.example"], &["balances"], &[]);
        rate.rate_per_hour = 0;
        assert!(matches!(check(rate, &[]), Err(WidgetError::Rate)));
    }

    #[test]
    fn a_visitor_asks_its_share_and_at_least_one() {
        assert_eq!(visitor_rate(60, DEFAULT_VISITOR_PERCENT), 12);
        assert_eq!(visitor_rate(4, 50), 2);
        assert_eq!(visitor_rate(4, 20), 1);
        assert_eq!(visitor_rate(1, 1), 1);
        assert_eq!(visitor_rate(10_000, 100), 10_000);
        assert_eq!(visitor_rate(10, 500), 10);
    }

    #[test]
    fn tokens_are_random_and_checked() {
        let (a, b) = (visitor_token(), visitor_token());
        assert_ne!(a, b);
        assert!(well_formed_token(&a));
        assert!(!well_formed_token("short"));
        assert!(!well_formed_token(&format!("{}!", &a[..42])));
    }
}
