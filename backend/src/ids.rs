//! What nearly every module names: whose data it is ([`UserId`], and [`name_key`], how
//! an account's name is told from another) and which SQL the store speaks
//! ([`Dialect`]). They live here, apart from the store and the accounts, so that naming
//! them imports nothing else.

use unicode_normalization::UnicodeNormalization;

/// A user of this Sou instance: everything stored belongs to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UserId(pub i64);

/// Which database the store speaks to. The SQL is the same (`$1` placeholders, text
/// dates) except where a dialect says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A name as accounts are compared: NFKC, case folded, NFKC again (Unicode's
/// NFKC_Casefold, near enough) — full-width, ligature and upper-case look-alikes of a
/// name are the name.
pub fn name_key(name: &str) -> String {
    let mut folded = String::new();
    for c in name.trim().nfkc().flat_map(char::to_lowercase) {
        // Where full case folding differs from lower case.
        match c {
            'ß' => folded.push_str("ss"),
            'ς' => folded.push('σ'),
            c => folded.push(c),
        }
    }
    folded.nfkc().collect()
}
