//! `merge_merchants`: merchants merged into one (and aliases given to it), or renamed.

use super::{Filters, FiltersMut};
use crate::args::ledger_args;

ledger_args! {
    /// Arguments of `merge_merchants`: the merchants in `merge` become `into` (their
    /// transactions, names and aliases follow, and they are gone), and `into` may take
    /// a new `name`. With no `merge`, a rename.
    pub struct MergeMerchantsArgs {
        /// The merchant key that stays.
        pub into: String,
        /// Merchant keys merged into it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub merge: Vec<String>,
        /// Names seen in bank labels ("AMZN MKTP") that become aliases of `into`: a
        /// transaction whose label holds one gets `into` as its merchant.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub aliases: Vec<String>,
        /// A new display name for `into`.
        pub name?: String,
    }
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Merges merchants into one (`into`; the others' transactions, names and \
     aliases follow), adds label aliases, or renames it. A write, approved by \
     the user first.";

pub type Args = MergeMerchantsArgs;

pub(crate) const EXPECT: (&str, &str) = super::WRITE_EXPECT;

#[cfg(feature = "writes")]
pub(crate) fn read(json: &crate::json::Json) -> crate::json::R<MergeMerchantsArgs> {
    use crate::json::{list, string, Fields, Json};
    let f = Fields::of(json, Some(&["into", "merge", "aliases", "name"]))?;
    let strings = |j: &Json| list(j, string);
    Ok(MergeMerchantsArgs {
        into: f.req("into", string)?,
        merge: f.or("merge", strings, Vec::new)?,
        aliases: f.or("aliases", strings, Vec::new)?,
        name: f.opt("name", string)?,
    })
}

pub(crate) fn filters(_: &MergeMerchantsArgs) -> Filters<'_> {
    Filters::default()
}

pub(crate) fn filters_mut(_: &mut MergeMerchantsArgs) -> FiltersMut<'_> {
    FiltersMut::default()
}

/// "Fusionner AMZN dans Amazon", "Rename Basic Fit to “Basic-Fit”".
#[cfg(feature = "writes")]
pub(crate) fn title(vocab: &crate::vocab::Vocabulary, a: &MergeMerchantsArgs, locale: crate::locale::Locale) -> String {
    use crate::locale::Locale;
    let name = |k: &str| vocab.label_of(k, locale);
    let mut merged: Vec<String> = a.merge.iter().map(|k| name(k)).collect();
    merged.extend(a.aliases.iter().map(|a| locale.pick(format!("« {a} »"), format!("“{a}”"))));
    match (merged.is_empty(), &a.name, locale) {
        (true, Some(n), Locale::Fr) => format!("Renommer {} en « {n} »", name(&a.into)),
        (true, Some(n), Locale::En) => format!("Rename {} to “{n}”", name(&a.into)),
        (_, n, Locale::Fr) => format!(
            "Fusionner {} dans {}{}",
            merged.join(", "),
            name(&a.into),
            n.as_ref().map(|n| format!(", renommé « {n} »")).unwrap_or_default()
        ),
        (_, n, Locale::En) => format!(
            "Merge {} into {}{}",
            merged.join(", "),
            name(&a.into),
            n.as_ref().map(|n| format!(", renamed “{n}”")).unwrap_or_default()
        ),
    }
}
