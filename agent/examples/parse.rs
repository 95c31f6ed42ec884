//! Prints what the parser makes of messages, with the demo vocabulary:
//! `cargo run -q -p agent --example parse -- "courses hors Picard en 2025" "…"`.
//! Today is 2026-11-21, as in the corpus.

use agent::{Context, Date, ParseOutcome, Parser, Vocabulary};

const VOCABULARY: &str = include_str!("../../backend/demo/vocabulary.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let vocab: Vocabulary = serde_json::from_str(VOCABULARY)?;
    let parser = Parser::new(vocab);
    let today = Date::new(2026, 11, 21).ok_or("date")?;
    for message in std::env::args().skip(1) {
        let cx = Context { today, locale: None, previous: None };
        let outcome = parser.parse(&message, &cx);
        println!("{message}");
        if let Some(plan) = parser.plan_steps(&message, &cx) {
            println!("  a plan of {} steps ({}):", plan.steps.len(), plan.confidence.as_str());
            for (i, s) in plan.steps.iter().enumerate() {
                println!("  {}. {} — {}", i + 1, s.title, s.why);
            }
        }
        match outcome {
            ParseOutcome::Plan(p) => {
                println!("  {} ({})", parser.describe(&p.call, p.meta.locale), p.meta.confidence.as_str());
                for r in &p.meta.confidence_reasons {
                    println!("  - {}: {}", r.code.as_str(), r.text);
                }
            }
            ParseOutcome::Clarification(c) => {
                println!("  ? {}", c.question);
                for r in &c.reasons {
                    println!("  - {}: {}", r.code.as_str(), r.text);
                }
                for s in &c.suggestions {
                    println!("  > {}", s.label);
                }
            }
        }
    }
    Ok(())
}
