//! Round trip: a statement generated at random (dates, amounts from a cent to millions,
//! either sign, labels with accents, quotes, delimiters and markup characters) is
//! written as each format writes it — CSV (French: `;`, day first, decimal comma; English:
//! `,`, ISO dates, debit and credit columns), OFX 1 (SGML), OFX 2 (XML), QIF and
//! CAMT.053 — and read back: the same rows, in the same order, none rejected, the
//! format recognised from the bytes.

use agent::Date;
use backend::import::{read, sniff, Format};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Line {
    date: Date,
    minor: i64,
    label: String,
}

fn line() -> impl Strategy<Value = Line> {
    let words = prop::sample::select(vec![
        "CB",
        "CARREFOUR",
        "Café",
        "l'Épicerie",
        "M&S",
        "\"Le Zinc\"",
        "A;B",
        "x,y",
        "<Paul>",
        "PRLV",
        "SEPA",
        "Ünïcödé",
        "N°42",
        "12/03",
        "1 234",
        "Œuvre",
        "ça",
        "AT&T",
    ]);
    (
        (2015i32..2030, 1u32..13, 1u32..29),
        prop_oneof![1i64..100, 100i64..100_000, 100_000i64..1_000_000_000],
        any::<bool>(),
        prop::collection::vec(words, 1..5),
    )
        .prop_map(|((y, m, d), minor, out, words)| Line {
            date: Date::new(y, m, d).unwrap_or_else(|| Date::new(2026, 1, 1).unwrap()),
            minor: if out { -minor } else { minor },
            label: words.join(" "),
        })
}

/// `minor` as `1234.56` with `mark`, unsigned.
fn units(minor: i64, mark: char) -> String {
    format!("{}{mark}{:02}", minor.abs() / 100, minor.abs() % 100)
}

fn signed(minor: i64, mark: char) -> String {
    format!("{}{}", if minor < 0 { "-" } else { "" }, units(minor, mark))
}

fn csv_cell(text: &str, delimiter: char) -> String {
    if text.contains([delimiter, '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn ymd(d: Date, sep: &str) -> String {
    d.to_string().replace('-', sep)
}

fn csv_fr(lines: &[Line]) -> String {
    let mut out = String::from("Date;Libellé;Montant\n");
    for l in lines {
        let day = format!("{:02}/{:02}/{}", l.date.day(), l.date.month(), l.date.year());
        out += &format!("{day};{};{}\n", csv_cell(&l.label, ';'), signed(l.minor, ','));
    }
    out
}

fn csv_en(lines: &[Line]) -> String {
    let mut out = String::from("Date,Description,Debit,Credit\r\n");
    for l in lines {
        let (debit, credit) = if l.minor < 0 {
            (units(l.minor, '.'), String::new())
        } else {
            (String::new(), units(l.minor, '.'))
        };
        out += &format!("{},{},{debit},{credit}\r\n", ymd(l.date, "-"), csv_cell(&l.label, ','));
    }
    out
}

fn ofx_sgml(lines: &[Line]) -> String {
    let mut out = String::from(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:UTF-8\nCHARSET:NONE\n\n<OFX>\n<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR\n<BANKTRANLIST>\n",
    );
    for (i, l) in lines.iter().enumerate() {
        out += &format!(
            "<STMTTRN>\n<TRNTYPE>{}\n<DTPOSTED>{}\n<TRNAMT>{}\n<FITID>T{i}\n<NAME>{}\n</STMTTRN>\n",
            if l.minor < 0 { "DEBIT" } else { "CREDIT" },
            ymd(l.date, ""),
            signed(l.minor, '.'),
            xml(&l.label)
        );
    }
    out + "</BANKTRANLIST>\n</STMTRS></STMTTRNRS></BANKMSGSRSV1>\n</OFX>\n"
}

fn ofx_xml(lines: &[Line]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKTRANLIST>\n",
    );
    for (i, l) in lines.iter().enumerate() {
        out += &format!(
            "<STMTTRN><TRNTYPE>OTHER</TRNTYPE><DTPOSTED>{}120000</DTPOSTED><TRNAMT>{}</TRNAMT><FITID>X{i}</FITID><NAME>{}</NAME></STMTTRN>\n",
            ymd(l.date, ""),
            signed(l.minor, '.'),
            xml(&l.label)
        );
    }
    out + "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
}

fn qif(lines: &[Line]) -> String {
    let mut out = String::from("!Type:Bank\n");
    for l in lines {
        out += &format!(
            "D{}/{}/{}\nT{}\nP{}\n^\n",
            l.date.month(),
            l.date.day(),
            l.date.year(),
            signed(l.minor, '.'),
            l.label
        );
    }
    out
}

fn camt(lines: &[Line]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"><BkToCstmrStmt><Stmt><Acct><Ccy>EUR</Ccy></Acct>\n",
    );
    for (i, l) in lines.iter().enumerate() {
        out += &format!(
            "<Ntry><NtryRef>E{i}</NtryRef><Amt Ccy=\"EUR\">{}</Amt><CdtDbtInd>{}</CdtDbtInd><BookgDt><Dt>{}</Dt></BookgDt><AddtlNtryInf>{}</AddtlNtryInf></Ntry>\n",
            units(l.minor, '.'),
            if l.minor < 0 { "DBIT" } else { "CRDT" },
            l.date,
            xml(&l.label)
        );
    }
    out + "</Stmt></BkToCstmrStmt></Document>\n"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_format_gives_the_same_rows_back(lines in prop::collection::vec(line(), 1..40)) {
        let want: Vec<(Date, i64, String)> = lines.iter().map(|l| (l.date, l.minor, l.label.clone())).collect();
        for (name, format, text) in [
            ("releve.csv", Format::Csv, csv_fr(&lines)),
            ("statement.csv", Format::Csv, csv_en(&lines)),
            ("releve.ofx", Format::Ofx, ofx_sgml(&lines)),
            ("statement.qfx", Format::Ofx, ofx_xml(&lines)),
            ("releve.qif", Format::Qif, qif(&lines)),
            ("releve.xml", Format::Camt, camt(&lines)),
        ] {
            prop_assert_eq!(sniff(name, text.as_bytes()), format, "{}", name);
            let file = read(format, text.as_bytes(), None).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert!(file.rejected.is_empty(), "{}: {:?}", name, file.rejected);
            if let Some(m) = &file.mapping {
                prop_assert!(m.is_sure(), "{}: {:?}", name, m);
            }
            let got: Vec<(Date, i64, String)> =
                file.rows.iter().map(|r| (r.date, r.amount_minor, r.label.clone())).collect();
            prop_assert_eq!(&got, &want, "{}", name);
        }
    }
}
