//! Bank files in. Each format's parser turns bytes into dated, signed amounts with a
//! label, and reports every line it could not read with its number and the reason;
//! nothing here touches the store. Parsers never panic, whatever the input.

pub mod layouts;
pub mod merchant;

pub use agent::imports::{Encoding, Format, Rejected, Why};
use agent::Date;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// One transaction read from a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Line of the file where the transaction starts (1-based).
    pub line: u64,
    pub date: Date,
    /// Signed minor units: negative is money out.
    pub amount_minor: i64,
    pub label: String,
    /// The bank's own id for the transaction (OFX `FITID`), when the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    /// The account the file says the row is of (QIF `!Account` name, OFX `ACCTID`, CAMT
    /// IBAN, a CSV account column), when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

/// An account a file names, with what it states of it; a file naming several is
/// imported into one target per account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileAccount {
    /// As the file names it: a QIF account's name, an OFX `ACCTID`, an IBAN.
    pub name: String,
    pub currency: Option<String>,
    pub stated: Option<Stated>,
}

/// What a statement file (OFX, CAMT.053) held.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Statement {
    pub encoding: Encoding,
    /// The account's currency, when the file says.
    pub currency: Option<String>,
    pub rows: Vec<Row>,
    pub rejected: Vec<Rejected>,
    pub stated: Option<Stated>,
    /// The accounts the file names, in order (rows say which is theirs).
    pub accounts: Vec<FileAccount>,
}

/// The balances a file states (amounts in minor units of the file's currency).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stated {
    /// Where: `LEDGERBAL`, `OPBD/CLBD`, a balance column's name, `Opening Balance`.
    pub source: String,
    /// The balance before the first row, and the day it applies from.
    pub opening: Option<(Date, i64)>,
    /// The balance at the end, and its day.
    pub closing: Option<(Date, i64)>,
    /// Lines where a running balance does not follow from the amounts.
    pub breaks: Vec<u64>,
}

/// The value most of `values` are (on a tie, the one of them that first appeared last).
pub(crate) fn most_common<'a>(values: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(k, _)| *k == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(v, _)| v.to_string())
}

/// A currency code as a file writes it, if it names one: three letters, and not ISO
/// 4217's `XXX` ("no currency"), which the user is asked about instead.
pub fn currency_code(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_uppercase();
    (code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) && code != "XXX").then_some(code)
}

/// A transaction's label from its two texts (payee or name, and memo): both, unless the
/// first already holds the second; spaces collapsed. `None` when both are missing.
pub fn label(first: Option<&str>, second: Option<&str>) -> Option<String> {
    let text = match (first, second) {
        (Some(a), Some(b)) if !a.contains(b) => format!("{a} {b}"),
        (Some(a), _) => a.to_string(),
        (None, Some(b)) => b.to_string(),
        (None, None) => return None,
    };
    Some(text.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|l| !l.is_empty())
}

/// A file's first bytes and its name, as the readers' detection sees them.
pub struct Head {
    /// The first 4 KiB as text, from the first character that is not a space, upper case.
    pub text: String,
    /// The name's extension, lower case ("" without one).
    pub extension: String,
}

impl Head {
    pub fn of(file_name: &str, bytes: &[u8]) -> Head {
        let (text, _) = decode(&bytes[..bytes.len().min(4096)]);
        Head {
            text: text.trim_start().to_ascii_uppercase(),
            extension: file_name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default(),
        }
    }

    /// Whether the file's name has one of `format`'s extensions.
    pub fn has_extension_of(&self, format: Format) -> bool {
        format.extensions().contains(&self.extension.as_str())
    }

    /// How surely the file is in `format` when its first bytes `say` so or not: by
    /// them, else by its extension.
    pub fn likely(&self, format: Format, says: impl Fn(&str) -> bool) -> Likely {
        if says(&self.text) {
            Likely::Content
        } else if self.has_extension_of(format) {
            Likely::Extension
        } else {
            Likely::Not
        }
    }
}

/// The name of each statement's account (`None`: it names none), its id; one id in
/// several currencies (a multi-currency account) is one account per currency, "id EUR".
pub(crate) fn account_names(statements: &[(Option<&str>, Option<&str>)]) -> Vec<Option<String>> {
    statements
        .iter()
        .map(|&(id, currency)| {
            let id = id?;
            let several = statements.iter().any(|&(o, c)| o == Some(id) && c != currency);
            Some(match (several, currency) {
                (true, Some(c)) => format!("{id} {c}"),
                _ => id.to_string(),
            })
        })
        .collect()
}

/// How surely a file is in a format: its first bytes say so, else its extension, else
/// its shape (XML for CAMT), else the format everything else is tried as (CSV).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Likely {
    Not,
    Fallback,
    Shape,
    Extension,
    Content,
}

/// Which format a file is in: the one its reader finds likeliest (`likely` in each
/// reader's module), ties in the list's order (OFX and QFX name `OFXHEADER` or `<OFX>`,
/// Microsoft Money's OFC `<OFC>`, QIF starts with `!Type:`; then the extensions; then
/// any other XML is taken for CAMT.053 and the rest for CSV). A wrong guess fails in
/// that format's reader with a readable message.
pub fn sniff(file_name: &str, bytes: &[u8]) -> Format {
    let head = Head::of(file_name, bytes);
    let mut best = (Likely::Not, Format::Csv);
    for &format in Format::ALL {
        let likely = likely(format, &head);
        if likely > best.0 {
            best = (likely, format);
        }
    }
    best.1
}

/// A bank file, read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct File {
    pub format: Format,
    pub encoding: Encoding,
    /// The account's currency, when the file says.
    pub currency: Option<String>,
    /// CSV: the layout the rows were read with.
    pub mapping: Option<csv::Mapping>,
    pub rows: Vec<Row>,
    pub rejected: Vec<Rejected>,
    /// The balances the file states, if it does (one account).
    pub stated: Option<Stated>,
    /// The accounts the file names: with two or more, each goes to its own target, its
    /// rows those whose `account` is its name, its currency and balances its own.
    pub accounts: Vec<FileAccount>,
}

impl File {
    /// Whether the file holds several accounts' rows.
    pub fn is_split(&self) -> bool {
        self.accounts.len() > 1
    }

    /// The indices of `account`'s rows.
    pub fn rows_of(&self, account: &FileAccount) -> Vec<usize> {
        (0..self.rows.len()).filter(|&i| self.rows[i].account.as_deref() == Some(&account.name)).collect()
    }

    /// `account`'s currency: a statement's own; a CSV file's is its rows'.
    pub fn currency_of(&self, account: &FileAccount) -> Option<String> {
        account.currency.clone().or_else(|| self.mapping.as_ref().and(self.currency.clone()))
    }
}

/// The accounts named by `rows`, in order of first use, each with the currency and
/// balances `known` gives it (a statement's own; several statements of one account:
/// the earliest opening and the latest closing).
pub fn accounts_of(rows: &[Row], known: &[FileAccount]) -> Vec<FileAccount> {
    let mut out: Vec<FileAccount> = Vec::new();
    for name in known.iter().map(|a| a.name.as_str()).chain(rows.iter().filter_map(|r| r.account.as_deref()))
    {
        if !out.iter().any(|a| a.name == name) {
            let own: Vec<&FileAccount> = known.iter().filter(|a| a.name == name).collect();
            out.push(FileAccount {
                name: name.to_string(),
                currency: own.iter().find_map(|a| a.currency.clone()),
                stated: own.iter().filter_map(|a| a.stated.clone()).reduce(Stated::merge),
            });
        }
    }
    out
}

impl Stated {
    /// Two statements' balances of one account as one: the earlier opening, the later
    /// closing, every break.
    fn merge(self, other: Stated) -> Stated {
        let earlier = |a: Option<(Date, i64)>, b: Option<(Date, i64)>| match (a, b) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        };
        let later = |a: Option<(Date, i64)>, b: Option<(Date, i64)>| match (a, b) {
            (Some(x), Some(y)) => Some(if y.0 > x.0 { y } else { x }),
            (x, y) => x.or(y),
        };
        Stated {
            source: self.source,
            opening: earlier(self.opening, other.opening),
            closing: later(self.closing, other.closing),
            breaks: [self.breaks, other.breaks].concat(),
        }
    }
}

/// The balance before a file's first row, and its day: the one the file states (less
/// the rows dated before its day), else its closing balance less the rows up to that
/// day. `None` when it states neither.
pub fn opening_of(stated: &Stated, rows: &[Row]) -> Option<(Date, i64)> {
    let first = rows.iter().map(|r| r.date).min();
    let sum = |keep: &dyn Fn(Date) -> bool| {
        rows.iter().filter(|r| keep(r.date)).fold(0i64, |s, r| s.saturating_add(r.amount_minor))
    };
    if let Some((day, minor)) = stated.opening {
        return Some((first.map_or(day, |f| f.min(day)), minor.saturating_sub(sum(&|d| d < day))));
    }
    let (day, closing) = stated.closing?;
    Some((first.map_or(day, |f| f.min(day)), closing.saturating_sub(sum(&|d| d <= day))))
}

/// The opening balance an import may give a fresh account: [`opening_of`], when the
/// rows agree with every balance the file states — no running balance that breaks, and
/// the opening plus the rows is the closing balance.
pub fn opening_to_set(stated: &Stated, rows: &[Row]) -> Option<(Date, i64)> {
    let (day, opening) = opening_of(stated, rows)?;
    if !stated.breaks.is_empty() {
        return None;
    }
    if let (Some(_), Some((end, closing))) = (stated.opening, stated.closing) {
        let moved = rows.iter().filter(|r| r.date <= end).fold(0i64, |s, r| s.saturating_add(r.amount_minor));
        if opening.saturating_add(moved) != closing {
            return None;
        }
    }
    Some((day, opening))
}

/// The readers, one module per format of [`agent::for_each_format!`]: each has
/// `likely(&Head) -> Likely`, `file(bytes, csv_layout) -> Result<File, Error>` (the layout is CSV's; the others ignore it) and its
/// `Error`.
macro_rules! readers {
    ($($module:ident $variant:ident $name:literal $upload:literal [$($extension:literal),*],)*) => {
        $(pub mod $module;)*

        /// Why a file could not be read at all.
        #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
        pub enum ReadError {
            $(
                #[error(transparent)]
                $variant(#[from] $module::Error),
            )*
        }

        fn likely(format: Format, head: &Head) -> Likely {
            match format {
                $(Format::$variant => $module::likely(head),)*
            }
        }

        fn read_format(format: Format, bytes: &[u8], mapping: Option<csv::Mapping>) -> Result<File, ReadError> {
            Ok(match format {
                $(Format::$variant => $module::file(bytes, mapping)?,)*
            })
        }
    };
}

agent::for_each_format!(readers);

/// Reads `bytes` as `format`; a CSV file with `mapping` when given, else with the
/// layout detected.
pub fn read(format: Format, bytes: &[u8], mapping: Option<csv::Mapping>) -> Result<File, ReadError> {
    let mut file = read_format(format, bytes, mapping)?;
    // A file naming the account of some rows: a row naming none is no one's.
    if file.rows.iter().any(|r| r.account.is_some()) {
        let (named, unnamed): (Vec<Row>, Vec<Row>) = file.rows.drain(..).partition(|r| r.account.is_some());
        file.rows = named;
        if !unnamed.is_empty() {
            file.rejected.extend(unnamed.into_iter().map(|r| Rejected { line: r.line, why: Why::NoAccount }));
            file.rejected.sort_by_key(|r| r.line);
        }
    }
    // One account: its balances, all its statements' together.
    if let [only] = file.accounts.as_slice() {
        file.stated = only.stated.clone().or(file.stated.take());
    }
    Ok(file)
}

/// A statement's file (OFX, CAMT.053).
fn statement(format: Format, s: Statement) -> File {
    File {
        format,
        encoding: s.encoding,
        currency: s.currency,
        mapping: None,
        accounts: accounts_of(&s.rows, &s.accounts),
        rows: s.rows,
        rejected: s.rejected,
        stated: s.stated,
    }
}

/// Lowercase, accents off, punctuation as spaces: "Date de l'opération" → "date de l operation".
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'â' | 'ä' | 'á' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ö' | 'ó' => 'o',
            'ù' | 'û' | 'ü' | 'ú' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            'œ' => {
                out.push('o');
                'e'
            }
            c if c.is_alphanumeric() => c,
            _ => ' ',
        };
        out.push(c);
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Field names, for a reason.
pub(crate) fn fields(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

/// The file's text: UTF-8 (a byte-order mark is dropped) when it is valid UTF-8, else
/// Windows-1252 — the superset of Latin-1 that French banks export — which maps every
/// byte to a character, so decoding never fails.
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), Encoding::Utf8),
        Err(_) => (bytes.iter().map(|&b| windows_1252(b)).collect(), Encoding::Windows1252),
    }
}

fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
        '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Parses an amount written the way `decimal` says (`,` or `.`): thousands separators
/// (the other mark, spaces, `'`), currency signs and codes, a leading or trailing sign
/// and accounting parentheses are understood. At most two decimals.
pub fn parse_amount(text: &str, decimal: char) -> Option<i64> {
    read_amount(text, decimal).ok()
}

/// An amount as [`parse_amount`] reads it, or why not: not a number, or a number with
/// more than two decimals that are not zeros ("-3.14159"), which is never rounded.
pub fn amount(text: &str, decimal: char) -> Result<i64, Why> {
    read_amount(text, decimal).map_err(|precise| match precise {
        true => Why::TooPrecise { value: text.to_string() },
        false => Why::BadAmount { value: text.to_string() },
    })
}

/// `Err(true)`: a number with more than two significant decimals; `Err(false)`: not a number.
fn read_amount(text: &str, decimal: char) -> Result<i64, bool> {
    let mut s: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{202f}' | '\'' | '€' | '$' | '£'))
        .collect();
    for code in ["EUR", "USD", "GBP", "CHF"] {
        s = s.replace(code, "");
    }
    let mut negative = false;
    if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        negative = true;
        s = inner.to_string();
    }
    if let Some(rest) = s.strip_prefix('-').or_else(|| s.strip_suffix('-')) {
        negative = !negative;
        s = rest.to_string();
    } else if let Some(rest) = s.strip_prefix('+').or_else(|| s.strip_suffix('+')) {
        s = rest.to_string();
    }
    let thousands = if decimal == ',' { '.' } else { ',' };
    let s: String = s.chars().filter(|&c| c != thousands).collect();
    let (units, cents) = match s.split_once(decimal) {
        Some((u, c)) => (u, c),
        None => (s.as_str(), ""),
    };
    if units.is_empty() && cents.is_empty() {
        return Err(false);
    }
    if !units.bytes().all(|b| b.is_ascii_digit()) || !cents.bytes().all(|b| b.is_ascii_digit()) {
        return Err(false);
    }
    let cents = cents.trim_end_matches('0');
    if cents.len() > 2 {
        return Err(true);
    }
    let units: i64 = if units.is_empty() { 0 } else { units.parse().map_err(|_| false)? };
    let cents: i64 = format!("{cents:0<2}").parse().map_err(|_| false)?;
    let minor = units.checked_mul(100).and_then(|u| u.checked_add(cents)).ok_or(false)?;
    Ok(if negative { -minor } else { minor })
}

/// A stable identity per transaction, so that importing an overlapping file again adds
/// nothing and no distinct transaction is taken for another: the bank's id when there
/// is one; else date, amount and label (case and spacing ignored), and for identical
/// transactions on the same day, their rank among them in the file.
///
/// Banks reuse ids inside one file (a CIC export gives five card payments one `FITID`;
/// a statement gives a deposit and a payment the date as id): the first line with an id
/// keeps the id alone, as every import always has, and each later line with the same id
/// adds its content and rank — so the same file imported again still adds nothing.
pub fn dedupe_hashes(rows: &[Row]) -> Vec<String> {
    let mut seen: std::collections::HashMap<(Date, i64, String), u32> = std::collections::HashMap::new();
    let mut ids: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let hex = |key: String| -> String {
        Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    };
    rows.iter()
        .map(|r| {
            let label = r.label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
            let rank = seen.entry((r.date, r.amount_minor, label.clone())).or_insert(0);
            *rank += 1;
            let content = format!("{}|{}|{}|{}", r.date, r.amount_minor, label, rank);
            match &r.external_id {
                Some(id) => {
                    let uses = ids.entry(id.as_str()).or_insert(0);
                    *uses += 1;
                    if *uses == 1 {
                        hex(format!("id|{id}"))
                    } else {
                        hex(format!("id|{id}|{content}"))
                    }
                }
                None => hex(content),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_in_the_ways_banks_write_them() {
        for (text, decimal, want) in [
            ("-1 234,56", ',', Some(-123_456)),
            ("1.234,5", ',', Some(123_450)),
            ("12,30 €", ',', Some(1230)),
            ("\u{a0}-0,99", ',', Some(-99)),
            ("45,00-", ',', Some(-4500)),
            ("$1,234.56", '.', Some(123_456)),
            ("(12.00)", '.', Some(-1200)),
            ("+7", '.', Some(700)),
            ("1'000.05 CHF", '.', Some(100_005)),
            ("0.5", '.', Some(50)),
            ("12.345", '.', None),
            ("-18.5000", '.', Some(-1850)),
            ("abc", '.', None),
            ("", ',', None),
            ("-", ',', None),
            ("1,2,3", ',', None),
            ("99999999999999999999", '.', None),
        ] {
            assert_eq!(parse_amount(text, decimal), want, "{text:?}");
        }
    }

    #[test]
    fn more_than_two_decimals_is_said_not_rounded() {
        assert_eq!(amount("-3.14159", '.'), Err(Why::TooPrecise { value: "-3.14159".into() }));
        assert_eq!(amount("abc", '.'), Err(Why::BadAmount { value: "abc".into() }));
        assert_eq!(amount("-18,5000", ','), Ok(-1850));
    }

    #[test]
    fn latin1_bytes_become_text() {
        let (text, enc) = decode(b"Libell\xe9;D\xe9bit \x80");
        assert_eq!((text.as_str(), enc), ("Libellé;Débit €", Encoding::Windows1252));
        let (text, enc) = decode("\u{feff}Libellé".as_bytes());
        assert_eq!((text.as_str(), enc), ("Libellé", Encoding::Utf8));
    }

    #[test]
    fn identical_lines_on_one_day_stay_distinct() {
        let d = Date::new(2026, 1, 5).unwrap();
        let row = |label: &str| Row {
            line: 1,
            date: d,
            amount_minor: -350,
            label: label.into(),
            external_id: None,
            account: None,
        };
        let h = dedupe_hashes(&[row("CB CAFE"), row("cb  cafe"), row("CB BOULANGERIE")]);
        assert_ne!(h[0], h[1], "two coffees the same day are two transactions");
        assert_eq!(dedupe_hashes(&[row("CB CAFE")])[0], h[0], "stable across files");
        assert_eq!(h.len(), 3);
    }

    #[test]
    fn a_bank_id_used_twice_in_a_file_keeps_both_lines() {
        let d = Date::new(2026, 2, 2).unwrap();
        let row = |amount: i64, label: &str, id: &str| Row {
            line: 1,
            date: d,
            amount_minor: amount,
            label: label.into(),
            external_id: Some(id.into()),
            account: None,
        };
        let file = [
            row(15_000, "REMISE CHEQUE", "20260202"),
            row(-2_340, "CB PHARMACIE", "20260202"),
            row(-320, "CB PAUL", "CB0210"),
            row(-320, "CB PAUL", "CB0210"),
        ];
        let h = dedupe_hashes(&file);
        let distinct: std::collections::HashSet<&String> = h.iter().collect();
        assert_eq!(distinct.len(), 4, "four lines, four transactions: {h:?}");
        // The first line of an id keeps the key every earlier import gave it.
        assert_eq!(h[0], dedupe_hashes(&[row(15_000, "REMISE CHEQUE", "20260202")])[0]);
        assert_eq!(dedupe_hashes(&file), h, "the same file again: the same keys");
    }
}
