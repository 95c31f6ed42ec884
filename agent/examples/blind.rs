//! Measures the parser on a blind set: messages written by someone who never read the
//! parser, its lexicons or its corpora, each with what a person means
//! (`agent/tests/blind/*.txt`; their header says who wrote them, when, and the figures
//! measured then). Prints the figures the parser gets now, and every message it gets
//! wrong:
//!
//! `cargo run -q -p agent --example blind -- agent/tests/blind/2026-11-29-a.txt [-v]`
//!
//! A line: `MESSAGE => EXPECTED`, where EXPECTED is
//! - `TOOL [START..END] [key=value]…`: the plan a person means, as docs/tools.md names
//!   its arguments (`category=groceries`, `min=50000+EUR`, `group=merchant`, `ref=…`);
//! - `steps: PLAN ;; PLAN …`: a request of several parts, one plan each;
//! - `ask`: Sou should ask (something a plan needs is missing or unclear);
//! - `none`: not about the person's money at all.
//!
//! `today YYYY-MM-DD` sets the date relative words resolve against. What Sou does with
//! a message is decided as the server decides it without a model: a `high` or `medium`
//! plan runs; otherwise a plan of steps is proposed if the parser splits the message;
//! otherwise Sou asks. A plan that runs and is not the one expected is **wrong**; a
//! request of several parts answered by one running plan has **dropped a part**.

use std::collections::BTreeSet;

use agent::{Confidence, Context, Date, ParseOutcome, Parser, ToolCall, Vocabulary};
use serde_json::Value;

const VOCABULARY: &str = include_str!("../../backend/demo/vocabulary.json");

/// What Sou does with a message, without a model.
enum Done {
    Runs(Box<ToolCall>, Confidence),
    Proposes(Vec<ToolCall>),
    Asks,
}

#[derive(Debug)]
enum Expected {
    Plan(BTreeSet<String>),
    Steps(Vec<BTreeSet<String>>),
    Ask,
    None,
}

/// A plan as a set of `key=value` facts, in the blind set's words.
fn facts(call: &ToolCall, today: Date) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    out.insert(call.name().to_string());
    let json = serde_json::to_value(call).unwrap_or(Value::Null);
    let Some(args) = json.get("args").and_then(Value::as_object) else { return out };
    // An average per month is shown with its months: the breakdown is the average's.
    let average = args.get("average").and_then(Value::as_str);
    let range =
        |v: &Value| format!("{}..{}", v["start"].as_str().unwrap_or("?"), v["end"].as_str().unwrap_or("?"));
    let money = |v: &Value| format!("{}+{}", v["minor"], v["currency"].as_str().unwrap_or("?"));
    let today_range = format!("{}..{}", today, today.add_days(1));
    for (key, v) in args {
        let fact = match (key.as_str(), v) {
            ("period" | "current", v) if v.is_object() => {
                let r = range(v);
                // A balance today is what a balance means when no date is given.
                if call.name() == "balances" && r == today_range {
                    continue;
                }
                // A balance over a period is the balance at its close: only the end counts.
                if call.name() == "balances" {
                    format!("..{}", v["end"].as_str().unwrap_or("?"))
                } else {
                    r
                }
            }
            ("reference", v) => format!("ref={}", range(v)),
            ("amount_min", v) => format!("min={}", money(v)),
            ("amount_max", v) => format!("max={}", money(v)),
            ("amount", v) if v.is_object() => format!("amount={}", money(v)),
            ("group_by", Value::String(s)) if s == "none" || Some(s.as_str()) == average => continue,
            ("group_by", Value::String(s)) => format!("group={s}"),
            ("flow", Value::String(s)) if s == "spending" => continue,
            ("order", Value::String(s)) if s == "newest" => continue,
            ("limit", v) if v.as_u64() == Some(u64::from(agent::DEFAULT_LIST_LIMIT)) => continue,
            ("apply_to_past", Value::Bool(true)) => "past".to_string(),
            ("apply_to_past", _) => continue,
            (_, Value::Null) => continue,
            (_, Value::Array(a)) if a.is_empty() => continue,
            (k, Value::Array(a)) => format!(
                "{k}={}",
                a.iter().map(|x| norm(x.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")
            ),
            (k, Value::String(s)) => format!("{k}={}", norm(s)),
            (k, other) => format!("{k}={other}"),
        };
        out.insert(fact);
    }
    out
}

fn norm(s: &str) -> String {
    s.trim().to_lowercase().replace(' ', "_")
}

/// An expected plan as facts: the same words, `flow=spending` and `order=newest` being
/// what a plan says when it says nothing.
fn expected_facts(text: &str) -> BTreeSet<String> {
    let balances = text.split_whitespace().next() == Some("balances");
    text.split_whitespace()
        .map(|w| match w.split_once("..") {
            Some((_, end)) if balances && !w.contains('=') => format!("..{end}"),
            _ => w.to_string(),
        })
        .filter(|w| !matches!(w.as_str(), "flow=spending" | "order=newest" | "group=none"))
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !matches!(k, "min" | "max" | "amount") => format!("{k}={}", norm(v)),
            _ => w,
        })
        .collect()
}

fn expected(text: &str) -> Expected {
    let text = text.split(" #").next().unwrap_or(text).trim();
    match text {
        "ask" => Expected::Ask,
        "none" => Expected::None,
        t => match t.strip_prefix("steps:") {
            Some(steps) => Expected::Steps(steps.split(";;").map(expected_facts).collect()),
            None => Expected::Plan(expected_facts(t)),
        },
    }
}

fn show(f: &BTreeSet<String>) -> String {
    f.iter().cloned().collect::<Vec<_>>().join(" ")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: blind FILE [-v]")?;
    let verbose = args.next().is_some_and(|a| a == "-v");
    let text = std::fs::read_to_string(&path)?;
    let parser = Parser::new(serde_json::from_str::<Vocabulary>(VOCABULARY)?);
    let mut today = Date::new(2026, 11, 29).ok_or("date")?;

    let (mut total, mut runs, mut wrong_high, mut wrong_medium) = (0, 0, 0, 0);
    let (mut complete, mut complete_high) = (0, 0);
    let (mut parts, mut dropped, mut parts_proposed) = (0, 0, 0);
    let (mut asks_expected, mut asks_run) = (0, 0);
    let mut wrong = Vec::new();
    let mut missed = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(d) = line.strip_prefix("today ") {
            today = Date::parse_iso(d.trim()).ok_or("today YYYY-MM-DD")?;
            continue;
        }
        let Some((message, want)) = line.rsplit_once(" => ") else { continue };
        let message = message.trim();
        let want = expected(want);
        let cx = Context { today, locale: None, previous: None };
        let outcome = parser.parse(message, &cx);
        let done = match &outcome {
            ParseOutcome::Plan(p) if p.meta.confidence == Confidence::High => {
                Done::Runs(Box::new(p.call.clone()), Confidence::High)
            }
            _ => match parser.plan_steps(message, &cx) {
                Some(plan) => Done::Proposes(plan.steps.into_iter().map(|s| s.call).collect()),
                None => match &outcome {
                    ParseOutcome::Plan(p) if p.meta.confidence == Confidence::Medium => {
                        Done::Runs(Box::new(p.call.clone()), Confidence::Medium)
                    }
                    _ => Done::Asks,
                },
            },
        };
        total += 1;
        let got = match &done {
            Done::Runs(call, c) => format!("runs ({}) {}", c.as_str(), show(&facts(call, today))),
            Done::Proposes(steps) => format!(
                "proposes steps: {}",
                steps.iter().map(|c| show(&facts(c, today))).collect::<Vec<_>>().join(" ;; ")
            ),
            Done::Asks => match &outcome {
                ParseOutcome::Plan(p) => format!(
                    "asks (low: {})",
                    p.meta.confidence_reasons.iter().map(|r| r.code.as_str()).collect::<Vec<_>>().join(" ")
                ),
                ParseOutcome::Clarification(c) => format!(
                    "asks ({})",
                    c.reasons.iter().map(|r| r.code.as_str()).collect::<Vec<_>>().join(" ")
                ),
            },
        };
        let mut is_wrong = false;
        if let Done::Runs(call, c) = &done {
            runs += 1;
            let right = matches!(&want, Expected::Plan(f) if *f == facts(call, today));
            if !right {
                is_wrong = true;
                match c {
                    Confidence::High => wrong_high += 1,
                    _ => wrong_medium += 1,
                }
            }
        }
        match &want {
            Expected::Plan(f) => {
                complete += 1;
                match &done {
                    Done::Runs(call, Confidence::High) if facts(call, today) == *f => complete_high += 1,
                    Done::Runs(..) => {}
                    _ => missed.push(format!("{message}\n    want {}\n    got  {got}", show(f))),
                }
            }
            Expected::Steps(_) => {
                parts += 1;
                match &done {
                    Done::Runs(..) => dropped += 1,
                    Done::Proposes(_) => parts_proposed += 1,
                    Done::Asks => {}
                }
            }
            Expected::Ask | Expected::None => {
                asks_expected += 1;
                if matches!(done, Done::Runs(..)) {
                    asks_run += 1;
                }
            }
        }
        if is_wrong {
            let want = match &want {
                Expected::Plan(f) => show(f),
                Expected::Steps(s) => {
                    format!("steps: {}", s.iter().map(show).collect::<Vec<_>>().join(" ;; "))
                }
                Expected::Ask => "ask".into(),
                Expected::None => "none".into(),
            };
            wrong.push(format!("{message}\n    want {want}\n    got  {got}"));
        }
    }
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    println!("{path}: {total} messages");
    println!(
        "  run without a model: {runs}; wrong: {} ({wrong_high} high, {wrong_medium} medium) = {:.1} % of those run",
        wrong_high + wrong_medium,
        pct(wrong_high + wrong_medium, runs)
    );
    println!(
        "  say all a plan needs: {complete}; answered right at high: {complete_high} ({:.1} %)",
        pct(complete_high, complete)
    );
    println!(
        "  requests of several parts: {parts}; one plan dropping a part: {dropped}; proposed as steps: {parts_proposed}; asked: {}",
        parts - dropped - parts_proposed
    );
    println!("  should ask or is not about money: {asks_expected}; run anyway: {asks_run}");
    if !wrong.is_empty() {
        println!("\nwrong ({}):", wrong.len());
        for w in &wrong {
            println!("  {w}");
        }
    }
    if verbose && !missed.is_empty() {
        println!("\nnot answered at high ({}):", missed.len());
        for m in &missed {
            println!("  {m}");
        }
    }
    Ok(())
}
