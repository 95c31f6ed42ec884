#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Bank CSV files written for these tests from what banks export (fixtures in
//! `tests/fixtures/import/`): the layout each one needs is detected, every good line
//! becomes a row, every bad one is reported with its line number and reason.

use agent::Date;
use backend::import::csv::{self, AmountColumns, CsvError, DateOrder};
use backend::import::{dedupe_hashes, Encoding};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// A French bank: Windows-1252, `;`, three preamble lines, separate debit and credit
/// columns, `1 234,56` amounts (one with a no-break space), a label quoted across two
/// lines, and three bad lines.
#[test]
fn french_bank_latin1_with_debit_and_credit_columns() {
    let p = csv::parse(&fixture("fr-banque-latin1.csv")).unwrap();
    assert_eq!(p.encoding, Encoding::Windows1252);
    let m = &p.mapping;
    assert_eq!(
        (m.delimiter, m.skip, m.date, m.label, m.order, m.decimal),
        (';', 3, 0, 2, DateOrder::Dmy, ',')
    );
    assert_eq!(m.amounts, AmountColumns::DebitCredit { debit: 3, credit: 4 });
    assert_eq!(m.header.as_ref().unwrap()[2], "Libellé");
    let rows: Vec<(u64, Date, i64, &str)> =
        p.rows.iter().map(|r| (r.line, r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [
            (5, d(2026, 1, 2), -4567, "CB CARREFOUR CITY 31/12"),
            (6, d(2026, 1, 5), 234_500, "VIR SEPA SALAIRE ACME"),
            (7, d(2026, 1, 6), -123_456, "PRLV SEPA EDF REF 1234"),
            (12, d(2026, 1, 9), -1230, "CB LIBRAIRIE ÉLÉGANTE"),
        ]
    );
    let rejected: Vec<(u64, &str)> = p.rejected.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(
        rejected,
        [
            (9, "the date \"32/01/2026\" is not a valid date (DD/MM/YYYY)"),
            (10, "both a debit and a credit"),
            (11, "no amount"),
        ]
    );
}

/// A US bank: UTF-8, `,`, month first, `$1,234.56`, a quoted label with a comma, a
/// balance column that is not the amount.
#[test]
fn english_bank_month_first_with_signed_amounts() {
    let p = csv::parse(&fixture("en-bank.csv")).unwrap();
    assert_eq!(p.encoding, Encoding::Utf8);
    let m = &p.mapping;
    assert_eq!((m.delimiter, m.skip, m.order, m.decimal), (',', 1, DateOrder::Mdy, '.'));
    assert_eq!(m.amounts, AmountColumns::Signed { amount: 2 });
    let rows: Vec<(Date, i64, &str)> =
        p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [
            (d(2026, 1, 2), -575, "STARBUCKS #123, SEATTLE"),
            (d(2026, 1, 15), 250_000, "PAYROLL ACME INC"),
            (d(2026, 1, 31), -120_000, "RENT JANUARY"),
        ]
    );
    assert_eq!(p.rejected.len(), 1);
    assert_eq!(p.rejected[0].line, 5);
    assert!(p.rejected[0].reason.contains("02/30/2026"), "{:?}", p.rejected);

    // Read again day-first, as a user might wrongly choose: every date line says why.
    let wrong = csv::Mapping { order: DateOrder::Dmy, ..p.mapping.clone() };
    let again = csv::parse_with(&fixture("en-bank.csv"), wrong).unwrap();
    assert_eq!(again.rows.len(), 1, "only 01/02/2026 reads both ways");
    assert!(again.rejected.iter().all(|r| r.reason.contains("DD/MM/YYYY")));
    let beyond = csv::Mapping { label: 9, ..p.mapping.clone() };
    assert_eq!(csv::parse_with(&fixture("en-bank.csv"), beyond), Err(CsvError::NoSuchColumn(10)));
}

/// No header: the columns are found by what they hold.
#[test]
fn a_file_without_header() {
    let p = csv::parse(&fixture("sans-entete.csv")).unwrap();
    let m = &p.mapping;
    assert_eq!((m.skip, m.date, m.label, m.order, m.header.is_none()), (0, 0, 1, DateOrder::Ymd, true));
    assert_eq!(m.amounts, AmountColumns::Signed { amount: 2 });
    let amounts: Vec<i64> = p.rows.iter().map(|r| r.amount_minor).collect();
    assert_eq!(amounts, [-2340, 1500, -2340]);
    // The two identical lines stay two transactions, and a re-import finds the same.
    let hashes = dedupe_hashes(&p.rows);
    assert_ne!(hashes[0], hashes[2]);
    assert_eq!(hashes, dedupe_hashes(&csv::parse(&fixture("sans-entete.csv")).unwrap().rows));
}

#[test]
fn what_is_not_a_statement_says_so() {
    assert_eq!(csv::parse(&fixture("pas-un-releve.txt")), Err(CsvError::NoDateColumn));
    assert_eq!(csv::parse(b""), Err(CsvError::Empty));
    assert_eq!(csv::parse(b"\n\n;;;\n"), Err(CsvError::Empty));
    assert_eq!(csv::parse(b"2026-01-01;hello\n2026-01-02;world\n"), Err(CsvError::NoAmountColumn));
}

/// Arbitrary bytes and mangled fixtures: an answer or an error, never a panic.
#[test]
fn garbage_never_panics() {
    let mut seed: u64 = 0x5eed_cafe;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bases = [fixture("fr-banque-latin1.csv"), fixture("en-bank.csv"), fixture("sans-entete.csv")];
    let alphabet = b"0123456789;,.-/\"\n\r $()\xe9\xff";
    for i in 0..1500 {
        let mut bytes = bases[i % bases.len()].clone();
        for _ in 0..(next() % 12) {
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
        if let Ok(p) = csv::parse(&bytes) {
            // Line numbers stay within the file.
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let mut seen: Vec<u64> =
                p.rows.iter().map(|r| r.line).chain(p.rejected.iter().map(|r| r.line)).collect();
            seen.sort_unstable();
            assert!(seen.windows(2).all(|w| w[0] <= w[1]) && seen.iter().all(|&l| (1..=lines).contains(&l)));
        }
        let random: Vec<u8> =
            (0..(next() % 300)).map(|_| alphabet[(next() as usize) % alphabet.len()]).collect();
        let _ = csv::parse(&random);
    }
}
