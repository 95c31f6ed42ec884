//! Prints what the parser gets on a blind set, and every message it gets wrong (`-v`:
//! also each complete message it does not answer at high):
//! `cargo run -q -p agent --example blind -- agent/tests/blind/2026-11-29-c.txt [-v]`.
//! The measure itself is `tests/it/blind.rs`.

#[path = "../tests/it/blind.rs"]
mod blind;

use agent::{Parser, Vocabulary};

const VOCABULARY: &str = include_str!("../../backend/demo/vocabulary.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: blind FILE [-v]")?;
    let verbose = args.next().is_some_and(|a| a == "-v");
    let text = std::fs::read_to_string(&path)?;
    let parser = Parser::new(serde_json::from_str::<Vocabulary>(VOCABULARY)?);
    let f = blind::measure(&parser, &text);
    println!("{path}: {}", f.summary());
    if !f.wrong.is_empty() {
        println!("\nwrong ({}):", f.wrong.len());
        for w in &f.wrong {
            println!("  {w}");
        }
    }
    if verbose && !f.missed.is_empty() {
        println!("\nnot answered at high ({}):", f.missed.len());
        for m in &f.missed {
            println!("  {m}");
        }
    }
    Ok(())
}
