//! OFX and QFX statements, version 1 (SGML: leaf elements are not closed) and version
//! 2 (XML). One tolerant reader serves both: the text after an opening tag, up to the
//! next tag, is that element's value. Transactions are the `<STMTTRN>` blocks.

use super::{decode, fields, label, parse_amount, Rejected, Row, Statement, Why};
use agent::Date;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OfxError {
    #[error("this is not an OFX file: there is no <OFX> element")]
    NotOfx,
}

/// One transaction's elements as read.
#[derive(Default)]
struct Block {
    line: u64,
    posted: Option<String>,
    amount: Option<String>,
    id: Option<String>,
    name: Option<String>,
    memo: Option<String>,
}

/// The statement's transactions; its currency is `<CURDEF>`.
pub fn parse(bytes: &[u8]) -> Result<Statement, OfxError> {
    let (text, encoding) = decode(bytes);
    if !text.to_ascii_uppercase().contains("<OFX>") {
        return Err(OfxError::NotOfx);
    }
    let mut currency = None;
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    let mut line: u64 = 1;
    let mut rest = text.as_str();
    while let Some(open) = rest.find('<') {
        line += rest[..open].matches('\n').count() as u64;
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        let tag = after[..close].trim().to_ascii_uppercase();
        let body = &after[close + 1..];
        let value_end = body.find('<').unwrap_or(body.len());
        let value = unescape(body[..value_end].trim());
        line += after[..close + 1].matches('\n').count() as u64;
        match tag.as_str() {
            "STMTTRN" => current = Some(Block { line, ..Block::default() }),
            "/STMTTRN" => blocks.extend(current.take()),
            "CURDEF" if !value.is_empty() => currency = Some(value),
            _ => {
                if let Some(b) = current.as_mut() {
                    let slot = match tag.as_str() {
                        "DTPOSTED" => Some(&mut b.posted),
                        "TRNAMT" => Some(&mut b.amount),
                        "FITID" => Some(&mut b.id),
                        "NAME" | "PAYEE" => Some(&mut b.name),
                        "MEMO" => Some(&mut b.memo),
                        _ => None,
                    };
                    if let Some(slot) = slot.filter(|_| !value.is_empty()) {
                        *slot = Some(value);
                    }
                }
            }
        }
        rest = body;
    }
    // SGML files may leave the last block open at the end of the list.
    blocks.extend(current.take());

    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    for b in blocks {
        match row(&b) {
            Ok(row) => rows.push(row),
            Err(why) => rejected.push(Rejected { line: b.line, why }),
        }
    }
    Ok(Statement { encoding, currency, rows, rejected })
}

fn row(b: &Block) -> Result<Row, Why> {
    let posted = b.posted.as_deref().ok_or_else(|| Why::NoDate { fields: fields(&["DTPOSTED"]) })?;
    let date = ofx_date(posted)
        .ok_or_else(|| Why::BadDate { value: posted.to_string(), format: Some("YYYYMMDD".into()) })?;
    let raw = b.amount.as_deref().ok_or_else(|| Why::NoAmount { fields: fields(&["TRNAMT"]) })?;
    // The standard writes `.`; some French banks write `,`.
    let decimal = if raw.contains(',') && !raw.contains('.') { ',' } else { '.' };
    let amount_minor = parse_amount(raw, decimal).ok_or_else(|| Why::BadAmount { value: raw.to_string() })?;
    let label = label(b.name.as_deref(), b.memo.as_deref())
        .ok_or_else(|| Why::NoLabel { fields: fields(&["NAME", "MEMO"]) })?;
    Ok(Row { line: b.line, date, amount_minor, label, external_id: b.id.clone() })
}

/// `YYYYMMDD`, possibly followed by a time and a zone (`20260105120000.000[-5:EST]`).
fn ofx_date(s: &str) -> Option<Date> {
    let digits = s.get(..8)?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Date::new(
        digits.get(..4)?.parse().ok()?,
        digits.get(4..6)?.parse().ok()?,
        digits.get(6..8)?.parse().ok()?,
    )
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_with_times_and_zones() {
        assert_eq!(ofx_date("20260105"), Date::new(2026, 1, 5));
        assert_eq!(ofx_date("20260105120000.000[-5:EST]"), Date::new(2026, 1, 5));
        assert_eq!(ofx_date("20261305"), None);
        assert_eq!(ofx_date("2026-01-05"), None);
        assert_eq!(ofx_date("2026"), None);
    }
}
