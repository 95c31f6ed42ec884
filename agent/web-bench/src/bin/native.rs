//! The browser measurement's harness run natively, for comparison with the same
//! corpus, contexts and batching: `cargo run -p parser-web-bench --release --bin native`.

use std::time::Instant;

use parser_web_bench::{measure, Settings};

fn main() {
    let corpus = include_str!("../../../tests/corpus.txt");
    let vocabulary = include_str!("../../../../backend/demo/vocabulary.json");
    let start = Instant::now();
    let mut now = move || start.elapsed().as_secs_f64() * 1e3;
    match measure(corpus, vocabulary, Settings::default(), &mut now) {
        Ok(report) => print!("{}", report.render("native (x86_64, release)")),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
