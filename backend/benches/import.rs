//! Reading and importing a bank export, against a baseline measured in the same run:
//! the `csv` crate reading the same bytes' records and nothing else. Prints numbers and
//! ratios; asserts nothing. `cargo bench -p backend --bench import` (`-- postgres`: the
//! import into a fresh PostgreSQL database at 127.0.0.1 instead of SQLite).

use std::hint::black_box;
use std::time::Instant;

use backend::import::{self, csv, dedupe_hashes, merchant};
use backend::Store;
use backend::{Imports, Target};

const ROWS: usize = 20_000;

/// A French bank's export: Windows-1252, `;`, a preamble, separate debit and credit.
fn export() -> Vec<u8> {
    let labels = [
        "CB CARREFOUR CITY",
        "PRLV SEPA EDF REF",
        "CB BOULANGERIE MARTIN",
        "CB SNCF CONNECT",
        "VIR SEPA SALAIRE ACME",
        "PAIEMENT PAR CARTE X4512 MONOPRIX PARIS",
        "CB LIBRAIRIE \u{c9}L\u{c9}GANTE",
        "RETRAIT DAB",
    ];
    let mut text = String::from(
        "Compte courant;;;;\nP\u{e9}riode;;;;\n;;;;\nDate;Date de valeur;Libell\u{e9};D\u{e9}bit euros;Cr\u{e9}dit euros\n",
    );
    for i in 0..ROWS {
        let (d, m) = (i % 28 + 1, i / 28 % 12 + 1);
        let label = labels[i % labels.len()];
        let (debit, credit) = if label.starts_with("VIR") {
            (String::new(), "2 345,00".to_string())
        } else {
            (format!("{},{:02}", i % 300 + 1, i % 100), String::new())
        };
        text.push_str(&format!(
            "{d:02}/{m:02}/2025;{d:02}/{m:02}/2025;{label} {d:02}/{m:02};{debit};{credit}\n"
        ));
    }
    // Latin-1 bytes, as the bank sends them.
    text.chars().map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect()
}

fn time<T>(label: &str, baseline: Option<f64>, rounds: u32, mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(f());
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds);
    match baseline {
        Some(b) => println!("{label:<46} {ms:>9.2} ms   {:>6.1}× baseline", ms / b),
        None => println!("{label:<46} {ms:>9.2} ms   (baseline)"),
    }
    ms
}

fn main() {
    let bytes = export();
    println!("{ROWS} rows, {} KB\n", bytes.len() / 1024);
    let base = time("baseline: csv crate, records only", None, 5, || {
        ::csv::ReaderBuilder::new()
            .delimiter(b';')
            .flexible(true)
            .has_headers(false)
            .from_reader(&bytes[..])
            .records()
            .count()
    });
    time("decode (Windows-1252)", Some(base), 5, || import::decode(&bytes));
    let parsed = match csv::parse(&bytes) {
        Ok(p) => p,
        Err(e) => return eprintln!("the export does not parse: {e}"),
    };
    time("csv::parse (detect layout, decode, read rows)", Some(base), 5, || {
        csv::parse(&bytes).map(|p| p.rows.len())
    });
    let matcher = merchant::Matcher::new(&[]);
    time("merchants recognised, every label", Some(base), 5, || {
        parsed.rows.iter().filter(|r| matcher.recognise(&r.label).is_some()).count()
    });
    time("dedupe_hashes", Some(base), 5, || dedupe_hashes(&parsed.rows).len());

    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => return eprintln!("runtime: {e}"),
    };
    let postgres = std::env::args().any(|a| a == "postgres");
    runtime.block_on(async {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => return eprintln!("tempdir: {e}"),
        };
        let fresh = match postgres {
            true => match backend::testing::FreshDatabase::create().await {
                Ok(db) => Some(db),
                Err(e) => return eprintln!("PostgreSQL at 127.0.0.1: {e}"),
            },
            false => None,
        };
        let opened = match &fresh {
            Some(db) => db.open_store().await,
            None => Store::open_in(dir.path()).await,
        };
        let store = match opened {
            Ok(s) => s,
            Err(e) => return eprintln!("store: {e}"),
        };
        let Ok(user) = store.ensure_user("bench").await else { return eprintln!("no user") };
        let imports = Imports::new(store.clone());
        let Ok(id) = imports.upload(user, "export.csv", bytes.clone()).await else {
            return eprintln!("the upload failed");
        };
        let file = match import::read(import::Format::Csv, &bytes, None) {
            Ok(f) => f,
            Err(e) => return eprintln!("read: {e}"),
        };
        let start = Instant::now();
        match imports.run(user, &id, file, Target::New("Compte".into())).await {
            Ok(report) => {
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                println!(
                    "{:<46} {ms:>9.2} ms   {:>6.1}× baseline ({:.0} rows/s, one transaction, {})",
                    "import into the store",
                    ms / base,
                    report.added as f64 / (ms / 1000.0),
                    if postgres { "PostgreSQL" } else { "SQLite" }
                );
            }
            Err(e) => eprintln!("import: {e}"),
        }
        store.pool().close().await;
        if let Some(db) = fresh {
            db.drop().await;
        }
    });
}
