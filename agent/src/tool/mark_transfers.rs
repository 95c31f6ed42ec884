//! `mark_transfers`: transactions that are transfers between the user's own accounts.

use super::{Filters, FiltersMut};
use crate::args::ledger_args;
use crate::args::Period;

ledger_args! {
    /// Arguments of `mark_transfers`: the transactions every given filter keeps are
    /// transfers between the user's own accounts (neither spending nor income).
    pub struct MarkTransfersArgs {
        pub period?: Period,
        pub merchant?: String,
        pub text?: String,
        [amounts]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub ids: Vec<i64>,
    }
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Marks the transactions every filter keeps as transfers between the user's \
     own accounts (neither spending nor income). A write, approved by the user \
     first.";

pub type Args = MarkTransfersArgs;

pub(crate) const EXPECT: (&str, &str) = super::WRITE_EXPECT;

#[cfg(feature = "writes")]
pub(crate) fn read(json: &crate::json::Json) -> crate::json::R<MarkTransfersArgs> {
    use crate::json::{string, Fields};
    use crate::plan_json::{ids, money, period};
    let f = Fields::of(json, Some(&["period", "merchant", "text", "amount_min", "amount_max", "ids"]))?;
    Ok(MarkTransfersArgs {
        period: f.opt("period", period)?,
        merchant: f.opt("merchant", string)?,
        text: f.opt("text", string)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        ids: f.or("ids", ids, Vec::new)?,
    })
}

pub(crate) fn filters(a: &MarkTransfersArgs) -> Filters<'_> {
    Filters {
        period: a.period.as_ref(),
        merchant: a.merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
        ..Filters::default()
    }
}

pub(crate) fn filters_mut(a: &mut MarkTransfersArgs) -> FiltersMut<'_> {
    FiltersMut { period: a.period.as_mut(), ..FiltersMut::default() }
}

/// "Marquer comme virements entre vos comptes : libellé « livret » — octobre 2026".
#[cfg(feature = "writes")]
pub(crate) fn title(vocab: &crate::vocab::Vocabulary, a: &MarkTransfersArgs, locale: crate::locale::Locale) -> String {
    use crate::wording::{which_words, Which};
    let which = Which {
        names: [a.merchant.as_deref(), None],
        text: a.text.as_deref(),
        amounts: (a.amount_min, a.amount_max),
        ids: a.ids.len(),
        period: a.period.as_ref(),
    };
    let what = which_words(vocab, which, locale);
    match locale {
        crate::locale::Locale::Fr => format!("Marquer comme virements entre vos comptes : {what}"),
        crate::locale::Locale::En => format!("Mark as transfers between your accounts: {what}"),
    }
}
