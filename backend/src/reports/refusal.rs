//! Why a report cannot be made or changed as asked: each a stable code, a sentence in
//! both languages, and what the user can do about it.

use agent::Locale;

use crate::error::BackendError;

/// Why a report cannot be made or changed as asked: the user can fix each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The answer asked a question or failed: no figure to share.
    NoResult,
    /// A model's words cannot be redacted into shares or categories.
    ModelWords,
    /// A model's answer keeps no plan to run again.
    LiveNeedsPlan,
    Period,
    TooManyPins,
    Title,
    ExpiryPast,
    TooMany,
    /// An answer computed by SQL cannot be run again on each view.
    LiveSql,
    /// A dataset's cells cannot be told apart into merchants and the rest.
    DatasetNames,
}

impl Refusal {
    pub const ALL: [Refusal; 10] = [
        Refusal::NoResult,
        Refusal::ModelWords,
        Refusal::LiveNeedsPlan,
        Refusal::Period,
        Refusal::TooManyPins,
        Refusal::Title,
        Refusal::ExpiryPast,
        Refusal::TooMany,
        Refusal::LiveSql,
        Refusal::DatasetNames,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Refusal::NoResult => "no_result",
            Refusal::ModelWords => "model_words",
            Refusal::LiveNeedsPlan => "live_needs_plan",
            Refusal::Period => "bad_period",
            Refusal::TooManyPins => "too_many_pins",
            Refusal::Title => "bad_title",
            Refusal::ExpiryPast => "expiry_past",
            Refusal::TooMany => "too_many_reports",
            Refusal::LiveSql => "live_sql",
            Refusal::DatasetNames => "dataset_names",
        }
    }

    /// The refusal a form carried back in its URL.
    pub fn from_code(code: &str) -> Option<Refusal> {
        Refusal::ALL.into_iter().find(|r| r.code() == code)
    }

    pub fn message(self, locale: Locale) -> &'static str {
        match self {
            Refusal::NoResult => locale.pick(
                "Cette réponse n'a pas de résultat à partager.",
                "This answer has no result to share.",
            ),
            Refusal::ModelWords => locale.pick(
                "La réponse d'un modèle se partage avec ses montants et ses noms, telle qu'elle a été écrite.",
                "A model's answer can only be shared with its amounts and names, as it was written.",
            ),
            Refusal::LiveNeedsPlan => locale.pick(
                "Seule une réponse de Sou (sans modèle) peut être recalculée à chaque lecture : partagez-la figée.",
                "Only Sou's own answers (no model) can be recomputed on each view: share it as a snapshot.",
            ),
            Refusal::Period => locale.pick(
                "Une période s'écrit 2026-10 (un mois), 2026 (une année) ou 2026-01-01..2026-03-31.",
                "A period reads 2026-10 (a month), 2026 (a year) or 2026-01-01..2026-03-31.",
            ),
            Refusal::TooManyPins => locale.pick("10 réponses épinglées au plus.", "At most 10 pinned answers."),
            Refusal::Title => locale.pick(
                "Un titre a de 1 à 120 caractères, sans caractère de contrôle ni de sens d'écriture.",
                "A title has 1 to 120 characters, without control or text-direction characters.",
            ),
            Refusal::ExpiryPast => locale.pick("La date d'expiration est passée.", "The expiry date is in the past."),
            Refusal::LiveSql => locale.pick(
                "Une réponse calculée par SQL se partage figée : seuls les plans de Sou sont recalculés.",
                "An answer computed by SQL is shared as a snapshot: only Sou's plans are recomputed.",
            ),
            Refusal::DatasetNames => locale.pick(
                "Les lignes d'un jeu de données se montrent telles quelles : partagez-les avec leurs noms.",
                "A dataset's rows are shown as they are: share them with their names.",
            ),
            Refusal::TooMany => locale.pick(
                "200 partages au plus : révoquez-en d'abord.",
                "At most 200 shared reports: revoke some first.",
            ),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<sqlx::Error> for ReportError {
    fn from(e: sqlx::Error) -> Self {
        ReportError::Backend(e.into())
    }
}

impl From<crate::registry::PlanError> for ReportError {
    fn from(e: crate::registry::PlanError) -> Self {
        ReportError::Backend(e.into())
    }
}

impl crate::error::UserError for ReportError {
    fn code(&self) -> &'static str {
        match self {
            ReportError::Refused(r) => r.code(),
            ReportError::Backend(e) => e.code(),
        }
    }
    fn message(&self, locale: Locale) -> String {
        match self {
            ReportError::Refused(r) => r.message(locale).to_string(),
            ReportError::Backend(e) => e.message(locale),
        }
    }
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            ReportError::Refused(_) => crate::error::ErrorKind::Invalid,
            ReportError::Backend(e) => e.kind(),
        }
    }
}

pub(super) fn refuse(r: Refusal) -> ReportError {
    ReportError::Refused(r)
}
