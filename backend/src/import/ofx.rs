//! OFX and QFX statements, version 1 (SGML: leaf elements are not closed) and version
//! 2 (XML), and Microsoft Money's OFC. One tolerant reader serves all: the text after an
//! opening tag, up to the next tag (or a `<![CDATA[…]]>` section), is that element's
//! value. Transactions are the `<STMTTRN>` blocks. A status of severity `ERROR` (a
//! refused sign-on) is the bank's message, passed on.

use super::csv::Mapping;
use super::{amount, decode, fields, label, File, Format, Head, Likely, Rejected, Row, Statement, Why};
use agent::Date;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OfxError {
    #[error("this is not an OFX file: there is no <OFX> element")]
    NotOfx,
    /// The file is the bank's answer to a failed request, not a statement.
    #[error("the bank refused the request (code {code}): {message}")]
    Refused { code: String, message: String },
}

pub type Error = OfxError;

/// OFX and QFX name `OFXHEADER` or `<OFX>`, Microsoft Money's OFC `<OFC>`.
pub fn likely(head: &Head) -> Likely {
    head.likely(Format::Ofx, |t| t.starts_with("OFXHEADER") || t.contains("<OFX>") || t.contains("<OFC>"))
}

pub fn file(bytes: &[u8], _: Option<Mapping>) -> Result<File, OfxError> {
    Ok(super::statement(Format::Ofx, parse(bytes)?))
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
    kind: Option<String>,
    check: Option<String>,
    /// The `ACCTID` of the statement the block is in.
    account: Option<String>,
}

/// One `<STMTRS>` (or `<CCSTMTRS>`): an account's statement.
#[derive(Default)]
struct Stmt {
    account: Option<String>,
    currency: Option<String>,
    /// `<LEDGERBAL>`: the balance at the end of the statement (amount, day).
    ledger: (Option<String>, Option<String>),
    /// Opened by an OFC `<ACCTFROM>`, its `<STMTRS>` still to come.
    announced: bool,
}

/// A `<STATUS>` aggregate as read.
#[derive(Default)]
struct Status {
    code: Option<String>,
    severity: Option<String>,
    message: Option<String>,
}

/// What has been read of an OFX document so far.
#[derive(Default)]
struct Read {
    language: Option<String>,
    stmts: Vec<Stmt>,
    in_ledger: bool,
    blocks: Vec<Block>,
    current: Option<Block>,
    status: Option<Status>,
    /// The line of the element being read.
    line: u64,
}

impl Read {
    /// One element: its tag (in capitals) and its text. A `<STATUS>` of severity
    /// `ERROR` refuses the file.
    fn element(&mut self, tag: &str, value: String) -> Result<(), OfxError> {
        match tag {
            "STMTTRN" => {
                // SGML may leave a transaction unclosed: the next one closes it.
                self.blocks.extend(self.current.take());
                let account = self.stmts.last().and_then(|s| s.account.clone());
                self.current = Some(Block { line: self.line, account, ..Block::default() })
            }
            "/STMTTRN" => self.blocks.extend(self.current.take()),
            "STMTRS" | "CCSTMTRS" | "INVSTMTRS" => {
                self.blocks.extend(self.current.take());
                // Microsoft Money's OFC names the account (`<ACCTFROM>`) before its statement.
                if !self.stmts.last().is_some_and(|s| s.announced) {
                    self.stmts.push(Stmt::default());
                }
                if let Some(st) = self.stmts.last_mut() {
                    st.announced = false;
                }
            }
            "ACCTFROM" => self.stmts.push(Stmt { announced: true, ..Stmt::default() }),
            "/BANKTRANLIST" | "/STMTRS" | "/CCSTMTRS" | "/INVSTMTRS" => {
                self.blocks.extend(self.current.take())
            }
            "ACCTID" if !value.is_empty() => {
                if let Some(st) = self.stmts.last_mut().filter(|s| s.account.is_none()) {
                    st.account = Some(value);
                }
            }
            "CURDEF" => {
                if self.stmts.is_empty() {
                    self.stmts.push(Stmt::default());
                }
                if let Some(st) = self.stmts.last_mut() {
                    st.currency = super::currency_code(&value);
                }
            }
            "LEDGERBAL" => self.in_ledger = true,
            "/LEDGERBAL" | "AVAILBAL" | "BANKTRANLIST" => self.in_ledger = false,
            "BALAMT" | "DTASOF" if self.in_ledger => {
                if let Some(st) = self.stmts.last_mut() {
                    let slot = if tag == "BALAMT" { &mut st.ledger.0 } else { &mut st.ledger.1 };
                    slot.get_or_insert(value);
                }
            }
            "LANGUAGE" if !value.is_empty() => self.language = Some(value.to_ascii_uppercase()),
            "STATUS" => self.status = Some(Status::default()),
            "/STATUS" => {
                if let Some(st) = self.status.take() {
                    if st.severity.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("ERROR")) {
                        return Err(OfxError::Refused {
                            code: st.code.unwrap_or_default(),
                            message: st.message.unwrap_or_default(),
                        });
                    }
                }
            }
            "CODE" | "SEVERITY" | "MESSAGE" if self.status.is_some() => {
                if let Some(st) = self.status.as_mut() {
                    let slot = match tag {
                        "CODE" => &mut st.code,
                        "SEVERITY" => &mut st.severity,
                        _ => &mut st.message,
                    };
                    *slot = Some(value);
                }
            }
            _ => {
                if let Some(b) = self.current.as_mut() {
                    let slot = match tag {
                        "DTPOSTED" => Some(&mut b.posted),
                        "TRNAMT" => Some(&mut b.amount),
                        "FITID" => Some(&mut b.id),
                        "NAME" | "PAYEE" => Some(&mut b.name),
                        "MEMO" => Some(&mut b.memo),
                        "TRNTYPE" => Some(&mut b.kind),
                        "CHECKNUM" => Some(&mut b.check),
                        _ => None,
                    };
                    if let Some(slot) = slot.filter(|_| !value.is_empty()) {
                        *slot = Some(value);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The statement's transactions; its currency is `<CURDEF>`.
pub fn parse(bytes: &[u8]) -> Result<Statement, OfxError> {
    let (text, encoding) = decode(bytes);
    let upper = text.to_ascii_uppercase();
    if !upper.contains("<OFX>") && !upper.contains("<OFC>") {
        return Err(OfxError::NotOfx);
    }
    let mut read = Read { line: 1, ..Read::default() };
    let mut rest = text.as_str();
    while let Some(open) = rest.find('<') {
        read.line += rest[..open].matches('\n').count() as u64;
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        let tag = after[..close].trim().to_ascii_uppercase();
        let body = &after[close + 1..];
        let (value, consumed) = element_value(body);
        let value = value.trim().to_string();
        read.line += after[..close + 1].matches('\n').count() as u64;
        read.element(&tag, value)?;
        read.line += body[..consumed].matches('\n').count() as u64;
        rest = &body[consumed..];
    }
    // SGML files may leave the last block open at the end of the list.
    read.blocks.extend(read.current.take());
    Ok(statement(encoding, read))
}

/// The statement what was read makes: rows (or why not), accounts and the balances
/// they state.
fn statement(encoding: super::Encoding, read: Read) -> Statement {
    let Read { language, stmts, blocks, .. } = read;
    let currency = stmts.iter().find_map(|s| s.currency.clone());
    // Labels Sou writes itself (a cheque, a cash withdrawal) are in the file's language:
    // French when it says so, or when it says nothing and counts in euros.
    let french = match language.as_deref() {
        Some(l) => l == "FRA" || l == "FR",
        None => currency.as_deref() == Some("EUR"),
    };
    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    for b in blocks {
        match row(&b, french) {
            Ok(row) => rows.push(row),
            Err(why) => rejected.push(Rejected { line: b.line, why }),
        }
    }
    // SGML leaves leaves unclosed: the balance's are the first inside `<LEDGERBAL>`.
    let stated = |st: &Stmt| {
        let closing = match &st.ledger {
            (Some(amt), Some(day)) => {
                let decimal = if amt.contains(',') && !amt.contains('.') { ',' } else { '.' };
                ofx_date(day).zip(amount(amt, decimal).ok())
            }
            _ => None,
        };
        closing.map(|c| super::Stated {
            source: "LEDGERBAL".into(),
            closing: Some(c),
            ..super::Stated::default()
        })
    };
    let accounts = stmts
        .iter()
        .filter_map(|st| {
            Some(super::FileAccount {
                name: st.account.clone()?,
                currency: st.currency.clone(),
                stated: stated(st),
            })
        })
        .collect();
    let stated = stmts.first().and_then(stated);
    Statement { encoding, currency, rows, rejected, stated, accounts }
}

/// An element's text right after its opening tag, unescaped, and how many bytes of
/// `body` it took: up to the next tag, or the inside of a `<![CDATA[…]]>` section.
fn element_value(body: &str) -> (String, usize) {
    let lead = body.len() - body.trim_start().len();
    if let Some(inner) = body[lead..].strip_prefix("<![CDATA[") {
        if let Some(end) = inner.find("]]>") {
            return (inner[..end].to_string(), lead + "<![CDATA[".len() + end + "]]>".len());
        }
    }
    let end = body.find('<').unwrap_or(body.len());
    (unescape(&body[..end]), end)
}

/// A label for a line that names no payee, from what it is: "Chèque 1234567", "Retrait
/// DAB", "Check 1234567", "ATM withdrawal".
fn fallback_label(b: &Block, french: bool) -> Option<String> {
    let kind = b.kind.as_deref().map(str::to_ascii_uppercase);
    let words = match (kind.as_deref(), french) {
        (_, true) if b.check.is_some() => "Chèque",
        (_, false) if b.check.is_some() => "Check",
        (Some("CHECK"), true) => "Chèque",
        (Some("CHECK"), false) => "Check",
        (Some("ATM" | "CASH"), true) => "Retrait DAB",
        (Some("ATM" | "CASH"), false) => "ATM withdrawal",
        (Some("DEP"), true) => "Dépôt",
        (Some("DEP"), false) => "Deposit",
        (Some("FEE" | "SRVCHG"), true) => "Frais bancaires",
        (Some("FEE" | "SRVCHG"), false) => "Bank fee",
        (Some("INT" | "DIV"), true) => "Intérêts",
        (Some("INT" | "DIV"), false) => "Interest",
        (Some("XFER"), true) => "Virement",
        (Some("XFER"), false) => "Transfer",
        (Some("DIRECTDEBIT"), true) => "Prélèvement",
        (Some("DIRECTDEBIT"), false) => "Direct debit",
        _ => return None,
    };
    Some(match &b.check {
        Some(n) => format!("{words} {n}"),
        None => words.to_string(),
    })
}

fn row(b: &Block, french: bool) -> Result<Row, Why> {
    let posted = b.posted.as_deref().ok_or_else(|| Why::NoDate { fields: fields(&["DTPOSTED"]) })?;
    let date = ofx_date(posted)
        .ok_or_else(|| Why::BadDate { value: posted.to_string(), format: Some("YYYYMMDD".into()) })?;
    let raw = b.amount.as_deref().ok_or_else(|| Why::NoAmount { fields: fields(&["TRNAMT"]) })?;
    // The standard writes `.`; some French banks write `,`.
    let decimal = if raw.contains(',') && !raw.contains('.') { ',' } else { '.' };
    let amount_minor = amount(raw, decimal)?;
    let label = label(b.name.as_deref(), b.memo.as_deref())
        .or_else(|| fallback_label(b, french))
        .ok_or_else(|| Why::NoLabel { fields: fields(&["NAME", "MEMO", "CHECKNUM", "TRNTYPE"]) })?;
    Ok(Row { line: b.line, date, amount_minor, label, external_id: b.id.clone(), account: b.account.clone() })
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
