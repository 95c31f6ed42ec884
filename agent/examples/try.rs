#![allow(clippy::unwrap_used)]
use agent::{Context, Date, ParseOutcome, Parser, Vocabulary};
use std::io::BufRead;
fn main() {
    let mut vocab: Vocabulary =
        serde_json::from_str(include_str!("../../backend/demo/vocabulary.json")).unwrap();
    // The corpus's datasets too, so analyst questions read as in the corpus test.
    vocab.datasets = agent::datasets::DatasetShape::declared_in(include_str!("../tests/corpus.txt"));
    let p = Parser::new(vocab);
    let today = Date::new(2026, 11, 29).unwrap();
    // TRY_WIDTH=0 prints the whole arguments.
    let width = std::env::var("TRY_WIDTH").ok().and_then(|w| w.parse().ok()).unwrap_or(120usize);
    let width = if width == 0 { usize::MAX } else { width };
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let o = p.parse(&line, &Context { today, locale: None, previous: None });
        match o {
            ParseOutcome::Plan(pl) => println!(
                "{:<60} | {} {:?} {} {} | {}",
                line,
                pl.meta.confidence.as_str(),
                pl.meta.locale,
                pl.call.name(),
                pl.call.period().map(|p| format!("{}..{}", p.start, p.end)).unwrap_or_default(),
                serde_json::to_string(&serde_json::to_value(&pl.call).unwrap()["args"])
                    .unwrap()
                    .chars()
                    .filter(|_| true)
                    .collect::<String>()
                    .replace("\"period\":", "")
                    .chars()
                    .take(width)
                    .collect::<String>()
                    + &pl
                        .meta
                        .confidence_reasons
                        .iter()
                        .map(|r| match r.code.as_str() {
                            "unrecognized_words" | "unplaced_meaning" => format!(" [{}]", r.text),
                            code => format!(" {code}"),
                        })
                        .collect::<String>()
            ),
            ParseOutcome::Clarification(c) => println!(
                "{:<60} | clarify {:?} {:?}",
                line,
                c.reasons.iter().map(|r| r.code.as_str()).collect::<Vec<_>>(),
                c.suggestions.iter().map(|s| s.label.as_str()).collect::<Vec<_>>()
            ),
        }
    }
}
