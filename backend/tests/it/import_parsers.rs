//! Bank files written for these tests from what banks export and from the formats'
//! specifications (fixtures in `tests/fixtures/import/`): CSV (French and English
//! banks, with and without header), OFX 1 (SGML) and 2 (XML)/QFX, QIF, CAMT.053, MT940. The
//! layout each needs is detected, every good line becomes a row, every bad one is
//! reported with its line number and reason; mangled files never panic.

use agent::Date;
use backend::import::camt::{self, CamtError};
use backend::import::csv::{self, AmountColumns, CsvError, DateOrder};
use backend::import::{
    dedupe_hashes, ofx, opening_to_set, qif, read, sniff, Encoding, Format, Rejected, Row,
};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// `count` copies of the fixtures, each with up to 12 bytes replaced, inserted or
/// removed (bytes from `alphabet`), then as many short random strings of it.
fn mangled(fixtures: &[&str], alphabet: &[u8], count: usize) -> Vec<Vec<u8>> {
    let bases: Vec<Vec<u8>> = fixtures.iter().map(|f| fixture(f)).collect();
    let mut seed: u64 = 0x5eed_cafe;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    let mut out = Vec::with_capacity(2 * count);
    for i in 0..count {
        let mut bytes = bases[i % bases.len()].clone();
        for _ in 0..next() % 12 {
            let at = next() % bytes.len().max(1);
            let byte = alphabet[next() % alphabet.len()];
            match next() % 3 {
                0 if !bytes.is_empty() => bytes[at] = byte,
                1 => bytes.insert(at.min(bytes.len()), byte),
                _ if !bytes.is_empty() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        out.push(bytes);
        out.push((0..next() % 300).map(|_| alphabet[next() % alphabet.len()]).collect());
    }
    out
}

/// Rows as (line, date, amount, label, the bank's id).
fn rows_of(rows: &[Row]) -> Vec<(u64, Date, i64, &str, Option<&str>)> {
    rows.iter()
        .map(|r| (r.line, r.date, r.amount_minor, r.label.as_str(), r.external_id.as_deref()))
        .collect()
}

/// Rejected lines as (line, reason).
fn rejected_of(rejected: &[Rejected]) -> Vec<(u64, String)> {
    rejected.iter().map(|r| (r.line, r.reason())).collect()
}

fn pairs(expected: &[(u64, &str)]) -> Vec<(u64, String)> {
    expected.iter().map(|(l, r)| (*l, r.to_string())).collect()
}

/// How many lines `bytes` has: no row or error may point past them.
fn lines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

// CSV.

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
    assert_eq!(
        rejected_of(&p.rejected),
        pairs(&[
            (9, "the date \"32/01/2026\" is not a valid date (DD/MM/YYYY)"),
            (10, "both a debit and a credit"),
            (11, "no amount"),
        ])
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
    assert!(p.rejected[0].reason().contains("02/30/2026"), "{:?}", p.rejected);

    // Read again day-first, as a user might wrongly choose: every date line says why.
    let wrong = csv::Mapping { order: DateOrder::Dmy, ..p.mapping.clone() };
    let again = csv::parse_with(&fixture("en-bank.csv"), wrong).unwrap();
    assert_eq!(again.rows.len(), 1, "only 01/02/2026 reads both ways");
    assert!(again.rejected.iter().all(|r| r.reason().contains("DD/MM/YYYY")));
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

/// Exports whose headers name a running balance beside the amount: BoursoBank's
/// camelCase header (`dateOp;…;amount;…;accountbalance`) and Revolut's (`Started Date`,
/// `Amount`, `Balance`); and a file without a header whose last column is the balance.
/// The balance is never the amount.
#[test]
fn a_running_balance_is_never_the_amount() {
    let p = csv::parse(&fixture("boursobank.csv")).unwrap();
    assert_eq!(
        (p.mapping.date, p.mapping.label, p.mapping.amounts),
        (0, 2, AmountColumns::Signed { amount: 6 })
    );
    let rows: Vec<(Date, i64)> = p.rows.iter().map(|r| (r.date, r.amount_minor)).collect();
    assert_eq!(rows, [(d(2026, 1, 5), -4_567), (d(2026, 1, 28), 234_500), (d(2026, 1, 30), -8_990)]);
    assert_eq!(p.rows[0].label, "CARTE 04/01/26 CARREFOUR CITY CB*1234");

    let p = csv::parse(&fixture("revolut.csv")).unwrap();
    assert_eq!((p.mapping.label, p.mapping.amounts), (4, AmountColumns::Signed { amount: 5 }));
    let rows: Vec<(Date, i64, &str)> =
        p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [
            (d(2026, 1, 5), -2_340, "Monoprix"),
            (d(2026, 1, 10), 50_000, "Top-up by *1234"),
            (d(2026, 1, 12), -1_425, "Uber")
        ]
    );

    let p = csv::parse(&fixture("sans-entete-solde.csv")).unwrap();
    assert_eq!(p.mapping.amounts, AmountColumns::Signed { amount: 2 }, "the last column is the balance");
    let amounts: Vec<i64> = p.rows.iter().map(|r| r.amount_minor).collect();
    assert_eq!(amounts, [-4_567, -320, 234_500, -8_990]);
}

#[test]
fn what_is_not_a_statement_says_so() {
    assert_eq!(csv::parse(&fixture("pas-un-releve.txt")), Err(CsvError::NoDateColumn));
    assert_eq!(csv::parse(b""), Err(CsvError::Empty));
    assert_eq!(csv::parse(b"\n\n;;;\n"), Err(CsvError::Empty));
    assert_eq!(csv::parse(b"2026-01-01;hello\n2026-01-02;world\n"), Err(CsvError::NoAmountColumn));
}

// OFX and QIF.

/// A French bank's OFX 1.02: SGML (leaf elements never closed), CRLF, charset 1252,
/// comma decimals, a date with time and zone, an entity in a name, two bad blocks.
#[test]
fn ofx1_sgml_from_a_french_bank() {
    let p = ofx::parse(&fixture("releve-ofx1-sgml.ofx")).unwrap();
    assert_eq!((p.encoding, p.currency.as_deref()), (Encoding::Windows1252, Some("EUR")));
    assert_eq!(
        rows_of(&p.rows),
        [
            (18, d(2026, 1, 5), -4567, "CB CARREFOUR CITY 04/01 PARIS", Some("FR0105A001")),
            (26, d(2026, 1, 28), 234_500, "VIR SEPA SALAIRE ACME", Some("FR0128V002")),
            (46, d(2026, 1, 31), -1230, "CB LIBRAIRIE ÉLÉGANTE & FILS", Some("FR0131C005")),
        ]
    );
    assert_eq!(
        rejected_of(&p.rejected),
        pairs(&[(33, "the date \"20260230\" is not a valid date (YYYYMMDD)"), (40, "no amount (TRNAMT)")])
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
    assert_eq!(p.rejected[0].reason(), "the amount \"twelve\" is not a number");
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
    let rejected: Vec<(u64, String)> = p.rejected.iter().map(|r| (r.line, r.reason())).collect();
    assert_eq!(
        rejected,
        pairs(&[(11, "the date \"13/40'26\" is not a valid date"), (15, "no amount (T line)")])
    );
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

/// A bank id used twice inside one file, for a deposit and a payment (CIC's date-as-id),
/// and two identical card payments sharing one id: every line is kept, each with its
/// own dedupe key, and the same file again gives the same keys.
#[test]
fn a_bank_id_used_twice_in_one_file_drops_nothing() {
    let p = ofx::parse(&fixture("ofx-fitid-repete.ofx")).unwrap();
    assert_eq!(
        rows_of(&p.rows),
        [
            (18, d(2026, 2, 2), 15_000, "REMISE CHEQUE", Some("20260202")),
            (25, d(2026, 2, 2), -2_340, "CB PHARMACIE DU CENTRE", Some("20260202")),
            (32, d(2026, 2, 10), -320, "CB BOULANGERIE PAUL", Some("CB0210")),
            (39, d(2026, 2, 10), -320, "CB BOULANGERIE PAUL", Some("CB0210")),
            (46, d(2026, 2, 14), -6_190, "CB FNAC", Some("CB0214")),
        ]
    );
    let keys = dedupe_hashes(&p.rows);
    let distinct: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(distinct.len(), 5);
    assert_eq!(dedupe_hashes(&ofx::parse(&fixture("ofx-fitid-repete.ofx")).unwrap().rows), keys);
}

/// Lines with no payee: a cheque with only its number, a cash withdrawal with only its
/// type — labelled in the file's language; a name in CDATA with a raw `&`; four
/// decimals of zeros; four that are not, refused without rounding.
#[test]
fn cheques_and_withdrawals_without_payee_are_kept() {
    let p = ofx::parse(&fixture("ofx-cheques-retraits.ofx")).unwrap();
    assert_eq!(
        rows_of(&p.rows),
        [
            (18, d(2026, 2, 3), -25_000, "Chèque 1234567", Some("CHQ1234567")),
            (25, d(2026, 2, 5), -6_000, "Retrait DAB", Some("DAB0205")),
            (31, d(2026, 2, 7), -1_850, "BOULANGERIE & CO", Some("CB0207")),
        ]
    );
    assert_eq!(
        rejected_of(&p.rejected),
        pairs(&[(
            38,
            "the amount \"-3.14159\" has more than two decimals; Sou keeps cents and does not round"
        )])
    );
}

/// The bank's answer to a refused sign-on is its message, not "no transaction".
#[test]
fn a_refused_sign_on_passes_the_banks_message_on() {
    assert_eq!(
        ofx::parse(&fixture("ofx-erreur-banque.ofx")),
        Err(ofx::OfxError::Refused {
            code: "15500".into(),
            message: "Identifiant ou mot de passe incorrect".into()
        })
    );
}

/// Microsoft Money's `.ofc`: an `<OFC>` root, the same transactions.
#[test]
fn microsoft_money_ofc_is_read_as_ofx() {
    let bytes = fixture("releve-money.ofc");
    assert_eq!(backend::import::sniff("releve.ofc", &bytes), agent::imports::Format::Ofx);
    let p = ofx::parse(&bytes).unwrap();
    assert_eq!(p.currency.as_deref(), Some("EUR"));
    assert_eq!(
        rows_of(&p.rows),
        [
            (14, d(2026, 1, 12), -4_250, "CB CARREFOUR MARKET", Some("OFC0112A")),
            (21, d(2026, 1, 28), 185_000, "VIR SALAIRE ACME", Some("OFC0128B")),
        ]
    );
}

/// QIF as exporters write it besides the textbook: comment lines first and a cheque
/// with only its number; no `!Type:` line at all (older BNP exports); a category list
/// before the bank section.
#[test]
fn qif_with_comments_without_header_or_with_a_category_list_first() {
    let p = qif::parse(&fixture("qif-commentaires.qif")).unwrap();
    let rows: Vec<(Date, i64, &str)> =
        p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(rows, [(d(2026, 1, 5), -4_250, "CB CARREFOUR"), (d(2026, 1, 6), -15_000, "Chèque 1234567")]);
    assert!(p.rejected.is_empty());
    for name in ["qif-sans-entete.qif", "qif-categories-avant.qif"] {
        let p = qif::parse(&fixture(name)).unwrap();
        let rows: Vec<(Date, i64, &str)> =
            p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
        assert_eq!(
            rows,
            [(d(2026, 1, 5), -4_250, "CB CARREFOUR"), (d(2026, 1, 28), 185_000, "VIR SALAIRE ACME")],
            "{name}"
        );
        assert!(p.rejected.is_empty(), "{name}: {:?}", p.rejected);
    }
    // Quicken's "all accounts" export: each row says its account, never merged into one.
    let p = qif::parse(&fixture("qif-plusieurs-comptes.qif")).unwrap();
    let rows: Vec<(&str, Option<&str>)> =
        p.rows.iter().map(|r| (r.label.as_str(), r.account.as_deref())).collect();
    assert_eq!(rows, [("CB CARREFOUR", Some("Compte courant")), ("FNAC", Some("Carte Visa"))]);
    // A transaction not closed by `^` before the next section still counts.
    let p = qif::parse(b"!Type:Bank\nD05/01/2026\nT-42,50\nPCB CARREFOUR\n!Type:Cat\nNAlimentation\n^\n")
        .unwrap();
    assert_eq!(p.rows.len(), 1);
    // A text that only looks like lines is still not QIF.
    assert_eq!(qif::parse(b"Date;Libelle;Montant\n05/01/2026;CB;-4,50\n"), Err(qif::QifError::NotQif));
}

#[test]
fn not_a_bank_qif_is_said() {
    assert_eq!(qif::parse(&fixture("faux.qif")), Err(qif::QifError::UnsupportedType("Invst".into())));
    assert_eq!(qif::parse(&fixture("faux.ofx")), Err(qif::QifError::NotQif));
    assert_eq!(qif::parse(b""), Err(qif::QifError::NotQif));
}

// CAMT.053.

/// A Swiss bank's camt.053.001.04: dates with a time-zone offset (`2017-04-01+02:00`),
/// and entries whose only name is the ultimate creditor's or debtor's.
#[test]
fn camt_dates_with_an_offset_and_ultimate_parties() {
    let p = camt::parse(&fixture("camt-fuseau-ultime.xml")).unwrap();
    assert_eq!(p.currency.as_deref(), Some("CHF"));
    let rows: Vec<(Date, i64, &str)> =
        p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [(d(2017, 4, 1), -12_000, "Genossenschaft Migros Zuerich"), (d(2017, 4, 25), 250_000, "Muster AG")]
    );
    assert!(p.rejected.is_empty(), "{:?}", p.rejected);
}

/// A French bank's camt.053.001.02: the bank's own text, a salary with the payer's
/// name and remittance text, a direct debit whose parties are wrapped in `<Pty>`, an
/// entry in another currency than the account's, and one without a direction.
#[test]
fn a_french_camt053_statement() {
    let p = camt::parse(&fixture("releve-camt053.xml")).unwrap();
    assert_eq!(p.currency.as_deref(), Some("EUR"));
    assert_eq!(
        rows_of(&p.rows),
        [
            (20, d(2026, 1, 5), -4567, "CB CARREFOUR CITY 04/01", Some("N001")),
            (31, d(2026, 1, 28), 234_500, "ACME SAS SALAIRE JANVIER 2026", Some("BANKREF-0002")),
            (48, d(2026, 1, 12), -8990, "EDF & ENERGIE PRLV FACTURE 0126", Some("BANKREF-0003")),
        ]
    );
    assert_eq!(
        rejected_of(&p.rejected),
        pairs(&[(63, "the amount is in USD, the account in EUR"), (69, "no direction (CdtDbtInd)")])
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

/// A German savings bank's MT940 (Windows-1252, CRLF), read as the upload reads it: two
/// daily statements of one account, the first in SWIFT blocks; card payments, a salary
/// with the bank's reference, a direct debit and its return (`RD`), a fee named only by
/// its purpose; the balances agree, so a new account gets its opening balance.
#[test]
fn a_german_mt940_statement() {
    let bytes = fixture("sparkasse-mt940.sta");
    assert_eq!(sniff("Umsaetze.sta", &bytes), Format::Mt940);
    assert_eq!(sniff("Umsaetze.txt", &bytes), Format::Mt940, "by its fields, whatever the name");
    let f = read(Format::Mt940, &bytes, None).unwrap();
    assert_eq!(
        (f.format, f.encoding, f.currency.as_deref()),
        (Format::Mt940, Encoding::Windows1252, Some("EUR"))
    );
    assert_eq!(
        rows_of(&f.rows),
        [
            (
                6,
                d(2026, 1, 2),
                -5437,
                "REWE Markt GmbH 2026-01-02T10.14 Debitk.1 2028-12 Einkauf Berlin",
                None
            ),
            (8, d(2026, 1, 2), -320, "Bäckerei Müller Brötchen", None),
            (10, d(2026, 1, 5), 281_540, "ACME GmbH Gehalt Januar 2026", Some("9200105123456")),
            (13, d(2026, 1, 5), -3999, "Telekom Deutschland GmbH Rechnung 01/2026", None),
            (22, d(2026, 1, 7), 3999, "Telekom Deutschland GmbH Rechnung 01/2026", None),
            (24, d(2026, 1, 31), -490, "Kontoführungsentgelt", None),
        ]
    );
    assert!(f.rejected.is_empty(), "{:?}", f.rejected);
    assert_eq!(f.accounts.len(), 1);
    assert_eq!(f.accounts[0].name, "70050000/0123456789");
    assert!(f.rows.iter().all(|r| r.account.as_deref() == Some("70050000/0123456789")));
    let stated = f.stated.clone().unwrap();
    assert_eq!(
        (stated.opening, stated.closing),
        (Some((d(2025, 12, 31), 245_000)), Some((d(2026, 1, 31), 520_293)))
    );
    assert_eq!(opening_to_set(&stated, &f.rows), Some((d(2025, 12, 31), 245_000)));
    assert_eq!(dedupe_hashes(&f.rows).len(), 6);
    assert_eq!(
        read(Format::Mt940, b"Datum;Betrag\n", None).map(|f| f.rows.len()),
        Err(backend::import::ReadError::Mt940(backend::import::mt940::Mt940Error::NotMt940))
    );
}

/// Eight MT940 statements written blind — by someone who had not read the reader — as
/// Sparkasse, Deutsche Bank, ING, Rabobank, ABN AMRO, UBS and Commerzbank export them,
/// and one of edge cases (reversals, funds codes, a booking date in the next year,
/// amounts without decimals, a line with no `:86:`), each with what it holds: every row
/// on its line, day, amount and account, its label naming whom or what, every account's
/// balances; nothing refused. Found by their content, whatever their extension.
#[test]
fn blind_mt940_statements_read_as_their_writer_expects() {
    let dir = format!("{}/tests/fixtures/import-blind/mt940", env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(file) = name.strip_suffix(".expected.json") else { continue };
        files += 1;
        let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let bytes = std::fs::read(format!("{dir}/{file}")).unwrap();
        assert_eq!(sniff(file, &bytes), Format::Mt940, "{file}");
        let f = read(Format::Mt940, &bytes, None).unwrap();
        assert!(f.rejected.is_empty(), "{file}: {:?}", f.rejected);
        let rows = expected["rows"].as_array().unwrap();
        assert_eq!(f.rows.len(), rows.len(), "{file}");
        for (r, e) in f.rows.iter().zip(rows) {
            let what = format!("{file} line {}", r.line);
            assert_eq!(r.line, e["line"].as_u64().unwrap(), "{what}");
            assert_eq!(r.date.to_string(), e["date"].as_str().unwrap(), "{what}");
            assert_eq!(r.amount_minor, e["amount_minor"].as_i64().unwrap(), "{what}");
            assert_eq!(r.account.as_deref(), e["account"].as_str(), "{what}");
            let who = e["who_or_what"].as_str().unwrap().to_lowercase();
            assert!(r.label.to_lowercase().contains(&who), "{what}: {:?} in {:?}", who, r.label);
        }
        assert_eq!(f.accounts.len(), expected["accounts"].as_array().unwrap().len(), "{file}");
        for (a, e) in f.accounts.iter().zip(expected["accounts"].as_array().unwrap()) {
            assert_eq!(a.name, e["id"].as_str().unwrap(), "{file}");
            assert_eq!(a.currency.as_deref(), e["currency"].as_str(), "{file}");
            let stated = a.stated.as_ref().unwrap();
            let day = |v: &serde_json::Value| {
                (Date::parse_iso(v["date"].as_str().unwrap()).unwrap(), v["minor"].as_i64().unwrap())
            };
            assert_eq!(stated.opening, Some(day(&e["opening"])), "{file}");
            assert_eq!(stated.closing, Some(day(&e["closing"])), "{file}");
        }
    }
    assert_eq!(files, 8);
}

/// Mangled files of every format, read by every format's reader (the list's): an
/// answer or an error, never a panic, and line numbers within the file.
#[test]
fn garbage_never_panics() {
    let dir = format!("{}/tests/fixtures/import", env!("CARGO_MANIFEST_DIR"));
    let mut fixtures: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    fixtures.sort();
    let fixtures: Vec<&str> = fixtures.iter().map(String::as_str).collect();
    let alphabet = b"0123456789;,.-/\"\n\r $()<>&^!:?DTPMNtryAmCRDBIT[]'\xc3\xa9\xff";
    for bytes in mangled(&fixtures, alphabet, 2500) {
        let n = lines(&bytes);
        let within = |rows: &[Row], rejected: &[Rejected]| {
            rows.iter().all(|r| (1..=n).contains(&r.line))
                && rejected.iter().all(|r| (1..=n).contains(&r.line))
        };
        for &format in Format::ALL {
            match read(format, &bytes, None) {
                Ok(f) => assert!(within(&f.rows, &f.rejected), "{format:?}"),
                Err(backend::import::ReadError::Camt(CamtError::Xml { line, .. })) => {
                    assert!((1..=n).contains(&line))
                }
                Err(_) => {}
            }
        }
    }
}
