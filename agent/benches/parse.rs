//! Parse time per message over the corpus, against a baseline measured in the same
//! run: tokenising the message (one pass of lower-casing and accent folding).
//! `cargo bench -p agent --bench parse`. Prints numbers; asserts nothing.

use std::hint::black_box;
use std::time::Instant;

use agent::{Context, Date, Parser, Vocabulary};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn per_message_ns(messages: &[&str], rounds: usize, mut f: impl FnMut(&str)) -> Vec<f64> {
    let mut times = Vec::with_capacity(messages.len());
    for m in messages {
        let start = Instant::now();
        for _ in 0..rounds {
            f(black_box(m));
        }
        times.push(start.elapsed().as_nanos() as f64 / rounds as f64);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    times
}

fn main() {
    let vocab: Vocabulary = match serde_json::from_str(include_str!("../../backend/demo/vocabulary.json")) {
        Ok(v) => v,
        Err(e) => return eprintln!("vocabulary: {e}"),
    };
    let corpus = include_str!("../tests/corpus.txt");
    let messages: Vec<&str> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("today "))
        .filter_map(|l| l.rsplit_once("=>").map(|(m, _)| m.trim().trim_start_matches("+ ")))
        .collect();
    // The corpus's datasets, for a parser that also reads analyst questions.
    let datasets = agent::datasets::DatasetShape::declared_in(corpus);
    let with_datasets = Parser::new(Vocabulary { datasets: datasets.clone(), ..vocab.clone() });
    let build = Instant::now();
    let parser = Parser::new(vocab);
    let build_us = build.elapsed().as_secs_f64() * 1e6;
    let today = Date::new(2026, 11, 21).unwrap_or_else(|| Date::from_days(0));
    let cx = Context { today, locale: None, previous: None };
    let rounds = 200;
    // Warm up caches and the allocator.
    for m in &messages {
        black_box(parser.parse(m, &cx));
    }
    let base = per_message_ns(&messages, rounds, |m| {
        black_box(agent::text::tokenize(m));
    });
    let parse = per_message_ns(&messages, rounds, |m| {
        black_box(parser.parse(m, &cx));
    });
    let parse_datasets = per_message_ns(&messages, rounds, |m| {
        black_box(with_datasets.parse(m, &cx));
    });
    println!(
        "messages: {} (corpus), rounds per message: {rounds}, parser build: {build_us:.1} µs",
        messages.len()
    );
    println!("{:<22} {:>10} {:>10} {:>10}", "", "median", "p99", "max");
    let with = format!("parse, {} datasets", datasets.len());
    for (name, t) in [("tokenize (baseline)", &base), ("parse", &parse), (with.as_str(), &parse_datasets)] {
        println!(
            "{name:<22} {:>8.2}µs {:>8.2}µs {:>8.2}µs",
            percentile(t, 0.5) / 1e3,
            percentile(t, 0.99) / 1e3,
            percentile(t, 1.0) / 1e3
        );
    }
    for (name, t) in [("parse", &parse), (with.as_str(), &parse_datasets)] {
        println!(
            "ratio {name}/baseline: median {:.1}x, p99 {:.1}x",
            percentile(t, 0.5) / percentile(&base, 0.5),
            percentile(t, 0.99) / percentile(&base, 0.99)
        );
    }
}
