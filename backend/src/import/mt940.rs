//! MT940, the SWIFT customer statement German, Dutch, Swiss and Austrian banks export
//! (`.sta`, `.mt940`, often `.txt`). A file is one or more statements, each a run of
//! fields that start a line with their tag (`:20:`, `:25:`, `:60F:`…) and go on over the
//! lines that do not; a statement may sit in SWIFT blocks (`{1:…}{2:…}{4:` … `-}`) or end
//! with a line holding only `-`.
//!
//! Each `:61:` is a transaction: value date `YYMMDD`, optional booking date `MMDD`, the
//! mark (`C`, `D`, and reversals `RC` — money out — and `RD` — money in), an optional
//! funds code, the amount with a decimal comma, the type, the owner's reference and,
//! after `//`, the bank's. The `:86:` after it says what the transaction was: structured
//! as German banks write it (`?00` booking text, `?20`–`?29` and `?60`–`?63` purpose,
//! with the SEPA keys `EREF+`, `SVWZ+`…; `?32`–`?33` the other party), as Dutch banks do
//! (`/NAME/…/REMI/…`), or free text. `:25:` names the account, `:60F:`/`:60M:` and
//! `:62F:`/`:62M:` its opening and closing balances.

use agent::Date;

use super::csv::Mapping;
use super::{amount, decode, fields, label, File, Format, Head, Likely, Rejected, Row, Statement, Why};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mt940Error {
    #[error("this is not an MT940 statement: there is no :20:, :25:, :60F: or :61: field")]
    NotMt940,
}

pub type Error = Mt940Error;

/// A statement's fields say so: a reference, an account and an opening balance.
pub fn likely(head: &Head) -> Likely {
    head.likely(Format::Mt940, |t| t.contains(":20:") && t.contains(":25:") && (t.contains(":60F:") || t.contains(":60M:")))
}

pub fn file(bytes: &[u8], _: Option<Mapping>) -> Result<File, Mt940Error> {
    Ok(super::statement(Format::Mt940, parse(bytes)?))
}

/// One field as written: its tag (`61`, `60F`), the line it starts on and its text,
/// continuation lines joined with `\n`.
struct Field {
    tag: String,
    line: u64,
    text: String,
}

/// One statement: its account, currency, balances and transactions (a `:61:` and the
/// `:86:` after it, with the `:61:`'s line).
#[derive(Default)]
struct Stmt {
    account: Option<String>,
    currency: Option<String>,
    opening: Option<(Date, i64)>,
    closing: Option<(Date, i64)>,
    entries: Vec<(u64, String, Option<String>)>,
}

/// The statements' transactions; the currency is the first opening balance's.
pub fn parse(bytes: &[u8]) -> Result<Statement, Mt940Error> {
    let (text, encoding) = decode(bytes);
    let fields = split(&text);
    if !fields.iter().any(|f| matches!(f.tag.as_str(), "20" | "25" | "60F" | "60M" | "61")) {
        return Err(Mt940Error::NotMt940);
    }
    let mut stmts: Vec<Stmt> = Vec::new();
    for f in fields {
        // A statement starts at its reference; a file may leave it out of the first.
        if f.tag == "20" || stmts.is_empty() {
            stmts.push(Stmt::default());
        }
        let Some(st) = stmts.last_mut() else { continue };
        match f.tag.as_str() {
            "25" => st.account = Some(f.text.split_whitespace().collect::<Vec<_>>().join(" ")),
            "60F" | "60M" => {
                if let Some((day, minor, currency)) = balance(&f.text) {
                    st.opening.get_or_insert((day, minor));
                    st.currency.get_or_insert(currency);
                }
            }
            "62F" | "62M" => {
                if let Some((day, minor, currency)) = balance(&f.text) {
                    st.closing = Some((day, minor));
                    st.currency.get_or_insert(currency);
                }
            }
            "61" => st.entries.push((f.line, f.text, None)),
            "86" => {
                if let Some(entry) = st.entries.last_mut().filter(|e| e.2.is_none()) {
                    entry.2 = Some(f.text);
                }
            }
            _ => {}
        }
    }
    Ok(statement(encoding, stmts))
}

/// The fields of `text`, in order, outside the SWIFT blocks' wrapping.
fn split(text: &str) -> Vec<Field> {
    let mut fields: Vec<Field> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        // `{1:…}{2:…}{4:` before the first field, `-}` after the last.
        let line = line.rsplit_once("{4:").map_or(line, |(_, after)| after);
        if line.trim() == "-" || line.trim() == "-}" || line.starts_with('{') {
            continue;
        }
        if let Some((tag, rest)) = tagged(line) {
            fields.push(Field { tag: tag.to_string(), line: i as u64 + 1, text: rest.to_string() });
        } else if let Some(last) = fields.last_mut() {
            last.text.push('\n');
            last.text.push_str(line);
        }
    }
    fields
}

/// `:61:rest` → ("61", "rest"): two digits and at most one letter between colons.
fn tagged(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix(':')?;
    let end = inner.find(':')?;
    let tag = &inner[..end];
    let b = tag.as_bytes();
    let ok = (2..=3).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_digit)
        && b.get(2).is_none_or(u8::is_ascii_alphabetic);
    ok.then(|| (tag, &inner[end + 1..]))
}

/// A balance field: `C` or `D`, `YYMMDD`, the currency, the amount (`C260101EUR1234,56`).
fn balance(text: &str) -> Option<(Date, i64, String)> {
    let text = text.trim();
    let sign = match text.get(..1)? {
        "C" => 1,
        "D" => -1,
        _ => return None,
    };
    let day = yymmdd(text.get(1..7)?)?;
    let currency = super::currency_code(text.get(7..10)?)?;
    let minor = amount(text.get(10..)?, ',').ok()?;
    Some((day, sign * minor.abs(), currency))
}

/// `YYMMDD`, years 80–99 in the 1900s.
fn yymmdd(s: &str) -> Option<Date> {
    if s.len() != 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let yy: i32 = s[..2].parse().ok()?;
    let year = if yy >= 80 { 1900 + yy } else { 2000 + yy };
    Date::new(year, s[2..4].parse().ok()?, s[4..6].parse().ok()?)
}

/// The statement what was read makes: rows (or why not), accounts and balances.
fn statement(encoding: super::Encoding, stmts: Vec<Stmt>) -> Statement {
    let names = super::account_names(
        &stmts.iter().map(|st| (st.account.as_deref(), st.currency.as_deref())).collect::<Vec<_>>(),
    );
    let stated = |st: &Stmt| {
        (st.opening.is_some() || st.closing.is_some()).then(|| super::Stated {
            source: ":60F:/:62F:".into(),
            opening: st.opening,
            closing: st.closing,
            breaks: Vec::new(),
        })
    };
    let mut rows = Vec::new();
    let mut rejected = Vec::new();
    for (st, name) in stmts.iter().zip(&names) {
        for (line, sixty_one, eighty_six) in &st.entries {
            match row(sixty_one, eighty_six.as_deref()) {
                Ok((date, amount_minor, label, external_id)) => rows.push(Row {
                    line: *line,
                    date,
                    amount_minor,
                    label,
                    external_id,
                    account: name.clone(),
                }),
                Err(why) => rejected.push(Rejected { line: *line, why }),
            }
        }
    }
    let accounts = stmts
        .iter()
        .zip(&names)
        .filter_map(|(st, name)| {
            Some(super::FileAccount { name: name.clone()?, currency: st.currency.clone(), stated: stated(st) })
        })
        .collect();
    Statement {
        encoding,
        currency: stmts.iter().find_map(|s| s.currency.clone()),
        rows,
        rejected,
        stated: stmts.first().and_then(stated),
        accounts,
    }
}

/// A transaction from its `:61:` and `:86:`: its day (the booking date when given, else
/// the value date), signed amount, label and the bank's reference.
fn row(sixty_one: &str, eighty_six: Option<&str>) -> Result<(Date, i64, String, Option<String>), Why> {
    let (first, supplementary) = sixty_one.split_once('\n').unwrap_or((sixty_one, ""));
    let first = first.trim();
    let value = first.get(..6).filter(|s| s.bytes().all(|b| b.is_ascii_digit()));
    let value = value.ok_or_else(|| Why::NoDate { fields: fields(&[":61:"]) })?;
    let value_date =
        yymmdd(value).ok_or_else(|| Why::BadDate { value: value.to_string(), format: Some("YYMMDD".into()) })?;
    let mut rest = &first[6..];
    // The booking date, `MMDD`: in the value date's year, or the next or the previous
    // one when that puts it nearer (a value date of 31 December booked on 2 January).
    let mut date = value_date;
    if let Some(mmdd) = rest.get(..4).filter(|s| s.bytes().all(|b| b.is_ascii_digit())) {
        let (m, d) = (mmdd[..2].parse().unwrap_or(0), mmdd[2..].parse().unwrap_or(0));
        let y = value_date.year();
        date = [y, y + 1, y - 1]
            .into_iter()
            .filter_map(|y| Date::new(y, m, d))
            .min_by_key(|d| (d.to_days() - value_date.to_days()).abs())
            .ok_or_else(|| Why::BadDate { value: mmdd.to_string(), format: Some("MMDD".into()) })?;
        rest = &rest[4..];
    }
    let (sign, after) = if let Some(r) = rest.strip_prefix("RC") {
        (-1, r)
    } else if let Some(r) = rest.strip_prefix("RD") {
        (1, r)
    } else if let Some(r) = rest.strip_prefix('C') {
        (1, r)
    } else if let Some(r) = rest.strip_prefix('D') {
        (-1, r)
    } else {
        let mark: String = rest.chars().take(2).collect();
        return Err(if mark.is_empty() { Why::NoDirection } else { Why::BadDirection { value: mark } });
    };
    // An optional funds code (a letter), then the amount up to the type's letter.
    let after = after.strip_prefix(|c: char| c.is_ascii_alphabetic()).unwrap_or(after);
    let digits = after.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(after.len());
    let raw = &after[..digits];
    if raw.is_empty() {
        return Err(Why::NoAmount { fields: fields(&[":61:"]) });
    }
    let amount_minor = sign * amount(raw, ',')?.abs();
    // The type (`NTRF`, `FMSC`…: four characters), the owner's reference, `//` the bank's.
    let references = after[digits..].get(4..).unwrap_or("");
    let bank = references.split_once("//").map(|(_, b)| b.trim()).filter(|b| !b.is_empty());
    let external_id = bank.filter(|b| !b.eq_ignore_ascii_case("NONREF")).map(str::to_string);
    let (name, purpose) = eighty_six.map(information).unwrap_or_default();
    let supplementary = supplementary.trim();
    let label = label(name.as_deref(), purpose.as_deref())
        .or_else(|| label((!supplementary.is_empty()).then_some(supplementary), None))
        .ok_or_else(|| Why::NoLabel { fields: fields(&[":86:", ":61:"]) })?;
    Ok((date, amount_minor, label, external_id))
}

/// What a `:86:` says of a transaction: the other party's name and the purpose.
fn information(text: &str) -> (Option<String>, Option<String>) {
    let flat: String = text.lines().collect::<Vec<_>>().join("");
    let some = |s: String| Some(s.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|s| !s.is_empty());
    // German: `166?00GUTSCHRIFT?20SVWZ+Miete?32Name`; the separator is the 4th character.
    if let Some(sep) = flat.chars().nth(3).filter(|c| !c.is_alphanumeric() && !c.is_whitespace()) {
        if flat.get(..3).is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit())) {
            let mut parts: Vec<(u32, &str)> = Vec::new();
            for piece in flat.split(sep).skip(1) {
                if let (Some(code), Some(value)) = (piece.get(..2).and_then(|c| c.parse().ok()), piece.get(2..)) {
                    parts.push((code, value));
                }
            }
            // Subfields are pieces of at most 27 characters: a full one goes on in the
            // next one, mid-word; a shorter one ended on a word.
            let join = |keep: &dyn Fn(u32) -> bool| {
                let mut out = String::new();
                let mut full = true;
                for (_, v) in parts.iter().filter(|(c, _)| keep(*c)) {
                    if !full {
                        out.push(' ');
                    }
                    out.push_str(v);
                    full = v.chars().count() >= 27;
                }
                out
            };
            let name = some(join(&|c| c == 32 || c == 33));
            let purpose = sepa_purpose(&join(&|c| (20..=29).contains(&c) || (60..=63).contains(&c)));
            let booking = some(join(&|c| c == 0));
            return match (name, some(purpose)) {
                (None, None) => (booking, None),
                (name, purpose) => (name, purpose),
            };
        }
    }
    // Dutch: `/TRTP/SEPA OVERBOEKING/IBAN/NL…/NAME/J. Jansen/REMI/Factuur 12/`.
    if flat.starts_with('/') {
        let keys = ["NAME", "REMI", "ORDP", "BENM", "EREF", "TRTP", "IBAN", "BIC", "CSID", "MARF", "ADDR", "USTD"];
        let value = |key: &str| {
            let start = flat.find(&format!("/{key}/"))? + key.len() + 2;
            let rest = &flat[start..];
            let end = keys
                .iter()
                .filter_map(|k| rest.find(&format!("/{k}/")))
                .min()
                .unwrap_or(rest.len());
            let v = rest[..end].trim_matches('/');
            // `/REMI/USTD//text/`: the unstructured text.
            Some(v.strip_prefix("USTD//").unwrap_or(v).to_string())
        };
        if value("NAME").is_some() || value("REMI").is_some() {
            return (value("NAME").and_then(some), value("REMI").and_then(some));
        }
    }
    (None, some(text.lines().collect::<Vec<_>>().join(" ")))
}

/// The purpose of a German SEPA `:86:` text: after `SVWZ+` up to the next key, else the
/// text without its keys' values (`EREF+`, `KREF+`, `MREF+`, `CRED+`, `DEBT+`).
fn sepa_purpose(text: &str) -> String {
    const KEYS: [&str; 9] = ["EREF+", "KREF+", "MREF+", "CRED+", "DEBT+", "SVWZ+", "ABWA+", "ABWE+", "IBAN+"];
    let next_key = |s: &str| KEYS.iter().filter_map(|k| s.find(k)).min().unwrap_or(s.len());
    if let Some(start) = text.find("SVWZ+") {
        let rest = &text[start + 5..];
        return rest[..next_key(rest)].to_string();
    }
    if KEYS.iter().any(|k| text.starts_with(k)) {
        return String::new();
    }
    text[..next_key(text)].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_balances() {
        assert_eq!(tagged(":61:2601050105DR12,50NMSCNONREF"), Some(("61", "2601050105DR12,50NMSCNONREF")));
        assert_eq!(tagged(":60F:C251231EUR1,"), Some(("60F", "C251231EUR1,")));
        assert_eq!(tagged(":ab:x"), None);
        assert_eq!(tagged("?20SVWZ+Miete"), None);
        assert_eq!(balance("C251231EUR1234,56"), Some((Date::new(2025, 12, 31).unwrap(), 123_456, "EUR".into())));
        assert_eq!(balance("D260131EUR12,"), Some((Date::new(2026, 1, 31).unwrap(), -1200, "EUR".into())));
        assert_eq!(balance("X260131EUR12,"), None);
    }

    #[test]
    fn a_transaction_line() {
        let day = |m, d| Date::new(2026, m, d).unwrap();
        let (date, minor, label, id) = row("2601050105DR12,50NMSCNONREF//B6A05", Some("Boulangerie")).unwrap();
        assert_eq!((date, minor, label.as_str(), id.as_deref()), (day(1, 5), -1250, "Boulangerie", Some("B6A05")));
        // A reversal of a credit is money out; a funds code before the amount.
        assert_eq!(row("260105RC12,NTRFNONREF", Some("x")).unwrap().1, -1200);
        assert_eq!(row("260105RD12,NTRFNONREF", Some("x")).unwrap().1, 1200);
        assert_eq!(row("260105CR7,05NTRFNONREF", Some("x")).unwrap().1, 705);
        // Booked on 2 January for a value date of 31 December.
        assert_eq!(row("2512310102D1,NMSC", Some("x")).unwrap().0, day(1, 2));
        assert_eq!(row("260105X1,NMSC", Some("x")), Err(Why::BadDirection { value: "X1".into() }));
        assert_eq!(row("260105D1,2345NMSC", Some("x")), Err(Why::TooPrecise { value: "1,2345".into() }));
        assert_eq!(row("261305D1,NMSC", Some("x")).unwrap_err(), Why::BadDate {
            value: "261305".into(),
            format: Some("YYMMDD".into())
        });
        assert_eq!(row("260105D1,NMSC", None), Err(Why::NoLabel { fields: fields(&[":86:", ":61:"]) }));
        assert_eq!(row("260105D1,NMSC\nKARTE 1234", None).unwrap().2, "KARTE 1234");
    }

    #[test]
    fn what_a_transaction_was() {
        let german = "166?00SEPA-UEBERWEISUNG?100931?20EREF+RG 4711?21SVWZ+Miete Januar?22 2026?30GENODEF1\n?31DE02100500000054540402?32Stadtwerke Muenchen Energie?33versorgung GmbH";
        assert_eq!(
            information(german),
            (Some("Stadtwerke Muenchen Energieversorgung GmbH".into()), Some("Miete Januar 2026".into()))
        );
        assert_eq!(information("005?00ABSCHLUSS"), (Some("ABSCHLUSS".into()), None));
        let dutch = "/TRTP/SEPA OVERBOEKING/IBAN/NL20INGB0001234567/BIC/INGBNL2A/NAME/J. Jansen/REMI/USTD//Factuur 12/EREF/NOTPROVIDED";
        assert_eq!(information(dutch), (Some("J. Jansen".into()), Some("Factuur 12".into())));
        assert_eq!(information("Migros Zuerich\nEinkauf"), (None, Some("Migros Zuerich Einkauf".into())));
    }
}
