#![allow(clippy::unwrap_used, clippy::expect_used)]
//! CAMT.053 statements written for these tests from the ISO 20022 message definition
//! (fixtures in `tests/fixtures/import/`).

use agent::Date;
use backend::import::camt::{self, CamtError};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// A French bank's camt.053.001.02: the bank's own text, a salary with the payer's
/// name and remittance text, a direct debit whose parties are wrapped in `<Pty>`, an
/// entry in another currency than the account's, and one without a direction.
#[test]
fn a_french_camt053_statement() {
    let p = camt::parse(&fixture("releve-camt053.xml")).unwrap();
    assert_eq!(p.currency.as_deref(), Some("EUR"));
    let rows: Vec<(u64, Date, i64, &str, Option<&str>)> = p
        .rows
        .iter()
        .map(|r| (r.line, r.date, r.amount_minor, r.label.as_str(), r.external_id.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            (20, d(2026, 1, 5), -4567, "CB CARREFOUR CITY 04/01", Some("N001")),
            (31, d(2026, 1, 28), 234_500, "ACME SAS SALAIRE JANVIER 2026", Some("BANKREF-0002")),
            (48, d(2026, 1, 12), -8990, "EDF & ENERGIE PRLV FACTURE 0126", Some("BANKREF-0003")),
        ]
    );
    let rejected: Vec<(u64, &str)> = p.rejected.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(
        rejected,
        [(63, "the amount is in USD, the account in EUR"), (69, "no direction (CdtDbtInd)")]
    );
}

#[test]
fn broken_or_foreign_xml_is_said_with_its_line() {
    match camt::parse(&fixture("camt-casse.xml")) {
        Err(CamtError::Xml { line, message }) => {
            assert_eq!(line, 24, "{message}");
            assert!(message.contains("Sta") || message.contains("Sts"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(camt::parse(&fixture("pas-camt.xml")), Err(CamtError::NotCamt));
    assert_eq!(camt::parse(b""), Err(CamtError::NotCamt));
}

/// Mangled statements: an answer or an error, never a panic.
#[test]
fn garbage_never_panics() {
    let base = fixture("releve-camt053.xml");
    let mut seed: u64 = 0xc0ffee;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"<>/&;\"=NtryAmDBITCR0123456789.-\n \xc3\xa9";
    for _ in 0..2000 {
        let mut bytes = base.clone();
        for _ in 0..(next() % 8) {
            let at = (next() as usize) % bytes.len();
            let byte = alphabet[(next() as usize) % alphabet.len()];
            if next() % 2 == 0 {
                bytes[at] = byte;
            } else {
                bytes.insert(at, byte);
            }
        }
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        match camt::parse(&bytes) {
            Ok(p) => assert!(p.rows.iter().all(|r| (1..=lines).contains(&r.line))),
            Err(CamtError::Xml { line, .. }) => assert!((1..=lines).contains(&line)),
            Err(CamtError::NotCamt) => {}
        }
    }
}
