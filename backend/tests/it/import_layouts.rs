//! Known bank layouts, per-row states, currencies and fees, the balances a file states
//! and the accounts it names: each known layout is recognised from its header and read
//! with it; what the bank has not booked, rows in another currency and fees are said,
//! never folded in silently; balances are checked against the rows and set a new
//! account's opening; a file of several accounts has a target for each.

use agent::imports::{Fees, Found, ImportState, LayoutEdit, Why};
use agent::{Date, Locale};
use backend::import::csv::{self, AmountColumns};
use backend::import::{layouts, ofx, qif, read, Format};
use backend::{Chosen, Imports, Layout, Target};
use backend::{Store, UserId};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn d(y: i32, m: u32, day: u32) -> Date {
    Date::new(y, m, day).unwrap()
}

/// Each known layout, written as its bank writes it (its header, in its date order and
/// decimal mark, with a preamble line before), is recognised and its two rows read.
#[test]
fn every_known_layout_is_recognised_and_read() {
    for k in layouts::all() {
        let decimal = k.decimal.unwrap_or(',');
        let delimiter = if decimal == ',' { ';' } else { ',' };
        let date = |day: u32| match k.order.as_deref() {
            Some("ymd") => format!("2026-03-{day:02}"),
            Some("mdy") => format!("03/{day:02}/2026"),
            _ => format!("{day:02}/03/2026"),
        };
        let money = |units: i64, cents: i64| format!("{units}{decimal}{cents:02}");
        let cell = |name: &str, day: u32, out: bool| -> String {
            let is = |role: &Option<String>| role.as_deref() == Some(name);
            if name == k.date {
                date(day)
            } else if name == k.label {
                format!("CB MAGASIN {day}")
            } else if is(&k.amount) {
                if out {
                    format!("-{}", money(12, 34))
                } else {
                    money(100, 0)
                }
            } else if is(&k.debit) {
                if out {
                    money(12, 34)
                } else {
                    String::new()
                }
            } else if is(&k.credit) {
                if out {
                    String::new()
                } else {
                    money(100, 0)
                }
            } else if is(&k.currency) {
                "EUR".into()
            } else if is(&k.state) {
                "COMPLETED".into()
            } else if is(&k.fee) {
                money(0, 0)
            } else {
                String::new()
            }
        };
        let line = |cells: Vec<String>| cells.join(&delimiter.to_string());
        let text = [
            format!("Relevé du compte{delimiter}"),
            line(k.header.clone()),
            line(k.header.iter().map(|h| cell(h, 3, true)).collect()),
            line(k.header.iter().map(|h| cell(h, 14, false)).collect()),
        ]
        .join("\n");
        let p = csv::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert_eq!(p.mapping.layout.as_deref(), Some(k.name.as_str()), "{}", k.name);
        assert_eq!(p.mapping.found.amount, Found::Layout);
        let rows: Vec<(Date, i64, &str)> =
            p.rows.iter().map(|r| (r.date, r.amount_minor, r.label.as_str())).collect();
        assert_eq!(
            rows,
            [(d(2026, 3, 3), -1_234, "CB MAGASIN 3"), (d(2026, 3, 14), 10_000, "CB MAGASIN 14")],
            "{}",
            k.name
        );
        assert!(p.mapping.is_sure(), "{}", k.name);
    }
}

/// Revolut: a row in dollars in a euro file, a pending, a reverted and a declined
/// payment are not imported and each is said; a cash withdrawal's fee is a row of its
/// own, or taken off the amount if the user says so; the balance column agrees.
#[test]
fn revolut_states_currencies_and_fees() {
    let p = csv::parse(&fixture("revolut-devises-frais.csv")).unwrap();
    assert_eq!(p.mapping.layout.as_deref(), Some("Revolut"));
    assert_eq!(p.currency.as_deref(), Some("EUR"));
    let rows: Vec<(u64, Date, i64, &str)> =
        p.rows.iter().map(|r| (r.line, r.date, r.amount_minor, r.label.as_str())).collect();
    assert_eq!(
        rows,
        [
            (2, d(2026, 2, 2), -2_340, "Monoprix"),
            (3, d(2026, 2, 4), -10_000, "Cash at Distributeur Opera"),
            (3, d(2026, 2, 4), -150, "Fee: Cash at Distributeur Opera"),
            (8, d(2026, 2, 10), 50_000, "Top-up by *1234"),
        ]
    );
    let why: Vec<(u64, Why)> = p.rejected.iter().map(|r| (r.line, r.why.clone())).collect();
    assert_eq!(
        why,
        [
            (4, Why::OtherCurrency { currency: "USD".into(), account: "EUR".into() }),
            (5, Why::NotBooked { state: "PENDING".into() }),
            (6, Why::NotBooked { state: "REVERTED".into() }),
            (7, Why::NotBooked { state: "DECLINED".into() }),
        ]
    );
    let stated = p.stated.clone().unwrap();
    assert_eq!(stated.opening, Some((d(2026, 2, 2), 100_000)));
    assert_eq!(stated.closing, Some((d(2026, 2, 10), 137_510)));
    assert!(stated.breaks.is_empty(), "{:?}", stated.breaks);

    let netted = csv::Mapping { fees: Fees::Netted, ..p.mapping.clone() };
    let p = csv::parse_with(&fixture("revolut-devises-frais.csv"), netted).unwrap();
    let amounts: Vec<i64> = p.rows.iter().map(|r| r.amount_minor).collect();
    assert_eq!(amounts, [-2_340, -10_150, 50_000]);
    assert!(p.stated.unwrap().breaks.is_empty());
}

/// A Crédit Mutuel export whose balance jumps between two lines: a line is missing
/// there, and the rows do not lead to the last balance.
#[test]
fn a_balance_that_jumps_says_where() {
    let p = csv::parse(&fixture("credit-mutuel-trou.csv")).unwrap();
    assert_eq!(p.mapping.layout.as_deref(), Some("Crédit Mutuel / CIC"));
    assert_eq!(p.mapping.amounts, AmountColumns::DebitCredit { debit: 2, credit: 3 });
    let stated = p.stated.unwrap();
    assert_eq!(stated.breaks, [4]);
    assert_eq!(stated.opening, Some((d(2026, 3, 2), 150_000)));
    assert_eq!(stated.closing, Some((d(2026, 3, 12), 254_000)));
}

/// Statements' balances: OFX `LEDGERBAL` (and `XXX`, no currency), CAMT opening and
/// closing, a QIF opening balance line, which is no transaction.
#[test]
fn statements_say_their_balances() {
    let s = ofx::parse(&fixture("ofx-sans-devise.ofx")).unwrap();
    assert_eq!(s.currency, None, "XXX is no currency");
    assert_eq!(s.stated.unwrap().closing, Some((d(2026, 2, 28), 73_001)));
    let f = read(Format::Camt, &fixture("camt-solde-ecart.xml"), None).unwrap();
    let stated = f.stated.unwrap();
    assert_eq!(
        (stated.opening, stated.closing),
        (Some((d(2026, 3, 1), 100_000)), Some((d(2026, 3, 31), 110_000)))
    );
    let q = qif::parse(&fixture("qif-solde-initial.qif")).unwrap();
    assert_eq!(q.opening, Some((d(2026, 3, 1), 150_000, "Solde initial".to_string())));
    let labels: Vec<&str> = q.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["CB CARREFOUR MARKET", "CB BOULANGERIE"]);
}

/// A file whose dates and amounts mostly do not read with the detected layout waits for
/// the user to choose those columns.
#[test]
fn mostly_unreadable_rows_make_the_layout_unsure() {
    let text =
        "Date;Libellé;Montant\n03/01/2026;CB A;-1,00\nhier;CB B;x\navant-hier;CB C;y\nun jour;CB D;z\n";
    let p = csv::parse(text.as_bytes()).unwrap();
    assert!(p.mapping.mostly_unreadable && !p.mapping.is_sure());
    let chosen =
        LayoutEdit { date: Some(1), amounts: Some("signed".into()), amount: Some(3), ..Default::default() }
            .apply(&p.mapping);
    let p = csv::parse_with(text.as_bytes(), chosen).unwrap();
    assert!(p.mapping.is_sure(), "the user chose the columns: the rows that read are imported");
    assert_eq!(p.rows.len(), 1);
}

async fn store() -> (tempfile::TempDir, Store, UserId) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let alice = store.ensure_user("alice").await.unwrap();
    (dir, store, alice)
}

async fn run(imports: &Imports, user: UserId, id: &str, target: Target) -> agent::imports::ImportReport {
    imports.start(user, id, None, target).await.unwrap();
    for _ in 0..500 {
        match imports.state(user, id, Locale::En).await.unwrap() {
            ImportState::Running { .. } => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            ImportState::Done(r) => return r,
            other => panic!("{other:?}"),
        }
    }
    panic!("the import did not end");
}

async fn opening(store: &Store, user: UserId, key: &str) -> (i64, Option<String>) {
    let mut db = store.tenant(user).await.unwrap();
    let row: (i64, Option<String>) = sqlx::query_as(
        "SELECT opening_balance_minor, opening_date FROM accounts WHERE user_id = $1 AND key = $2",
    )
    .bind(user.0)
    .bind(key)
    .fetch_one(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
    row
}

/// The preview checks the balances and says what the import will set; the import sets a
/// new account's opening balance, and the preview's count is the import's.
#[tokio::test]
async fn balances_are_checked_in_the_preview_and_open_a_new_account() {
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    // CAMT: 1,000 + 154.33 is not the 1,100 stated: a gap of -54.33, said; the rows are
    // imported, the suspect opening balance is not set.
    let id = imports.upload(alice, "mars.xml", fixture("camt-solde-ecart.xml")).await.unwrap();
    let v = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    let b = v.balances.clone().unwrap();
    assert_eq!((b.gap(), b.adds_up(), b.sets_opening), (Some(-5_433), false, false));
    let r = run(&imports, alice, &id, Target::New("Courant".into())).await;
    assert_eq!(r.added, v.total_rows);
    assert_eq!(opening(&store, alice, "courant").await, (0, None));

    // QIF: the opening balance line opens the account; its two rows are imported.
    let id = imports.upload(alice, "q.qif", fixture("qif-solde-initial.qif")).await.unwrap();
    let v = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    assert!(v.asks_currency, "a QIF file states no currency");
    assert_eq!(v.currencies[0], "EUR");
    let r = run(&imports, alice, &id, Target::NewIn("Chèques".into(), "CHF".into())).await;
    assert_eq!((r.added, v.total_rows), (2, 2));
    assert_eq!(
        r.opening.map(|(day, m)| (day, m.minor, m.currency.to_string())),
        Some((d(2026, 3, 1), 150_000, "CHF".into()))
    );
    assert_eq!(opening(&store, alice, "cheques").await, (150_000, Some("2026-03-01".into())));

    // OFX with only a closing balance, into an account that has a history: Sou's
    // balance then, with the new rows, against the bank's.
    let id = imports.upload(alice, "f.ofx", fixture("ofx-sans-devise.ofx")).await.unwrap();
    let v = imports.view(alice, &id, Layout::Detected, Chosen::account("courant"), Locale::Fr).await.unwrap();
    let b = v.balances.unwrap();
    assert!(!b.sets_opening, "the account has its own history");
    // Sou's balance on 28 February: 0 (the account's rows are of March), plus the 230.01
    // of the new rows; the bank says 730.01.
    assert_eq!(b.computed.map(|m| m.minor), Some(23_001));
    assert_eq!(b.gap(), Some(50_000));
}

/// Revolut into the ledger: what the preview counts is what is imported, the euro rows
/// and the fee, never the dollars or what the bank did not book.
#[tokio::test]
async fn revolut_imports_what_the_preview_counts() {
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "r.csv", fixture("revolut-devises-frais.csv")).await.unwrap();
    let v = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::En).await.unwrap();
    assert_eq!((v.total_rows, v.rejected.len(), v.currency.as_deref()), (4, 4, Some("EUR")));
    assert!(!v.asks_currency);
    assert!(v.balances.as_ref().unwrap().adds_up());
    let r = run(&imports, alice, &id, Target::New("Revolut".into())).await;
    assert_eq!((r.read, r.added, r.rejected.len()), (4, 4, 4));
    assert_eq!(r.opening.map(|(_, m)| m.minor), Some(100_000));
}

/// A file naming several accounts (Quicken's "all accounts" QIF, an OFX with a bank and
/// a card statement) goes to one target per account, each with its own rows, currency
/// and opening balance; a single target for it is refused with the reason.
#[tokio::test]
async fn a_file_of_several_accounts_has_a_target_for_each() {
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "tous.qif", fixture("qif-tous-comptes.qif")).await.unwrap();
    let v = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    let parts: Vec<(&str, u64)> = v.parts.iter().map(|p| (p.name.as_str(), p.rows)).collect();
    assert_eq!(parts, [("Compte chèque", 2), ("Carte Visa", 1)]);
    assert_eq!(v.total_rows, 3, "the opening balances are no rows");
    assert!(matches!(
        imports.start(alice, &id, None, Target::New("Tout".into())).await,
        Err(backend::ImportError::Parts(2))
    ));
    let split = Target::Split(vec![Target::New("Compte chèque".into()), Target::New("Carte Visa".into())]);
    let r = run(&imports, alice, &id, split).await;
    assert_eq!((r.read, r.added), (3, 3));
    assert_eq!(r.account, "Compte chèque, Carte Visa");
    assert_eq!(opening(&store, alice, "compte_cheque").await, (200_000, Some("2026-03-01".into())));
    assert_eq!(opening(&store, alice, "carte_visa").await, (-12_000, Some("2026-03-01".into())));
    let mut db = store.tenant(alice).await.unwrap();
    let visa: Vec<(String, i64)> = sqlx::query_as(
        "SELECT t.raw_label, t.amount_minor FROM transactions t JOIN accounts a ON a.id = t.account_id
         WHERE t.user_id = $1 AND a.key = 'carte_visa'",
    )
    .bind(alice.0)
    .fetch_all(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
    assert_eq!(visa, [("FNAC".to_string(), -1_990)]);

    // OFX: a checking account in dollars and a card in euros; the card's rows go into
    // the euro account the user already has, where they are already there the second time.
    let id = imports.upload(alice, "deux.ofx", fixture("ofx-deux-comptes.ofx")).await.unwrap();
    let parts = ["".to_string(), "compte_cheque".to_string()];
    let v = imports
        .view(alice, &id, Layout::Detected, Chosen { account: None, parts: &parts }, Locale::En)
        .await
        .unwrap();
    let seen: Vec<(&str, Option<&str>, Option<&str>)> =
        v.parts.iter().map(|p| (p.name.as_str(), p.currency.as_deref(), p.account.as_deref())).collect();
    assert_eq!(
        seen,
        [("1111222233", Some("USD"), None), ("4111000044445555", Some("EUR"), Some("compte_cheque"))]
    );
    assert_eq!(v.rows[0].amount.currency.to_string(), "USD");
    assert_eq!(v.rows[2].amount.currency.to_string(), "EUR");
    let split = Target::Split(vec![Target::New("Checking".into()), Target::Existing("compte_cheque".into())]);
    let r = run(&imports, alice, &id, split).await;
    assert_eq!((r.read, r.added), (3, 3));
    let mut db = store.tenant(alice).await.unwrap();
    let usd: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE user_id = $1 AND currency = 'USD'")
            .bind(alice.0)
            .fetch_one(&mut *db)
            .await
            .unwrap();
    db.commit().await.unwrap();
    assert_eq!(usd, 2);
    // The checking account opens at its statement's closing balance less its rows.
    assert_eq!(opening(&store, alice, "checking").await, (100_000, Some("2026-03-05".into())));
}

/// What a review found, each kept from coming back: one IBAN in two currencies is two
/// accounts; a transaction SGML leaves unclosed before the next statement is kept; a
/// balance column seen on one line says nothing; a stated opening dated after some rows
/// counts them once; two of a file's accounts sent to one keep their identical lines.
#[tokio::test]
async fn review_cases_import_exactly() {
    let camt = |stmts: &[(&str, &str, &str, &str)]| -> Vec<u8> {
        let mut x = String::from("<?xml version=\"1.0\"?><Document><BkToCstmrStmt>");
        for (iban, ccy, amount, sign) in stmts {
            x += &format!(
                "<Stmt><Acct><Id><IBAN>{iban}</IBAN></Id><Ccy>{ccy}</Ccy></Acct><Ntry><Amt Ccy=\"{ccy}\">{amount}</Amt>\
                 <CdtDbtInd>{sign}</CdtDbtInd><BookgDt><Dt>2026-03-02</Dt></BookgDt><AddtlNtryInf>FRAIS</AddtlNtryInf></Ntry></Stmt>"
            );
        }
        (x + "</BkToCstmrStmt></Document>").into_bytes()
    };
    let f = read(
        Format::Camt,
        &camt(&[("FR76X", "EUR", "100.00", "CRDT"), ("FR76X", "USD", "30.00", "DBIT")]),
        None,
    )
    .unwrap();
    let names: Vec<(&str, Option<&str>)> =
        f.accounts.iter().map(|a| (a.name.as_str(), a.currency.as_deref())).collect();
    assert_eq!(names, [("FR76X EUR", Some("EUR")), ("FR76X USD", Some("USD"))]);

    let sgml = "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><ACCTID>A1</BANKACCTFROM><BANKTRANLIST>\
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260302<TRNAMT>-5.00<FITID>1<NAME>CAFE\
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260303<TRNAMT>-6.00<FITID>2<NAME>PAIN\
        <STMTRS><CURDEF>EUR<BANKACCTFROM><ACCTID>B2</BANKACCTFROM><BANKTRANLIST>\
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260304<TRNAMT>-7.00<FITID>3<NAME>LIVRE</OFX>";
    let s = ofx::parse(sgml.as_bytes()).unwrap();
    let rows: Vec<(&str, Option<&str>)> =
        s.rows.iter().map(|r| (r.label.as_str(), r.account.as_deref())).collect();
    assert_eq!(rows, [("CAFE", Some("A1")), ("PAIN", Some("A1")), ("LIVRE", Some("B2"))]);

    let one = "Date;Libellé;Montant;Solde\n02/03/2026;CB CAFE;-5,00;95,00\n";
    assert_eq!(csv::parse(one.as_bytes()).unwrap().stated, None, "one balance proves nothing");

    let stated = backend::import::Stated { opening: Some((d(2026, 3, 10), 10_000)), ..Default::default() };
    let row = |day: u32, minor: i64| backend::import::Row {
        line: 1,
        date: d(2026, 3, day),
        amount_minor: minor,
        label: "X".into(),
        external_id: None,
        account: None,
    };
    let rows = [row(5, -1_000), row(12, -500)];
    assert_eq!(backend::import::opening_of(&stated, &rows), Some((d(2026, 3, 5), 11_000)));

    // Two accounts of a QIF file, both with a 2,00 fee on the same day, into one account:
    // two fees.
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    let qif = "!Account\nNCompte\nTBank\n^\n!Type:Bank\nD03/02/2026\nT-2,00\nPFRAIS\n^\n\
               !Account\nNLivret\nTBank\n^\n!Type:Bank\nD03/02/2026\nT-2,00\nPFRAIS\n^\n";
    let id = imports.upload(alice, "deux.qif", qif.as_bytes().to_vec()).await.unwrap();
    let both = Target::Split(vec![Target::New("Tout".into()), Target::New("Tout".into())]);
    let r = run(&imports, alice, &id, both).await;
    assert_eq!((r.read, r.added, r.duplicates), (2, 2, 0));
}

/// N26's 2024 export: a fee names no partner; its label is its payment reference.
#[test]
fn a_line_without_its_label_takes_the_other_one() {
    let text = "\"Booking Date\",\"Value Date\",\"Partner Name\",\"Partner Iban\",Type,\"Payment Reference\",\"Account Name\",\"Amount (EUR)\",\"Original Amount\",\"Original Currency\",\"Exchange Rate\"\n\
        2025-01-05,,\"SP HYPERX DE\",,Presentment,,\"Main Account\",-42.90,,,\n\
        2025-01-31,,,,Fee,\"Monthly fee Metal\",\"Main Account\",-16.90,,,\n";
    let p = csv::parse(text.as_bytes()).unwrap();
    assert_eq!(p.mapping.layout.as_deref(), Some("N26 (2024)"));
    let rows: Vec<(&str, i64)> = p.rows.iter().map(|r| (r.label.as_str(), r.amount_minor)).collect();
    assert_eq!(rows, [("SP HYPERX DE", -4_290), ("Monthly fee Metal", -1_690)]);
}
