//! Bank files into the ledger. An upload is read at once (a file Sou cannot read is
//! refused with the reason) and kept until it is imported; its preview shows the
//! detected layout, the first rows with the merchant and category they will get, the
//! rejected lines and the rows already in the account. The import itself runs in the
//! background, in one database transaction — all rows or none — and reports its
//! progress; a transaction already in the account (same bank id, or same date, amount
//! and label) is skipped, so importing an overlapping file twice adds nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent::imports::{
    AccountOption, Format, ImportReport, ImportState, ImportSummary, ImportView, LayoutEdit, Mapping,
    PreviewRow,
};
use agent::{Currency, Locale, Money};
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, Row as _};

use crate::error::{ErrorKind, UserError};
use crate::ids::UserId;
use crate::import::merchant::{self, Known};
use crate::import::{self, dedupe_hashes, File, ReadError, Row};
use crate::rules::{self, Compiled};
use crate::store::{timestamp, Store};

/// Uploaded files not imported are deleted after this many days.
pub const UPLOAD_DAYS: i64 = 7;
/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Rows a preview shows.
pub const PREVIEW_ROWS: usize = 50;
/// Rows written between two progress reports.
const PROGRESS_EVERY: usize = 25;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is larger than {} MB", MAX_FILE_BYTES / 1024 / 1024)]
    TooLarge,
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("the file holds no transaction Sou could read")]
    NoRows,
    #[error("the file is in {file}, the account {account:?} in {account_currency}")]
    Currency { file: String, account: String, account_currency: String },
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
            E::TooLarge => format!("Le fichier dépasse {} Mo.", MAX_FILE_BYTES / 1024 / 1024),
            E::Read(e) => format!("Sou n'a pas pu lire ce fichier : {e}."),
            E::NoRows => "Le fichier ne contient aucune opération lisible.".into(),
            E::Currency { file, account, account_currency } => {
                format!("Le fichier est en {file} et le compte « {account} » en {account_currency} : choisissez un autre compte.")
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
            ImportError::AccountName => "account_name",
            ImportError::AccountNameCharacters => "account_name_characters",
            ImportError::NoAccount(_) => "no_account",
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
    Given(Mapping),
    /// The detected layout with these changes (likewise).
    Edited(&'a LayoutEdit),
}

/// Which account a file goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// One of the user's accounts, by key.
    Existing(String),
    /// A new account with this name (or the one of that name, if there is one).
    New(String),
}

/// Imports under way or failed, by (user, import id). Finished imports are read from
/// the store.
#[derive(Clone, Default)]
pub struct Imports {
    running: Arc<Mutex<HashMap<(i64, String), Live>>>,
}

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
    fn set(&self, user: UserId, id: &str, state: Option<Live>) {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        match state {
            Some(s) => running.insert((user.0, id.to_string()), s),
            None => running.remove(&(user.0, id.to_string())),
        };
    }

    fn get(&self, user: UserId, id: &str) -> Option<Live> {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).get(&(user.0, id.to_string())).cloned()
    }

    /// Reads an uploaded file and keeps it for preview and import. Returns its id.
    pub async fn upload(
        &self,
        store: &Store,
        user: UserId,
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Result<String, ImportError> {
        if bytes.is_empty() {
            return Err(ImportError::Empty);
        }
        if bytes.len() > MAX_FILE_BYTES {
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
        let mut db = store.tenant(user).await?;
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
    pub async fn list(&self, store: &Store, user: UserId) -> Result<Vec<ImportSummary>, ImportError> {
        let mut db = store.tenant_read(user).await?;
        let rows = sqlx::query(
            "SELECT id, file_name, format, created_at, report FROM imports WHERE user_id = $1
             ORDER BY created_at DESC, id LIMIT 100",
        )
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        rows.into_iter()
            .map(|r| {
                let format: String = r.get(2);
                let report: Option<String> = r.get(4);
                let report = report.map(|s| parse_report(&s)).transpose()?;
                Ok(ImportSummary {
                    id: r.get(0),
                    file_name: r.get(1),
                    format: Format::parse(&format).ok_or_else(|| ImportError::Corrupt(format.clone()))?,
                    created_at: r.get(3),
                    added: report.as_ref().map(|r| r.added),
                    duplicates: report.as_ref().map(|r| r.duplicates),
                    rejected: report.as_ref().map(|r| r.rejected.len() as u64),
                })
            })
            .collect()
    }

    async fn load(db: &mut AnyConnection, user: UserId, id: &str) -> Result<Upload, ImportError> {
        let row = sqlx::query(
            "SELECT file_name, format, content, report FROM imports WHERE user_id = $1 AND id = $2",
        )
        .bind(user.0)
        .bind(id)
        .fetch_optional(&mut *db)
        .await?
        .ok_or(ImportError::NotFound)?;
        let format: String = row.get(1);
        Ok(Upload {
            file_name: row.get(0),
            format: Format::parse(&format).ok_or(ImportError::Corrupt(format))?,
            content: row.get(2),
            report: row.get(3),
        })
    }

    /// An upload's preview with `mapping` (CSV; else the detected layout) into
    /// `account` (a key; else a new account), or its progress, or its report.
    pub async fn view(
        &self,
        store: &Store,
        user: UserId,
        id: &str,
        layout: Layout<'_>,
        account: Option<&str>,
        locale: Locale,
    ) -> Result<ImportView, ImportError> {
        // The import's live state before the stored one: a running import is forgotten
        // only after its report is stored, so read the other way round a page could find
        // neither (no report yet, no longer running) and show the file as pending.
        let live = self.get(user, id);
        // Only reads (the upload gave the user the default categories), so it never
        // waits for an import writing.
        let mut db = store.tenant_read(user).await?;
        let upload = Self::load(&mut db, user, id).await?;
        let accounts = accounts(&mut db, user, locale).await?;
        let base = |encoding, state| ImportView {
            id: id.to_string(),
            file_name: upload.file_name.clone(),
            format: upload.format,
            encoding,
            currency: None,
            mapping: None,
            columns: Vec::new(),
            mapping_error: None,
            rows: Vec::new(),
            total_rows: 0,
            duplicates: 0,
            rejected: Vec::new(),
            accounts: accounts.clone(),
            account: None,
            new_account_name: String::new(),
            state,
        };
        if let Some(report) = &upload.report {
            db.commit().await?;
            return Ok(base(agent::imports::Encoding::Utf8, ImportState::Done(parse_report(report)?)));
        }
        let content =
            upload.content.as_deref().ok_or(ImportError::Corrupt("an upload without content".into()))?;
        // A layout the file cannot be read with is reported, and the detected one shown.
        let read = |mapping| import::read(upload.format, content, mapping);
        let (file, mapping_error) = match layout {
            Layout::Detected => (read(None)?, None),
            Layout::Given(mapping) => match read(Some(mapping)) {
                Ok(file) => (file, None),
                Err(e) => (read(None)?, Some(e.to_string())),
            },
            Layout::Edited(edit) => {
                let detected = read(None)?;
                match detected
                    .mapping
                    .as_ref()
                    .filter(|_| !edit.is_empty())
                    .map(|m| read(Some(edit.apply(m))))
                {
                    Some(Ok(file)) => (file, None),
                    Some(Err(e)) => (detected, Some(e.to_string())),
                    None => (detected, None),
                }
            }
        };
        let state = live.map_or(ImportState::Pending, |l| l.state(locale));
        let chosen = account.and_then(|k| accounts.iter().find(|a| a.key == k)).map(|a| a.key.clone());
        let target = match &chosen {
            Some(key) => account_row(&mut db, user, key).await?,
            None => None,
        };
        let currency = match (&target, &file.currency) {
            (Some((_, _, c)), _) | (None, Some(c)) => c.clone(),
            (None, None) => user_currency(&mut db, user).await?,
        };
        let currency = Currency::new(&currency).ok_or_else(|| ImportError::Corrupt(currency.clone()))?;
        // Which rows the account has already: counted over the file, flagged in the preview.
        let already = match &target {
            Some((account_id, _, _)) => present(&mut db, user, &hashes(&file.rows, *account_id)).await?,
            None => Vec::new(),
        };
        let duplicates = already.iter().filter(|&&p| p).count() as u64;
        let context = Context::load(&mut db, user).await?;
        db.commit().await?;
        let rows = file
            .rows
            .iter()
            .take(PREVIEW_ROWS)
            .enumerate()
            .map(|(i, r)| {
                let m = context.matcher.recognise(&r.label);
                let category =
                    rules::category_for(&context.rules, &r.label, m.as_ref().map(|m| m.name.as_str()))
                        .and_then(|id| context.category_names.get(&id))
                        .or_else(|| {
                            m.as_ref()
                                .and_then(|m| m.category.as_ref())
                                .and_then(|k| context.category_by_key(k))
                        })
                        .map(|(fr, en)| if locale == Locale::Fr { fr.clone() } else { en.clone() });
                PreviewRow {
                    line: r.line,
                    date: r.date,
                    label: r.label.clone(),
                    amount: Money::new(r.amount_minor, currency),
                    merchant: m.map(|m| m.name),
                    category,
                    duplicate: already.get(i).copied().unwrap_or(false),
                }
            })
            .collect();
        let columns = columns(content, file.mapping.as_ref());
        let encoding = file.encoding;
        let stem = upload.file_name.rsplit_once('.').map_or(upload.file_name.as_str(), |(s, _)| s);
        Ok(ImportView {
            currency: file.currency.clone(),
            mapping: file.mapping.clone(),
            columns,
            mapping_error,
            total_rows: file.rows.len() as u64,
            duplicates,
            rejected: file.rejected.clone(),
            account: chosen,
            new_account_name: stem.chars().take(60).collect(),
            rows,
            ..base(encoding, state)
        })
    }

    /// Where upload `id` stands: running or failed (in memory), else done or pending.
    pub async fn state(
        &self,
        store: &Store,
        user: UserId,
        id: &str,
        locale: Locale,
    ) -> Result<ImportState, ImportError> {
        if let Some(live) = self.get(user, id) {
            return Ok(live.state(locale));
        }
        let mut db = store.tenant_read(user).await?;
        let upload = Self::load(&mut db, user, id).await?;
        db.commit().await?;
        Ok(match upload.report {
            Some(report) => ImportState::Done(parse_report(&report)?),
            None => ImportState::Pending,
        })
    }

    /// Remembers why an upload was refused, for the page the form goes back to, under
    /// a new id it returns; [`Imports::refusal`] reads it once.
    pub fn refused(&self, user: UserId, error: &ImportError) -> String {
        self.refused_with(user, error.message(Locale::Fr), error.message(Locale::En))
    }

    /// The same for any refusal, said in French and in English (a dataset upload's).
    pub fn refused_with(&self, user: UserId, fr: String, en: String) -> String {
        let id = uuid::Uuid::new_v4().simple().to_string();
        self.set(user, &id, Some(Live::Failed { fr, en }));
        id
    }

    /// Why upload `id` was refused (said once: it is forgotten when read).
    pub fn refusal(&self, user: UserId, id: &str, locale: Locale) -> Option<String> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let key = (user.0, id.to_string());
        match running.get(&key) {
            Some(Live::Failed { .. }) => match running.remove(&key)?.state(locale) {
                ImportState::Failed { message } => Some(message),
                _ => None,
            },
            _ => None,
        }
    }

    /// Starts importing upload `id` into `target`; [`Imports::view`] shows the progress.
    /// The checks a user can act on are made before it returns; what they find is also
    /// shown by the upload's page, as a failed import.
    pub async fn start(
        &self,
        store: &Store,
        user: UserId,
        id: &str,
        mapping: Option<Mapping>,
        target: Target,
    ) -> Result<(), ImportError> {
        let started = self.spawn(store, user, id, mapping, target).await;
        if let Err(e) = &started {
            if e.is_users() && !matches!(e, ImportError::NotFound | ImportError::Running) {
                self.set(user, id, Some(Live::failed(e)));
            }
        }
        started
    }

    async fn spawn(
        &self,
        store: &Store,
        user: UserId,
        id: &str,
        mapping: Option<Mapping>,
        target: Target,
    ) -> Result<(), ImportError> {
        if matches!(self.get(user, id), Some(Live::Running { .. })) {
            return Err(ImportError::Running);
        }
        let mut db = store.tenant_read(user).await?;
        let upload = Self::load(&mut db, user, id).await?;
        db.commit().await?;
        if upload.report.is_some() {
            return Err(ImportError::AlreadyImported);
        }
        let content = upload.content.ok_or(ImportError::Corrupt("an upload without content".into()))?;
        let file = import::read(upload.format, &content, mapping)?;
        if file.rows.is_empty() {
            return Err(ImportError::NoRows);
        }
        if let Target::New(name) = &target {
            account_name(name)?;
        }
        self.set(user, id, Some(Live::Running { done: 0, total: file.rows.len() as u64 }));
        let (imports, store, id) = (self.clone(), store.clone(), id.to_string());
        tokio::spawn(async move {
            let state = match imports.run(&store, user, &id, file, target).await {
                Ok(report) => {
                    tracing::info!(added = report.added, duplicates = report.duplicates, "file imported");
                    None
                }
                Err(e) => {
                    if e.is_users() {
                        tracing::info!(error = %e, "an import was refused");
                    } else {
                        tracing::error!(error = %e, "an import failed");
                    }
                    Some(Live::failed(&e))
                }
            };
            imports.set(user, &id, state);
        });
        Ok(())
    }

    /// Imports `file` in one transaction; nothing stays if anything fails.
    pub async fn run(
        &self,
        store: &Store,
        user: UserId,
        id: &str,
        file: File,
        target: Target,
    ) -> Result<ImportReport, ImportError> {
        let mut db = store.tenant(user).await?;
        // A write first: on SQLite it waits for another writer to finish instead of
        // failing later, and it claims the upload against a second run at once.
        let claimed = sqlx::query(
            "UPDATE imports SET status = 'pending' WHERE user_id = $1 AND id = $2 AND status = 'pending'",
        )
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?;
        if claimed.rows_affected() == 0 {
            let upload = Self::load(&mut db, user, id).await?;
            if upload.report.is_some() {
                return Err(ImportError::AlreadyImported);
            }
        }
        let currency = match &file.currency {
            Some(c) => c.clone(),
            None => user_currency(&mut db, user).await?,
        };
        let (account_id, account_name, account_currency) =
            target_account(&mut db, user, &target, &currency).await?;
        if let Some(file_currency) = &file.currency {
            if *file_currency != account_currency {
                return Err(ImportError::Currency {
                    file: file_currency.clone(),
                    account: account_name,
                    account_currency,
                });
            }
        }
        let mut context = Context::load(&mut db, user).await?;
        let hashes = hashes(&file.rows, account_id);
        let total = file.rows.len();
        let (mut added, mut duplicates) = (0u64, 0u64);
        for (i, (row, hash)) in file.rows.iter().zip(&hashes).enumerate() {
            let m = context.matcher.recognise(&row.label);
            let merchant_id = match &m {
                Some(m) => Some(context.merchant_id(&mut db, user, m).await?),
                None => None,
            };
            let category =
                rules::category_for(&context.rules, &row.label, m.as_ref().map(|m| m.name.as_str())).or_else(
                    || merchant_id.and_then(|id| context.merchant_category.get(&id).copied().flatten()),
                );
            let done = sqlx::query(
                "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label,
                                           merchant_id, category_id, import_batch, dedupe_hash)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (user_id, dedupe_hash) DO NOTHING",
            )
            .bind(user.0)
            .bind(account_id)
            .bind(row.date.to_string())
            .bind(row.amount_minor)
            .bind(&account_currency)
            .bind(&row.label)
            .bind(merchant_id)
            .bind(category)
            .bind(id)
            .bind(hash)
            .execute(&mut *db)
            .await?;
            if done.rows_affected() == 0 {
                duplicates += 1;
            } else {
                added += 1;
            }
            if (i + 1) % PROGRESS_EVERY == 0 {
                self.set(user, id, Some(Live::Running { done: i as u64 + 1, total: total as u64 }));
            }
        }
        let report = ImportReport {
            account: account_name,
            read: total as u64,
            added,
            duplicates,
            rejected: file.rejected,
            first: file.rows.iter().map(|r| r.date).min(),
            last: file.rows.iter().map(|r| r.date).max(),
            imported_at: timestamp(chrono::Utc::now()),
        };
        let json = serde_json::to_string(&report).map_err(|e| ImportError::Corrupt(e.to_string()))?;
        sqlx::query(
            "UPDATE imports SET status = 'done', content = NULL, account_id = $1, report = $2, imported_at = $3
             WHERE user_id = $4 AND id = $5",
        )
        .bind(account_id)
        .bind(json)
        .bind(&report.imported_at)
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        Ok(report)
    }

    /// Deletes a pending upload (an import done stays: its transactions are in the ledger).
    pub async fn discard(&self, store: &Store, user: UserId, id: &str) -> Result<(), ImportError> {
        let query = sqlx::query("DELETE FROM imports WHERE user_id = $1 AND id = $2 AND status = 'pending'");
        if !store.change(user, query.bind(user.0).bind(id)).await? {
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

/// Which of `hashes` are already stored, in order.
async fn present(db: &mut AnyConnection, user: UserId, hashes: &[String]) -> Result<Vec<bool>, sqlx::Error> {
    let mut found = std::collections::HashSet::new();
    for chunk in hashes.chunks(500) {
        let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT dedupe_hash FROM transactions WHERE user_id = $1 AND dedupe_hash IN ({})",
            placeholders.join(", ")
        );
        let mut q = sqlx::query_scalar::<_, String>(&sql).bind(user.0);
        for h in chunk {
            q = q.bind(h);
        }
        found.extend(q.fetch_all(&mut *db).await?);
    }
    Ok(hashes.iter().map(|h| found.contains(h)).collect())
}

async fn user_currency(db: &mut AnyConnection, user: UserId) -> Result<String, ImportError> {
    sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?
        .ok_or(ImportError::NotFound)
}

async fn accounts(
    db: &mut AnyConnection,
    user: UserId,
    locale: Locale,
) -> Result<Vec<AccountOption>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT key, name, COALESCE(name_en, name), currency FROM accounts WHERE user_id = $1 AND key IS NOT NULL
         ORDER BY id",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| AccountOption {
            key: r.get(0),
            name: if locale == Locale::Fr { r.get(1) } else { r.get(2) },
            currency: r.get(3),
        })
        .collect())
}

/// (id, name, currency) of the account with `key`.
async fn account_row(
    db: &mut AnyConnection,
    user: UserId,
    key: &str,
) -> Result<Option<(i64, String, String)>, sqlx::Error> {
    let row = sqlx::query("SELECT id, name, currency FROM accounts WHERE user_id = $1 AND key = $2")
        .bind(user.0)
        .bind(key)
        .fetch_optional(&mut *db)
        .await?;
    Ok(row.map(|r| (r.get(0), r.get(1), r.get(2))))
}

/// A new account's name, spaces collapsed: 1 to 60 characters.
fn account_name(name: &str) -> Result<String, ImportError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() || name.chars().count() > 60 {
        return Err(ImportError::AccountName);
    }
    if agent::text::hidden_control(&name).is_some() {
        return Err(ImportError::AccountNameCharacters);
    }
    Ok(name)
}

/// The account a file goes to — created, for a new name, in `currency` — as (id, name,
/// currency).
async fn target_account(
    db: &mut AnyConnection,
    user: UserId,
    target: &Target,
    currency: &str,
) -> Result<(i64, String, String), ImportError> {
    match target {
        Target::Existing(key) => {
            account_row(db, user, key).await?.ok_or_else(|| ImportError::NoAccount(key.clone()))
        }
        Target::New(name) => {
            let name = account_name(name)?;
            let same: Option<(i64, String)> =
                sqlx::query_as("SELECT id, currency FROM accounts WHERE user_id = $1 AND name = $2")
                    .bind(user.0)
                    .bind(&name)
                    .fetch_optional(&mut *db)
                    .await?;
            if let Some((id, currency)) = same {
                return Ok((id, name, currency));
            }
            // A vocabulary key from the name; a number is added if it is taken.
            let base = import::fold(&name).replace(' ', "_");
            let base = if base.is_empty() { "compte".to_string() } else { base };
            let mut key = base.clone();
            for n in 2.. {
                let taken: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM accounts WHERE user_id = $1 AND key = $2")
                        .bind(user.0)
                        .bind(&key)
                        .fetch_optional(&mut *db)
                        .await?;
                if taken.is_none() {
                    break;
                }
                key = format!("{base}_{n}");
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO accounts (user_id, key, name, aliases, kind, currency) VALUES ($1, $2, $3, '[]', 'checking', $4)
                 RETURNING id",
            )
            .bind(user.0)
            .bind(&key)
            .bind(&name)
            .bind(currency)
            .fetch_one(&mut *db)
            .await?;
            Ok((id, name, currency.to_string()))
        }
    }
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
        let names = sqlx::query("SELECT id, name_fr, name_en FROM categories WHERE user_id = $1")
            .bind(user.0)
            .fetch_all(&mut *db)
            .await?;
        let category_names = names.into_iter().map(|r| (r.get(0), (r.get(1), r.get(2)))).collect();
        let rows = sqlx::query(
            "SELECT m.id, m.key, m.name, m.aliases, m.category_id, c.key FROM merchants m
             LEFT JOIN categories c ON c.id = m.category_id AND c.user_id = m.user_id
             WHERE m.user_id = $1",
        )
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        let mut known = Vec::new();
        let mut merchant_ids = HashMap::new();
        let mut merchant_category = HashMap::new();
        for r in rows {
            let id: i64 = r.get(0);
            let aliases: String = r.get(3);
            let aliases: Vec<String> = serde_json::from_str(&aliases)
                .map_err(|e| ImportError::Corrupt(format!("merchant aliases: {e}")))?;
            let key: String = r.get(1);
            merchant_ids.insert(key.clone(), id);
            merchant_category.insert(id, r.get::<Option<i64>, _>(4));
            known.push(Known { key, name: r.get(2), aliases, category: r.get(5) });
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

/// A name and a sample value per column of a CSV file (the first data row's).
fn columns(content: &[u8], mapping: Option<&Mapping>) -> Vec<(String, String)> {
    let Some(mapping) = mapping else { return Vec::new() };
    let sample = import::csv::sample_row(content, mapping);
    let width = sample.len().max(mapping.header.as_ref().map_or(0, Vec::len));
    (0..width)
        .map(|i| {
            let name = mapping
                .header
                .as_ref()
                .and_then(|h| h.get(i))
                .filter(|h| !h.is_empty())
                .cloned()
                .unwrap_or_else(|| (i + 1).to_string());
            (name, sample.get(i).cloned().unwrap_or_default())
        })
        .collect()
}
