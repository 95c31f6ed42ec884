//! The parser's data-driven test: every line of `corpus.txt` is a message and the plan
//! (or clarification) expected for it. Adding a case is adding a line.
//!
//! `UPDATE_CORPUS=1 cargo test -p agent --test it corpus::corpus` writes the plans the
//! parser gives now into `corpus.txt` instead of failing: only the expectations that
//! differ change, comments and order stay, and `git diff` shows what moved.
//!
//! Line format (see the header of corpus.txt):
//! `MESSAGE => TOOL@LOCALE START..END [category=K] [merchant=K] [account=K] [direction=D] [group=G] | LEVEL CODE…`
//! `MESSAGE => clarify@LOCALE first=TOOL | CODE…` (TOOL: the first suggestion's)
//! Writes add their own values: `amount=`, `from=`, `pattern=`, `past`, `to=`, `into=`,
//! `merge=`, `aliases=`, `name=` (see the header of corpus.txt).
//! A line starting with `+ ` is a follow-up: the previous line's plan is its context.

use std::collections::BTreeSet;

use agent::{Context, Date, GroupBy, Locale, ParseOutcome, Parser, ToolCall, ToolCallPlan, Vocabulary};

const CORPUS: &str = include_str!("../corpus.txt");
const CORPUS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus.txt");
const VOCABULARY: &str = include_str!("../../../backend/demo/vocabulary.json");

fn describe(outcome: &ParseOutcome) -> String {
    match outcome {
        ParseOutcome::Clarification(c) => {
            let codes: Vec<&str> = c.reasons.iter().map(|r| r.code.as_str()).collect();
            // The first plan offered: the nearest to what was asked.
            let first = c.suggestions.first().map_or("none", |s| s.plan.call.name());
            format!("clarify@{} first={first} | {}", c.locale.as_str(), codes.join(" "))
        }
        ParseOutcome::Plan(p) => {
            let c = &p.call;
            let mut s = format!("{}@{}", c.name(), p.meta.locale.as_str());
            if let Some(period) = c.period() {
                s.push_str(&format!(" {}..{}", period.start, period.end));
            }
            if let ToolCall::QueryDataset(a) = c {
                s.push_str(&format!(
                    " {} {}({})",
                    a.dataset,
                    a.aggregate.as_str(),
                    a.measure.as_deref().unwrap_or("*")
                ));
                if let Some(g) = &a.group_by {
                    s.push_str(&format!(" by={g}"));
                }
                if let Some(b) = a.bucket {
                    let b = serde_json::to_value(b).unwrap();
                    s.push_str(&format!(" bucket={}", b.as_str().unwrap()));
                }
                for f in &a.filters {
                    let op = serde_json::to_value(f.op).unwrap();
                    s.push_str(&format!(
                        " where={}:{}:{}",
                        f.column,
                        op.as_str().unwrap(),
                        f.value.replace(' ', "_")
                    ));
                }
                if let Some(p) = &a.period {
                    s.push_str(&format!(" during={}:{}..{}", p.column, p.start, p.end));
                }
                if a.order != agent::DatasetOrder::ValueDesc {
                    let o = serde_json::to_value(a.order).unwrap();
                    s.push_str(&format!(" order={}", o.as_str().unwrap()));
                }
                if let Some(n) = a.limit {
                    s.push_str(&format!(" limit={n}"));
                }
                if let Some(c) = a.chart {
                    let c = serde_json::to_value(c).unwrap();
                    s.push_str(&format!(" chart={}", c.as_str().unwrap()));
                }
            }
            if let Some(k) = c.category() {
                s.push_str(&format!(" category={k}"));
            }
            if let Some(k) = c.merchant() {
                s.push_str(&format!(" merchant={k}"));
            }
            if let Some(k) = c.account() {
                s.push_str(&format!(" account={k}"));
            }
            let (ex_category, ex_merchant) = c.excluded();
            if let Some(k) = ex_category {
                s.push_str(&format!(" exclude_category={k}"));
            }
            if let Some(k) = ex_merchant {
                s.push_str(&format!(" exclude_merchant={k}"));
            }
            if let ToolCall::ListTransactions(a) = c {
                if let Some(t) = &a.text {
                    s.push_str(&format!(" text={t}"));
                }
                if let Some(d) = a.direction {
                    let d = serde_json::to_value(d).unwrap();
                    s.push_str(&format!(" direction={}", d.as_str().unwrap()));
                }
            }
            // The write tools' own values.
            let join = |v: &[String]| v.iter().map(|s| s.replace(' ', "_")).collect::<Vec<_>>().join(",");
            match c {
                ToolCall::Activity(a) => {
                    if let Some(d) = a.direction {
                        let d = serde_json::to_value(d).unwrap();
                        s.push_str(&format!(" direction={}", d.as_str().unwrap()));
                    }
                }
                ToolCall::SetBudget(a) => {
                    if let Some(m) = a.amount {
                        s.push_str(&format!(" amount={}{}", m.minor, m.currency));
                    }
                    s.push_str(&format!(" from={}", a.from));
                }
                ToolCall::CreateRule(a) => {
                    s.push_str(&format!(" pattern={}", a.pattern.replace(' ', "_")));
                    if a.apply_to_past {
                        s.push_str(" past");
                    }
                }
                ToolCall::Recategorise(a) => {
                    s.push_str(&format!(" to={}", a.to));
                    if let Some(t) = &a.text {
                        s.push_str(&format!(" text={}", t.replace(' ', "_")));
                    }
                }
                ToolCall::MergeMerchants(a) => {
                    s.push_str(&format!(" into={}", a.into));
                    if !a.merge.is_empty() {
                        s.push_str(&format!(" merge={}", join(&a.merge)));
                    }
                    if !a.aliases.is_empty() {
                        s.push_str(&format!(" aliases={}", join(&a.aliases)));
                    }
                    if let Some(n) = &a.name {
                        s.push_str(&format!(" name={}", n.replace(' ', "_")));
                    }
                }
                ToolCall::MarkTransfers(a) => {
                    if let Some(t) = &a.text {
                        s.push_str(&format!(" text={}", t.replace(' ', "_")));
                    }
                }
                _ => {}
            }
            let (min, max) = c.amounts();
            if let Some(m) = min {
                s.push_str(&format!(" min={}{}", m.minor, m.currency));
            }
            if let Some(m) = max {
                s.push_str(&format!(" max={}{}", m.minor, m.currency));
            }
            if let ToolCall::ComparePeriods(a) = c {
                s.push_str(&format!(" ref={}..{}", a.reference.start, a.reference.end));
                if a.flow == agent::Flow::Income {
                    s.push_str(" flow=income");
                }
            }
            let (group_by, top) = match c {
                ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => (a.group_by, a.top),
                ToolCall::CashFlow(a) => (a.group_by, None),
                _ => (GroupBy::None, None),
            };
            if group_by != GroupBy::None {
                let g = serde_json::to_value(group_by).unwrap();
                s.push_str(&format!(" group={}", g.as_str().unwrap()));
            }
            if let Some(n) = top {
                s.push_str(&format!(" top={n}"));
            }
            if let ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) = c {
                if let Some(per) = a.average {
                    let per = serde_json::to_value(per).unwrap();
                    s.push_str(&format!(" average={}", per.as_str().unwrap()));
                }
            }
            let mut codes: Vec<&str> = p.meta.confidence_reasons.iter().map(|r| r.code.as_str()).collect();
            codes.sort();
            format!("{s} | {} {}", p.meta.confidence.as_str(), codes.join(" "))
        }
    }
}

/// Canonical form of an expectation: reason codes sorted, spaces collapsed.
fn canonical(expected: &str) -> String {
    let (head, tail) = expected.split_once('|').unwrap_or((expected, ""));
    let head = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut tail: Vec<&str> = tail.split_whitespace().collect();
    if tail.len() > 1 && !head.starts_with("clarify") {
        tail[1..].sort();
    }
    format!("{head} | {}", tail.join(" "))
}

#[test]
fn corpus() {
    let mut vocab: Vocabulary = serde_json::from_str(VOCABULARY).unwrap();
    let mut parser = Parser::new(vocab.clone());
    let mut today = Date::new(2026, 11, 21).unwrap();
    let mut previous: Option<ToolCallPlan> = None;
    let mut failures = Vec::new();
    let (mut total, mut high, mut high_wrong) = (0, 0, 0);
    let (mut medium, mut medium_wrong) = (0, 0);
    let mut by_locale = std::collections::BTreeMap::<String, usize>::new();
    let mut seen = BTreeSet::new();
    let update = std::env::var_os("UPDATE_CORPUS").is_some_and(|v| v == "1");
    // The corpus as it will be rewritten: every line, with the expectations that differ replaced.
    let mut rewritten: Vec<String> = Vec::new();

    for (n, raw) in CORPUS.lines().enumerate() {
        rewritten.push(raw.to_string());
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(d) = line.strip_prefix("dataset ") {
            vocab
                .datasets
                .push(agent::datasets::DatasetShape::from_outline(d).expect("dataset NAME: column type, …"));
            parser = Parser::new(vocab.clone());
            continue;
        }
        if let Some(d) = line.strip_prefix("today ") {
            today = Date::parse_iso(d.trim()).expect("today YYYY-MM-DD");
            continue;
        }
        let (message, expected) = line.rsplit_once("=>").unwrap_or_else(|| panic!("line {}: no =>", n + 1));
        let (message, context) = match message.strip_prefix("+ ") {
            Some(m) => (m.trim(), previous.as_ref()),
            None => (message.trim(), None),
        };
        assert!(seen.insert((message.to_string(), context.is_some())), "line {}: duplicate case", n + 1);
        let cx = Context { today, locale: None, previous: context };
        let outcome = parser.parse(message, &cx);
        let got = describe(&outcome);
        let want = canonical(expected);
        total += 1;
        *by_locale
            .entry(got.split('@').nth(1).unwrap_or("").get(..2).unwrap_or("").to_string())
            .or_default() += 1;
        if let ParseOutcome::Plan(p) = &outcome {
            if p.meta.confidence == agent::Confidence::High {
                high += 1;
                if got != want {
                    high_wrong += 1;
                }
            }
            // Without a model a medium plan runs too: it must be as right as a high one.
            if p.meta.confidence == agent::Confidence::Medium {
                medium += 1;
                if got != want {
                    medium_wrong += 1;
                }
            }
        }
        if got != want {
            if let Some((before, _)) = raw.rsplit_once("=>") {
                rewritten[n] = format!("{before}=> {got}");
            }
            failures.push(format!("line {}: {message}\n   want {want}\n   got  {got}", n + 1));
        }
        // The browser reads plans (streamed, or the previous one) with `from_json`.
        let plans = match &outcome {
            ParseOutcome::Plan(p) => vec![p],
            ParseOutcome::Clarification(c) => c.suggestions.iter().map(|s| &s.plan).collect(),
        };
        for plan in plans {
            let json = serde_json::to_string(plan).unwrap();
            assert_eq!(&ToolCallPlan::from_json(&json).unwrap(), plan, "line {}: from_json", n + 1);
        }
        previous = outcome.plan().cloned();
    }
    let precision = if high == 0 { 100.0 } else { 100.0 * (high - high_wrong) as f64 / high as f64 };
    let medium_precision =
        if medium == 0 { 100.0 } else { 100.0 * (medium - medium_wrong) as f64 / medium as f64 };
    println!(
        "corpus: {total} messages ({}); coverage {high} planned high ({:.1}%); precision at high {:.1}% ({high_wrong} wrong); {medium} planned medium, precision {:.1}% ({medium_wrong} wrong)",
        by_locale.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "),
        100.0 * high as f64 / total.max(1) as f64,
        precision,
        medium_precision,
    );
    assert!(total >= 400, "the corpus must keep at least 400 cases, has {total}");
    if update {
        if !failures.is_empty() {
            let mut text = rewritten.join("\n");
            if CORPUS.ends_with('\n') {
                text.push('\n');
            }
            std::fs::write(CORPUS_PATH, text).unwrap();
        }
        println!("corpus: rewrote {} expectations in {CORPUS_PATH}", failures.len());
        return;
    }
    assert!(failures.is_empty(), "{} of {total} cases differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn reasons_have_sentences_in_both_languages() {
    let vocab: Vocabulary = serde_json::from_str(VOCABULARY).unwrap();
    let parser = Parser::new(vocab);
    let today = Date::new(2026, 11, 21).unwrap();
    for (msg, locale) in [
        ("Combien j'ai dépensé en restaurents ?", Locale::Fr),
        ("How much did I spend on restaurents?", Locale::En),
    ] {
        let outcome = parser.parse(msg, &Context { today, locale: None, previous: None });
        let plan = outcome.plan().expect("a plan");
        assert_eq!(plan.meta.locale, locale);
        for r in &plan.meta.confidence_reasons {
            assert!(!r.text.is_empty());
        }
        let json = serde_json::to_value(plan).unwrap();
        assert_eq!(json["tool"], "spending_summary");
        assert_eq!(json["meta"]["confidence"], "low");
        assert!(json["args"]["period"]["start"].is_string());
    }
}
