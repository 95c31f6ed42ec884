//! CAMT.053, the ISO 20022 bank-to-customer statement (any version: elements are
//! matched by local name, whatever the namespace). Each `<Ntry>` is a transaction:
//! `<Amt Ccy>` with `<CdtDbtInd>` for the sign, `<BookgDt>` (else `<ValDt>`) for the
//! date, and for the label the bank's `<AddtlNtryInf>`, else the counterparty's name
//! and the unstructured remittance text.

use agent::Date;
use quick_xml::events::Event;
use quick_xml::Reader;

use super::csv::{parse_date, DateOrder, Mapping};
use super::{decode, fields, File, Format, Head, Likely, Rejected, Row, Statement, Why};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CamtError {
    #[error("this is not a CAMT.053 statement: there is no <BkToCstmrStmt> element")]
    NotCamt,
    #[error("the XML is broken at line {line}: {message}")]
    Xml { line: u64, message: String },
}

pub type Error = CamtError;

/// A `.xml` file, else any file that starts like XML and is no other format.
pub fn likely(head: &Head) -> Likely {
    if head.has_extension_of(Format::Camt) {
        Likely::Extension
    } else if head.text.starts_with('<') {
        Likely::Shape
    } else {
        Likely::Not
    }
}

pub fn file(bytes: &[u8], _: Option<Mapping>) -> Result<File, CamtError> {
    Ok(super::statement(Format::Camt, parse(bytes)?))
}

#[derive(Default)]
struct Entry {
    line: u64,
    /// The statement it is in (an index of `stmts`).
    stmt: usize,
    amount: Option<String>,
    currency: Option<String>,
    sign: Option<String>,
    booked: Option<String>,
    value: Option<String>,
    reference: Option<String>,
    info: Option<String>,
    creditor: Option<String>,
    debtor: Option<String>,
    ultimate_creditor: Option<String>,
    ultimate_debtor: Option<String>,
    remittance: Vec<String>,
}

/// The statement's entries; its currency is the account's (`<Acct><Ccy>`).
pub fn parse(bytes: &[u8]) -> Result<Statement, CamtError> {
    let (text, encoding) = decode(bytes);
    let (stmts, entries) = read(&text)?;
    Ok(statement(encoding, stmts, entries))
}

/// The statements and entries of a CAMT.053 document, as written.
fn read(text: &str) -> Result<(Vec<Stmt>, Vec<Entry>), CamtError> {
    // The line of the first tag at or after a byte position.
    let line_of = |pos: u64| {
        let start = usize::try_from(pos).unwrap_or(usize::MAX).min(text.len());
        let end = text.as_bytes()[start..].iter().position(|&b| b == b'<').map_or(text.len(), |i| start + i);
        text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() as u64 + 1
    };
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut path: Vec<String> = Vec::new();
    let mut statement = false;
    let mut stmts: Vec<Stmt> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut entry: Option<Entry> = None;
    loop {
        let position = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| CamtError::Xml { line: line_of(reader.error_position()), message: e.to_string() })?;
        match event {
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if name == "BkToCstmrStmt" {
                    statement = true;
                }
                if matches!(name.as_str(), "Stmt" | "Rpt") && entry.is_none() {
                    stmts.push(Stmt::default());
                }
                if name == "Bal" && entry.is_none() {
                    if let Some(st) = stmts.last_mut() {
                        st.balances.push(Default::default());
                    }
                }
                if name == "Ntry" && entry.is_none() {
                    // The line where this start tag ends (the reader is just past it).
                    let end = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX).min(text.len());
                    let line = text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
                    entry = Some(Entry { line, stmt: stmts.len().saturating_sub(1), ..Entry::default() });
                }
                if name == "Amt" {
                    if let Some(en) = entry.as_mut().filter(|en| en.amount.is_none()) {
                        en.currency = e
                            .try_get_attribute("Ccy")
                            .ok()
                            .flatten()
                            .and_then(|a| a.unescape_value().ok())
                            .map(|v| v.into_owned());
                    }
                }
                path.push(name);
            }
            Event::End(_) => {
                let closed = path.pop();
                if closed.as_deref() == Some("Ntry") {
                    entries.extend(entry.take());
                }
            }
            Event::Text(t) => {
                let value = t
                    .unescape()
                    .map_err(|e| CamtError::Xml { line: line_of(position), message: e.to_string() })?
                    .trim()
                    .to_string();
                match entry.as_mut() {
                    None => {
                        if let Some(st) = stmts.last_mut() {
                            statement_text(st, &path, value);
                        }
                    }
                    Some(en) => entry_text(en, &path, value),
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !statement {
        return Err(CamtError::NotCamt);
    }
    Ok((stmts, entries))
}

/// The element's parent and grandparent names.
fn parents(path: &[String]) -> (&str, Option<&str>) {
    let parent = path.last().map(String::as_str).unwrap_or("");
    let grandparent = path.len().checked_sub(2).and_then(|i| path.get(i)).map(String::as_str);
    (parent, grandparent)
}

/// A statement's text outside its entries: its account, currency and balances.
fn statement_text(st: &mut Stmt, path: &[String], value: String) {
    let (parent, grandparent) = parents(path);
    let in_account = path.iter().any(|p| p == "Acct");
    if parent == "Ccy" && grandparent == Some("Acct") {
        st.currency = super::currency_code(&value);
    }
    if in_account && st.account.is_none() && (parent == "IBAN" || grandparent == Some("Othr")) {
        st.account = Some(value.clone());
    }
    if path.iter().any(|p| p == "Bal") {
        if let Some(bal) = st.balances.last_mut() {
            let slot = match (grandparent, parent) {
                (Some("CdOrPrtry"), "Cd") => Some(0),
                (Some("Bal"), "Amt") => Some(1),
                (Some("Bal"), "CdtDbtInd") => Some(2),
                (Some("Dt"), "Dt" | "DtTm") => Some(3),
                _ => None,
            };
            if let Some(i) = slot {
                bal[i].get_or_insert(value);
            }
        }
    }
}

/// An entry's text: its amount, sign, dates, reference, information, parties and
/// remittance.
fn entry_text(en: &mut Entry, path: &[String], value: String) {
    let (parent, grandparent) = parents(path);
    let keep = |slot: &mut Option<String>| {
        if slot.is_none() {
            *slot = Some(value.clone());
        }
    };
    match (grandparent, parent) {
        // The entry's own amount comes first; transaction details may repeat one.
        (Some("Ntry"), "Amt") => keep(&mut en.amount),
        (Some("Ntry"), "CdtDbtInd") => keep(&mut en.sign),
        (Some("BookgDt"), "Dt" | "DtTm") => keep(&mut en.booked),
        (Some("ValDt"), "Dt" | "DtTm") => keep(&mut en.value),
        (Some("Ntry"), "AcctSvcrRef" | "NtryRef") => keep(&mut en.reference),
        (Some("Refs"), "AcctSvcrRef") => keep(&mut en.reference),
        (Some("Ntry"), "AddtlNtryInf") => keep(&mut en.info),
        (_, "Nm") => {
            // The nearest party above: `Cdtr/Nm` or `Cdtr/Pty/Nm`; the ultimate parties
            // when the statement names no other.
            let party = path
                .iter()
                .rev()
                .skip(1)
                .take(2)
                .find(|p| matches!(p.as_str(), "Cdtr" | "Dbtr" | "UltmtCdtr" | "UltmtDbtr"));
            match party.map(String::as_str) {
                Some("Cdtr") => keep(&mut en.creditor),
                Some("Dbtr") => keep(&mut en.debtor),
                Some("UltmtCdtr") => keep(&mut en.ultimate_creditor),
                Some("UltmtDbtr") => keep(&mut en.ultimate_debtor),
                _ => {}
            }
        }
        (Some("RmtInf"), "Ustrd") => en.remittance.push(value),
        _ => {}
    }
}

/// The statement the file's statements and entries make: rows (or why not), accounts
/// and the balances they state.
fn statement(encoding: super::Encoding, mut stmts: Vec<Stmt>, entries: Vec<Entry>) -> Statement {
    // A statement without `<Acct><Ccy>` counts in its entries' currency (the most used).
    for (i, st) in stmts.iter_mut().enumerate() {
        if st.currency.is_none() {
            let used = entries.iter().filter(|e| e.stmt == i).filter_map(|e| e.currency.as_deref());
            st.currency = super::most_common(used).and_then(|c| super::currency_code(&c));
        }
    }
    let names = super::account_names(
        &stmts.iter().map(|st| (st.account.as_deref(), st.currency.as_deref())).collect::<Vec<_>>(),
    );
    let currency = stmts.iter().find_map(|s| s.currency.clone());
    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    for en in entries {
        let st = stmts.get(en.stmt);
        let account = names.get(en.stmt).cloned().flatten();
        // A statement naming no account is the file's: in the file's currency.
        let own = st.and_then(|s| s.currency.as_deref());
        let checked = if account.is_none() { currency.as_deref().or(own) } else { own };
        match row(&en, checked) {
            Ok(r) => rows.push(Row { account, ..r }),
            Err(why) => rejected.push(Rejected { line: en.line, why }),
        }
    }
    let accounts = stmts
        .iter()
        .zip(&names)
        .filter_map(|(st, name)| {
            Some(super::FileAccount {
                name: name.clone()?,
                currency: st.currency.clone(),
                stated: stated(&st.balances),
            })
        })
        .collect();
    let stated = stmts.first().and_then(|st| stated(&st.balances));
    Statement { encoding, currency, rows, rejected, stated, accounts }
}

/// One `<Stmt>`: its account (IBAN, or other id), currency and `<Bal>` elements, each
/// (type code, amount, direction, day).
#[derive(Default)]
struct Stmt {
    account: Option<String>,
    currency: Option<String>,
    balances: Vec<[Option<String>; 4]>,
}

/// The opening (`OPBD`, else the previous closing `PRCD`) and closing (`CLBD`) booked
/// balances a statement states.
fn stated(balances: &[[Option<String>; 4]]) -> Option<super::Stated> {
    let find = |codes: &[&str]| {
        codes.iter().find_map(|code| {
            balances.iter().find(|b| b[0].as_deref() == Some(code)).and_then(|b| {
                let amount = super::amount(b[1].as_deref()?, '.').ok()?;
                let date = camt_date(b[3].as_deref()?)?;
                match b[2].as_deref() {
                    Some("DBIT") => Some((date, -amount.abs())),
                    Some("CRDT") => Some((date, amount.abs())),
                    _ => None,
                }
            })
        })
    };
    let (opening, closing) = (find(&["OPBD", "PRCD"]), find(&["CLBD"]));
    (opening.is_some() || closing.is_some()).then(|| super::Stated {
        source: "OPBD/CLBD".into(),
        opening,
        closing,
        breaks: Vec::new(),
    })
}

/// An ISO date, alone or followed by a time or a time-zone offset: `2026-01-05`,
/// `2026-01-28T09:30:00+01:00`, `2017-04-01+02:00`. The day is the one written.
fn camt_date(raw: &str) -> Option<Date> {
    let day = raw.get(..10)?;
    let rest = &raw[10..];
    if !(rest.is_empty() || rest.starts_with(['T', '+', '-', 'Z', ' '])) {
        return None;
    }
    parse_date(day, DateOrder::Ymd)
}

fn row(en: &Entry, account_currency: Option<&str>) -> Result<Row, Why> {
    let raw_date = en
        .booked
        .as_deref()
        .or(en.value.as_deref())
        .ok_or_else(|| Why::NoDate { fields: fields(&["BookgDt", "ValDt"]) })?;
    let date: Date =
        camt_date(raw_date).ok_or_else(|| Why::BadDate { value: raw_date.to_string(), format: None })?;
    let raw = en.amount.as_deref().ok_or_else(|| Why::NoAmount { fields: fields(&["Amt"]) })?;
    let amount = super::amount(raw, '.')?;
    if let (Some(c), Some(account)) = (en.currency.as_deref(), account_currency) {
        if c != account {
            return Err(Why::OtherCurrency { currency: c.to_string(), account: account.to_string() });
        }
    }
    let amount_minor = match en.sign.as_deref() {
        Some("DBIT") => -amount.abs(),
        Some("CRDT") => amount.abs(),
        Some(other) => return Err(Why::BadDirection { value: other.to_string() }),
        None => return Err(Why::NoDirection),
    };
    // The other side: whom money went to, or came from (the ultimate party when the
    // statement names only that one).
    let party = if amount_minor < 0 {
        en.creditor.as_ref().or(en.ultimate_creditor.as_ref())
    } else {
        en.debtor.as_ref().or(en.ultimate_debtor.as_ref())
    };
    let label = match (&en.info, party) {
        (Some(info), _) => info.clone(),
        (None, Some(party)) => {
            [party.clone()].into_iter().chain(en.remittance.iter().cloned()).collect::<Vec<_>>().join(" ")
        }
        (None, None) if !en.remittance.is_empty() => en.remittance.join(" "),
        (None, None) => return Err(Why::NoLabel { fields: fields(&["AddtlNtryInf", "Nm", "Ustrd"]) }),
    };
    let label = label.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(Row { line: en.line, date, amount_minor, label, external_id: en.reference.clone(), account: None })
}
