//! A CSV file's records, and the records read with a layout: each a row (and its
//! fee's), or a line rejected with its reason; rows in another currency than the
//! file's rejected; a running balance checked against the amounts. Nothing here guesses
//! a layout (that is `csv.rs`'s).

use agent::imports::{AmountColumns, DateOrder, Fees, Found, Mapping};
use agent::Date;
use serde::Serialize;

use crate::import::{parse_amount, Encoding, Rejected, Row, Stated, Why};

/// What a file held, read with a mapping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parsed {
    pub encoding: Encoding,
    pub mapping: Mapping,
    /// The currency of the rows, when a column says.
    pub currency: Option<String>,
    pub rows: Vec<Row>,
    pub rejected: Vec<Rejected>,
    /// What a balance column says, checked against the amounts.
    pub stated: Option<Stated>,
}

/// Every record of `text` with the line it starts on; unreadable bytes never stop it.
pub(super) fn records(text: &str, delimiter: char) -> Vec<(u64, Vec<String>)> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(u8::try_from(delimiter).unwrap_or(b';'))
        .from_reader(text.as_bytes());
    // Line numbers from byte offsets: the reader's own count is one short after a
    // CRLF line end (it places a record before the `\n` of the previous one).
    let newlines: Vec<usize> =
        text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
    let line_at = |byte: usize| {
        let start = text.as_bytes()[byte.min(text.len())..]
            .iter()
            .position(|&b| b != b'\r' && b != b'\n')
            .map_or(text.len(), |skip| byte + skip);
        newlines.partition_point(|&n| n < start) as u64 + 1
    };
    let mut out = Vec::new();
    let mut record = ::csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {
                let line =
                    record.position().map_or(0, |p| line_at(usize::try_from(p.byte()).unwrap_or(usize::MAX)));
                let cells: Vec<String> = record.iter().map(|c| c.trim().to_string()).collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    out.push((line, cells));
                }
            }
            Ok(false) => break,
            // Only I/O or UTF-8 errors, which a &str cannot have; stop rather than loop.
            Err(_) => break,
        }
    }
    out
}

/// The date in `s` in the given order, or `None`. A time after the date is ignored
/// ("31/01/2026 14:05", "2026-01-31T14:05:00").
pub fn parse_date(s: &str, order: DateOrder) -> Option<Date> {
    let s = s.trim();
    let s = s.split([' ', 'T']).next().unwrap_or(s);
    let parts: Vec<&str> = s.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).collect();
    let (a, b, c) = match parts.as_slice() {
        [a, b, c] => (*a, *b, *c),
        // 20260131, only in year-first order.
        [compact] if compact.len() == 8 && order == DateOrder::Ymd => {
            (compact.get(..4)?, compact.get(4..6)?, compact.get(6..)?)
        }
        _ => return None,
    };
    let year = |y: &str| -> Option<i32> {
        match y.len() {
            4 => y.parse().ok(),
            2 => y.parse::<i32>().ok().map(|y| 2000 + y),
            _ => None,
        }
    };
    let num = |x: &str| -> Option<u32> {
        if x.len() <= 2 {
            x.parse().ok()
        } else {
            None
        }
    };
    match order {
        DateOrder::Dmy => Date::new(year(c)?, num(b)?, num(a)?),
        DateOrder::Mdy => Date::new(year(c)?, num(a)?, num(b)?),
        DateOrder::Ymd if a.len() == 4 => Date::new(year(a)?, num(b)?, num(c)?),
        DateOrder::Ymd => None,
    }
}

fn order_hint(order: DateOrder) -> &'static str {
    match order {
        DateOrder::Dmy => "DD/MM/YYYY",
        DateOrder::Mdy => "MM/DD/YYYY",
        DateOrder::Ymd => "YYYY-MM-DD",
    }
}

/// A record read with a mapping, before the file's currency and balance are known.
struct Line {
    line: u64,
    date: Date,
    amount: i64,
    /// A fee charged, as a positive number.
    fee: i64,
    label: String,
    currency: Option<String>,
    balance: Option<i64>,
    account: Option<String>,
}

/// Reads every data record with `mapping`: a row (and, for a fee the user keeps apart,
/// a second one), or a rejected line with its reason. Rows in another currency than
/// most rows are rejected; a balance column is checked against the amounts.
pub(super) fn read(text: &str, encoding: Encoding, mut mapping: Mapping) -> Parsed {
    let mut lines = Vec::new();
    let mut rejected = Vec::new();
    for (line, r) in records(text, mapping.delimiter).into_iter().skip(mapping.skip) {
        match row(&r, &mapping) {
            Ok((date, amount, fee, label)) => {
                let cell = |i: Option<usize>| i.and_then(|i| r.get(i)).filter(|c| !c.is_empty());
                let currency = cell(mapping.currency).and_then(|c| crate::import::currency_code(c));
                // A balance may be written with another mark than the amounts (BoursoBank).
                let balance =
                    cell(mapping.balance).and_then(|b| parse_amount(b, mark_of(b, mapping.decimal)));
                let account = cell(mapping.account).cloned();
                lines.push(Line { line, date, amount, fee, label, currency, balance, account });
            }
            Err(why) => rejected.push(Rejected { line, why }),
        }
    }
    // Dates or amounts unreadable on most lines: the layout is probably wrong.
    let unreadable = rejected
        .iter()
        .filter(|r| {
            matches!(
                r.why,
                Why::NoDate { .. } | Why::BadDate { .. } | Why::NoAmount { .. } | Why::BadAmount { .. }
            )
        })
        .count();
    let chosen = mapping.found.date == Found::User && mapping.found.amount == Found::User;
    mapping.mostly_unreadable = unreadable > lines.len() && !chosen;

    // The file's currency is most rows'; a row in another one is not stored as if it were.
    let currency = mapping
        .currency
        .and_then(|_| crate::import::most_common(lines.iter().filter_map(|l| l.currency.as_deref())));
    if let Some(account) = &currency {
        lines.retain(|l| match &l.currency {
            Some(c) if c != account => {
                rejected.push(Rejected {
                    line: l.line,
                    why: Why::OtherCurrency { currency: c.clone(), account: account.clone() },
                });
                false
            }
            _ => true,
        });
        rejected.sort_by_key(|r| r.line);
    }
    let stated = mapping.balance.and_then(|b| {
        let name = mapping.header.as_ref().and_then(|h| h.get(b)).cloned();
        running_balance(&lines, name.unwrap_or_else(|| (b + 1).to_string()))
    });

    let fee_name = mapping
        .fee
        .and_then(|f| mapping.header.as_ref().and_then(|h| h.get(f)))
        .cloned()
        .unwrap_or_else(|| "Frais".into());
    let mut rows = Vec::with_capacity(lines.len());
    for l in lines {
        let netted = mapping.fees == Fees::Netted;
        let amount = if netted { l.amount.saturating_sub(l.fee) } else { l.amount };
        rows.push(Row {
            line: l.line,
            date: l.date,
            amount_minor: amount,
            label: l.label.clone(),
            external_id: None,
            account: l.account.clone(),
        });
        if l.fee != 0 && !netted {
            let label = format!("{fee_name}: {}", l.label);
            let account = l.account.clone();
            rows.push(Row {
                line: l.line,
                date: l.date,
                amount_minor: -l.fee,
                label,
                external_id: None,
                account,
            });
        }
    }
    Parsed { encoding, mapping, currency, rows, rejected, stated }
}

/// The decimal mark of one value: the last `,` or `.` when one or two digits follow it
/// to the end, else `usual`.
fn mark_of(value: &str, usual: char) -> char {
    let v = value.trim_end_matches(|c: char| !c.is_ascii_digit());
    match v.rfind([',', '.']) {
        Some(i) if (2..=3).contains(&(v.len() - i)) => {
            if v[i..].starts_with(',') {
                ','
            } else {
                '.'
            }
        }
        _ => usual,
    }
}

/// What a running-balance column says: the balance before the first line and after the
/// last, and the lines where it does not follow from the amounts (net of fees; lines
/// without a balance counted in the next). `None` when it is no running balance in
/// either order: fewer than two changes of it, or most not following.
fn running_balance(lines: &[Line], source: String) -> Option<Stated> {
    let net = |l: &Line| l.amount.saturating_sub(l.fee);
    let at: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].balance.is_some()).collect();
    // Each pair of neighbouring balances: (earlier line, later line) in the file.
    let pairs: Vec<(usize, usize)> = at.windows(2).map(|w| (w[0], w[1])).collect();
    let balance = |i: usize| lines[i].balance.unwrap_or(0);
    let moved = |from: usize, to: usize| lines[from..to].iter().fold(0i64, |s, l| s.saturating_add(net(l)));
    // Oldest first: the later balance is the earlier plus the lines after it; newest
    // first: the earlier is the later plus the lines from the earlier on.
    let oldest_first: Vec<bool> =
        pairs.iter().map(|&(a, b)| balance(a).checked_add(moved(a + 1, b + 1)) == Some(balance(b))).collect();
    let newest_first: Vec<bool> =
        pairs.iter().map(|&(a, b)| balance(b).checked_add(moved(a, b)) == Some(balance(a))).collect();
    if pairs.iter().filter(|&&(a, b)| balance(a) != balance(b)).count() < 2 {
        return None;
    }
    let count = |v: &[bool]| v.iter().filter(|&&ok| ok).count();
    let (first, last) = (*at.first()?, *at.last()?);
    // A tie is broken by the dates: a file whose dates go down is newest first.
    let newest = match count(&newest_first).cmp(&count(&oldest_first)) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => lines[last].date < lines[first].date,
    };
    // The opening is the balance before every line: it applies from the earliest day.
    let since = lines.iter().map(|l| l.date).min()?;
    let (follows, opening, closing) = if newest {
        (
            newest_first,
            (since, balance(last).saturating_sub(moved(last, lines.len()))),
            (lines[first].date, balance(first)),
        )
    } else {
        (
            oldest_first,
            (since, balance(first).saturating_sub(moved(0, first + 1))),
            (lines[last].date, balance(last)),
        )
    };
    // Mostly not following: a column of something else; it says nothing.
    if count(&follows) * 2 < follows.len() {
        return None;
    }
    let breaks =
        pairs.iter().zip(&follows).filter(|(_, ok)| !**ok).map(|(&(_, b), _)| lines[b].line).collect();
    Some(Stated { source, opening: Some(opening), closing: Some(closing), breaks })
}

/// A record's date, amount, fee (a positive charge) and label.
fn row(r: &[String], m: &Mapping) -> Result<(Date, i64, i64, String), Why> {
    let cell = |i: usize| r.get(i).map(String::as_str).unwrap_or("");
    // What the bank has not booked is not imported, whatever else the line holds.
    if let Some(state) = m.state.map(cell).filter(|s| agent::imports::is_unbooked_state(s)) {
        return Err(Why::NotBooked { state: state.to_string() });
    }
    let raw_date = cell(m.date);
    if raw_date.is_empty() {
        return Err(Why::NoDate { fields: Vec::new() });
    }
    let date = parse_date(raw_date, m.order).ok_or_else(|| Why::BadDate {
        value: raw_date.to_string(),
        format: Some(order_hint(m.order).to_string()),
    })?;
    let amount = |i: usize| -> Result<Option<i64>, Why> {
        let v = cell(i);
        if v.is_empty() {
            return Ok(None);
        }
        crate::import::amount(v, m.decimal).map(Some)
    };
    let amount_minor = match m.amounts {
        AmountColumns::Signed { amount: i } => amount(i)?.ok_or(Why::NoAmount { fields: Vec::new() })?,
        AmountColumns::DebitCredit { debit, credit } => match (amount(debit)?, amount(credit)?) {
            (Some(d), None) | (Some(d), Some(0)) => -d.abs(),
            (None, Some(c)) | (Some(0), Some(c)) => c.abs(),
            (Some(_), Some(_)) => return Err(Why::DebitAndCredit),
            (None, None) => return Err(Why::NoAmount { fields: Vec::new() }),
        },
    };
    let fee = match m.fee {
        Some(f) => amount(f)?.map_or(0, i64::abs),
        None => 0,
    };
    let label = match cell(m.label) {
        "" => m.label_else.map(cell).unwrap_or(""),
        label => label,
    };
    let label = label.split_whitespace().collect::<Vec<_>>().join(" ");
    if label.is_empty() {
        return Err(Why::NoLabel { fields: Vec::new() });
    }
    Ok((date, amount_minor, fee, label))
}
