//! Why a plan has its confidence: stable codes, sentences in French and English.

use serde::{Deserialize, Serialize};

use crate::locale::Locale;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonCode {
    /// The message says what to compute ("dépensé", "spend", "par catégorie").
    ExplicitIntent,
    /// The intent was guessed from a filter or a period alone.
    InferredIntent,
    /// Filters and nothing else, from which what to compute follows: a name and a
    /// period ("courses janvier 2026": that name's total), amounts or label text and a
    /// period ("plus de 2000 € en 2025": those transactions), an account ("my livret a":
    /// its balance).
    FiltersOnly,
    /// The word that says what to compute is misspelt ("budjet", "depnses").
    FuzzyIntent,
    /// The message names a period.
    ExplicitPeriod,
    /// The message names no period; Sou used its default.
    ImplicitPeriod,
    /// A point-in-time question (a balance, a budget, subscriptions) with no period:
    /// the current one is what it means, so it costs no confidence.
    CurrentPeriod,
    ExactCategory,
    ExactMerchant,
    ExactAccount,
    /// A dataset (analyst mode) and its columns, named exactly or known from the
    /// previous question.
    ExactDataset,
    /// A dataset's column the message did not name: the only number to add up, or the
    /// only word that could be the breakdown.
    InferredColumn,
    /// The message bounds the transactions' amounts ("plus de 100 €").
    ExplicitAmount,
    /// The message gives text to find in bank labels (quoted, or after "contenant").
    ExplicitText,
    /// The message leaves a category or a merchant out ("hors Picard", "excluding rent").
    Excluded,
    /// A category matched only approximately (typo, abbreviation): asked, the
    /// correction offered.
    FuzzyCategory,
    FuzzyMerchant,
    FuzzyAccount,
    /// An amount in another currency than the ledger's: compared as written, not converted.
    ForeignCurrency,
    /// One word matched several categories or merchants.
    AmbiguousEntity,
    /// Words that look like a filter but match nothing the user has.
    UnrecognizedWords,
    /// A remark beside the question, in a sentence or clause of its own, that names
    /// nothing Sou reads and restricts nothing ("…, ça fait mal", "…, be honest lol"):
    /// not used, and said so.
    Remark,
    /// A correction said after the question ("…en septembre… non pardon, en octobre"):
    /// the question read again with the one period or name it corrects replaced.
    Correction,
    /// Words the parser could not place that would change the calculation (an
    /// exclusion, an average, a second period, a write, the world outside the ledger):
    /// the plan does not run as is.
    UnplacedMeaning,
    /// An average with nothing to say what it divides by ("mes dépenses moyennes"):
    /// per month or per transaction is the user's choice.
    AverageUnit,
    /// A rate said as one word ("daily spend", "dépenses mensuelles"): each day's total
    /// or the average per day is the user's choice.
    RateOrBreakdown,
    /// The current period against another, "vs" or "par rapport à": up to today's date
    /// in both, or both whole, is the user's choice ("than" says: up to the same date).
    SoFarOrWhole,
    /// Months named apart ("janvier et mars", "June or July"): which one is meant, or
    /// each in turn, is the user's choice.
    SeparatePeriods,
    /// A short follow-up that reuses the previous question.
    FollowupUsesContext,
    /// A follow-up with no previous question to complete.
    MissingContext,
    /// Nothing in the message maps to a tool.
    NoIntent,
    /// Advice, opinion or a question outside the user's data ("should I…", "how do I
    /// cook pasta"): a model's job, not a tool's.
    OutOfScope,
    /// The message is too long to plan deterministically.
    TooLong,
    /// The user picked this plan (a suggestion); the server did not infer it.
    UserSelected,
    /// A language model checked the parser's plan against the message and approved it.
    GuardianApproved,
    /// A language model corrected the parser's plan; the registry validated the correction.
    GuardianRepaired,
    /// A language model proposed this write in its tool loop; the user approves it or not.
    ModelProposed,
    /// The message asks Sou to change something (a budget, a rule, categories,
    /// merchants, transfers): nothing changes before the user approves its effect.
    WriteRequest,
    /// A budget change names no month: it applies from the current one.
    DefaultMonth,
    /// A change misses a value it needs (an amount, a category, which transactions).
    MissingValue,
    /// A change names something the user does not have (a category, a merchant).
    UnknownName,
    /// An account named where the tool has no account filter: its name is looked for
    /// in the bank labels, as written.
    NameAsText,
}

impl ReasonCode {
    /// The highest confidence a plan carrying this reason can have.
    pub fn cap(self) -> Confidence {
        use ReasonCode::*;
        match self {
            ExplicitIntent | FiltersOnly | ExplicitPeriod | CurrentPeriod | ExactCategory | ExactMerchant
            | ExactAccount | ExactDataset | ExplicitAmount | ExplicitText | Excluded | UserSelected
            | GuardianApproved | WriteRequest | Remark | Correction => Confidence::High,
            InferredIntent | FuzzyIntent | InferredColumn | GuardianRepaired | ModelProposed
            | DefaultMonth | NameAsText => Confidence::Medium,
            // A name corrected from a word Sou has never seen ("carefour") may be another
            // word altogether ("taxes" is not "taxis", "livres" not "Livret A"): the
            // correction is offered, not run.
            FuzzyCategory | FuzzyMerchant | FuzzyAccount => Confidence::Low,
            // "over 20 pounds" on a ledger in euros: no rate is guessed, and no tool
            // compares across currencies.
            ForeignCurrency => Confidence::Low,
            ImplicitPeriod | AmbiguousEntity | UnrecognizedWords | UnplacedMeaning | SeparatePeriods
            | AverageUnit | RateOrBreakdown | SoFarOrWhole | FollowupUsesContext | MissingContext
            | NoIntent | OutOfScope | TooLong | MissingValue | UnknownName => Confidence::Low,
        }
    }

    pub fn as_str(self) -> &'static str {
        use ReasonCode::*;
        match self {
            ExplicitIntent => "explicit_intent",
            InferredIntent => "inferred_intent",
            FiltersOnly => "filters_only",
            FuzzyIntent => "fuzzy_intent",
            ExplicitPeriod => "explicit_period",
            ImplicitPeriod => "implicit_period",
            CurrentPeriod => "current_period",
            ExactCategory => "exact_category",
            ExactMerchant => "exact_merchant",
            ExactAccount => "exact_account",
            ExactDataset => "exact_dataset",
            InferredColumn => "inferred_column",
            ExplicitAmount => "explicit_amount",
            ExplicitText => "explicit_text",
            Excluded => "excluded",
            FuzzyCategory => "fuzzy_category",
            FuzzyMerchant => "fuzzy_merchant",
            FuzzyAccount => "fuzzy_account",
            ForeignCurrency => "foreign_currency",
            AmbiguousEntity => "ambiguous_entity",
            UnrecognizedWords => "unrecognized_words",
            UnplacedMeaning => "unplaced_meaning",
            Remark => "remark",
            Correction => "correction",
            SeparatePeriods => "separate_periods",
            AverageUnit => "average_unit",
            RateOrBreakdown => "rate_or_breakdown",
            SoFarOrWhole => "so_far_or_whole",
            FollowupUsesContext => "followup_uses_context",
            MissingContext => "missing_context",
            NoIntent => "no_intent",
            OutOfScope => "out_of_scope",
            TooLong => "too_long",
            UserSelected => "user_selected",
            GuardianApproved => "guardian_approved",
            GuardianRepaired => "guardian_repaired",
            ModelProposed => "model_proposed",
            WriteRequest => "write_request",
            DefaultMonth => "default_month",
            MissingValue => "missing_value",
            UnknownName => "unknown_name",
            NameAsText => "name_as_text",
        }
    }

    /// The sentence shown in the badge; `detail` is the word, period or name concerned.
    pub fn text(self, locale: Locale, detail: &str) -> String {
        use ReasonCode::*;
        match (locale, self) {
            (Locale::Fr, ExplicitIntent) => format!("Demande explicite : {detail}"),
            (Locale::En, ExplicitIntent) => format!("Explicit request: {detail}"),
            (Locale::Fr, InferredIntent) => {
                format!("Type de calcul déduit ({detail}) : aucun verbe comme « dépensé »")
            }
            (Locale::En, InferredIntent) => {
                format!("Calculation guessed ({detail}): no word like “spent”")
            }
            (Locale::Fr, FiltersOnly) => format!("Rien que des filtres, donc : {detail}"),
            (Locale::En, FiltersOnly) => format!("Only filters, hence: {detail}"),
            (Locale::Fr, FuzzyIntent) => format!("Demande approchée : {detail}"),
            (Locale::En, FuzzyIntent) => format!("Approximate request: {detail}"),
            (Locale::Fr, ExplicitPeriod) => format!("Période donnée : {detail}"),
            (Locale::En, ExplicitPeriod) => format!("Period given: {detail}"),
            (Locale::Fr, ImplicitPeriod) => {
                format!("Aucune période indiquée : {detail} par défaut")
            }
            (Locale::En, ImplicitPeriod) => format!("No period given: {detail} by default"),
            (Locale::Fr, CurrentPeriod) => format!("Aucune période indiquée : {detail}"),
            (Locale::En, CurrentPeriod) => format!("No period given: {detail}"),
            (Locale::Fr, ExactAccount) => format!("Compte reconnu : {detail}"),
            (Locale::En, ExactAccount) => format!("Account recognised: {detail}"),
            (Locale::Fr, ExactDataset) => format!("Jeu de données : {detail}"),
            (Locale::En, ExactDataset) => format!("Dataset: {detail}"),
            (Locale::Fr, InferredColumn) => format!("Colonne déduite : {detail}"),
            (Locale::En, InferredColumn) => format!("Column inferred: {detail}"),
            (Locale::Fr, FuzzyAccount) => format!("Compte approché : {detail}"),
            (Locale::En, FuzzyAccount) => format!("Approximate account: {detail}"),
            (Locale::Fr, OutOfScope) => {
                "Conseil ou question hors de vos comptes : pas de calcul possible sans modèle".to_string()
            }
            (Locale::En, OutOfScope) => {
                "Advice or a question beyond your accounts: no calculation answers it".to_string()
            }
            (Locale::Fr, ForeignCurrency) => {
                format!("Montant dans une autre devise que vos comptes : {detail}")
            }
            (Locale::En, ForeignCurrency) => {
                format!("Amount in another currency than your accounts: {detail}")
            }
            (Locale::Fr, ExactCategory) => format!("Catégorie reconnue : {detail}"),
            (Locale::En, ExactCategory) => format!("Category recognised: {detail}"),
            (Locale::Fr, ExactMerchant) => format!("Marchand reconnu : {detail}"),
            (Locale::En, ExactMerchant) => format!("Merchant recognised: {detail}"),
            (Locale::Fr, ExplicitText) => format!("Texte recherché dans les libellés : {detail}"),
            (Locale::En, ExplicitText) => format!("Text searched in labels: {detail}"),
            (Locale::Fr, Excluded) => format!("Exclu du calcul : {detail}"),
            (Locale::En, Excluded) => format!("Left out: {detail}"),
            (Locale::Fr, ExplicitAmount) => format!("Montant : {detail}"),
            (Locale::En, ExplicitAmount) => format!("Amount: {detail}"),
            (Locale::Fr, FuzzyCategory) => format!("Catégorie approchée : {detail}"),
            (Locale::En, FuzzyCategory) => format!("Approximate category: {detail}"),
            (Locale::Fr, FuzzyMerchant) => format!("Marchand approché : {detail}"),
            (Locale::En, FuzzyMerchant) => format!("Approximate merchant: {detail}"),
            (Locale::Fr, AmbiguousEntity) => format!("Plusieurs correspondances : {detail}"),
            (Locale::En, AmbiguousEntity) => format!("Several matches: {detail}"),
            (Locale::Fr, UnrecognizedWords) => {
                format!("Mots non reconnus, ignorés : {detail}")
            }
            (Locale::En, UnrecognizedWords) => format!("Words not recognised, ignored: {detail}"),
            (Locale::Fr, Remark) => format!("Remarque, sans effet sur le calcul : {detail}"),
            (Locale::En, Remark) => format!("A remark, which changes nothing computed: {detail}"),
            (Locale::Fr, Correction) => format!("Lu avec votre correction : {detail}"),
            (Locale::En, Correction) => format!("Read with your correction: {detail}"),
            (Locale::Fr, UnplacedMeaning) => {
                format!("Mots qui changeraient le calcul, que je ne sais pas lire : {detail}")
            }
            (Locale::En, UnplacedMeaning) => {
                format!("Words that would change the calculation, which I cannot read: {detail}")
            }
            (Locale::Fr, AverageUnit) => "Une moyenne, mais par mois ou par opération ?".to_string(),
            (Locale::En, AverageUnit) => "An average, but per month or per transaction?".to_string(),
            (Locale::Fr, RateOrBreakdown) => "Le détail de chaque période, ou la moyenne ?".to_string(),
            (Locale::En, RateOrBreakdown) => "Each period's total, or the average?".to_string(),
            (Locale::Fr, SoFarOrWhole) => "Jusqu'à la même date, ou les périodes entières ?".to_string(),
            (Locale::En, SoFarOrWhole) => "Up to the same date, or the whole periods?".to_string(),
            (Locale::Fr, SeparatePeriods) => format!("Périodes séparées : {detail}"),
            (Locale::En, SeparatePeriods) => format!("Separate periods: {detail}"),
            (Locale::Fr, FollowupUsesContext) => {
                format!("Suite de la question précédente : {detail}")
            }
            (Locale::En, FollowupUsesContext) => {
                format!("Follow-up of the previous question: {detail}")
            }
            (Locale::Fr, MissingContext) => {
                format!("Suite d'une question, mais aucune question précédente : {detail}")
            }
            (Locale::En, MissingContext) => {
                format!("A follow-up, but there is no previous question: {detail}")
            }
            (Locale::Fr, NoIntent) => "Aucun calcul reconnu dans le message".to_string(),
            (Locale::En, NoIntent) => "No calculation recognised in the message".to_string(),
            (Locale::Fr, TooLong) => {
                format!("Message trop long pour une analyse rapide ({detail} caractères)")
            }
            (Locale::En, TooLong) => {
                format!("Message too long for a quick plan ({detail} characters)")
            }
            (Locale::Fr, UserSelected) => format!("Plan choisi par l'utilisateur : {detail}"),
            (Locale::En, UserSelected) => format!("Plan chosen by the user: {detail}"),
            (Locale::Fr, GuardianApproved) => format!("Plan vérifié par le modèle ({detail})"),
            (Locale::En, GuardianApproved) => format!("Plan checked by the model ({detail})"),
            (Locale::Fr, GuardianRepaired) => format!("Plan corrigé par le modèle ({detail})"),
            (Locale::En, GuardianRepaired) => format!("Plan corrected by the model ({detail})"),
            (Locale::Fr, WriteRequest) => "Sou montrera ce qui change avant de rien changer".to_string(),
            (Locale::En, WriteRequest) => "Sou will show what changes before anything changes".to_string(),
            (locale, DefaultMonth | MissingValue | UnknownName | NameAsText | ModelProposed) => {
                write_text(locale, self, detail)
            }
        }
    }
}

/// The sentences of the reasons only a parser that reads writes gives (and the tool
/// loop's): the browser's bundle, which does not read writes, goes without them.
#[cfg(feature = "writes")]
fn write_text(locale: Locale, code: ReasonCode, detail: &str) -> String {
    use ReasonCode::*;
    match (locale, code) {
        (Locale::Fr, DefaultMonth) => format!("Aucun mois indiqué : à partir de {detail}"),
        (Locale::En, DefaultMonth) => format!("No month given: from {detail}"),
        (Locale::Fr, MissingValue) => format!("Il manque : {detail}"),
        (Locale::En, MissingValue) => format!("Missing: {detail}"),
        (Locale::Fr, UnknownName) => format!("Nom inconnu : {detail}"),
        (Locale::En, UnknownName) => format!("Unknown name: {detail}"),
        (Locale::Fr, NameAsText) => format!("Compte cherché tel quel dans les libellés : {detail}"),
        (Locale::En, NameAsText) => format!("Account looked for as written in labels: {detail}"),
        (Locale::Fr, _) => format!("Modification proposée par le modèle ({detail})"),
        (Locale::En, _) => format!("Change proposed by the model ({detail})"),
    }
}

#[cfg(not(feature = "writes"))]
fn write_text(_: Locale, _: ReasonCode, detail: &str) -> String {
    detail.to_string()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    pub code: ReasonCode,
    pub text: String,
}

impl Reason {
    pub fn new(code: ReasonCode, locale: Locale, detail: &str) -> Reason {
        Reason { code, text: code.text(locale, detail) }
    }
}

/// The confidence a set of reasons allows: the lowest cap among them.
pub fn confidence_of(reasons: &[Reason]) -> Confidence {
    reasons.iter().map(|r| r.code.cap()).min().unwrap_or(Confidence::Low)
}

/// How sure the parser is of a plan: what runs without a model, what asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}
