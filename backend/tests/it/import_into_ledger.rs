//! Bank files into the ledger (SQLite; the HTTP tests run the same on PostgreSQL):
//! upload, preview, import in one transaction, duplicates skipped on a second import,
//! merchants and categories given, rules proposed then applied on approval, one
//! user's uploads invisible to another.

use agent::imports::{AmountColumns, DateOrder, Encoding, Format, ImportReport, ImportState};
use agent::Locale;
use backend::{Chosen, ImportError, Imports, Layout, Target};
use backend::{Store, UserId};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

async fn store() -> (tempfile::TempDir, Store, UserId, UserId) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    (dir, store, alice, bob)
}

/// Waits for the import to end; its state then.
async fn finished(imports: &Imports, user: UserId, id: &str) -> ImportState {
    for _ in 0..500 {
        match imports.state(user, id, Locale::En).await.unwrap() {
            ImportState::Running { .. } => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            other => return other,
        }
    }
    panic!("the import did not end in 5 s");
}

/// Starts the upload `id`'s import into `target` and waits for its report.
async fn started(imports: &Imports, user: UserId, id: &str, target: Target) -> ImportReport {
    imports.start(user, id, None, target).await.unwrap();
    match finished(imports, user, id).await {
        ImportState::Done(report) => report,
        other => panic!("{id}: {other:?}"),
    }
}

async fn import(imports: &Imports, user: UserId, file: &str, target: Target) -> ImportReport {
    let id = imports.upload(user, file, fixture(file)).await.unwrap();
    started(imports, user, &id, target).await
}

async fn count(store: &Store, user: UserId, sql_where: &str) -> i64 {
    let mut db = store.tenant(user).await.unwrap();
    let n: i64 =
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM transactions WHERE user_id = $1 {sql_where}"))
            .bind(user.0)
            .fetch_one(&mut *db)
            .await
            .unwrap();
    db.commit().await.unwrap();
    n
}

#[tokio::test]
async fn a_french_csv_previewed_imported_then_imported_again() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "releve janvier.csv", fixture("fr-banque-latin1.csv")).await.unwrap();

    let view = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    assert_eq!((view.format, view.encoding), (Format::Csv, Encoding::Windows1252));
    let m = view.mapping.clone().unwrap();
    assert_eq!((m.delimiter, m.order, m.decimal), (';', DateOrder::Dmy, ','));
    assert_eq!(m.amounts, AmountColumns::DebitCredit { debit: 3, credit: 4 });
    assert_eq!(view.columns[2], ("Libellé".to_string(), "CB CARREFOUR CITY 31/12".to_string()));
    assert_eq!((view.total_rows, view.rejected.len(), view.duplicates), (4, 3, 0));
    assert_eq!(view.state, ImportState::Pending);
    assert_eq!(view.new_account_name, "releve janvier");
    let first = &view.rows[0];
    assert_eq!(first.merchant.as_deref(), Some("Carrefour"));
    assert_eq!(first.category.as_deref(), Some("Courses"));
    assert_eq!(first.amount.minor, -4567);
    assert_eq!(view.rows[2].merchant.as_deref(), Some("EDF"));
    assert_eq!(view.rows[1].merchant, None, "a transfer names no merchant");

    // A wrong layout is said, and the detected one shown instead.
    let bad = agent::imports::Mapping { date: 9, ..m.clone() };
    let v =
        imports.view(alice, &id, Layout::Given(Box::new(bad)), Chosen::default(), Locale::Fr).await.unwrap();
    assert!(v.mapping_error.unwrap().contains("column 10"));
    assert_eq!(v.total_rows, 4);

    imports.start(alice, &id, Some(m), Target::New("Compte BNP".into())).await.unwrap();
    let ImportState::Done(report) = finished(&imports, alice, &id).await else { panic!() };
    assert_eq!((report.read, report.added, report.duplicates, report.rejected.len()), (4, 4, 0, 3));
    assert_eq!(report.account, "Compte BNP");
    assert_eq!(count(&store, alice, &format!("AND import_batch = '{id}'")).await, 4);
    assert_eq!(
        count(&store, alice, "AND category_id = (SELECT id FROM categories WHERE key = 'groceries' AND user_id = transactions.user_id)").await,
        1
    );
    // Done: the file is gone, the report stays; starting again is refused.
    assert!(matches!(
        imports.start(alice, &id, None, Target::New("x".into())).await,
        Err(ImportError::AlreadyImported)
    ));
    let list = imports.list(alice).await.unwrap();
    assert_eq!((list.len(), list[0].added), (1, Some(4)));

    // The same file again, into the same account: every row is already there.
    let again = imports.upload(alice, "copie.csv", fixture("fr-banque-latin1.csv")).await.unwrap();
    let v = imports
        .view(alice, &again, Layout::Detected, Chosen::account("compte_bnp"), Locale::En)
        .await
        .unwrap();
    assert_eq!((v.duplicates, v.account.as_deref()), (4, Some("compte_bnp")));
    assert!(v.rows.iter().all(|r| r.duplicate));
    assert_eq!(v.rows[0].category.as_deref(), Some("Groceries"));
    let r = started(&imports, alice, &again, Target::Existing("compte_bnp".into())).await;
    assert_eq!((r.added, r.duplicates), (0, 4));
    assert_eq!(count(&store, alice, "").await, 4);
}

#[tokio::test]
async fn an_overlapping_file_adds_only_what_is_new() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let r = import(&imports, alice, "en-bank.csv", Target::New("Checking".into())).await;
    assert_eq!((r.added, r.duplicates, r.rejected.len()), (3, 0, 1));
    // The next month's export overlaps the last line and adds two.
    let text = String::from_utf8(fixture("en-bank.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let next = format!(
        "{}\n{}\n02/03/2026,TESCO STORES 2231,-23.10,\"3,270.15\"\n02/03/2026,TESCO STORES 2231,-23.10,\"3,247.05\"\n",
        lines[0], lines[3]
    );
    let id = imports.upload(alice, "february.csv", next.into_bytes()).await.unwrap();
    let r = started(&imports, alice, &id, Target::Existing("checking".into())).await;
    assert_eq!((r.read, r.added, r.duplicates), (3, 2, 1), "two identical lines the same day are two");
    assert_eq!(count(&store, alice, "").await, 5);
}

/// A bank id used twice inside one file (a deposit and a payment; two identical card
/// payments): the preview promises five new lines, the import adds five into a new
/// account, and the same file again adds none.
#[tokio::test]
async fn a_bank_id_used_twice_in_one_file_loses_no_line() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "cic.ofx", fixture("ofx-fitid-repete.ofx")).await.unwrap();
    let view = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    assert_eq!((view.total_rows, view.duplicates), (5, 0));
    let r = started(&imports, alice, &id, Target::New("CIC".into())).await;
    assert_eq!((r.read, r.added, r.duplicates), (5, 5, 0), "the preview's count is the import's");
    assert_eq!(count(&store, alice, "").await, 5);
    let again = imports.upload(alice, "cic bis.ofx", fixture("ofx-fitid-repete.ofx")).await.unwrap();
    let v = imports.view(alice, &again, Layout::Detected, Chosen::account("cic"), Locale::Fr).await.unwrap();
    assert_eq!(v.duplicates, 5);
    let r = started(&imports, alice, &again, Target::Existing("cic".into())).await;
    assert_eq!((r.added, r.duplicates), (0, 5));
    assert_eq!(count(&store, alice, "").await, 5);
}

/// A file without a header and two columns of money (euros and francs, as old exports
/// gave): Sou does not pick one silently — the preview names both, the import waits,
/// and the layout the user sends back is imported.
#[tokio::test]
async fn an_unsure_amount_column_waits_for_the_user() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "ancien.csv", fixture("sans-entete-deux-montants.csv")).await.unwrap();
    let view = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    let m = view.mapping.clone().unwrap();
    assert_eq!(m.unsure_amount, [3, 2]);
    assert!(matches!(
        imports.start(alice, &id, Some(m.clone()), Target::New("Ancien".into())).await,
        Err(ImportError::LayoutUnsure)
    ));
    assert!(matches!(
        imports.start(alice, &id, None, Target::New("Ancien".into())).await,
        Err(ImportError::LayoutUnsure)
    ));
    assert_eq!(count(&store, alice, "").await, 0, "nothing imported while unsure");
    // Choosing the account or the decimal mark does not answer the question.
    let other = agent::imports::LayoutEdit { decimal: Some(",".into()), ..Default::default() };
    let v = imports.view(alice, &id, Layout::Edited(&other), Chosen::default(), Locale::Fr).await.unwrap();
    assert!(!v.mapping.unwrap().is_sure());
    // The user says the euros are in column 3 (counting from 1).
    let edit =
        agent::imports::LayoutEdit { amounts: Some("signed".into()), amount: Some(3), ..Default::default() };
    let v = imports.view(alice, &id, Layout::Edited(&edit), Chosen::default(), Locale::Fr).await.unwrap();
    let chosen = v.mapping.clone().unwrap();
    assert!(chosen.is_sure());
    assert_eq!(v.rows[0].amount.minor, -4_567);
    imports.start(alice, &id, Some(chosen), Target::New("Ancien".into())).await.unwrap();
    let ImportState::Done(report) = finished(&imports, alice, &id).await else { panic!() };
    assert_eq!((report.read, report.added), (3, 3));
    assert_eq!(count(&store, alice, "AND amount_minor = -4567").await, 1);
}

#[tokio::test]
async fn ofx_and_camt_statements_with_their_currency() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let r = import(&imports, alice, "releve-camt053.xml", Target::New("Compte courant".into())).await;
    assert_eq!((r.added, r.rejected.len()), (3, 2));
    let r = import(&imports, alice, "releve-ofx1-sgml.ofx", Target::Existing("compte_courant".into())).await;
    assert_eq!((r.added, r.duplicates, r.rejected.len()), (3, 0, 2), "other bank ids than the CAMT file's");
    // A file in dollars is refused for an account in euros, with the reason.
    let id = imports.upload(alice, "card.qfx", fixture("card-ofx2.qfx")).await.unwrap();
    assert_eq!(
        imports
            .view(alice, &id, Layout::Detected, Chosen::default(), Locale::En)
            .await
            .unwrap()
            .currency
            .as_deref(),
        Some("USD")
    );
    imports.start(alice, &id, None, Target::Existing("compte_courant".into())).await.unwrap();
    let ImportState::Failed { message } = finished(&imports, alice, &id).await else { panic!() };
    assert_eq!(
        message,
        "The file is in USD and the account “Compte courant” in EUR: choose another account."
    );
    assert_eq!(count(&store, alice, &format!("AND import_batch = '{id}'")).await, 0);
    // Into a new account it goes, in dollars.
    let r = started(&imports, alice, &id, Target::New("Visa".into())).await;
    assert!(r.added > 0);
    assert_eq!(count(&store, alice, "AND currency = 'USD'").await, r.added as i64);
    let r = import(&imports, alice, "fr-bank.qif", Target::New("Livret".into())).await;
    assert!(r.added > 0);
}

#[tokio::test]
async fn unreadable_files_are_refused_with_the_reason() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    for (file, want) in [
        ("pas-un-releve.txt", "no column of dates"),
        ("faux.ofx", "not an OFX file"),
        ("faux.qif", "not a bank"),
        ("camt-casse.xml", "line 24"),
    ] {
        let e = imports.upload(alice, file, fixture(file)).await.unwrap_err();
        assert!(e.message(Locale::En).contains(want), "{file}: {}", e.message(Locale::En));
        assert!(e.message(Locale::Fr).starts_with("Sou n'a pas pu lire ce fichier"), "{file}");
    }
    let e = imports.upload(alice, "vide.csv", Vec::new()).await.unwrap_err();
    assert_eq!(e.message(Locale::Fr), "Le fichier est vide.");
    let big = vec![b'a'; backend::MAX_IMPORT_BYTES + 1];
    assert!(matches!(imports.upload(alice, "big.csv", big).await, Err(ImportError::TooLarge)));
    let list = imports.list(alice).await.unwrap();
    assert!(list.is_empty(), "nothing kept of a refused file");
}

/// A failure in the middle leaves nothing: not one row, and the upload still pending.
#[tokio::test]
async fn nothing_is_half_imported() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "a.csv", fixture("fr-banque-latin1.csv")).await.unwrap();
    sqlx::query(
        "CREATE TRIGGER third_row_fails AFTER INSERT ON transactions
         WHEN (SELECT COUNT(*) FROM transactions WHERE import_batch = NEW.import_batch) >= 3
         BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    )
    .execute(store.pool())
    .await
    .unwrap();
    imports.start(alice, &id, None, Target::New("Compte".into())).await.unwrap();
    let ImportState::Failed { message } = finished(&imports, alice, &id).await else { panic!() };
    assert_eq!(message, "Something went wrong on the server; nothing was imported, try again.");
    assert_eq!(count(&store, alice, "").await, 0);
    let accounts: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM accounts").fetch_one(store.pool()).await.unwrap();
    assert_eq!(accounts, 0, "the new account went with the rest");
    // Once the cause is gone, the same upload imports.
    sqlx::query("DROP TRIGGER third_row_fails").execute(store.pool()).await.unwrap();
    imports.start(alice, &id, None, Target::New("Compte".into())).await.unwrap();
    assert!(matches!(finished(&imports, alice, &id).await, ImportState::Done(r) if r.added == 4));
}

#[tokio::test]
async fn a_rule_is_proposed_then_applied_to_the_past_on_approval() {
    let (_dir, store, alice, bob) = store().await;
    let imports = Imports::new(store.clone());
    import(&imports, alice, "fr-banque-latin1.csv", Target::New("Compte".into())).await;
    let leisure = "AND category_id = (SELECT id FROM categories WHERE key = 'leisure' AND user_id = transactions.user_id)";
    assert_eq!(count(&store, alice, leisure).await, 0);

    let p = backend::Rules::new(store.clone())
        .create(alice, (" librairie ", "leisure"), Locale::Fr)
        .await
        .unwrap();
    assert_eq!((p.rule.pattern.as_str(), p.rule.category.as_str()), ("librairie", "Loisirs"));
    assert_eq!((p.matching, p.changing), (1, 1));
    assert_eq!(p.sample[0].1, "CB LIBRAIRIE ÉLÉGANTE");
    assert_eq!(count(&store, alice, leisure).await, 0, "nothing changes before approval");
    // Applied as the Rules page does: a write, recorded as a change that undoes.
    let sou = backend::Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let apply = agent::ToolCall::CreateRule(agent::CreateRuleArgs {
        pattern: p.rule.pattern.clone(),
        category: p.rule.category_key.clone(),
        apply_to_past: true,
    });
    let (change, n) = sou.approvals().write_now(alice, &apply, Locale::En).await.unwrap();
    assert_eq!(n, 1);
    assert_eq!(count(&store, alice, leisure).await, 1);
    sou.approvals().undo(alice, &change.id).await.unwrap();
    assert_eq!(count(&store, alice, leisure).await, 0, "undone");
    sou.approvals().write_now(alice, &apply, Locale::En).await.unwrap();
    assert_eq!(count(&store, alice, leisure).await, 1);
    assert_eq!(
        backend::Rules::new(store.clone()).proposal(alice, p.rule.id, Locale::En).await.unwrap().changing,
        0
    );

    // New imports follow the rule: the OFX file's bookshop is leisure at once.
    import(&imports, alice, "releve-ofx1-sgml.ofx", Target::New("Autre".into())).await;
    assert_eq!(count(&store, alice, leisure).await, 2);
    // The monthly roll-up followed every import, write and undo.
    assert_eq!(
        backend::testing::ledger_months_mismatches(&store, alice).await.unwrap(),
        Vec::<String>::new()
    );

    // Bad input is refused with the reason; another user sees nothing of the rule.
    let e = backend::Rules::new(store.clone()).create(alice, ("é", "leisure"), Locale::En).await.unwrap_err();
    assert!(e.to_string().contains("2 to 100 characters"));
    let e = backend::Rules::new(store.clone()).create(alice, ("lib", "nope"), Locale::En).await.unwrap_err();
    assert!(e.to_string().contains("does not exist"));
    assert!(backend::Rules::new(store.clone()).list(bob, Locale::En).await.unwrap().is_empty());
    assert!(backend::Rules::new(store.clone()).proposal(bob, p.rule.id, Locale::En).await.is_err());
    assert!(backend::Rules::new(store.clone()).delete(bob, p.rule.id).await.is_err());
    backend::Rules::new(store.clone()).delete(alice, p.rule.id).await.unwrap();
    assert!(backend::Rules::new(store.clone()).list(alice, Locale::En).await.unwrap().is_empty());
}

#[tokio::test]
async fn one_users_uploads_are_not_anothers() {
    let (_dir, store, alice, bob) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "a.csv", fixture("en-bank.csv")).await.unwrap();
    assert!(matches!(
        imports.view(bob, &id, Layout::Detected, Chosen::default(), Locale::En).await,
        Err(ImportError::NotFound)
    ));
    assert!(matches!(
        imports.start(bob, &id, None, Target::New("Mine".into())).await,
        Err(ImportError::NotFound)
    ));
    assert!(matches!(imports.discard(bob, &id).await, Err(ImportError::NotFound)));
    assert!(imports.list(bob).await.unwrap().is_empty());
    imports.discard(alice, &id).await.unwrap();
    assert!(imports.list(alice).await.unwrap().is_empty());
}

/// While an import holds the database's write lock (SQLite has one writer), the pages
/// still load: what they read never needs to write.
#[tokio::test]
async fn pages_load_while_an_import_writes() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "a.csv", fixture("fr-banque-latin1.csv")).await.unwrap();
    let mut writer = store.tenant(alice).await.unwrap();
    sqlx::query("UPDATE imports SET status = 'pending' WHERE id = $1")
        .bind(&id)
        .execute(&mut *writer)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let view = imports.view(alice, &id, Layout::Detected, Chosen::default(), Locale::Fr).await.unwrap();
    assert_eq!(view.rows[0].category.as_deref(), Some("Courses"));
    imports.list(alice).await.unwrap();
    imports.state(alice, &id, Locale::Fr).await.unwrap();
    backend::Rules::new(store.clone()).list(alice, Locale::Fr).await.unwrap();
    backend::Rules::new(store.clone()).categories(alice, Locale::Fr).await.unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "a page waited for the writer");
    writer.rollback().await.unwrap();
}

/// The progress an import reports moves: slowed down by a trigger (a counting loop per
/// row), a 500-row import is seen part-way, then done.
#[tokio::test]
async fn progress_is_reported_while_rows_are_written() {
    let (_dir, store, alice, _) = store().await;
    let imports = Imports::new(store.clone());
    let mut csv = String::from("Date;Libellé;Montant\n");
    for i in 0..500 {
        csv.push_str(&format!("{:02}/01/2026;CB CAFE {i};-3,50\n", i % 28 + 1));
    }
    let id = imports.upload(alice, "cafes.csv", csv.into_bytes()).await.unwrap();
    sqlx::query(
        "CREATE TRIGGER slow AFTER INSERT ON transactions BEGIN
             SELECT COUNT(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
                                   SELECT x FROM c);
         END",
    )
    .execute(store.pool())
    .await
    .unwrap();
    imports.start(alice, &id, None, Target::New("Compte".into())).await.unwrap();
    let mut seen = Vec::new();
    loop {
        match imports.state(alice, &id, Locale::En).await.unwrap() {
            ImportState::Running { done, total } => {
                assert_eq!(total, 500);
                if seen.last() != Some(&done) {
                    seen.push(done);
                }
            }
            ImportState::Done(r) => {
                assert_eq!(r.added, 500);
                break;
            }
            other => panic!("{other:?}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    println!("progress seen: {seen:?}");
    assert!(seen.iter().any(|&d| d > 0 && d < 500), "no progress seen part-way: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "progress went back: {seen:?}");
}

/// A statement of `rows` lines (each different), in a bank's export layout.
fn statement(rows: std::ops::Range<usize>) -> Vec<u8> {
    let mut csv = String::from(
        "dateOp;dateVal;label;category;categoryParent;supplierFound;amount;comment;accountNum;accountLabel;accountbalance\n",
    );
    for i in rows {
        let (day, month) = (1 + i % 28, 1 + (i / 28) % 12);
        csv.push_str(&format!(
            "2025-{month:02}-{day:02};2025-{month:02}-{day:02};\"CARTE ACHAT NUMERO {i}\";\"Divers\";\"Divers\";\"\";-{},{:02};;00040999999;\"Compte import\";\n",
            1 + i % 90,
            i % 100
        ));
    }
    csv.into_bytes()
}

/// Lines are written a few hundred per statement: a file longer than that, imported
/// again with more lines, adds only the new ones, counts the others as duplicates
/// whichever statement they were in, and leaves the roll-up equal to the rows.
async fn long_files_count_every_line(store: Store) {
    let alice = store.ensure_user("alice").await.unwrap();
    let imports = Imports::new(store.clone());
    let id = imports.upload(alice, "a.csv", statement(0..450)).await.unwrap();
    let first = started(&imports, alice, &id, Target::New("Compte import".into())).await;
    assert_eq!((first.added, first.duplicates), (450, 0));
    let id = imports.upload(alice, "b.csv", statement(390..900)).await.unwrap();
    let second = started(&imports, alice, &id, Target::New("Compte import".into())).await;
    assert_eq!((second.added, second.duplicates), (450, 60));
    assert_eq!(count(&store, alice, "").await, 900);
    let off = backend::testing::ledger_months_mismatches(&store, alice).await.unwrap();
    assert!(off.is_empty(), "{off:?}");
}

backend::on_both_databases!(long_files_on_sqlite, long_files_on_postgres, |store| {
    long_files_count_every_line(store)
});
