//! Bank files into the ledger. An upload is read at once (a file Sou cannot read is
//! refused with the reason) and kept until it is imported; its preview shows the
//! detected layout, the first rows with the merchant and category they will get, the
//! rejected lines and the rows already in the account. The import itself runs in the
//! background, in one database transaction — all rows or none — and reports its
//! progress; a transaction already in the account (same bank id, or same date, amount
//! and label) is skipped, so importing an overlapping file twice adds nothing.
//!
//! This is the import service (uploads, previews in `preview.rs`, the import itself
//! in `commit.rs`); reading the bank files' formats is `crate::import`'s.

mod commit;
mod preview;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent::imports::{
    AccountOption, Format, ImportReport, ImportState, ImportSummary, ImportView, LayoutEdit, Mapping,
    PreviewRow,
};
use agent::{Currency, Locale, Money};
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;

use crate::error::{ErrorKind, UserError};
use crate::ids::{Dialect, UserId};
use crate::import::merchant::{self, Known};
use crate::import::{self, dedupe_hashes, opening_of, opening_to_set, File, ReadError, Row};
use crate::rules::{self, Compiled};
use crate::store::{timestamp, Store};

/// Uploaded files not imported are deleted after this many days.
pub const UPLOAD_DAYS: i64 = 7;
/// The largest file accepted.
pub const MAX_IMPORT_BYTES: usize = 10 * 1024 * 1024;
/// Rows a preview shows.
pub const PREVIEW_ROWS: usize = 50;
/// Rows written between two progress reports.
const PROGRESS_EVERY: usize = 25;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is larger than {} MB", MAX_IMPORT_BYTES / 1024 / 1024)]
    TooLarge,
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("the file holds no transaction Sou could read")]
    NoRows,
    /// Several columns could be the amounts; the user has not said which.
    #[error(
        "Sou is not sure which column holds the amounts: choose it in the layout, then update the preview"
    )]
    LayoutUnsure,
    #[error("the file is in {file}, the account {account:?} in {account_currency}")]
    Currency { file: String, account: String, account_currency: String },
    #[error("this file holds {0} accounts: choose where each goes")]
    Parts(usize),
    #[error("{0:?} is not a currency Sou imports into (three letters, with cents, such as EUR)")]
    BadCurrency(String),
    #[error("an account name must be 1 to 60 characters")]
    AccountName,
    #[error("an account name may not contain control or text-direction characters")]
    AccountNameCharacters,
    #[error("the account {0:?} does not exist")]
    NoAccount(String),
    #[error("this file was already imported")]
    AlreadyImported,
    #[error("this file is being imported")]
    Running,
    #[error("not found")]
    NotFound,
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl ImportError {
    /// Whether the user can do something about it (else it is logged and hidden).
    pub fn is_users(&self) -> bool {
        self.kind() != ErrorKind::Internal
    }

    /// What to tell the user, in their language.
    pub fn message(&self, locale: Locale) -> String {
        use ImportError as E;
        let fr = match self {
            E::Empty => "Le fichier est vide.".to_string(),
            E::TooLarge => format!("Le fichier dépasse {} Mo.", MAX_IMPORT_BYTES / 1024 / 1024),
            E::Read(e) => format!("Sou n'a pas pu lire ce fichier : {e}."),
            E::NoRows => "Le fichier ne contient aucune opération lisible.".into(),
            E::LayoutUnsure => "Sou n'est pas sûr de la colonne des montants : choisissez-la dans la disposition, puis mettez à jour l'aperçu.".into(),
            E::Currency { file, account, account_currency } => {
                format!("Le fichier est en {file} et le compte « {account} » en {account_currency} : choisissez un autre compte.")
            }
            E::Parts(n) => format!("Ce fichier contient {n} comptes : choisissez où va chacun."),
            E::BadCurrency(c) => {
                format!("Sou n'importe pas dans la devise « {c} » (trois lettres, avec des centimes, comme EUR).")
            }
            E::AccountName => "Le nom du compte doit compter de 1 à 60 caractères.".into(),
            E::AccountNameCharacters => {
                "Le nom du compte ne peut pas contenir de caractères de contrôle ni de changement de sens d'écriture."
                    .into()
            }
            E::NoAccount(_) => "Ce compte n'existe pas.".into(),
            E::AlreadyImported => "Ce fichier a déjà été importé.".into(),
            E::Running => "L'import de ce fichier est en cours.".into(),
            E::NotFound => "Import introuvable.".into(),
            E::Db(_) | E::Corrupt(_) => {
                "Une erreur est survenue sur le serveur ; rien n'a été importé, réessayez.".into()
            }
        };
        match locale {
            Locale::Fr => fr,
            Locale::En => match self {
                E::Read(e) => format!("Sou could not read this file: {e}."),
                E::Currency { file, account, account_currency } => format!(
                    "The file is in {file} and the account “{account}” in {account_currency}: choose another account."
                ),
                E::Db(_) | E::Corrupt(_) => {
                    "Something went wrong on the server; nothing was imported, try again.".into()
                }
                other => {
                    let mut s = other.to_string();
                    if let Some(first) = s.get(..1) {
                        s = first.to_uppercase() + &s[1..];
                    }
                    s + "."
                }
            },
        }
    }
}

impl UserError for ImportError {
    fn code(&self) -> &'static str {
        match self {
            ImportError::Empty => "empty",
            ImportError::TooLarge => "too_large",
            ImportError::Read(_) => "unreadable",
            ImportError::NoRows => "no_rows",
            ImportError::Currency { .. } => "currency",
            ImportError::Parts(_) => "parts",
            ImportError::BadCurrency(_) => "bad_currency",
            ImportError::AccountName => "account_name",
            ImportError::AccountNameCharacters => "account_name_characters",
            ImportError::NoAccount(_) => "no_account",
            ImportError::LayoutUnsure => "layout_unsure",
            ImportError::AlreadyImported => "already_imported",
            ImportError::Running => "running",
            ImportError::NotFound => "not_found",
            ImportError::Db(_) | ImportError::Corrupt(_) => "internal",
        }
    }

    fn message(&self, locale: Locale) -> String {
        ImportError::message(self, locale)
    }

    fn kind(&self) -> ErrorKind {
        match self {
            ImportError::NotFound => ErrorKind::NotFound,
            ImportError::AlreadyImported | ImportError::Running => ErrorKind::Conflict,
            ImportError::Db(_) | ImportError::Corrupt(_) => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

/// How to read a CSV upload for its preview.
pub enum Layout<'a> {
    /// As detected.
    Detected,
    /// With this layout (the detected one is shown, and the error said, if it does not fit).
    Given(Box<Mapping>),
    /// The detected layout with these changes (likewise).
    Edited(&'a LayoutEdit),
}

/// Where a preview's rows would go: an account (a key; none: a new account), or, for a
/// file naming several accounts, a key per account (empty: a new one).
#[derive(Clone, Copy, Debug, Default)]
pub struct Chosen<'a> {
    pub account: Option<&'a str>,
    pub parts: &'a [String],
}

impl<'a> Chosen<'a> {
    /// Into the account with this key.
    pub fn account(key: &'a str) -> Chosen<'a> {
        Chosen { account: Some(key), parts: &[] }
    }
}

/// Which account a file goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// One of the user's accounts, by key.
    Existing(String),
    /// A new account with this name (or the one of that name, if there is one), in the
    /// file's currency, else the user's.
    New(String),
    /// A new account with this name in this currency: the user's answer when the file
    /// states none. A file that states one must agree.
    NewIn(String, String),
    /// A file naming several accounts: a target for each, in the file's order.
    Split(Vec<Target>),
}

/// Rows of a file going to one account.
struct Part {
    target: Target,
    /// Indices into the file's rows.
    rows: Vec<usize>,
    currency: Option<String>,
    stated: Option<import::Stated>,
}

/// The file's rows by the account they go to: all to `target`, or, for a file naming
/// several accounts, each account's rows to its own target of a [`Target::Split`] (a new
/// account without a name gets the one the file gives it). The preview and the import
/// both group rows here, so that what the preview counts is what is written.
fn parts(file: &File, target: Target) -> Result<Vec<Part>, ImportError> {
    if !file.is_split() {
        let target = match target {
            // One account: a split of one is its target.
            Target::Split(mut targets) if targets.len() == 1 => targets.remove(0),
            Target::Split(_) => return Err(ImportError::Parts(file.accounts.len())),
            other => other,
        };
        let rows = (0..file.rows.len()).collect();
        return Ok(vec![Part { target, rows, currency: file.currency.clone(), stated: file.stated.clone() }]);
    }
    let Target::Split(targets) = target else { return Err(ImportError::Parts(file.accounts.len())) };
    if targets.len() != file.accounts.len() {
        return Err(ImportError::Parts(file.accounts.len()));
    }
    let mut parts: Vec<Part> = Vec::new();
    for (account, target) in file.accounts.iter().zip(targets) {
        let named =
            |name: String| if name.is_empty() { account.name.chars().take(60).collect() } else { name };
        let target = match target {
            Target::New(name) => Target::New(named(name)),
            Target::NewIn(name, currency) => Target::NewIn(named(name), currency),
            other => other,
        };
        let rows = file.rows_of(account);
        let currency = file.currency_of(account);
        match parts.iter_mut().find(|p| p.target == target) {
            // Two of the file's accounts into one: one part, its rows in the file's order
            // (so that the same line in both is two transactions), no balances.
            Some(same) => {
                same.rows.extend(rows);
                same.rows.sort_unstable();
                same.stated = None;
                if same.currency != currency {
                    same.currency = None;
                }
            }
            None => parts.push(Part { target, rows, currency, stated: account.stated.clone() }),
        }
    }
    Ok(parts)
}

/// Currencies offered for a new account when the file states none: the user's first.
const CURRENCIES: [&str; 8] = ["EUR", "USD", "GBP", "CHF", "CAD", "SEK", "NOK", "PLN"];

/// (opening balance, opening day, transactions) of an account, to tell whether an
/// import may set its opening balance: only when it has none and no transaction.
async fn account_start(
    db: &mut AnyConnection,
    user: UserId,
    account_id: i64,
) -> Result<(i64, Option<String>, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT a.opening_balance_minor, a.opening_date,
                CAST((SELECT COUNT(*) FROM transactions t WHERE t.user_id = a.user_id AND t.account_id = a.id) AS BIGINT)
         FROM accounts a WHERE a.user_id = $1 AND a.id = $2",
    )
    .bind(user.0)
    .bind(account_id)
    .fetch_one(&mut *db)
    .await
}

/// Whether an account may get the file's opening balance: it has no opening balance of
/// its own and no transaction.
fn is_fresh(start: &(i64, Option<String>, i64)) -> bool {
    start.0 == 0 && start.1.is_none() && start.2 == 0
}

/// An account's balance in Sou at the end of `day` (before its opening day, none).
async fn balance_on(
    db: &mut AnyConnection,
    user: UserId,
    account_id: i64,
    day: agent::Date,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT CAST(CASE WHEN a.opening_date IS NULL OR a.opening_date <= $3 THEN a.opening_balance_minor ELSE 0 END
                + COALESCE((SELECT SUM(t.amount_minor) FROM transactions t
                 WHERE t.user_id = a.user_id AND t.account_id = a.id AND t.date <= $3
                   AND (a.opening_date IS NULL OR t.date >= a.opening_date)), 0) AS BIGINT)
         FROM accounts a WHERE a.user_id = $1 AND a.id = $2",
    )
    .bind(user.0)
    .bind(account_id)
    .bind(day.to_string())
    .fetch_one(&mut *db)
    .await
}

/// Imports under way or failed. What every server must see is in the database
/// (`import_progress`): a failure, a refusal, and on PostgreSQL the progress of an import
/// under way, written at most every [`SHARE_EVERY`] from outside the import's own
/// transaction. On SQLite that transaction holds the only writer's lock until it ends
/// (and one SQLite file has one server), so the progress of an import under way is this
/// server's memory only. Finished imports are read from the store.
#[derive(Clone)]
pub struct Imports {
    store: Store,
    running: Arc<Mutex<HashMap<(i64, String), Shown>>>,
}

impl Imports {
    /// The imports of the users of `store`.
    pub fn new(store: Store) -> Imports {
        Imports { store, running: Arc::default() }
    }
}

/// An import this server runs, and when it last told the other servers where it is.
type Shown = (Live, Option<Instant>);

/// How often an import under way tells the other servers where it is.
const SHARE_EVERY: Duration = Duration::from_millis(200);
/// An import under way that has said nothing for this long was left by a server that
/// stopped: its transaction was rolled back, and the upload is pending again.
const PROGRESS_STALE: chrono::TimeDelta = chrono::TimeDelta::seconds(120);

/// An import in memory: running, or failed with what to tell the user (French, English).
#[derive(Clone, Debug)]
enum Live {
    Running { done: u64, total: u64 },
    Failed { fr: String, en: String },
}

impl Live {
    fn failed(e: &ImportError) -> Live {
        Live::Failed { fr: e.message(Locale::Fr), en: e.message(Locale::En) }
    }

    fn state(self, locale: Locale) -> ImportState {
        match self {
            Live::Running { done, total } => ImportState::Running { done, total },
            Live::Failed { fr, en } => {
                ImportState::Failed { message: if locale == Locale::Fr { fr } else { en } }
            }
        }
    }
}

/// A stored upload.
struct Upload {
    file_name: String,
    format: Format,
    content: Option<Vec<u8>>,
    report: Option<String>,
}

impl Imports {
    /// Where import `id` stands now (`None`: finished, read from the store). An end is
    /// stored before this server forgets the import: a page asking in between still sees
    /// it under way, never an older state the store kept (a failure of a first try).
    async fn set(&self, user: UserId, id: &str, state: Option<Live>) -> Result<(), ImportError> {
        let key = (user.0, id.to_string());
        let share = {
            let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
            let last = running.get(&key).and_then(|(_, at)| *at);
            match &state {
                Some(Live::Running { done, total }) => {
                    let share = self.store.dialect() == Dialect::Postgres
                        && (*done == 0 || done == total || last.is_none_or(|at| at.elapsed() >= SHARE_EVERY));
                    let at = if share { Some(Instant::now()) } else { last };
                    running.insert(key.clone(), (Live::Running { done: *done, total: *total }, at));
                    share
                }
                _ => true,
            }
        };
        if !share {
            return Ok(());
        }
        let end = !matches!(state, Some(Live::Running { .. }));
        let stored = self.store_state(user, id, state).await;
        // Forgotten even if the store failed: the import is over either way.
        if end {
            self.running.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
        }
        stored
    }

    /// The same, in the store: for a page another server serves.
    async fn store_state(&self, user: UserId, id: &str, state: Option<Live>) -> Result<(), ImportError> {
        let mut db = self.store.tenant(user).await?;
        match state {
            None => {
                sqlx::query("DELETE FROM import_progress WHERE user_id = $1 AND id = $2")
                    .bind(user.0)
                    .bind(id)
                    .execute(&mut *db)
                    .await?;
            }
            Some(live) => {
                let (done, total, fr, en) = match live {
                    Live::Running { done, total } => (done, total, None, None),
                    Live::Failed { fr, en } => (0, 0, Some(fr), Some(en)),
                };
                sqlx::query(
                    "INSERT INTO import_progress (user_id, id, done, total, failed_fr, failed_en, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (user_id, id) DO UPDATE SET done = $3, total = $4, failed_fr = $5, failed_en = $6, at = $7",
                )
                .bind(user.0)
                .bind(id)
                .bind(i64::try_from(done).unwrap_or(i64::MAX))
                .bind(i64::try_from(total).unwrap_or(i64::MAX))
                .bind(fr)
                .bind(en)
                .bind(timestamp(chrono::Utc::now()))
                .execute(&mut *db)
                .await?;
            }
        }
        db.commit().await?;
        Ok(())
    }

    /// Where import `id` stands if it is under way or failed: on this server, else as
    /// any server last said. `take` forgets a failure once read.
    async fn get(&self, user: UserId, id: &str, take: bool) -> Result<Option<Live>, ImportError> {
        let key = (user.0, id.to_string());
        if let Some((live, _)) = self.running.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(Some(live.clone()));
        }
        // Only reads, unless a failure is taken: a page never waits for an import writing.
        let mut db = self.store.tenant_read(user).await?;
        let row: Option<Progress> = sqlx::query_as(
            "SELECT done, total, failed_fr, failed_en, at FROM import_progress WHERE user_id = $1 AND id = $2",
        )
        .bind(user.0)
        .bind(id)
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        let live = row.and_then(|p| {
            if let (Some(fr), Some(en)) = (p.failed_fr, p.failed_en) {
                return Some(Live::Failed { fr, en });
            }
            let fresh = p.at >= timestamp(chrono::Utc::now() - PROGRESS_STALE);
            let count = |n: i64| u64::try_from(n).unwrap_or(0);
            fresh.then(|| Live::Running { done: count(p.done), total: count(p.total) })
        });
        if take && matches!(live, Some(Live::Failed { .. })) {
            let forget = sqlx::query("DELETE FROM import_progress WHERE user_id = $1 AND id = $2");
            self.store.change(user, forget.bind(user.0).bind(id)).await?;
        }
        Ok(live)
    }

    /// Reads an uploaded file and keeps it for preview and import. Returns its id.
    pub async fn upload(&self, user: UserId, file_name: &str, bytes: Vec<u8>) -> Result<String, ImportError> {
        if bytes.is_empty() {
            return Err(ImportError::Empty);
        }
        if bytes.len() > MAX_IMPORT_BYTES {
            return Err(ImportError::TooLarge);
        }
        let format = import::sniff(file_name, &bytes);
        let file = import::read(format, &bytes, None)?;
        if file.rows.is_empty() && file.rejected.is_empty() {
            return Err(ImportError::NoRows);
        }
        let id = uuid::Uuid::new_v4().simple().to_string();
        let name: String =
            file_name.trim().chars().filter(|&c| !agent::text::is_hidden_control(c)).take(200).collect();
        let name = if name.is_empty() { format!("import.{}", format.as_str()) } else { name };
        let mut db = self.store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO imports (id, user_id, file_name, format, content, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(&name)
        .bind(format.as_str())
        .bind(bytes)
        .bind(timestamp(chrono::Utc::now()))
        .execute(&mut *db)
        .await?;
        // The categories the preview and the import give rows (accounts older than
        // default categories get them here, in a transaction that writes anyway).
        crate::demo::seed_categories(&mut db, user).await?;
        db.commit().await?;
        tracing::info!(
            format = format.as_str(),
            rows = file.rows.len(),
            rejected = file.rejected.len(),
            "file uploaded"
        );
        Ok(id)
    }

    /// The user's imports, newest first.
    pub async fn list(&self, user: UserId) -> Result<Vec<ImportSummary>, ImportError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<(String, String, String, String, Option<String>)> = sqlx::query_as(
            "SELECT id, file_name, format, created_at, report FROM imports WHERE user_id = $1
             ORDER BY created_at DESC, id LIMIT 100",
        )
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        rows.into_iter()
            .map(|(id, file_name, format, created_at, report)| {
                let report = report.map(|s| parse_report(&s)).transpose()?;
                Ok(ImportSummary {
                    id,
                    file_name,
                    format: Format::parse(&format).ok_or_else(|| ImportError::Corrupt(format.clone()))?,
                    created_at,
                    added: report.as_ref().map(|r| r.added),
                    duplicates: report.as_ref().map(|r| r.duplicates),
                    rejected: report.as_ref().map(|r| r.rejected.len() as u64),
                })
            })
            .collect()
    }

    async fn load(db: &mut AnyConnection, user: UserId, id: &str) -> Result<Upload, ImportError> {
        let (file_name, format, content, report): (String, String, Option<Vec<u8>>, Option<String>) =
            sqlx::query_as(
                "SELECT file_name, format, content, report FROM imports WHERE user_id = $1 AND id = $2",
            )
            .bind(user.0)
            .bind(id)
            .fetch_optional(&mut *db)
            .await?
            .ok_or(ImportError::NotFound)?;
        Ok(Upload {
            file_name,
            format: Format::parse(&format).ok_or(ImportError::Corrupt(format))?,
            content,
            report,
        })
    }

    /// Where upload `id` stands: running or failed (in memory), else done or pending.
    pub async fn state(&self, user: UserId, id: &str, locale: Locale) -> Result<ImportState, ImportError> {
        if let Some(live) = self.get(user, id, false).await? {
            return Ok(live.state(locale));
        }
        let mut db = self.store.tenant_read(user).await?;
        let upload = Self::load(&mut db, user, id).await?;
        db.commit().await?;
        Ok(match upload.report {
            Some(report) => ImportState::Done(parse_report(&report)?),
            None => ImportState::Pending,
        })
    }

    /// Remembers why an upload was refused, for the page the form goes back to, under
    /// a new id it returns; [`Imports::refusal`] reads it once.
    pub async fn refused(&self, user: UserId, error: &ImportError) -> Result<String, ImportError> {
        self.refused_with(user, error.message(Locale::Fr), error.message(Locale::En)).await
    }

    /// The same for any refusal, said in French and in English (a dataset upload's).
    pub async fn refused_with(&self, user: UserId, fr: String, en: String) -> Result<String, ImportError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        self.set(user, &id, Some(Live::Failed { fr, en })).await?;
        Ok(id)
    }

    /// Why upload `id` was refused (said once: it is forgotten when read).
    pub async fn refusal(
        &self,
        user: UserId,
        id: &str,
        locale: Locale,
    ) -> Result<Option<String>, ImportError> {
        Ok(match self.get(user, id, true).await? {
            Some(Live::Failed { fr, en }) => Some(if locale == Locale::Fr { fr } else { en }),
            _ => None,
        })
    }

    /// Deletes a pending upload (an import done stays: its transactions are in the ledger).
    pub async fn discard(&self, user: UserId, id: &str) -> Result<(), ImportError> {
        let query = sqlx::query("DELETE FROM imports WHERE user_id = $1 AND id = $2 AND status = 'pending'");
        if !self.store.change(user, query.bind(user.0).bind(id)).await? {
            return Err(ImportError::NotFound);
        }
        Ok(())
    }
}

fn parse_report(json: &str) -> Result<ImportReport, ImportError> {
    serde_json::from_str(json).map_err(|e| ImportError::Corrupt(format!("import report: {e}")))
}

/// Each row's identity in the account: the file's own (see [`dedupe_hashes`]) bound to
/// the account, so the same line in two accounts is two transactions.
fn hashes(rows: &[Row], account_id: i64) -> Vec<String> {
    dedupe_hashes(rows)
        .into_iter()
        .map(|h| {
            Sha256::digest(format!("{account_id}|{h}").as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        })
        .collect()
}

/// (id, name, currency) of the account with `key`.
async fn account_row(
    db: &mut AnyConnection,
    user: UserId,
    key: &str,
) -> Result<Option<(i64, String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, currency FROM accounts WHERE user_id = $1 AND key = $2")
        .bind(user.0)
        .bind(key)
        .fetch_optional(&mut *db)
        .await
}

async fn user_currency(db: &mut AnyConnection, user: UserId) -> Result<String, ImportError> {
    sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?
        .ok_or(ImportError::NotFound)
}

/// An import's progress, as another request reads it.
#[derive(sqlx::FromRow)]
struct Progress {
    done: i64,
    total: i64,
    failed_fr: Option<String>,
    failed_en: Option<String>,
    at: String,
}

/// A merchant as an import matches rows against it.
#[derive(sqlx::FromRow)]
struct MerchantRow {
    id: i64,
    key: String,
    name: String,
    /// JSON list.
    aliases: String,
    category_id: Option<i64>,
    /// Its category's key.
    category: Option<String>,
}

/// What rows are matched against: the user's merchants, categories and rules.
struct Context {
    matcher: merchant::Matcher,
    merchant_ids: HashMap<String, i64>,
    merchant_category: HashMap<i64, Option<i64>>,
    category_ids: HashMap<String, i64>,
    category_names: HashMap<i64, (String, String)>,
    rules: Vec<Compiled>,
}

impl Context {
    async fn load(db: &mut AnyConnection, user: UserId) -> Result<Context, ImportError> {
        let category_ids = crate::demo::seed_categories(db, user).await?;
        let names: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT id, name_fr, name_en FROM categories WHERE user_id = $1")
                .bind(user.0)
                .fetch_all(&mut *db)
                .await?;
        let category_names = names.into_iter().map(|(id, fr, en)| (id, (fr, en))).collect();
        let rows: Vec<MerchantRow> = sqlx::query_as(
            "SELECT m.id, m.key, m.name, m.aliases, m.category_id, c.key AS category FROM merchants m
             LEFT JOIN categories c ON c.id = m.category_id AND c.user_id = m.user_id
             WHERE m.user_id = $1",
        )
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        let mut known = Vec::new();
        let mut merchant_ids = HashMap::new();
        let mut merchant_category = HashMap::new();
        for m in rows {
            let aliases: Vec<String> = serde_json::from_str(&m.aliases)
                .map_err(|e| ImportError::Corrupt(format!("merchant aliases: {e}")))?;
            merchant_ids.insert(m.key.clone(), m.id);
            merchant_category.insert(m.id, m.category_id);
            known.push(Known { key: m.key, name: m.name, aliases, category: m.category });
        }
        Ok(Context {
            matcher: merchant::Matcher::new(&known),
            merchant_ids,
            merchant_category,
            category_ids,
            category_names,
            rules: rules::compiled(db, user).await?,
        })
    }

    fn category_by_key(&self, key: &str) -> Option<&(String, String)> {
        self.category_ids.get(key).and_then(|id| self.category_names.get(id))
    }

    /// The id of merchant `m`, created (with its brand's category) the first time.
    async fn merchant_id(
        &mut self,
        db: &mut AnyConnection,
        user: UserId,
        m: &merchant::Recognised,
    ) -> Result<i64, sqlx::Error> {
        if let Some(id) = self.merchant_ids.get(&m.key) {
            return Ok(*id);
        }
        let category = m.category.as_ref().and_then(|k| self.category_ids.get(k).copied());
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO merchants (user_id, key, name, aliases, category_id) VALUES ($1, $2, $3, '[]', $4)
             RETURNING id",
        )
        .bind(user.0)
        .bind(&m.key)
        .bind(&m.name)
        .bind(category)
        .fetch_one(&mut *db)
        .await?;
        self.merchant_ids.insert(m.key.clone(), id);
        self.merchant_category.insert(id, category);
        Ok(id)
    }
}
