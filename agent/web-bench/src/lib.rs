//! Parse time per message of the labelled corpus (`agent/tests/corpus.txt`), measured
//! where the parser runs for users: WebAssembly in a browser. A baseline measured in the
//! same run — `agent::text::tokenize`, one pass of lower-casing and accent folding — makes
//! the figures comparable across machines and browsers.
//!
//! Each message is parsed the way `agent/tests/it/corpus.rs` parses it: `today` lines set
//! the date, a `+ ` line is a follow-up whose context is the previous line's plan.
//!
//! Browsers coarsen `performance.now()` (Chromium: 100 µs unless the page is
//! cross-origin isolated, then 5 µs), so a message is timed over a batch of `rounds`
//! calls long enough for the clock, and the time per call is the batch time divided by
//! `rounds`; the median of several batches is kept.
//!
//! This crate is a measuring tool run by `scripts/measure-parser.sh`; nothing in the app
//! depends on it. The timing logic takes the clock as a closure so it runs natively too
//! (`cargo run -p parser-web-bench --release --bin native`).

use std::hint::black_box;

use agent::{Context, Date, ParseOutcome, Parser, ToolCallPlan, Vocabulary};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The date relative words resolve against until a `today` line says otherwise, as in
/// `agent/tests/it/corpus.rs`.
const DEFAULT_TODAY: (i32, u32, u32) = (2026, 11, 21);

/// One corpus message with the context the corpus test parses it in.
#[derive(Clone, Debug)]
pub struct Case {
    pub line: usize,
    pub message: String,
    pub today: Date,
    /// The line starts with `+ `.
    pub follow_up: bool,
    /// For a follow-up, the previous line's plan (none if it was a clarification).
    pub previous: Option<ToolCallPlan>,
}

impl Case {
    fn context(&self) -> Context<'_> {
        Context { today: self.today, locale: None, previous: self.previous.as_ref() }
    }
}

/// Reads the corpus as `agent/tests/it/corpus.rs` does; the parser supplies each
/// follow-up's previous plan.
pub fn cases(corpus: &str, parser: &Parser) -> Result<Vec<Case>, String> {
    let mut today = default_today()?;
    let mut previous: Option<ToolCallPlan> = None;
    let mut cases = Vec::new();
    for (n, line) in corpus.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(d) = line.strip_prefix("today ") {
            today = Date::parse_iso(d.trim()).ok_or_else(|| format!("line {}: bad date {d:?}", n + 1))?;
            continue;
        }
        // Datasets are in the vocabulary `measure` builds.
        if line.starts_with("dataset ") {
            continue;
        }
        let (message, _expected) = line.rsplit_once("=>").ok_or_else(|| format!("line {}: no =>", n + 1))?;
        let (message, follow_up) = match message.strip_prefix("+ ") {
            Some(m) => (m.trim(), true),
            None => (message.trim(), false),
        };
        let case = Case {
            line: n + 1,
            message: message.to_string(),
            today,
            follow_up,
            previous: if follow_up { previous.take() } else { None },
        };
        previous = parser.parse(&case.message, &case.context()).plan().cloned();
        cases.push(case);
    }
    if cases.is_empty() {
        return Err("the corpus has no message".to_string());
    }
    Ok(cases)
}

fn default_today() -> Result<Date, String> {
    let (y, m, d) = DEFAULT_TODAY;
    Date::new(y, m, d).ok_or_else(|| "invalid default date".to_string())
}

/// How long to time each message.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Settings {
    /// A batch of calls lasts at least this long (milliseconds).
    pub min_batch_ms: f64,
    /// Batches timed per message after calibration; their median is kept.
    pub batches: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { min_batch_ms: 2.0, batches: 5 }
    }
}

/// Time per call of `f`, in microseconds, and the batch size used. `now` is a clock in
/// milliseconds (`performance.now()` in a browser).
pub fn time_per_call(now: &mut dyn FnMut() -> f64, settings: Settings, f: &mut dyn FnMut()) -> (f64, u64) {
    let min_batch = settings.min_batch_ms.max(0.01);
    let batch = |now: &mut dyn FnMut() -> f64, f: &mut dyn FnMut(), rounds: u64| {
        let start = now();
        for _ in 0..rounds {
            f();
        }
        now() - start
    };
    // Calibrate: grow the batch until it lasts `min_batch` (with a 20% margin on the
    // estimate, at most 100× per step).
    let mut rounds: u64 = 1;
    loop {
        let elapsed = batch(now, f, rounds);
        if elapsed >= min_batch {
            break;
        }
        let factor =
            if elapsed > 0.0 { (1.2 * min_batch / elapsed).ceil().clamp(2.0, 100.0) as u64 } else { 10 };
        rounds = rounds.saturating_mul(factor);
    }
    let mut times: Vec<f64> =
        (0..settings.batches.max(1)).map(|_| batch(now, f, rounds) * 1e3 / rounds as f64).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    (times[times.len() / 2], rounds)
}

/// The smallest step of the clock seen over a few ticks, in microseconds.
pub fn clock_resolution_us(now: &mut dyn FnMut() -> f64) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let start = now();
        let mut t = now();
        let mut spins = 0u32;
        while t == start && spins < 10_000_000 {
            t = now();
            spins += 1;
        }
        if t > start {
            best = best.min((t - start) * 1e3);
        }
    }
    best
}

#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub line: usize,
    pub message: String,
    pub follow_up: bool,
    pub parse_us: f64,
    pub parse_rounds: u64,
    pub baseline_us: f64,
    pub baseline_rounds: u64,
}

/// p50, p90, p99 and max of per-message times, in microseconds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Stats {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Stats {
    /// Nearest-rank percentiles, as `agent/benches/parse.rs` computes them.
    pub fn of(times: &[f64]) -> Stats {
        let mut sorted = times.to_vec();
        sorted.sort_by(|a, b| a.total_cmp(b));
        let at = |p: f64| {
            if sorted.is_empty() {
                return f64::NAN;
            }
            let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
            sorted[i.min(sorted.len() - 1)]
        };
        Stats { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1.0) }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub settings: Settings,
    pub clock_resolution_us: f64,
    /// Deserialising the vocabulary JSON and building the parser's index.
    pub setup_us: f64,
    pub messages: usize,
    pub follow_ups: usize,
    pub parse: Stats,
    pub baseline: Stats,
    pub timings: Vec<Timing>,
}

impl Report {
    /// The figures as text, the same natively and in the browser.
    pub fn render(&self, title: &str) -> String {
        let mut s = format!(
            "{title}: {} corpus messages ({} follow-ups), clock step {:.3} µs, batches ≥ {} ms, median of {}\n",
            self.messages,
            self.follow_ups,
            self.clock_resolution_us,
            self.settings.min_batch_ms,
            self.settings.batches
        );
        s.push_str(&format!("  setup (vocabulary JSON + Parser::new): {:.1} µs\n", self.setup_us));
        s.push_str(&format!(
            "  {:<21} {:>9} {:>9} {:>9} {:>9}\n",
            "µs per message", "p50", "p90", "p99", "max"
        ));
        for (name, t) in [("parse", &self.parse), ("tokenize (baseline)", &self.baseline)] {
            s.push_str(&format!(
                "  {name:<21} {:>9.2} {:>9.2} {:>9.2} {:>9.2}\n",
                t.p50, t.p90, t.p99, t.max
            ));
        }
        s.push_str(&format!(
            "  ratio parse/baseline: p50 {:.1}x, p99 {:.1}x\n",
            self.parse.p50 / self.baseline.p50,
            self.parse.p99 / self.baseline.p99
        ));
        let mut slowest: Vec<&Timing> = self.timings.iter().collect();
        slowest.sort_by(|a, b| b.parse_us.total_cmp(&a.parse_us));
        s.push_str("  slowest:\n");
        for t in slowest.iter().take(3) {
            s.push_str(&format!(
                "    {:>8.2} µs  line {}{}: {}\n",
                t.parse_us,
                t.line,
                if t.follow_up { " (follow-up)" } else { "" },
                t.message
            ));
        }
        s
    }
}

/// Times setup, then every corpus message: tokenize (baseline) and parse, interleaved
/// so that any drift of the machine affects both.
pub fn measure(
    corpus: &str,
    vocabulary_json: &str,
    settings: Settings,
    now: &mut dyn FnMut() -> f64,
) -> Result<Report, String> {
    let mut vocab: Vocabulary =
        serde_json::from_str(vocabulary_json).map_err(|e| format!("vocabulary: {e}"))?;
    // The corpus's analyst questions are read with its datasets, as the corpus test does.
    vocab.datasets = agent::datasets::DatasetShape::declared_in(corpus);
    let parser = Parser::new(vocab);
    let cases = cases(corpus, &parser)?;
    let clock_resolution_us = clock_resolution_us(now);
    let (setup_us, _) = time_per_call(now, settings, &mut || {
        let vocab: Result<Vocabulary, _> = serde_json::from_str(black_box(vocabulary_json));
        black_box(vocab.map(Parser::new).is_ok());
    });
    // Warm up: every path once.
    for case in &cases {
        black_box(parser.parse(&case.message, &case.context()));
    }
    let mut timings = Vec::with_capacity(cases.len());
    for case in &cases {
        let cx = case.context();
        let message = case.message.as_str();
        let (baseline_us, baseline_rounds) = time_per_call(now, settings, &mut || {
            black_box(agent::text::tokenize(black_box(message)));
        });
        let (parse_us, parse_rounds) = time_per_call(now, settings, &mut || {
            let outcome: ParseOutcome = parser.parse(black_box(message), black_box(&cx));
            black_box(outcome);
        });
        timings.push(Timing {
            line: case.line,
            message: case.message.clone(),
            follow_up: case.follow_up,
            parse_us,
            parse_rounds,
            baseline_us,
            baseline_rounds,
        });
    }
    let parse = Stats::of(&timings.iter().map(|t| t.parse_us).collect::<Vec<_>>());
    let baseline = Stats::of(&timings.iter().map(|t| t.baseline_us).collect::<Vec<_>>());
    Ok(Report {
        settings,
        clock_resolution_us,
        setup_us,
        messages: timings.len(),
        follow_ups: cases.iter().filter(|c| c.follow_up).count(),
        parse,
        baseline,
        timings,
    })
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The browser entry point: measures with `performance.now()` and returns the report
/// as JSON, with its text rendering in `text`.
#[wasm_bindgen]
pub fn run(corpus: &str, vocabulary_json: &str, min_batch_ms: f64, batches: u32) -> Result<String, JsError> {
    let settings = Settings { min_batch_ms, batches };
    let report =
        measure(corpus, vocabulary_json, settings, &mut performance_now).map_err(|e| JsError::new(&e))?;
    let mut json = serde_json::to_value(&report).map_err(|e| JsError::new(&e.to_string()))?;
    json["text"] = serde_json::Value::String(report.render("browser (wasm32, wasm-release)"));
    Ok(json.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    const CORPUS: &str = include_str!("../../tests/corpus.txt");
    const VOCABULARY: &str = include_str!("../../../backend/demo/vocabulary.json");

    #[test]
    fn reads_the_corpus_like_the_corpus_test() {
        let parser = Parser::new(serde_json::from_str(VOCABULARY).unwrap());
        let cases = cases(CORPUS, &parser).unwrap();
        assert!(cases.len() >= 60);
        assert!(cases.iter().any(|c| c.follow_up && c.previous.is_some()));
        assert!(cases.iter().all(|c| c.follow_up || c.previous.is_none()));
        assert!(cases.iter().all(|c| !c.message.starts_with('+') && !c.message.contains("=>")));
    }

    #[test]
    fn today_lines_and_follow_ups() {
        let parser = Parser::new(serde_json::from_str(VOCABULARY).unwrap());
        let corpus =
            "# c\ntoday 2025-03-10\nDépenses en courses en janvier 2025 => x\n+ et en février ? => y\n";
        let read = cases(corpus, &parser).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].today, Date::new(2025, 3, 10).unwrap());
        assert!(read[1].follow_up);
        assert_eq!(read[1].message, "et en février ?");
        assert!(read[1].previous.is_some());
        assert!(cases("no arrow here", &parser).is_err());
    }

    #[test]
    fn batches_reach_the_minimum_duration() {
        // A fake clock that advances 1 ms per read: every batch of n calls lasts 1 ms.
        let mut t = 0.0;
        let mut now = move || {
            t += 1.0;
            t
        };
        let (us, rounds) = time_per_call(&mut now, Settings { min_batch_ms: 1.0, batches: 3 }, &mut || {});
        assert_eq!(rounds, 1);
        assert_eq!(us, 1000.0);
        let s = Stats::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.p50, s.max), (2.0, 3.0));
    }
}
