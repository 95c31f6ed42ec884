#![allow(clippy::unwrap_used, clippy::expect_used)]
//! OFX 1 (SGML), OFX 2 (XML) / QFX and QIF statements written for these tests from the
//! formats' specifications (fixtures in `tests/fixtures/import/`).

use agent::Date;
use backend::import::csv::DateOrder;
use backend::import::{dedupe_hashes, ofx, qif, Encoding};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// A French bank's OFX 1.02: SGML (leaf elements never closed), CRLF, charset 1252,
/// comma decimals, a date with time and zone, an entity in a name, two bad blocks.
#[test]
fn ofx1_sgml_from_a_french_bank() {
    let p = ofx::parse(&fixture("releve-ofx1-sgml.ofx")).unwrap();
    assert_eq!((p.encoding, p.currency.as_deref()), (Encoding::Windows1252, Some("EUR")));
    let rows: Vec<(u64, Date, i64, &str, Option<&str>)> = p
        .rows
        .iter()
        .map(|r| (r.line, r.date, r.amount_minor, r.label.as_str(), r.external_id.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            (18, d(2026, 1, 5), -4567, "CB CARREFOUR CITY 04/01 PARIS", Some("FR0105A001")),
            (26, d(2026, 1, 28), 234_500, "VIR SEPA SALAIRE ACME", Some("FR0128V002")),
            (46, d(2026, 1, 31), -1230, "CB LIBRAIRIE ÉLÉGANTE & FILS", Some("FR0131C005")),
        ]
    );
    let rejected: Vec<(u64, &str)> = p.rejected.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(
        rejected,
        [(33, "the date \"20260230\" is not an OFX date (YYYYMMDD)"), (40, "no amount (TRNAMT)")]
    );
    // The bank's ids make the dedupe hashes: the same file again adds nothing.
    let again = ofx::parse(&fixture("releve-ofx1-sgml.ofx")).unwrap();
    assert_eq!(dedupe_hashes(&p.rows), dedupe_hashes(&again.rows));
}

/// A card statement in OFX 2.2 XML (a .qfx): closed elements, indentation, escaped
/// markup in a name, a name and a memo, one unreadable amount.
#[test]
fn ofx2_xml_card_statement() {
    let p = ofx::parse(&fixture("card-ofx2.qfx")).unwrap();
    assert_eq!((p.encoding, p.currency.as_deref()), (Encoding::Utf8, Some("USD")));
    let rows: Vec<(Date, i64, &str)> =
        p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [(d(2026, 1, 3), -123_456, "AIRLINE TICKETS <ONLINE>"), (d(2026, 1, 10), 4500, "REFUND ORDER 7781")]
    );
    assert_eq!(p.rejected.len(), 1);
    assert_eq!(p.rejected[0].reason, "the amount \"twelve\" is not a number");
}

#[test]
fn not_ofx_is_said() {
    assert_eq!(ofx::parse(&fixture("faux.ofx")), Err(ofx::OfxError::NotOfx));
    assert_eq!(ofx::parse(b""), Err(ofx::OfxError::NotOfx));
    let empty = ofx::parse(b"<OFX><BANKTRANLIST></BANKTRANLIST></OFX>").unwrap();
    assert!(empty.rows.is_empty() && empty.rejected.is_empty());
}

/// Quicken's US export: month first, an apostrophe before two-digit years, a
/// thousands comma, payee and memo, one impossible date and one block without amount.
#[test]
fn qif_month_first_with_two_digit_years() {
    let p = qif::parse(&fixture("us-bank.qif")).unwrap();
    assert_eq!(p.order, DateOrder::Mdy);
    let rows: Vec<(u64, Date, i64, &str)> =
        p.rows.iter().map(|r| (r.line, r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [(2, d(2026, 1, 5), -4567, "STARBUCKS SEATTLE WA"), (7, d(2026, 1, 15), 250_000, "PAYROLL ACME")]
    );
    let rejected: Vec<(u64, &str)> = p.rejected.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(rejected, [(11, "the date \"13/40'26\" is not a valid date"), (15, "no amount (T line)")]);
}

/// A European QIF: day first, comma decimals, a `U` amount with a space in it.
#[test]
fn qif_day_first_with_comma_decimals() {
    let p = qif::parse(&fixture("fr-bank.qif")).unwrap();
    assert_eq!(p.order, DateOrder::Dmy);
    let rows: Vec<(Date, i64)> = p.rows.iter().map(|r| (r.date, r.amount_minor)).collect();
    assert_eq!(rows, [(d(2026, 1, 31), -2340), (d(2026, 1, 15), 150_000)]);
    assert!(p.rejected.is_empty());
}

#[test]
fn not_a_bank_qif_is_said() {
    assert_eq!(qif::parse(&fixture("faux.qif")), Err(qif::QifError::UnsupportedType("Invst".into())));
    assert_eq!(qif::parse(&fixture("faux.ofx")), Err(qif::QifError::NotQif));
    assert_eq!(qif::parse(b""), Err(qif::QifError::NotQif));
}

/// Mangled statements: an answer or an error, never a panic.
#[test]
fn garbage_never_panics() {
    let mut seed: u64 = 0x0f0f_1234;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bases = [
        fixture("releve-ofx1-sgml.ofx"),
        fixture("card-ofx2.qfx"),
        fixture("us-bank.qif"),
        fixture("fr-bank.qif"),
    ];
    let alphabet = b"<>/^DTPM0123456789.,-'\n\r &;\xc3\xe9";
    for i in 0..2000 {
        let mut bytes = bases[i % bases.len()].clone();
        for _ in 0..(next() % 10) {
            let at = (next() as usize) % bytes.len().max(1);
            let byte = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 if !bytes.is_empty() => bytes[at] = byte,
                1 => bytes.insert(at.min(bytes.len()), byte),
                _ if !bytes.is_empty() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let ofx_rows = ofx::parse(&bytes).map(|p| p.rows).unwrap_or_default();
        let qif_rows = qif::parse(&bytes).map(|p| p.rows).unwrap_or_default();
        assert!(
            ofx_rows.iter().chain(&qif_rows).all(|r| (1..=lines).contains(&r.line)),
            "line numbers stay within the file"
        );
    }
}
