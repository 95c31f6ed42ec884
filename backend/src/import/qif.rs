//! QIF (Quicken Interchange Format) bank accounts: `!Type:Bank` (or `CCard`, `Cash`),
//! then one transaction per block of lines ending in `^` — `D` date, `T` or `U` amount,
//! `P` payee, `M` memo. Dates come month first or day first, with `/`, `-`, `.` or an
//! apostrophe before a two-digit year; the order is the one that reads every date.

use super::csv::{parse_date, DateOrder};
use super::{decode, fields, label, parse_amount, Encoding, Rejected, Row, Why};

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Parsed {
    pub encoding: Encoding,
    pub order: DateOrder,
    pub rows: Vec<Row>,
    pub rejected: Vec<Rejected>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QifError {
    #[error("this is not a QIF file: it does not start with a !Type: line")]
    NotQif,
    #[error("this QIF file holds {0:?}, not a bank, card or cash account")]
    UnsupportedType(String),
}

#[derive(Default)]
struct Block {
    line: u64,
    date: Option<String>,
    amount: Option<String>,
    payee: Option<String>,
    memo: Option<String>,
}

pub fn parse(bytes: &[u8]) -> Result<Parsed, QifError> {
    let (text, encoding) = decode(bytes);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i as u64 + 1, l.trim()));
    let kind = lines.by_ref().find(|(_, l)| !l.is_empty()).map(|(_, l)| l.to_string()).unwrap_or_default();
    let Some(kind) = kind.strip_prefix("!Type:").or_else(|| kind.strip_prefix("!type:")) else {
        return Err(QifError::NotQif);
    };
    let kind = kind.trim();
    if !["bank", "ccard", "cash", "oth a", "oth l"].contains(&kind.to_ascii_lowercase().as_str()) {
        return Err(QifError::UnsupportedType(kind.to_string()));
    }
    let mut blocks = Vec::new();
    let mut current = Block::default();
    for (n, l) in lines {
        if l.is_empty() {
            continue;
        }
        if current.line == 0 {
            current.line = n;
        }
        let (code, value) = l.split_at(l.chars().next().map_or(0, char::len_utf8));
        let value = value.trim().to_string();
        match code {
            "^" => blocks.push(std::mem::take(&mut current)),
            "D" => current.date = Some(value),
            "T" | "U" => current.amount = Some(value),
            "P" => current.payee = Some(value),
            "M" => current.memo = Some(value),
            _ => {}
        }
    }
    if current.line != 0 && (current.date.is_some() || current.amount.is_some()) {
        blocks.push(current);
    }

    // QIF writes `'` before a two-digit year (1/5'26) and may pad with spaces.
    let clean = |d: &str| d.replace('\'', "/").replace(' ', "");
    let dates: Vec<String> = blocks.iter().filter_map(|b| b.date.as_deref().map(clean)).collect();
    let order = [DateOrder::Mdy, DateOrder::Dmy, DateOrder::Ymd]
        .into_iter()
        .max_by_key(|&o| (dates.iter().filter(|d| parse_date(d, o).is_some()).count(), o == DateOrder::Mdy))
        .unwrap_or(DateOrder::Mdy);

    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    for b in blocks {
        let result = (|| -> Result<Row, Why> {
            let raw = b.date.as_deref().ok_or_else(|| Why::NoDate { fields: fields(&["D line"]) })?;
            let date = parse_date(&clean(raw), order)
                .ok_or_else(|| Why::BadDate { value: raw.to_string(), format: None })?;
            let amount = b.amount.as_deref().ok_or_else(|| Why::NoAmount { fields: fields(&["T line"]) })?;
            let decimal = if amount.contains(',') && !amount.contains('.') { ',' } else { '.' };
            let amount_minor =
                parse_amount(amount, decimal).ok_or_else(|| Why::BadAmount { value: amount.to_string() })?;
            let label = label(b.payee.as_deref(), b.memo.as_deref())
                .ok_or_else(|| Why::NoLabel { fields: fields(&["P line", "M line"]) })?;
            Ok(Row { line: b.line, date, amount_minor, label, external_id: None })
        })();
        match result {
            Ok(r) => rows.push(r),
            Err(why) => rejected.push(Rejected { line: b.line, why }),
        }
    }
    Ok(Parsed { encoding, order, rows, rejected })
}
