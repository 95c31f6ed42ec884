//! `recategorise`: give a category to the transactions some filters keep.

use super::{Filters, FiltersMut};
use crate::args::ledger_args;
use crate::args::Period;

ledger_args! {
    /// Arguments of `recategorise`: give the category `to` to the transactions that
    /// every given filter keeps (at least one filter, or `ids`).
    pub struct RecategoriseArgs {
        /// The category key the transactions move to.
        pub to: String,
        pub period?: Period,
        /// Only transactions now in this category.
        pub category?: String,
        pub merchant?: String,
        /// Case- and accent-insensitive substring of the bank label.
        pub text?: String,
        [amounts]
        /// Exactly these transactions.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub ids: Vec<i64>,
    }
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Gives a category (`to`) to the transactions every filter keeps: period, \
     current category, merchant, label text, amounts, or ids. A write, approved \
     by the user first.";

pub type Args = RecategoriseArgs;

pub(crate) const EXPECT: (&str, &str) = super::WRITE_EXPECT;

#[cfg(feature = "writes")]
pub(crate) fn read(json: &crate::json::Json) -> crate::json::R<RecategoriseArgs> {
    use crate::json::{string, Fields};
    use crate::plan_json::{ids, money, period};
    let f = Fields::of(
        json,
        Some(&["to", "period", "category", "merchant", "text", "amount_min", "amount_max", "ids"]),
    )?;
    Ok(RecategoriseArgs {
        to: f.req("to", string)?,
        period: f.opt("period", period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        text: f.opt("text", string)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        ids: f.or("ids", ids, Vec::new)?,
    })
}

pub(crate) fn filters(a: &RecategoriseArgs) -> Filters<'_> {
    Filters {
        period: a.period.as_ref(),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
        ..Filters::default()
    }
}

pub(crate) fn filters_mut(a: &mut RecategoriseArgs) -> FiltersMut<'_> {
    FiltersMut { period: a.period.as_mut(), written_category: Some(&mut a.to), ..FiltersMut::default() }
}

/// "Passer en Loisirs : Amazon, libellé « prime » — mars 2026".
#[cfg(feature = "writes")]
pub(crate) fn title(vocab: &crate::vocab::Vocabulary, a: &RecategoriseArgs, locale: crate::locale::Locale) -> String {
    use crate::wording::{which_words, Which};
    let which = Which {
        names: [a.merchant.as_deref(), a.category.as_deref()],
        text: a.text.as_deref(),
        amounts: (a.amount_min, a.amount_max),
        ids: a.ids.len(),
        period: a.period.as_ref(),
    };
    let what = which_words(vocab, which, locale);
    let to = vocab.label_of(&a.to, locale);
    match locale {
        crate::locale::Locale::Fr => format!("Passer en {to} : {what}"),
        crate::locale::Locale::En => format!("Move to {to}: {what}"),
    }
}
