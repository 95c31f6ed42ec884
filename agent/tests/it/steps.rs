//! The multi-step corpus (`tests/steps.txt`): messages that ask several things and the
//! plan of steps expected for each — or none, when Sou must not split the message.

use agent::runs::RunPlan;
use agent::{Context, Date, Parser, ToolCall, Vocabulary};

const VOCABULARY: &str = include_str!("../../../backend/demo/vocabulary.json");

/// A step as the corpus writes it.
fn written(call: &ToolCall) -> String {
    let mut out = vec![call.name().to_string()];
    let period = match call {
        ToolCall::ComparePeriods(a) => Some(&a.current),
        other => other.period(),
    };
    if let Some(p) = period {
        out.push(format!("{}..{}", p.start, p.end));
    }
    if let Some(c) = call.category() {
        out.push(format!("category={c}"));
    }
    if let Some(m) = call.merchant() {
        out.push(format!("merchant={m}"));
    }
    if let ToolCall::SpendingSummary(a) = call {
        if a.group_by != agent::GroupBy::None {
            let group = serde_json::to_value(a.group_by).unwrap();
            out.push(format!("group={}", group.as_str().unwrap()));
        }
    }
    out.join(" ")
}

fn plan_text(plan: Option<RunPlan>) -> String {
    match plan {
        None => "none".into(),
        Some(p) => format!(
            "{} | {}",
            p.steps.iter().map(|s| written(&s.call)).collect::<Vec<_>>().join(" ; "),
            p.confidence.as_str()
        ),
    }
}

#[test]
fn steps_corpus() {
    let parser = Parser::new(serde_json::from_str::<Vocabulary>(VOCABULARY).unwrap());
    let today = Date::new(2026, 11, 21).unwrap();
    let cx = Context { today, locale: None, previous: None };
    let mut failures = Vec::new();
    let mut n = 0;
    for line in include_str!("../steps.txt").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (message, expected) = line.split_once(" => ").unwrap();
        let got = plan_text(parser.plan_steps(message, &cx));
        n += 1;
        if got != expected {
            failures.push(format!("{message}\n  expected {expected}\n  got      {got}"));
        }
        // Every step of a plan is a call the registry's types accept as they are.
        if let Some(plan) = parser.plan_steps(message, &cx) {
            assert!((2..=agent::runs::MAX_PLAN_STEPS).contains(&plan.steps.len()), "{message}");
            for s in &plan.steps {
                let json = serde_json::to_value(s).unwrap();
                let back: agent::runs::PlanStep = serde_json::from_value(json).unwrap();
                assert_eq!(&back, s, "{message}");
            }
        }
    }
    assert!(n >= 16, "{n} lines");
    assert!(failures.is_empty(), "{} of {n} lines differ:\n{}", failures.len(), failures.join("\n"));
}
