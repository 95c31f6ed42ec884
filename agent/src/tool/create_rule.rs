//! `create_rule`: "a label or merchant name containing this is that category", for the
//! next imports and, if asked, the past.

use super::{Filters, FiltersMut};
use crate::args::ledger_args;

ledger_args! {
    /// Arguments of `create_rule`: "a label or merchant name containing `pattern` is
    /// `category`", for the next imports and, with `apply_to_past`, for the
    /// transactions already there.
    pub struct CreateRuleArgs {
        /// Whole words looked for in the bank label and the merchant's name, case and
        /// accents ignored ("uber eats").
        pub pattern: String,
        /// A category key of the user's vocabulary.
        pub category: String,
        /// Also give that category to past transactions that match.
        #[serde(default)]
        pub apply_to_past: bool,
    }
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Creates a categorisation rule: a bank label or merchant name containing the \
     pattern's words gets the category, at the next imports and, with \
     apply_to_past, already. A write, approved by the user first.";

pub type Args = CreateRuleArgs;

pub(crate) const EXPECT: (&str, &str) = super::WRITE_EXPECT;

#[cfg(feature = "writes")]
pub(crate) fn read(json: &crate::json::Json) -> crate::json::R<CreateRuleArgs> {
    use crate::json::{bool_, string, Fields};
    let f = Fields::of(json, Some(&["pattern", "category", "apply_to_past"]))?;
    Ok(CreateRuleArgs {
        pattern: f.req("pattern", string)?,
        category: f.req("category", string)?,
        apply_to_past: f.or("apply_to_past", bool_, || false)?,
    })
}

pub(crate) fn filters(a: &CreateRuleArgs) -> Filters<'_> {
    Filters { category: Some(&a.category), ..Filters::default() }
}

pub(crate) fn filters_mut(a: &mut CreateRuleArgs) -> FiltersMut<'_> {
    FiltersMut { written_category: Some(&mut a.category), ..FiltersMut::default() }
}

/// "Règle : « Uber Eats » → Restaurants, aussi pour les opérations passées".
#[cfg(feature = "writes")]
pub(crate) fn title(vocab: &crate::vocab::Vocabulary, a: &CreateRuleArgs, locale: crate::locale::Locale) -> String {
    let name = vocab.label_of(&a.category, locale);
    match locale {
        crate::locale::Locale::Fr => format!(
            "Règle : « {} » → {name}{}",
            a.pattern,
            if a.apply_to_past { ", aussi pour les opérations passées" } else { "" }
        ),
        crate::locale::Locale::En => {
            format!(
                "Rule: “{}” → {name}{}",
                a.pattern,
                if a.apply_to_past { ", past transactions too" } else { "" }
            )
        }
    }
}
