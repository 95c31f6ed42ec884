//! Categorisation rules: "a label containing *pattern* is *category*". Imports apply
//! them to every new transaction; a rule created from the interface is saved at once
//! and applied to past transactions only when the user approves, after seeing how many
//! it would change (the `create_rule` write, `crate::approvals`, so it can be undone). Matching is on whole words, case and accents ignored, against the
//! bank label and the merchant's name.

use agent::imports::{CategoryOption, RuleProposal, RuleView};
use agent::{Currency, Date, Locale, Money};
use sqlx::AnyConnection;

use crate::error::{BackendError, ErrorKind, UserError};
use crate::ids::UserId;
use crate::import::fold;
use crate::store::{timestamp, Store};

/// The rules of each user: listed, made, proposed for the past, deleted.
#[derive(Clone)]
pub struct Rules {
    store: Store,
}

impl Rules {
    pub fn new(store: Store) -> Rules {
        Rules { store }
    }
}

/// How many past transactions a proposal shows.
const SAMPLE: usize = 5;

/// A rule ready to match: its folded pattern and category id.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub pattern: String,
    pub category_id: i64,
}

/// Whether `pattern` (folded) is in `text` as whole words.
pub(crate) fn contains(text: &str, pattern: &str) -> bool {
    !pattern.is_empty() && format!(" {} ", fold(text)).contains(&format!(" {pattern} "))
}

/// The category the rules give a transaction: the longest pattern found in its label
/// or its merchant's name wins.
pub fn category_for(rules: &[Compiled], label: &str, merchant: Option<&str>) -> Option<i64> {
    rules
        .iter()
        .filter(|r| contains(label, &r.pattern) || merchant.is_some_and(|m| contains(m, &r.pattern)))
        .max_by_key(|r| r.pattern.len())
        .map(|r| r.category_id)
}

/// The user's rules, ready to match.
pub async fn compiled(db: &mut AnyConnection, user: UserId) -> Result<Vec<Compiled>, sqlx::Error> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT pattern, category_id FROM category_rules WHERE user_id = $1")
            .bind(user.0)
            .fetch_all(&mut *db)
            .await?;
    Ok(rows.into_iter().map(|(p, c)| Compiled { pattern: fold(&p), category_id: c }).collect())
}

fn category_name(locale: Locale, fr: String, en: String) -> String {
    match locale {
        Locale::Fr => fr,
        Locale::En => en,
    }
}

impl Rules {
    /// The categories a rule can give (the defaults are added if the user lacks them).
    pub async fn categories(
        &self,
        user: UserId,
        locale: Locale,
    ) -> Result<Vec<CategoryOption>, BackendError> {
        let store = &self.store;
        let mut db = store.tenant_read(user).await?;
        // The page only reads, unless the defaults are missing: then a writer's transaction
        // adds them (a reading one would wait for, or fail against, an import's writes).
        if crate::demo::lacks_categories(&mut db, user).await? {
            db.commit().await?;
            let mut writer = store.tenant(user).await?;
            crate::demo::seed_categories(&mut writer, user).await?;
            writer.commit().await?;
            db = store.tenant_read(user).await?;
        }
        let sql = "SELECT key, name_fr, name_en FROM categories WHERE user_id = $1 ORDER BY id";
        let rows: Vec<(String, String, String)> = crate::store::rows_then_commit(db, sql, user).await?;
        Ok(rows
            .into_iter()
            .map(|(key, fr, en)| CategoryOption { key, name: category_name(locale, fr, en) })
            .collect())
    }
}

impl Rules {
    /// The user's rules, newest first.
    pub async fn list(&self, user: UserId, locale: Locale) -> Result<Vec<RuleView>, BackendError> {
        let store = &self.store;
        let mut db = store.tenant_read(user).await?;
        let rows: Vec<RuleRow> = sqlx::query_as(&format!(
            "SELECT {RULE_COLUMNS} FROM category_rules r
             JOIN categories c ON c.id = r.category_id AND c.user_id = r.user_id
             WHERE r.user_id = $1 ORDER BY r.id DESC"
        ))
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows.into_iter().map(|r| r.view(locale)).collect())
    }
}

/// The columns a [`RuleRow`] reads, of a rule `r` and its category `c`.
const RULE_COLUMNS: &str = "r.id, r.pattern, c.key, c.name_fr, c.name_en, r.created_at, r.category_id";

/// A rule as stored, with its category's key and names.
#[derive(sqlx::FromRow)]
struct RuleRow {
    id: i64,
    pattern: String,
    key: String,
    name_fr: String,
    name_en: String,
    created_at: String,
    category_id: i64,
}

impl RuleRow {
    fn view(self, locale: Locale) -> RuleView {
        RuleView {
            id: self.id,
            pattern: self.pattern,
            category_key: self.key,
            category: category_name(locale, self.name_fr, self.name_en),
            created_at: self.created_at,
        }
    }
}

/// A transaction a rule's pattern is tried on, with its merchant's and category's names.
#[derive(sqlx::FromRow)]
struct LineRow {
    id: i64,
    date: String,
    raw_label: String,
    amount_minor: i64,
    currency: String,
    category_id: Option<i64>,
    merchant: Option<String>,
    name_fr: Option<String>,
    name_en: Option<String>,
}

/// Why a rule was not saved.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error("the pattern must be 2 to 100 characters long, with at least two letters or digits")]
    Pattern,
    #[error("the pattern may not contain control or text-direction characters")]
    PatternCharacters,
    #[error("this category does not exist")]
    Category,
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<sqlx::Error> for RuleError {
    fn from(e: sqlx::Error) -> RuleError {
        RuleError::Backend(e.into())
    }
}

impl RuleError {
    /// A short code for the page the form goes back to.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::Pattern => "pattern",
            RuleError::PatternCharacters => "pattern_characters",
            RuleError::Category => "category",
            RuleError::Backend(e) => e.code(),
        }
    }

    /// What a code means, in the user's language.
    pub fn message(code: &str, locale: Locale) -> &'static str {
        match (code, locale) {
            ("pattern", Locale::Fr) => {
                "Le motif doit compter de 2 à 100 caractères, dont au moins deux lettres ou chiffres."
            }
            ("pattern", Locale::En) => {
                "The pattern must be 2 to 100 characters long, with at least two letters or digits."
            }
            ("pattern_characters", Locale::Fr) => {
                "Le motif ne peut pas contenir de caractères de contrôle ni de changement de sens d'écriture."
            }
            ("pattern_characters", Locale::En) => {
                "The pattern may not contain control or text-direction characters."
            }
            ("category", Locale::Fr) => "Cette catégorie n'existe pas.",
            ("category", Locale::En) => "This category does not exist.",
            (_, Locale::Fr) => "Une erreur est survenue sur le serveur ; rien n'a été enregistré, réessayez.",
            (_, Locale::En) => "Something went wrong on the server; nothing was saved, try again.",
        }
    }
}

impl UserError for RuleError {
    fn code(&self) -> &'static str {
        RuleError::code(self)
    }

    fn message(&self, locale: Locale) -> String {
        match self {
            RuleError::Backend(e) => e.message(locale),
            refused => RuleError::message(refused.code(), locale).to_string(),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            RuleError::Backend(e) => e.kind(),
            _ => ErrorKind::Invalid,
        }
    }
}

/// A rule's pattern as saved: its words separated by one space; refused when it has
/// fewer than two letters or digits, more than 100 characters, or hidden characters.
pub(crate) fn clean_pattern(pattern: &str) -> Result<String, RuleError> {
    let pattern = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
    if agent::text::hidden_control(&pattern).is_some() {
        return Err(RuleError::PatternCharacters);
    }
    if fold(&pattern).replace(' ', "").chars().count() < 2 || pattern.chars().count() > 100 {
        return Err(RuleError::Pattern);
    }
    Ok(pattern)
}

impl Rules {
    /// Saves a rule (a pattern already saved gets the new category) and says which past
    /// transactions it would change. Nothing in the past changes until [`apply`].
    pub async fn create(
        &self,
        user: UserId,
        (pattern, category_key): (&str, &str),
        locale: Locale,
    ) -> Result<RuleProposal, RuleError> {
        let store = &self.store;
        let pattern = clean_pattern(pattern)?;
        let mut db = store.tenant(user).await?;
        crate::demo::seed_categories(&mut db, user).await?;
        let category: Option<i64> =
            sqlx::query_scalar("SELECT id FROM categories WHERE user_id = $1 AND key = $2")
                .bind(user.0)
                .bind(category_key)
                .fetch_optional(&mut *db)
                .await?;
        let Some(category) = category else {
            return Err(RuleError::Category);
        };
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO category_rules (user_id, pattern, category_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, pattern) DO UPDATE SET category_id = excluded.category_id RETURNING id",
        )
        .bind(user.0)
        .bind(&pattern)
        .bind(category)
        .bind(timestamp(chrono::Utc::now()))
        .fetch_one(&mut *db)
        .await?;
        let proposal = propose(&mut db, user, id, locale).await?;
        db.commit().await?;
        Ok(proposal)
    }
}

impl Rules {
    /// What applying rule `id` to the past would do.
    pub async fn proposal(
        &self,
        user: UserId,
        id: i64,
        locale: Locale,
    ) -> Result<RuleProposal, BackendError> {
        let store = &self.store;
        let mut db = store.tenant_read(user).await?;
        let p = propose(&mut db, user, id, locale).await?;
        db.commit().await?;
        Ok(p)
    }
}

/// Past transactions a rule matches: (id, date, label, amount, currency, category id,
/// category name).
type Matched = (i64, String, String, i64, String, Option<i64>, Option<String>);

async fn rule_and_matches(
    db: &mut AnyConnection,
    user: UserId,
    id: i64,
    locale: Locale,
) -> Result<(RuleView, i64, Vec<Matched>), BackendError> {
    let row: RuleRow = sqlx::query_as(&format!(
        "SELECT {RULE_COLUMNS} FROM category_rules r
         JOIN categories c ON c.id = r.category_id AND c.user_id = r.user_id
         WHERE r.user_id = $1 AND r.id = $2"
    ))
    .bind(user.0)
    .bind(id)
    .fetch_optional(&mut *db)
    .await?
    .ok_or(BackendError::NotFound)?;
    let category_id = row.category_id;
    let rule = row.view(locale);
    let pattern = fold(&rule.pattern);
    let rows: Vec<LineRow> = sqlx::query_as(
        "SELECT t.id, t.date, t.raw_label, t.amount_minor, t.currency, t.category_id, m.name AS merchant,
                c.name_fr, c.name_en
         FROM transactions t
         LEFT JOIN merchants m ON m.id = t.merchant_id AND m.user_id = t.user_id
         LEFT JOIN categories c ON c.id = t.category_id AND c.user_id = t.user_id
         WHERE t.user_id = $1 ORDER BY t.date DESC, t.id DESC",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await?;
    let matched = rows
        .into_iter()
        .filter(|r| {
            contains(&r.raw_label, &pattern) || r.merchant.as_deref().is_some_and(|m| contains(m, &pattern))
        })
        .map(|r| {
            let name = match (r.name_fr, r.name_en) {
                (Some(fr), Some(en)) => Some(category_name(locale, fr, en)),
                _ => None,
            };
            (r.id, r.date, r.raw_label, r.amount_minor, r.currency, r.category_id, name)
        })
        .collect();
    Ok((rule, category_id, matched))
}

async fn propose(
    db: &mut AnyConnection,
    user: UserId,
    id: i64,
    locale: Locale,
) -> Result<RuleProposal, BackendError> {
    let (rule, category_id, matched) = rule_and_matches(db, user, id, locale).await?;
    let changing = matched.iter().filter(|m| m.5 != Some(category_id)).count() as u64;
    let sample = matched
        .iter()
        .take(SAMPLE)
        .map(|(_, date, label, minor, currency, _, category)| {
            let date =
                Date::parse_iso(date).ok_or_else(|| BackendError::Corrupt(format!("date {date:?}")))?;
            let currency = Currency::new(currency)
                .ok_or_else(|| BackendError::Corrupt(format!("currency {currency:?}")))?;
            Ok((date, label.clone(), Money::new(*minor, currency), category.clone()))
        })
        .collect::<Result<Vec<_>, BackendError>>()?;
    Ok(RuleProposal { rule, matching: matched.len() as u64, changing, sample })
}

impl Rules {
    /// Deletes a rule; what it already categorised stays as it is.
    pub async fn delete(&self, user: UserId, id: i64) -> Result<(), BackendError> {
        let store = &self.store;
        let query =
            sqlx::query("DELETE FROM category_rules WHERE user_id = $1 AND id = $2").bind(user.0).bind(id);
        if !store.change(user, query).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_pattern_found_wins() {
        let rules = [
            Compiled { pattern: fold("carrefour"), category_id: 1 },
            Compiled { pattern: fold("Carrefour Market"), category_id: 2 },
            Compiled { pattern: fold("Élec"), category_id: 3 },
        ];
        assert_eq!(category_for(&rules, "CB CARREFOUR CITY 12/01", None), Some(1));
        assert_eq!(category_for(&rules, "CB CARREFOUR MARKET 12/01", None), Some(2));
        assert_eq!(category_for(&rules, "PRLV ELEC DE FRANCE", None), Some(3));
        assert_eq!(category_for(&rules, "PRLV ELECTRICITE", None), None, "whole words only");
        assert_eq!(category_for(&rules, "CB X", Some("Carrefour")), Some(1));
    }
}
