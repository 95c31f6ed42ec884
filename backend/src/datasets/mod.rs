//! Analyst mode: any CSV file uploaded as a dataset — its own table, one per user and
//! dataset, with column types inferred from the values — described to the model
//! ([`describe`], the `dataset_info` text) and queried with read-only SQL checked by
//! [`sandbox`] then run on the store's sandbox connections: read-only, within a time
//! limit, at most [`DATASET_ROW_CAP`] rows and [`RESULT_BYTES`] bytes of values.
//!
//! On PostgreSQL a dataset's table is created by the tables' owner
//! (`sou_create_dataset_table`, a `SECURITY DEFINER` function that takes only a
//! generated table name and checked column names and types), with row-level security
//! like every other table; Sou's role may read and insert, never alter or own it.

pub mod sandbox;

mod catalogue;
mod query;
mod upload;

use std::time::Duration;

use crate::error::{ErrorKind, UserError};
use crate::slots::Full;
use sandbox::Refused;

pub use catalogue::{delete, describe, list};
pub use query::{query, query_plan};
pub use upload::create;

/// The datasets of each user, as the pages see them: uploaded, listed, described,
/// queried, deleted. (The chat's tools and the widget read them through the functions
/// below, in the transaction or with the store they already have.)
#[derive(Clone)]
pub struct Datasets {
    store: crate::store::Store,
}

impl Datasets {
    pub fn new(store: crate::store::Store) -> Datasets {
        Datasets { store }
    }

    /// Uploads `bytes`, a CSV file named `file_name`, as a dataset.
    pub async fn create(
        &self,
        user: crate::ids::UserId,
        (file_name, bytes): (&str, &[u8]),
    ) -> Result<agent::datasets::DatasetInfo, DatasetError> {
        create(&self.store, user, file_name, bytes).await
    }

    pub async fn list(
        &self,
        user: crate::ids::UserId,
    ) -> Result<Vec<agent::datasets::DatasetInfo>, DatasetError> {
        list(&self.store, user).await
    }

    /// What the model is told of `datasets` (the `dataset_info` text).
    pub fn describe(&self, datasets: &[agent::datasets::DatasetInfo]) -> String {
        describe(datasets, self.store.dialect())
    }

    /// Runs a read-only `sql` query, checked by the sandbox.
    pub async fn query(
        &self,
        user: crate::ids::UserId,
        sql: &str,
    ) -> Result<agent::datasets::QueryResult, DatasetError> {
        query(&self.store, user, sql).await
    }

    pub async fn delete(&self, user: crate::ids::UserId, name: &str) -> Result<(), DatasetError> {
        delete(&self.store, user, name).await
    }

    /// How many queries may run at once, for one user.
    pub fn per_user(&self) -> usize {
        self.store.query_slots().limits().per_user
    }
}

/// The largest file accepted.
pub const MAX_DATASET_BYTES: usize = 20 * 1024 * 1024;
pub const MAX_COLUMNS: usize = 100;
pub const MAX_ROWS: usize = 200_000;
/// Datasets one user may have.
pub const MAX_DATASETS: i64 = 20;
/// Rows a query returns at most.
pub const DATASET_ROW_CAP: usize = 1_000;
/// How long a query may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);
/// Bytes of values a query returns at most: reading stops there, like at the row cap.
pub const RESULT_BYTES: usize = 1024 * 1024;
/// The longest value a dataset holds, in characters.
pub const MAX_CELL_CHARS: usize = sandbox::MAX_CELL_CHARS;

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("the file is empty")]
    Empty,
    #[error("the file's name may not contain control or text-direction characters: rename the file")]
    FileName,
    #[error("the file is larger than {} MB", MAX_DATASET_BYTES / 1024 / 1024)]
    TooLarge,
    #[error("the file has more than {MAX_COLUMNS} columns")]
    TooManyColumns,
    #[error("the file has more than {MAX_ROWS} rows")]
    TooManyRows,
    #[error("you have {MAX_DATASETS} datasets already; delete one first")]
    TooMany,
    #[error("line {line} has {found} values, the header {expected}")]
    Ragged { line: u64, found: usize, expected: usize },
    #[error("line {line}: the value of {column} is longer than {MAX_CELL_CHARS} characters")]
    LongValue { line: u64, column: String },
    #[error("no dataset named {0:?}")]
    NotFound(String),
    #[error("the dataset {dataset} has no column {column:?}")]
    NoColumn { dataset: String, column: String },
    #[error("the column {0} holds no numbers: it can be counted or grouped by, not added up")]
    NotNumeric(String),
    #[error("the column {column} holds {kind} values: {value:?} cannot be compared with it")]
    BadFilter { column: String, kind: &'static str, value: String },
    #[error("the column {0} holds no dates: it cannot be grouped by month, quarter or year, or bounded by a period")]
    NotDate(String),
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error("the query took longer than {} s and was stopped", TIME_LIMIT.as_secs())]
    Timeout,
    /// No turn at the sandbox: too many of the user's queries, or everyone's, at once.
    #[error(transparent)]
    Busy(#[from] Full),
    #[error("the result is larger than {} MB: select fewer or shorter values", RESULT_BYTES / 1024 / 1024)]
    ResultTooLarge,
    #[error("the database refused the query: {0}")]
    Query(String),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

impl UserError for DatasetError {
    fn code(&self) -> &'static str {
        use DatasetError as E;
        match self {
            E::Empty => "empty",
            E::FileName => "file_name",
            E::TooLarge => "too_large",
            E::TooManyColumns => "too_many_columns",
            E::TooManyRows => "too_many_rows",
            E::TooMany => "too_many",
            E::Ragged { .. } => "ragged",
            E::LongValue { .. } => "long_value",
            E::NotFound(_) => "not_found",
            E::NoColumn { .. } => "no_column",
            E::NotNumeric(_) => "not_numeric",
            E::BadFilter { .. } => "bad_filter",
            E::NotDate(_) => "not_date",
            E::Refused(_) => "refused",
            E::Timeout => "timeout",
            E::Busy(_) => "busy",
            E::ResultTooLarge => "result_too_large",
            E::Query(_) => "query",
            E::Db(_) => "internal",
        }
    }

    fn message(&self, locale: agent::Locale) -> String {
        DatasetError::message(self, locale)
    }

    fn kind(&self) -> ErrorKind {
        match self {
            DatasetError::NotFound(_) => ErrorKind::NotFound,
            DatasetError::Busy(_) => ErrorKind::Limited,
            DatasetError::Db(_) => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

impl DatasetError {
    /// Whether it is about what the user (or model) sent, and may be shown; the rest
    /// is logged.
    pub fn is_users(&self) -> bool {
        self.kind() != ErrorKind::Internal
    }

    /// What to tell a person, in their language. A refused or failed query keeps the
    /// checker's or the database's own words (SQL is written in English).
    pub fn message(&self, locale: agent::Locale) -> String {
        use agent::Locale::{En, Fr};
        use DatasetError as E;
        match (self, locale) {
            (E::Empty, Fr) => "Le fichier est vide.".into(),
            (E::FileName, Fr) => {
                "Le nom du fichier ne peut pas contenir de caractères de contrôle ni de changement de sens d'écriture : renommez le fichier.".into()
            }
            (E::TooLarge, Fr) => format!("Le fichier dépasse {} Mo.", MAX_DATASET_BYTES / 1024 / 1024),
            (E::TooManyColumns, Fr) => format!("Le fichier a plus de {MAX_COLUMNS} colonnes."),
            (E::TooManyRows, Fr) => format!("Le fichier a plus de {MAX_ROWS} lignes."),
            (E::TooMany, Fr) => {
                format!("Vous avez déjà {MAX_DATASETS} jeux de données : supprimez-en un d'abord.")
            }
            (E::Ragged { line, found, expected }, Fr) => {
                format!("La ligne {line} a {found} valeur(s), l'en-tête {expected}.")
            }
            (E::LongValue { line, column }, Fr) => {
                format!("Ligne {line} : la valeur de {column} dépasse {MAX_CELL_CHARS} caractères.")
            }
            (E::NotFound(name), Fr) => format!("Aucun jeu de données ne s'appelle « {name} »."),
            (E::NoColumn { dataset, column }, Fr) => {
                format!("Le jeu de données {dataset} n'a pas de colonne « {column} ».")
            }
            (E::NotNumeric(column), Fr) => format!(
                "La colonne {column} ne contient pas de nombres : on peut la compter ou grouper par elle, pas l'additionner."
            ),
            (E::BadFilter { column, kind, value }, Fr) => {
                let kind = match *kind {
                    "integer" | "number" => "des nombres",
                    "date" => "des dates (AAAA-MM-JJ)",
                    _ => "du texte (comparé par égalité seulement)",
                };
                format!("La colonne {column} contient {kind} : « {value} » ne peut pas lui être comparé.")
            }
            (E::NotDate(column), Fr) => format!(
                "La colonne {column} ne contient pas de dates : on ne peut pas la grouper par mois, trimestre ou année, ni la borner par une période."
            ),
            (E::Refused(r), Fr) => format!("Requête refusée : {r}."),
            (E::Timeout, Fr) => {
                format!("La requête a duré plus de {} s et a été arrêtée.", TIME_LIMIT.as_secs())
            }
            (E::ResultTooLarge, Fr) => format!(
                "Le résultat dépasse {} Mo : choisissez moins de valeurs, ou des valeurs plus courtes.",
                RESULT_BYTES / 1024 / 1024
            ),
            (E::Busy(Full::User { running }), Fr) => format!(
                "Trop de requêtes sur ces jeux de données sont en cours ({running} à la fois au plus) : réessayez dans un instant."
            ),
            (E::Busy(Full::User { running }), En) => format!(
                "Too many queries on these datasets are running ({running} at once at most): try again in a moment."
            ),
            (E::Busy(Full::Server), Fr) => {
                "Le serveur exécute déjà autant de requêtes sur des jeux de données qu'il le peut : réessayez dans un instant.".into()
            }
            (E::Busy(Full::Server), En) => {
                "The server is running as many dataset queries as it can: try again in a moment.".into()
            }
            (E::Query(m), Fr) => format!("La base de données a refusé la requête : {m}."),
            (E::Db(_), Fr) => "Une erreur est survenue sur le serveur ; réessayez.".into(),
            (E::Db(_), En) => "Something went wrong on the server; try again.".into(),
            (other, En) => {
                let s = other.to_string();
                let mut chars = s.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect::<String>() + ".")
                    .unwrap_or_default()
            }
        }
    }
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
