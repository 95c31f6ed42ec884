//! `set_budget`: a category's monthly budget from a month on — set, changed or removed.

use super::{Filters, FiltersMut};
use crate::args::ledger_args;
use crate::date::Date;
use crate::money::Money;

ledger_args! {
    /// Arguments of `set_budget`: a category's monthly budget from a month on — set or
    /// changed (`amount`), or removed (no `amount`). Months before keep theirs.
    pub struct SetBudgetArgs {
        /// A category key of the user's vocabulary ("restaurants").
        pub category: String,
        /// The budget for each month; absent removes the budget from `from` on.
        pub amount?: Money,
        /// The first month it applies to: its first day ("2026-12-01").
        pub from: Date,
    }
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Sets, changes or removes (no amount) a category's monthly budget from a month \
     on (`from`, a month's first day); earlier months keep theirs. A write: Sou \
     shows its effect and runs it only once the user approves.";

pub type Args = SetBudgetArgs;

pub(crate) const EXPECT: (&str, &str) = super::WRITE_EXPECT;

#[cfg(feature = "writes")]
pub(crate) fn read(json: &crate::json::Json) -> crate::json::R<SetBudgetArgs> {
    use crate::json::{string, Fields};
    use crate::plan_json::{date, money};
    let f = Fields::of(json, Some(&["category", "amount", "from"]))?;
    Ok(SetBudgetArgs {
        category: f.req("category", string)?,
        amount: f.opt("amount", money)?,
        from: f.req("from", date)?,
    })
}

pub(crate) fn filters(a: &SetBudgetArgs) -> Filters<'_> {
    Filters { category: Some(&a.category), ..Filters::default() }
}

pub(crate) fn filters_mut(a: &mut SetBudgetArgs) -> FiltersMut<'_> {
    FiltersMut { written_category: Some(&mut a.category), ..FiltersMut::default() }
}

/// "Budget Restaurants : 300,00 € par mois à partir de décembre 2026".
#[cfg(feature = "writes")]
pub(crate) fn title(vocab: &crate::vocab::Vocabulary, a: &SetBudgetArgs, locale: crate::locale::Locale) -> String {
    use crate::locale::Locale;
    let name = vocab.label_of(&a.category, locale);
    let month = crate::wording::month_label(a.from, locale);
    match (a.amount, locale) {
        (Some(m), Locale::Fr) => format!("Budget {name} : {} par mois à partir de {month}", m.format(locale)),
        (Some(m), Locale::En) => format!("{name} budget: {} a month from {month}", m.format(locale)),
        (None, Locale::Fr) => format!("Supprimer le budget {name} à partir de {month}"),
        (None, Locale::En) => format!("Remove the {name} budget from {month}"),
    }
}
