//! Every name, title, label and pattern a person gives Sou refuses control characters
//! (NUL, ESC, C0, C1, DEL) and bidirectional controls (U+202A–U+202E, U+2066–U+2069,
//! U+200E, U+200F, U+061C) with an error the person can read, and stores nothing: the
//! conversation title, the rule pattern, the new account of an import, the dataset's
//! file. (Account names and API token labels: the `auth` module.)

use agent::protocol::ChatEvent;
use agent::Locale;
use backend::RuleError;
use backend::{BackendError, ChatRequest, Sou, Store, UserId};
use backend::{ImportError, Imports, Target};
use futures::StreamExt;

/// One of each kind, inside otherwise ordinary text.
const HOSTILE: [&str; 7] = [
    "Courses\u{0}janvier",
    "Courses \u{1b}[31mjanvier",
    "Courses\u{7f}janvier",
    "Courses\u{9b}janvier",
    "Courses \u{202E}reivnaj",
    "Courses \u{2066}janvier\u{2069}",
    "Courses \u{200F}janvier \u{061C}",
];

async fn store() -> (tempfile::TempDir, Store, UserId) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let alice = store.ensure_user("alice").await.unwrap();
    backend::demo::seed(&store, alice).await.unwrap();
    (dir, store, alice)
}

#[tokio::test]
async fn conversation_titles() {
    let (_dir, store, alice) = store().await;
    let sou = Sou::new(store, chrono_tz::UTC);
    let message = "Quel est mon\nsolde \u{202E}?\u{1b}";
    let req = ChatRequest { message: message.into(), conversation_id: None, plan: None, locale: None };
    let stream = sou.chat(alice, req).await.unwrap();
    let id = stream.conversation_id.clone();
    let _: Vec<ChatEvent> = stream.events.collect().await;
    let list = sou.conversations().list(alice, 10).await.unwrap();
    assert_eq!(list[0].title, "Quel est mon solde ?", "a title made from a message drops them");

    for title in HOSTILE {
        let e = sou.conversations().rename(alice, &id, title).await.unwrap_err();
        assert!(
            matches!(&e, BackendError::BadRequest(m) if m == "a title may not contain control or text-direction characters"),
            "{title:?}: {e:?}"
        );
    }
    assert_eq!(sou.conversations().list(alice, 10).await.unwrap()[0].title, "Quel est mon solde ?");
    sou.conversations().rename(alice, &id, "Solde — été 2025").await.unwrap();
}

#[tokio::test]
async fn rule_patterns() {
    let (_dir, store, alice) = store().await;
    for pattern in HOSTILE {
        let e = backend::Rules::new(store.clone())
            .create(alice, (pattern, "groceries"), Locale::En)
            .await
            .unwrap_err();
        assert!(matches!(e, RuleError::PatternCharacters), "{pattern:?}: {e:?}");
        assert_eq!(e.code(), "pattern_characters");
        assert_eq!(
            RuleError::message(e.code(), Locale::En),
            "The pattern may not contain control or text-direction characters."
        );
    }
    assert!(backend::Rules::new(store.clone()).list(alice, Locale::En).await.unwrap().is_empty());
    // Tabs and line breaks between words are spaces, as before.
    let p = backend::Rules::new(store.clone())
        .create(alice, ("carrefour\tcity\n", "groceries"), Locale::En)
        .await
        .unwrap();
    assert_eq!(p.rule.pattern, "carrefour city");
}

#[tokio::test]
async fn new_account_names_of_an_import() {
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    let csv = "Date;Libellé;Montant\n02/01/2026;CB CARREFOUR;-12,50\n";
    let id = imports.upload(alice, "releve.csv", csv.as_bytes().to_vec()).await.unwrap();
    for name in HOSTILE {
        let e = imports.start(alice, &id, None, Target::New(name.into())).await.unwrap_err();
        assert!(matches!(e, ImportError::AccountNameCharacters), "{name:?}: {e:?}");
        assert!(e.is_users());
        assert_eq!(
            e.message(Locale::En),
            "An account name may not contain control or text-direction characters."
        );
    }
    let accounts: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM accounts WHERE user_id = $1 AND name LIKE 'Courses%'")
            .bind(alice.0)
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(accounts, 0);
}

#[tokio::test]
async fn dataset_file_names() {
    let (_dir, store, alice) = store().await;
    let csv = b"region;amount\nNord;12\n";
    for name in HOSTILE {
        let file = format!("{name}.csv");
        let e = backend::testing::datasets::create(&store, alice, &file, csv).await.unwrap_err();
        assert!(matches!(e, backend::DatasetError::FileName), "{file:?}: {e:?}");
        assert!(e.is_users());
        assert!(e.message(Locale::Fr).starts_with("Le nom du fichier ne peut pas contenir"), "{e}");
    }
    assert!(backend::testing::datasets::list(&store, alice).await.unwrap().is_empty());
    let info = backend::testing::datasets::create(&store, alice, "Ventes été.csv", csv).await.unwrap();
    assert_eq!(info.file_name, "Ventes été.csv");
}

/// A bank file's name is the bank's, not a choice: it is kept without the characters
/// (the file is not refused for its name), so the list of imports shows no reordered
/// text.
#[tokio::test]
async fn bank_file_names_lose_them() {
    let (_dir, store, alice) = store().await;
    let imports = Imports::new(store.clone());
    let csv = "Date;Libellé;Montant\n02/01/2026;CB CARREFOUR;-12,50\n";
    for name in HOSTILE {
        imports.upload(alice, &format!("{name}.csv"), csv.as_bytes().to_vec()).await.unwrap();
    }
    let listed = imports.list(alice).await.unwrap();
    assert_eq!(listed.len(), HOSTILE.len());
    for summary in listed {
        assert!(agent::text::hidden_control(&summary.file_name).is_none(), "{:?}", summary.file_name);
        assert!(summary.file_name.starts_with("Courses"), "{:?}", summary.file_name);
    }
}
