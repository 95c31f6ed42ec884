//! Bank CSV exports: the layout is guessed from the file — delimiter, preamble lines
//! before the header, which column is the date, the label, the amount (or separate
//! debit and credit columns), the date order and the decimal mark — and returned as a
//! [`Mapping`] the user can correct before the rows are read again with it.

pub use agent::imports::{AmountColumns, Confidence, DateOrder, Fees, Found, Mapping};

use super::{decode, parse_amount};

mod rows;
pub use rows::{parse_date, Parsed};
use rows::{read, records};

/// Why a file could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsvError {
    #[error("the file is empty")]
    Empty,
    #[error("no column of dates was found in the first lines")]
    NoDateColumn,
    #[error("no column of amounts (or of debits and credits) was found")]
    NoAmountColumn,
    #[error("no column of labels was found")]
    NoLabelColumn,
    #[error("the mapping names column {0}, and the file has fewer columns")]
    NoSuchColumn(usize),
}

pub type Error = CsvError;

/// Any file may be a CSV export: the one tried when no other format is likelier (its
/// extensions only tell the upload what to accept).
pub fn likely(_: &super::Head) -> super::Likely {
    super::Likely::Fallback
}

/// Reads `bytes` with `mapping` when given, else with the layout detected.
pub fn file(bytes: &[u8], mapping: Option<Mapping>) -> Result<super::File, CsvError> {
    let p = match mapping {
        Some(m) => parse_with(bytes, m)?,
        None => parse(bytes)?,
    };
    Ok(super::File {
        format: super::Format::Csv,
        encoding: p.encoding,
        currency: p.currency,
        mapping: Some(p.mapping),
        accounts: super::accounts_of(&p.rows, &[]),
        rows: p.rows,
        rejected: p.rejected,
        stated: p.stated,
    })
}

/// Records looked at to guess the layout.
const SAMPLE: usize = 50;

/// The start of `text` the layout is guessed from (and checked against): its first
/// 200 lines, so a large file is read whole only once, by [`read`].
fn head(text: &str) -> &str {
    match text.match_indices('\n').nth(4 * SAMPLE - 1) {
        Some((i, _)) => &text[..=i],
        None => text,
    }
}

/// Reads `bytes`, guessing the layout.
pub fn parse(bytes: &[u8]) -> Result<Parsed, CsvError> {
    let (text, encoding) = decode(bytes);
    let mapping = detect(&text)?;
    Ok(read(&text, encoding, mapping))
}

/// Reads `bytes` with a layout the user chose (or corrected).
pub fn parse_with(bytes: &[u8], mapping: Mapping) -> Result<Parsed, CsvError> {
    let (text, encoding) = decode(bytes);
    let records = records(head(&text), mapping.delimiter);
    let widest = records.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    let needed = match mapping.amounts {
        AmountColumns::Signed { amount } => amount,
        AmountColumns::DebitCredit { debit, credit } => debit.max(credit),
    }
    .max(mapping.date)
    .max(mapping.label);
    if needed >= widest {
        return Err(CsvError::NoSuchColumn(needed.saturating_add(1)));
    }
    Ok(read(&text, encoding, mapping))
}

/// A record's line and cells.
pub type Record = (u64, Vec<String>);

/// Any CSV file with a header row (datasets): its header and every record with its
/// line, as text; the delimiter is guessed as for bank files.
pub fn table(bytes: &[u8]) -> Result<(Vec<String>, Vec<Record>), CsvError> {
    let (text, _) = decode(bytes);
    let mut records = records(&text, delimiter(head(&text))).into_iter();
    let (_, header) = records.next().ok_or(CsvError::Empty)?;
    Ok((header, records.collect()))
}

/// The first data record of `bytes` read with `mapping` (its cells, trimmed), for the
/// preview's column samples.
pub fn sample_row(bytes: &[u8], mapping: &Mapping) -> Vec<String> {
    let (text, _) = decode(bytes);
    records(head(&text), mapping.delimiter).into_iter().nth(mapping.skip).map(|(_, r)| r).unwrap_or_default()
}

/// The delimiter that splits the first lines into the same number (> 1) of cells most
/// often.
fn delimiter(text: &str) -> char {
    let mut best = (';', 0usize);
    for d in [';', ',', '\t', '|'] {
        let rows = records(text, d);
        let widths: Vec<usize> = rows.iter().take(SAMPLE).map(|(_, r)| r.len()).collect();
        let Some(&common) = mode(&widths) else { continue };
        if common < 2 {
            continue;
        }
        let agreeing = widths.iter().filter(|&&w| w == common).count();
        if agreeing > best.1 {
            best = (d, agreeing);
        }
    }
    best.0
}

fn mode(values: &[usize]) -> Option<&usize> {
    let mut counts = std::collections::BTreeMap::new();
    for v in values {
        *counts.entry(v).or_insert(0usize) += 1;
    }
    counts.into_iter().max_by_key(|&(v, n)| (n, std::cmp::Reverse(*v))).map(|(v, _)| v)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Date,
    ValueDate,
    Label,
    Amount,
    Debit,
    Credit,
    /// The account's running balance: a check on the amounts, never an amount.
    Balance,
    Currency,
    Fee,
    State,
}

/// "dateOp" → "date Op", "accountBalance" → "account Balance": camelCase headers read
/// as words.
fn split_camel(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len() + 4);
    let mut previous_lower = false;
    for c in cell.chars() {
        if c.is_uppercase() && previous_lower {
            out.push(' ');
        }
        previous_lower = c.is_lowercase();
        out.push(c);
    }
    out
}

/// What a header cell names, if anything Sou reads.
fn role(cell: &str) -> Option<Role> {
    let n = super::fold(&split_camel(cell));
    let has = |words: &[&str]| words.iter().any(|w| n == *w || n.starts_with(&format!("{w} ")));
    if n.contains("valeur") || n.contains("value date") || n == "date val" {
        return Some(Role::ValueDate);
    }
    // Before the amounts: "accountbalance", "Balance", "Solde" are never one.
    if has(&["balance", "solde"]) || n.ends_with("balance") {
        return Some(Role::Balance);
    }
    if has(&["currency", "devise", "monnaie"]) {
        return Some(Role::Currency);
    }
    if has(&["fee", "fees", "frais", "commission"]) {
        return Some(Role::Fee);
    }
    if has(&["state", "status", "statut", "etat"]) {
        return Some(Role::State);
    }
    if has(&[
        "date",
        "date operation",
        "date de l operation",
        "transaction date",
        "posted date",
        "posting date",
        "booking date",
        "date comptable",
        "started date",
        "completed date",
    ]) {
        return Some(Role::Date);
    }
    if has(&["debit", "withdrawal", "withdrawals", "paid out", "money out", "sortie", "depenses"]) {
        return Some(Role::Debit);
    }
    if has(&["credit", "deposit", "deposits", "paid in", "money in", "entree", "recettes"]) {
        return Some(Role::Credit);
    }
    if has(&["montant", "amount", "somme", "value", "transaction amount"]) {
        return Some(Role::Amount);
    }
    if has(&[
        "libelle",
        "libelle operation",
        "libelle de l operation",
        "description",
        "label",
        "details",
        "detail",
        "payee",
        "memo",
        "narrative",
        "intitule",
        "nature de l operation",
        "reference",
    ]) {
        return Some(Role::Label);
    }
    None
}

/// The order that reads every value of a column (and how many it reads), DMY first on
/// a tie: the banks Sou is first written for are French.
fn date_order(values: &[&str]) -> Option<(DateOrder, usize)> {
    [DateOrder::Ymd, DateOrder::Dmy, DateOrder::Mdy]
        .into_iter()
        .map(|o| (o, values.iter().filter(|v| parse_date(v, o).is_some()).count()))
        .filter(|&(_, n)| n > 0)
        .max_by_key(|&(o, n)| (n, o == DateOrder::Dmy))
}

/// The decimal mark of a column of amounts: the mark followed by one or two digits at
/// the end of most values; with no evidence, `,` for `;`-separated files.
fn decimal_mark(values: &[&str], delimiter: char) -> char {
    let (mut comma, mut dot) = (0, 0);
    for v in values {
        let v = v.trim_end_matches(|c: char| !c.is_ascii_digit());
        if let Some(i) = v.rfind([',', '.']) {
            let tail = &v[i + 1..];
            if (1..=2).contains(&tail.len()) && tail.bytes().all(|b| b.is_ascii_digit()) {
                if v[i..].starts_with(',') {
                    comma += 1;
                } else {
                    dot += 1;
                }
            }
        }
    }
    match comma.cmp(&dot) {
        std::cmp::Ordering::Greater => ',',
        std::cmp::Ordering::Less => '.',
        std::cmp::Ordering::Equal if delimiter == ';' => ',',
        std::cmp::Ordering::Equal => '.',
    }
}

/// Guesses the mapping from the text.
pub fn detect(text: &str) -> Result<Mapping, CsvError> {
    let text = head(text);
    let delimiter = delimiter(text);
    let all = records(text, delimiter);
    if all.is_empty() {
        return Err(CsvError::Empty);
    }
    let sample: Vec<&Vec<String>> = all.iter().take(SAMPLE).map(|(_, r)| r).collect();
    // A known bank's header: its layout is the bank's.
    if let Some(mapping) = sample.iter().enumerate().find_map(|(h, r)| known(&all, delimiter, h, r)) {
        return Ok(mapping);
    }
    // The header: the first record naming a date and an amount (or debit/credit).
    let header = sample.iter().position(|r| {
        let roles: Vec<Role> = r.iter().filter_map(|c| role(c)).collect();
        roles.contains(&Role::Date)
            && (roles.contains(&Role::Amount)
                || roles.contains(&Role::Debit)
                || roles.contains(&Role::Credit))
    });
    let data: Vec<&Vec<String>> = match header {
        Some(h) => sample[h + 1..].to_vec(),
        None => sample.clone(),
    };
    let width = data.iter().map(|r| r.len()).max().unwrap_or(0);
    let column =
        |i: usize| -> Vec<&str> { data.iter().filter_map(|r| r.get(i).map(String::as_str)).collect() };
    let named = |want: Role| -> Option<usize> {
        let h = sample.get(header?)?;
        h.iter().position(|c| role(c) == Some(want))
    };
    let named_as = |i: usize| -> Option<Role> { sample.get(header?)?.get(i).and_then(|c| role(c)) };

    // Date: the named column, else the one where most values read as dates.
    let date = named(Role::Date).or_else(|| named(Role::ValueDate)).or_else(|| {
        (0..width)
            .filter_map(|i| date_order(&column(i)).map(|(_, n)| (i, n)))
            .filter(|&(i, n)| n * 2 >= column(i).iter().filter(|v| !v.is_empty()).count().max(1))
            .max_by_key(|&(i, n)| (n, std::cmp::Reverse(i)))
            .map(|(i, _)| i)
    });
    let date = date.ok_or(CsvError::NoDateColumn)?;
    let (order, _) = date_order(&column(date)).ok_or(CsvError::NoDateColumn)?;
    // Without a header, the first record may still be one (unnamed columns): skip
    // leading records whose date cell is not a date.
    let skip = match header {
        Some(h) => h + 1,
        None => all
            .iter()
            .position(|(_, r)| r.get(date).is_some_and(|c| parse_date(c, order).is_some()))
            .unwrap_or(0),
    };
    let data: Vec<&Vec<String>> = all.iter().skip(skip).take(SAMPLE).map(|(_, r)| r).collect();
    let column =
        |i: usize| -> Vec<&str> { data.iter().filter_map(|r| r.get(i).map(String::as_str)).collect() };

    let mut unsure_amount = Vec::new();
    let amounts = match (named(Role::Amount), named(Role::Debit), named(Role::Credit)) {
        (_, Some(debit), Some(credit)) => AmountColumns::DebitCredit { debit, credit },
        (Some(amount), _, _) => AmountColumns::Signed { amount },
        _ => {
            // No header names the amount: the columns of amounts that are not the date, nor a column the
            // header calls a balance, nor a running balance of another of them (each
            // line's amount is the change of the balance); the rightmost of the rest.
            let numbers: Vec<(usize, Vec<Option<i64>>)> = (0..width)
                .filter(|&i| {
                    i != date && !matches!(named_as(i), Some(Role::Balance | Role::Fee | Role::Currency))
                })
                .filter_map(|i| {
                    let cells = column(i);
                    let values: Vec<&str> = cells.iter().copied().filter(|v| !v.is_empty()).collect();
                    let mark = decimal_mark(&values, delimiter);
                    (!values.is_empty() && values.iter().all(|v| parse_amount(v, mark).is_some()))
                        .then(|| (i, cells.iter().map(|v| parse_amount(v, mark)).collect()))
                })
                .collect();
            let balance = |i: usize, values: &[Option<i64>]| {
                numbers.iter().any(|(j, amounts)| *j != i && is_running_balance(values, amounts))
            };
            let candidates: Vec<usize> =
                numbers.iter().rev().filter(|(i, values)| !balance(*i, values)).map(|(i, _)| *i).collect();
            let amount = *candidates.first().ok_or(CsvError::NoAmountColumn)?;
            // Several columns could be the amount: the user is asked before importing.
            if candidates.len() > 1 {
                unsure_amount = candidates;
            }
            AmountColumns::Signed { amount }
        }
    };
    let amount_columns: Vec<usize> = match amounts {
        AmountColumns::Signed { amount } => vec![amount],
        AmountColumns::DebitCredit { debit, credit } => vec![debit, credit],
    };
    let mut amount_values: Vec<&str> = Vec::new();
    for &i in &amount_columns {
        amount_values.extend(column(i).into_iter().filter(|v| !v.is_empty()));
    }
    let decimal = decimal_mark(&amount_values, delimiter);

    // Label: the named column, else the column with the longest texts that is neither
    // the date nor an amount.
    let label = named(Role::Label)
        .or_else(|| {
            (0..width)
                .filter(|i| *i != date && !amount_columns.contains(i))
                .max_by_key(|&i| column(i).iter().map(|v| v.chars().count()).sum::<usize>())
        })
        .ok_or(CsvError::NoLabelColumn)?;

    let by_header = |named: bool| if named { Found::Header } else { Found::Values };
    let found = Confidence {
        date: by_header(named(Role::Date).or_else(|| named(Role::ValueDate)) == Some(date)),
        label: by_header(named(Role::Label) == Some(label)),
        amount: by_header(matches!(named_as(amount_columns[0]), Some(Role::Amount | Role::Debit))),
    };
    Ok(Mapping {
        delimiter,
        skip,
        header: header.and_then(|h| sample.get(h)).map(|h| h.to_vec()),
        date,
        order,
        label,
        amounts,
        decimal,
        unsure_amount,
        mostly_unreadable: false,
        layout: None,
        found,
        currency: named(Role::Currency),
        // A fee column is read only when the user or a known layout says how: whether an
        // amount already counts its fee is not written in a header.
        fee: None,
        fees: Fees::Separate,
        state: named(Role::State),
        balance: named(Role::Balance),
        account: None,
        label_else: None,
    })
}

/// The mapping of a known bank's layout, when record `h` is its header.
fn known(all: &[Record], delimiter: char, h: usize, header: &[String]) -> Option<Mapping> {
    let (k, column) = super::layouts::recognise(header)?;
    let data: Vec<&Vec<String>> = all.iter().skip(h + 1).take(SAMPLE).map(|(_, r)| r).collect();
    let values = |i: usize| -> Vec<&str> {
        data.iter().filter_map(|r| r.get(i).map(String::as_str)).filter(|v| !v.is_empty()).collect()
    };
    let date = column(&k.date)?;
    let amounts = match (&k.amount, &k.debit, &k.credit) {
        (Some(a), _, _) => AmountColumns::Signed { amount: column(a)? },
        (None, Some(d), Some(c)) => AmountColumns::DebitCredit { debit: column(d)?, credit: column(c)? },
        _ => return None,
    };
    let order = match k.order.as_deref().and_then(DateOrder::parse) {
        Some(o) => o,
        None => date_order(&values(date)).map_or(DateOrder::Dmy, |(o, _)| o),
    };
    let decimal = k.decimal.unwrap_or_else(|| {
        let money: Vec<&str> = match amounts {
            AmountColumns::Signed { amount } => values(amount),
            AmountColumns::DebitCredit { debit, credit } => [values(debit), values(credit)].concat(),
        };
        decimal_mark(&money, delimiter)
    });
    let optional = |name: &Option<String>| name.as_deref().and_then(&column);
    Some(Mapping {
        delimiter,
        skip: h + 1,
        header: Some(header.to_vec()),
        date,
        order,
        label: column(&k.label)?,
        amounts,
        decimal,
        unsure_amount: Vec::new(),
        mostly_unreadable: false,
        layout: Some(k.name.clone()),
        found: Confidence { date: Found::Layout, label: Found::Layout, amount: Found::Layout },
        currency: optional(&k.currency),
        fee: optional(&k.fee),
        fees: Fees::Separate,
        state: optional(&k.state),
        balance: optional(&k.balance),
        account: optional(&k.account),
        label_else: optional(&k.label_else),
    })
}

/// Whether `balance` is a running balance of `amounts`, line by line: each line's
/// balance is the previous one plus its amount (oldest first), or the next one plus
/// the next amount (newest first), on at least four in five pairs of lines, and two.
fn is_running_balance(balance: &[Option<i64>], amounts: &[Option<i64>]) -> bool {
    // Lines whose balance does not move say nothing (a column of zeros "follows" any
    // amounts of zero).
    let pairs: Vec<(i64, i64, i64, i64)> = (1..balance.len().min(amounts.len()))
        .filter_map(|k| Some((balance[k - 1]?, balance[k]?, amounts[k - 1]?, amounts[k]?)))
        .filter(|(b0, b1, _, _)| b0 != b1)
        .collect();
    if pairs.len() < 2 {
        return false;
    }
    let oldest_first = pairs.iter().filter(|(b0, b1, _, a1)| b1.checked_sub(*b0) == Some(*a1)).count();
    let newest_first = pairs.iter().filter(|(b0, b1, a0, _)| b0.checked_sub(*b1) == Some(*a0)).count();
    oldest_first.max(newest_first) * 5 >= pairs.len() * 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent::Date;

    #[test]
    fn dates_in_each_order() {
        let d = |y, m, d| Date::new(y, m, d);
        assert_eq!(parse_date("31/01/2026", DateOrder::Dmy), d(2026, 1, 31));
        assert_eq!(parse_date("01/31/2026", DateOrder::Mdy), d(2026, 1, 31));
        assert_eq!(parse_date("2026-01-31", DateOrder::Ymd), d(2026, 1, 31));
        assert_eq!(parse_date("20260131", DateOrder::Ymd), d(2026, 1, 31));
        assert_eq!(parse_date("31.01.26", DateOrder::Dmy), d(2026, 1, 31));
        assert_eq!(parse_date("31/02/2026", DateOrder::Dmy), None);
        assert_eq!(parse_date("31/01/2026", DateOrder::Mdy), None);
        assert_eq!(parse_date("hier", DateOrder::Dmy), None);
        assert_eq!(parse_date("1/2/3/4", DateOrder::Dmy), None);
        assert_eq!(date_order(&["03/04/2026", "13/04/2026"]).map(|o| o.0), Some(DateOrder::Dmy));
        assert_eq!(date_order(&["03/04/2026", "04/13/2026"]).map(|o| o.0), Some(DateOrder::Mdy));
        assert_eq!(date_order(&["03/04/2026"]).map(|o| o.0), Some(DateOrder::Dmy), "a tie reads French");
    }

    #[test]
    fn a_column_of_zeros_is_no_running_balance() {
        let amounts = [Some(-500), Some(-500), Some(-500), Some(-500)];
        assert!(!is_running_balance(&[Some(0), Some(0), Some(0), Some(0)], &amounts));
        let balance = [Some(10_000), Some(9_500), Some(9_000), Some(8_500)];
        assert!(is_running_balance(&balance, &amounts));
    }

    #[test]
    fn header_cells_are_recognised_in_french_and_english() {
        assert_eq!(role("Date de l'opération"), Some(Role::Date));
        assert_eq!(role("Date de valeur"), Some(Role::ValueDate));
        assert_eq!(role("Libellé"), Some(Role::Label));
        assert_eq!(role("Débit euros"), Some(Role::Debit));
        assert_eq!(role("Crédit euros"), Some(Role::Credit));
        assert_eq!(role("Amount (USD)"), Some(Role::Amount));
        // A balance is read as one, so that it is never taken for the amount.
        assert_eq!(role("Balance"), Some(Role::Balance));
        assert_eq!(role("Solde"), Some(Role::Balance));
        assert_eq!(role("accountbalance"), Some(Role::Balance));
        // camelCase headers (BoursoBank) and Revolut's dates.
        assert_eq!(role("dateOp"), Some(Role::Date));
        assert_eq!(role("dateVal"), Some(Role::ValueDate));
        assert_eq!(role("Started Date"), Some(Role::Date));
    }
}
