//! QIF (Quicken Interchange Format) bank accounts: `!Type:Bank` (or `CCard`, `Cash`),
//! then one transaction per block of lines ending in `^` — `D` date, `T` or `U` amount,
//! `P` payee, `M` memo, `N` number (a cheque's). Dates come month first or day first,
//! with `/`, `-`, `.` or an apostrophe before a two-digit year; the order is the one that
//! reads every date.
//!
//! What exporters put around the transactions is skipped: comment lines before the
//! first section (`;`, `#`), `!Option` and `!Clear` lines, `!Account` blocks, and
//! sections that are lists, not transactions (`!Type:Cat`, `!Type:Class`, memorised
//! transactions). A file with no `!Type:` line at all whose lines are transactions (older
//! BNP exports) is read as a bank account; it is taken for QIF by its `.qif` name. A file
//! holding several accounts (Quicken's "all accounts" export: an `!Account` block, `N` its
//! name, before each account's section) gives each row its account, and each account its
//! own opening balance.

use super::csv::{parse_date, DateOrder, Mapping};
use super::{decode, fields, label, Encoding, File, FileAccount, Format, Head, Likely, Rejected, Row, Stated, Why};

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Parsed {
    pub encoding: Encoding,
    pub order: DateOrder,
    pub rows: Vec<Row>,
    pub rejected: Vec<Rejected>,
    /// The account's opening balance (its day, minor units, the payee that said so):
    /// Quicken's first "Opening Balance" line, which is no transaction. With several
    /// accounts, the first's; each account's is in `accounts`.
    pub opening: Option<(agent::Date, i64, String)>,
    /// The accounts the file names (`!Account` blocks), with their opening balances.
    pub accounts: Vec<FileAccount>,
}

/// Whether a payee names the account's opening balance, as Quicken, Money and French
/// exporters write it.
fn is_opening_balance(payee: &str) -> bool {
    let p = super::fold(payee);
    ["opening balance", "solde initial", "solde d ouverture", "solde ouverture", "solde de depart"]
        .contains(&p.as_str())
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QifError {
    #[error("this is not a QIF file: it does not start with a !Type: line")]
    NotQif,
    #[error("this QIF file holds {0:?}, not a bank, card or cash account")]
    UnsupportedType(String),
}

pub type Error = QifError;

/// QIF starts with `!Type:` (or the `!Option` and `!Account` lines exporters put first).
pub fn likely(head: &Head) -> Likely {
    head.likely(Format::Qif, |t| t.starts_with("!TYPE:") || t.starts_with("!OPTION") || t.starts_with("!ACCOUNT"))
}

pub fn file(bytes: &[u8], _: Option<Mapping>) -> Result<File, QifError> {
    let p = parse(bytes)?;
    Ok(File {
        format: Format::Qif,
        encoding: p.encoding,
        currency: None,
        mapping: None,
        accounts: super::accounts_of(&p.rows, &p.accounts),
        rows: p.rows,
        rejected: p.rejected,
        stated: p.opening.map(|(date, minor, source)| Stated { source, opening: Some((date, minor)), ..Stated::default() }),
    })
}

#[derive(Default)]
struct Block {
    line: u64,
    date: Option<String>,
    amount: Option<String>,
    payee: Option<String>,
    memo: Option<String>,
    number: Option<String>,
    /// The `!Account` the block belongs to.
    account: Option<String>,
}

/// What the lines being read belong to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    /// Before any `!` line: comments, or transactions when the file has no header.
    Start,
    Transactions,
    /// An `!Account` block: its `N` line names the account of the next section.
    Account,
    /// A category or class list, memorised transactions.
    Other,
}

/// The account types whose blocks are transactions.
fn is_account_type(kind: &str) -> bool {
    ["bank", "ccard", "cash", "oth a", "oth l"].contains(&kind.trim().to_ascii_lowercase().as_str())
}

/// The types that are lists Sou has no use for; any other type is refused by name.
fn is_list_type(kind: &str) -> bool {
    ["cat", "class", "memorized", "prices", "security"].contains(&kind.trim().to_ascii_lowercase().as_str())
}

pub fn parse(bytes: &[u8]) -> Result<Parsed, QifError> {
    let (text, encoding) = decode(bytes);
    let blocks = blocks(&text)?;
    let (order, comma) = date_order(&blocks);
    // Labels Sou writes itself ("Chèque 1234567") follow the file: French when its dates
    // are day first or its amounts have a decimal comma.
    let french = order == DateOrder::Dmy || comma;
    let (rows, rejected, openings) = rows(blocks, order, french);
    let accounts = openings
        .iter()
        .filter_map(|(account, date, minor, payee)| {
            Some(FileAccount {
                name: account.clone()?,
                currency: None,
                stated: Some(Stated {
                    source: payee.clone(),
                    opening: Some((*date, *minor)),
                    ..Stated::default()
                }),
            })
        })
        .collect();
    let opening = openings.into_iter().next().map(|(_, date, minor, payee)| (date, minor, payee));
    Ok(Parsed { encoding, order, rows, rejected, opening, accounts })
}

/// The transactions of a QIF file, as blocks of lines; refused when the file holds none
/// Sou reads (another kind of list, or not QIF).
fn blocks(text: &str) -> Result<Vec<Block>, QifError> {
    let mut blocks = Vec::new();
    let mut current = Block::default();
    let mut section = Section::Start;
    let mut refused: Option<String> = None;
    let mut saw_transactions_section = false;
    let mut headerless_ok = true;
    // The account being described (`!Account`'s `N`), and the one the rows are of.
    let (mut described, mut account): (Option<String>, Option<String>) = (None, None);
    for (i, raw) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(header) = l.strip_prefix('!') {
            // A transaction the exporter did not close with `^` still counts.
            if current.line != 0 && (current.date.is_some() || current.amount.is_some()) {
                blocks.push(std::mem::take(&mut current));
            }
            let lower = header.to_ascii_lowercase();
            if let Some(kind) = lower.strip_prefix("type:") {
                if is_account_type(kind) {
                    // A section of transactions after an `!Account` block is that account's.
                    if let Some(name) = described.take() {
                        account = Some(name);
                    }
                    section = Section::Transactions;
                    saw_transactions_section = true;
                } else {
                    section = Section::Other;
                    if !is_list_type(kind) && refused.is_none() {
                        refused = header.get(5..).map(|k| k.trim().to_string());
                    }
                }
            } else if lower.starts_with("account") {
                section = Section::Account;
            }
            // `!Option:AutoSwitch`, `!Clear:AutoSwitch`: switches, nothing to read.
            current = Block::default();
            continue;
        }
        if section == Section::Start && (l.starts_with(';') || l.starts_with('#')) {
            continue;
        }
        if section == Section::Account {
            if let Some(name) = l.strip_prefix('N').map(str::trim).filter(|n| !n.is_empty()) {
                described = Some(name.to_string());
            }
            continue;
        }
        if section == Section::Other {
            continue;
        }
        // Without a header, every line must look like QIF for the file to be read as one.
        if section == Section::Start
            && !l.starts_with(['D', 'T', 'U', 'P', 'M', 'N', 'L', 'C', 'A', 'S', 'E', '$', '^'])
        {
            headerless_ok = false;
        }
        if current.line == 0 {
            current.line = n;
            current.account = account.clone();
        }
        let (code, value) = l.split_at(l.chars().next().map_or(0, char::len_utf8));
        let value = value.trim().to_string();
        match code {
            "^" => blocks.push(std::mem::take(&mut current)),
            "D" => current.date = Some(value),
            "T" | "U" => current.amount = Some(value),
            "P" => current.payee = Some(value),
            "M" => current.memo = Some(value),
            "N" => current.number = Some(value),
            _ => {}
        }
    }
    if current.line != 0 && (current.date.is_some() || current.amount.is_some()) {
        blocks.push(current);
    }
    // Nothing read and no account section: another kind of list, or not QIF at all.
    let transactions = blocks.iter().any(|b| b.date.is_some() || b.amount.is_some());
    let headerless = headerless_ok && text.lines().any(|l| l.trim() == "^");
    let readable = saw_transactions_section || (transactions && headerless);
    if !readable {
        return Err(refused.map_or(QifError::NotQif, QifError::UnsupportedType));
    }
    Ok(blocks)
}

/// QIF writes `'` before a two-digit year (1/5'26) and may pad with spaces.
fn clean(d: &str) -> String {
    d.replace('\'', "/").replace(' ', "")
}

/// The order the file's dates are written in, and whether its amounts have a decimal
/// comma.
fn date_order(blocks: &[Block]) -> (DateOrder, bool) {
    let dates: Vec<String> = blocks.iter().filter_map(|b| b.date.as_deref().map(clean)).collect();
    // When every date reads both ways (05/01/2026), amounts with a decimal comma say the
    // file is French, so day first; otherwise Quicken's own month first.
    let comma =
        blocks.iter().any(|b| b.amount.as_deref().is_some_and(|a| a.contains(',') && !a.contains('.')));
    let usual = if comma { DateOrder::Dmy } else { DateOrder::Mdy };
    let order = [DateOrder::Mdy, DateOrder::Dmy, DateOrder::Ymd]
        .into_iter()
        .max_by_key(|&o| (dates.iter().filter(|d| parse_date(d, o).is_some()).count(), o == usual))
        .unwrap_or(usual);

    (order, comma)
}

/// An account's opening balance: its account, day, amount and the payee that says so.
type Opening = (Option<String>, agent::Date, i64, String);

/// The blocks as rows, those refused with why, and each account's opening balance.
fn rows(blocks: Vec<Block>, order: DateOrder, french: bool) -> (Vec<Row>, Vec<Rejected>, Vec<Opening>) {
    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    // Each account's opening balance, by account (`None`: a file naming none).
    let mut openings: Vec<Opening> = Vec::new();
    let mut started: Vec<Option<String>> = Vec::new();
    for b in blocks {
        // An account's opening balance is its first block; later, a payee of that name
        // is a transaction.
        let first = !started.contains(&b.account);
        if first {
            started.push(b.account.clone());
            if let Some(payee) = b.payee.as_deref().filter(|p| is_opening_balance(p)) {
                let date = b.date.as_deref().and_then(|d| parse_date(&clean(d), order));
                let minor = b.amount.as_deref().and_then(|a| {
                    super::amount(a, if a.contains(',') && !a.contains('.') { ',' } else { '.' }).ok()
                });
                if let (Some(date), Some(minor)) = (date, minor) {
                    openings.push((b.account.clone(), date, minor, payee.to_string()));
                    continue;
                }
            }
        }
        let result = (|| -> Result<Row, Why> {
            let raw = b.date.as_deref().ok_or_else(|| Why::NoDate { fields: fields(&["D line"]) })?;
            let date = parse_date(&clean(raw), order)
                .ok_or_else(|| Why::BadDate { value: raw.to_string(), format: None })?;
            let amount = b.amount.as_deref().ok_or_else(|| Why::NoAmount { fields: fields(&["T line"]) })?;
            let decimal = if amount.contains(',') && !amount.contains('.') { ',' } else { '.' };
            let amount_minor = super::amount(amount, decimal)?;
            // A line with only a number is a cheque ("N1234567"), or says what it is ("NATM").
            let numbered =
                b.number.as_deref().map(|n| match (n.bytes().all(|c| c.is_ascii_digit()), french) {
                    (true, true) => format!("Chèque {n}"),
                    (true, false) => format!("Check {n}"),
                    (false, _) => n.to_string(),
                });
            let label = label(b.payee.as_deref(), b.memo.as_deref())
                .or(numbered)
                .ok_or_else(|| Why::NoLabel { fields: fields(&["P line", "M line", "N line"]) })?;
            Ok(Row { line: b.line, date, amount_minor, label, external_id: None, account: b.account.clone() })
        })();
        match result {
            Ok(r) => rows.push(r),
            Err(why) => rejected.push(Rejected { line: b.line, why }),
        }
    }
    (rows, rejected, openings)
}
