//! Known bank layouts: the CSV exports of the main French and European banks and
//! fintechs, recognised by their header cells. The layouts are data
//! (`layouts.toml`, each with the public source its header was taken from), read once.

use std::sync::LazyLock;

use serde::Deserialize;

use super::fold;

/// One bank's export, as `layouts.toml` writes it: header cells as the bank writes
/// them; the roles name one of those cells each.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known {
    pub name: String,
    /// Where the header was taken from.
    pub source: String,
    /// Every cell of the header: a file is this layout when its header has them all,
    /// and no other but `optional` ones (cells some versions of the export add).
    pub header: Vec<String>,
    #[serde(default)]
    pub optional: Vec<String>,
    pub date: String,
    pub label: String,
    /// The label of a line whose `label` cell is empty.
    pub label_else: Option<String>,
    pub amount: Option<String>,
    pub debit: Option<String>,
    pub credit: Option<String>,
    pub balance: Option<String>,
    pub currency: Option<String>,
    pub fee: Option<String>,
    pub state: Option<String>,
    /// The account a row is of, in an export of several accounts.
    pub account: Option<String>,
    /// `dmy`, `mdy` or `ymd`, when the bank's documentation says.
    pub order: Option<String>,
    /// `,` or `.`, when the bank's documentation says.
    pub decimal: Option<char>,
}

#[derive(Deserialize)]
struct File {
    layout: Vec<Known>,
}

static KNOWN: LazyLock<Vec<Known>> = LazyLock::new(|| match load() {
    Ok(known) => known,
    Err(e) => {
        // A test reads the file; a broken one never ships. Detection still works without it.
        tracing::error!(error = %e, "the known bank layouts could not be read");
        Vec::new()
    }
});

fn load() -> Result<Vec<Known>, toml::de::Error> {
    Ok(toml::from_str::<File>(include_str!("layouts.toml"))?.layout)
}

/// Every known layout.
pub fn all() -> &'static [Known] {
    &KNOWN
}

/// A header cell as compared: folded, without spaces, so that case, accents,
/// punctuation and camelCase do not count ("accountBalance", "accountbalance" and
/// "Account balance" are one cell).
pub fn key(cell: &str) -> String {
    fold(cell).replace(' ', "")
}

/// The known layout whose header is `header`'s cells (empty ones aside), give or take
/// its optional ones, and the column of a cell of it.
pub fn recognise(header: &[String]) -> Option<(&'static Known, impl Fn(&str) -> Option<usize> + '_)> {
    let cells: Vec<String> = header.iter().map(|c| key(c)).collect();
    let known = all()
        .iter()
        .filter(|k| {
            let has = |c: &String| k.header.iter().chain(&k.optional).any(|h| key(h) == *c);
            k.header.iter().all(|h| cells.contains(&key(h)))
                && cells.iter().filter(|c| !c.is_empty()).all(has)
        })
        .max_by_key(|k| k.header.len())?;
    let column = move |name: &str| {
        let name = key(name);
        cells.iter().position(|c| *c == name)
    };
    Some((known, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_reads_and_names_its_own_cells() {
        let known = load().expect("layouts.toml reads");
        assert!(known.len() >= 15, "{} layouts", known.len());
        for k in &known {
            let cells: Vec<String> = k.header.iter().map(|c| key(c)).collect();
            let roles = [Some(&k.date), Some(&k.label)]
                .into_iter()
                .chain(
                    [
                        &k.amount,
                        &k.debit,
                        &k.credit,
                        &k.balance,
                        &k.currency,
                        &k.fee,
                        &k.state,
                        &k.account,
                        &k.label_else,
                    ]
                    .map(Option::as_ref),
                )
                .flatten();
            for role in roles {
                assert!(cells.contains(&key(role)), "{}: {role:?} is not in its header", k.name);
            }
            assert!(k.amount.is_some() || (k.debit.is_some() && k.credit.is_some()), "{}: no amount", k.name);
            assert!(k.order.as_deref().is_none_or(|o| ["dmy", "mdy", "ymd"].contains(&o)), "{}", k.name);
            assert!(k.source.starts_with("http") || k.source.contains('/'), "{}: a source", k.name);
        }
        // A header with a cell the layout does not have is not that layout.
        let cells = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let other = cells(&["Date", "Date de valeur", "Libellé", "Débit euros", "Crédit euros"]);
        assert!(all().is_empty() || recognise(&other).is_none());
        let bourso = cells(&[
            "dateOp",
            "dateVal",
            "label",
            "category",
            "categoryParent",
            "supplierFound",
            "amount",
            "comment",
            "accountNum",
            "accountLabel",
            "accountBalance",
            "",
        ]);
        assert_eq!(recognise(&bourso).map(|(k, _)| k.name.as_str()), Some("BoursoBank"));
        // No layout is another's header with nothing more: recognition would be ambiguous.
        for a in &known {
            for b in &known {
                if a.name != b.name && a.header.len() == b.header.len() {
                    let same = a.header.iter().all(|h| b.header.iter().any(|g| key(g) == key(h)));
                    assert!(!same, "{} and {} have the same header", a.name, b.name);
                }
            }
        }
    }
}
