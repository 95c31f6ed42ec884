//! The measure of a blind set (`agent/tests/blind/*.txt`): messages written by someone
//! who never read the parser, its lexicons or its corpora, each with what a person means.
//! Shared by the test that keeps the sets from going backwards (below) and by
//! `cargo run -q -p agent --example blind -- FILE [-v]`, which prints the figures.
//!
//! A line: `MESSAGE => EXPECTED`, where EXPECTED is
//! - `TOOL [START..END] [key=value]…`: the plan a person means, as docs/tools.md names
//!   its arguments (`category=groceries`, `min=50000+EUR`, `group=merchant`, `ref=…`);
//! - `steps: PLAN ;; PLAN …`: a request of several parts, one plan each;
//! - `ask`: Sou should ask (something a plan needs is missing or unclear);
//! - `none`: not about the person's money at all.
//!
//! What Sou does with a message is decided as the server decides it without a model: a
//! `high` or `medium` plan runs; otherwise a plan of steps is proposed if the parser
//! splits the message; otherwise Sou asks. A plan that runs and is not the one expected
//! is **wrong**; a request of several parts answered by one running plan has **dropped a
//! part**. A balance is compared at its period's end; a breakdown by an average's own unit
//! goes with the average. Spending, income and the savings rate asked together over one
//! period (and one breakdown) are answered whole by one cash flow, which shows them all:
//! expected as steps, that plan is right.
use std::collections::BTreeSet;

use agent::{Confidence, Context, Date, ParseOutcome, Parser, ToolCall};
use serde_json::Value;

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
fn expected_facts(text: &str, today: Date) -> BTreeSet<String> {
    let tool = text.split_whitespace().next();
    let balances = tool == Some("balances");
    // The brief's defaults: a budget status with no period is this month's, recurring
    // payments with no period are the last twelve months'.
    let first = today.first_of_month();
    let default = match tool {
        Some("budget_status") => Some(format!("{first}..{}", first.add_months(1))),
        Some("recurring_payments") => {
            let end = today.add_days(1);
            Some(format!("{}..{end}", end.add_months_keep_day(-12)))
        }
        _ => None,
    }
    .filter(|_| !text.split_whitespace().any(|w| w.contains("..") && !w.contains('=')));
    // A breakdown by the average's own unit is the average's (as in `facts`).
    let average = text.split_whitespace().find_map(|w| w.strip_prefix("average="));
    text.split_whitespace()
        .filter(|w| average.is_none() || w.strip_prefix("group=") != average)
        .map(|w| match w.split_once("..") {
            Some((_, end)) if balances && !w.contains('=') => format!("..{end}"),
            _ => w.to_string(),
        })
        .filter(|w| !matches!(w.as_str(), "flow=spending" | "order=newest" | "group=none"))
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !matches!(k, "min" | "max" | "amount") => format!("{k}={}", norm(v)),
            _ => w,
        })
        .chain(default)
        .collect()
}

fn expected(text: &str, today: Date) -> Expected {
    let text = text.split(" #").next().unwrap_or(text).trim();
    match text {
        "ask" => Expected::Ask,
        "none" => Expected::None,
        t => match t.strip_prefix("steps:") {
            Some(steps) => Expected::Steps(steps.split(";;").map(|s| expected_facts(s, today)).collect()),
            None => Expected::Plan(expected_facts(t, today)),
        },
    }
}

/// A cash flow holds the spending, the income and the savings rate of its period: steps
/// asking for just those, over its period and breakdown, are what it answers.
fn cash_flow_answers(steps: &[BTreeSet<String>], ran: &BTreeSet<String>) -> bool {
    let rest = |f: &BTreeSet<String>| {
        let tool =
            ["cash_flow", "spending_summary", "income_summary"].into_iter().find(|t| f.contains(*t))?;
        Some(f.iter().filter(|x| *x != tool).cloned().collect::<BTreeSet<_>>())
    };
    let own = match rest(ran) {
        Some(own) if ran.contains("cash_flow") && !own.iter().any(|f| f.starts_with("account=")) => own,
        _ => return false,
    };
    steps.len() > 1 && steps.iter().all(|s| rest(s).as_ref() == Some(&own))
}

fn show(f: &BTreeSet<String>) -> String {
    f.iter().cloned().collect::<Vec<_>>().join(" ")
}

/// What the parser does with a blind set: the figures and the messages behind them.
#[derive(Default)]
pub struct Figures {
    pub total: usize,
    pub runs: usize,
    pub wrong_high: usize,
    pub wrong_medium: usize,
    pub complete: usize,
    pub complete_high: usize,
    pub parts: usize,
    pub dropped: usize,
    pub parts_proposed: usize,
    /// Requests of several parts one plan answers whole (a cash flow for spending and income).
    pub parts_whole: usize,
    pub asks_expected: usize,
    pub asks_run: usize,
    /// Each plan that runs and is not the one meant: the message, what was meant, what ran.
    pub wrong: Vec<String>,
    /// Each complete message not answered right at high.
    pub missed: Vec<String>,
}

impl Figures {
    pub fn wrong(&self) -> usize {
        self.wrong_high + self.wrong_medium
    }

    /// The figures in words, as the set files record them.
    pub fn summary(&self) -> String {
        let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        format!(
            "{} messages\n  run without a model: {}; wrong: {} ({} high, {} medium) = {:.1} % of those run\n  \
             say all a plan needs: {}; answered right at high: {} ({:.1} %)\n  \
             requests of several parts: {}; one plan dropping a part: {}; proposed as steps: {}; one plan answering all: {}; asked: {}\n  \
             should ask or is not about money: {}; run anyway: {}",
            self.total,
            self.runs,
            self.wrong(),
            self.wrong_high,
            self.wrong_medium,
            pct(self.wrong(), self.runs),
            self.complete,
            self.complete_high,
            pct(self.complete_high, self.complete),
            self.parts,
            self.dropped,
            self.parts_proposed,
            self.parts_whole,
            self.parts - self.dropped - self.parts_proposed - self.parts_whole,
            self.asks_expected,
            self.asks_run
        )
    }
}

/// Measures `parser` on the text of a blind set.
pub fn measure(parser: &Parser, text: &str) -> Figures {
    let mut f = Figures::default();
    let mut today = Date::new(2026, 11, 29).unwrap_or_else(|| unreachable!());

    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(d) = line.strip_prefix("today ") {
            today = Date::parse_iso(d.trim()).unwrap_or(today);
            continue;
        }
        let Some((message, want)) = line.rsplit_once(" => ") else { continue };
        let message = message.trim();
        let want = expected(want, today);
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
        f.total += 1;
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
            f.runs += 1;
            let ran = facts(call, today);
            let right = match &want {
                Expected::Plan(f) => *f == ran,
                Expected::Steps(steps) => cash_flow_answers(steps, &ran),
                _ => false,
            };
            if !right {
                is_wrong = true;
                match c {
                    Confidence::High => f.wrong_high += 1,
                    _ => f.wrong_medium += 1,
                }
            }
        }
        match &want {
            Expected::Plan(meant) => {
                f.complete += 1;
                match &done {
                    Done::Runs(call, Confidence::High) if facts(call, today) == *meant => {
                        f.complete_high += 1
                    }
                    Done::Runs(..) => {}
                    _ => f.missed.push(format!("{message}\n    want {}\n    got  {got}", show(meant))),
                }
            }
            Expected::Steps(_) => {
                f.parts += 1;
                match &done {
                    Done::Runs(..) if !is_wrong => f.parts_whole += 1,
                    Done::Runs(..) => f.dropped += 1,
                    Done::Proposes(_) => f.parts_proposed += 1,
                    Done::Asks => {}
                }
            }
            Expected::Ask | Expected::None => {
                f.asks_expected += 1;
                if matches!(done, Done::Runs(..)) {
                    f.asks_run += 1;
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
            f.wrong.push(format!("{message}\n    want {want}\n    got  {got}"));
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent::Vocabulary;

    /// The sets measured, and what the parser gets on each now, at worst: a change that
    /// makes more plans wrong, or answers fewer complete messages at high, fails here.
    /// When the parser gets better, tighten these.
    // Where writers disagree, some sets count a reading as wrong: set A's writer read
    // "this year than last year" as whole years (the issue, D and E: so far, against the
    // same days); B's and C's wanted a rule to recategorise past transactions unasked
    // (A, F and docs/tools.md: only when said). A breakdown said in one word ("daily
    // spending this week") was each day's total for B, D and E, the average per day for H:
    // Sou asks, which costs B and E one message each. So does "this month vs last month"
    // (whole months for B, C, D and E; up to today's date for I). I's writer asks about
    // "mes charges" (one of Housing's names); J's wants Uber rides in both directions
    // (others: debits). K's and N's want "spending by week + income by week" and
    // "Spending and income for October please" as two steps: Sou answers one cash flow,
    // which holds both totals, and the measure counts it right. "combien j'ai épargné" is
    // the net for I, transfers to savings for F, and asked for M and N: Sou asks. P's
    // writer reads "which month did I spend the most" as every month; eight other writers
    // and Sou: the one month (top 1). "Income without the salary" leaves out the Income
    // category (Salaire is one of its names) for F, G, M, O, P and Q; A's "en dehors de
    // mon salaire" meant the employer. R's "abonnements" alone asks for its writer; "mes
    // abos" shows them (the corpus). S's writer asks about "charges" (one of Housing's
    // names, for this user). "The total of the debits" (R, S) is asked: the lines' sum,
    // or the spending they make? V's writer wants "my spotify payments" in both
    // directions (the brief and Sou: payments are debits). Y's writer asks about "total
    // sorties nov" (outings, for most writers: the user's name for Leisure). AA's writer
    // reads "which month did I spend the most" as every month (as P's). "Les magasins où
    // je dépense le plus" is the top 5 for AB's and AJ's writers (and every other writer
    // of such a plural): Sou too, since AJ. "j'ai dépensé quoi vendredi ?" is a
    // total for K's writer and the lines for AD's: Sou asks. AC's writer wants "hors
    // épargne" left off spending (which holds no transfer: the same figure) and "move all
    // the Leclerc stuff to groceries" asked (Sou: a recategorisation of the labels holding
    // "Leclerc", shown for approval); AD's wants "les paiements picard" and "mes achats à
    // la Boulangerie Paul" in both directions
    // (the brief: payments are debits), "between 100 and 50 EUR" asked (Sou reads 50 to
    // 100), "combien j'ai fait de courses" and "mes charges" asked (Sou: the spending at
    // Groceries, which counts its payments; Housing, whose name "charges" is). AE's writer
    // wants "les achats à la boulangerie Paul" and the Deliveroo "transactions … on
    // compte qui a commandé quoi" in both directions (Sou: purchases and orders are
    // debits); so do AI's ("my Airbnb payments"), AJ's ("les paiements au Franprix") and
    // AL's ("my airbnb payments", "my deliveroo orders"). AK's writer reads "my
    // transactions …, but not the grocery ones? … I know what I bought" as both directions
    // (Sou reads "bought" in the remark: debits). AM's writer reads "ce trimestre, les
    // abonnements ça donne quoi" as the Subscriptions category's spending (Sou: the
    // recurring payments) and "quel mois j'ai le plus dépensé" as every month (as P's and
    // AA's). AO's asks about "fusionne leclerc dans carrefour" (Sou: "leclerc" an other name
    // of Carrefour, shown for approval). AP's wants "est-ce qu'on a reçu les salaires" as
    // the lines (Sou: the total), "mes revenus" as the Income category (AL's, AO's "mes
    // revenus sans le salaire": all income, as Sou) and "my uber rides" both ways; AQ's
    // wants "j'ai touché ma paye ?" as the Income category (Sou: all income) and AR's
    // "argent reçu ce mois à part le salaire" as a total (Sou: the lines, as "liste de
    // l'argent reçu"). AS's writer reads "lidl per week since september, roughly" as an
    // average (Sou: the weeks, as "per week" after the question); AT's asks about "mes
    // sorties du mois" (outings or money out? Sou: Leisure, whose name "sorties" is).
    // AH's writer counts "the last 30 days" from 30 October (31 days with today;
    // the brief and Sou: 30, today the last). AW's wants "list of my SNCF tickets" and
    // "the list of the Uber rides" in both directions (the brief: purchases are debits);
    // AX's reads "mes trois plus gros revenus" as the Income category (Sou: the largest
    // credits, as "mes revenus" is all income). AZ's wants "qu'est-ce que j'ai payé à EDF
    // l'an passé" as a total (Sou: the payments, as "qu'est-ce que j'ai payé hier"), "le
    // retrait de samedi c'était combien" as the line (Sou: the total of that day's) and
    // "anything over 200 last month that wasnt rent" as debits (Sou: both ways). BC's and
    // BF's want "my airbnb payments", "mes achats à la Pharmacie", "my deliveroo orders"
    // both ways (the brief: debits); BD's, BE's and BF's ask of "at the bakery", "mes
    // charges", "dans le bar", "dans le resto" (the vocabulary's other names: Groceries,
    // Housing, Restaurants); BE's wants "la MAIF m'a-t-elle bien prélevé" as the lines
    // (Sou: the total, with them).
    const SETS: &[(&str, &str, usize, usize)] = &[
        ("2026-11-29-a", include_str!("../blind/2026-11-29-a.txt"), 8, 131),
        ("2026-11-29-b", include_str!("../blind/2026-11-29-b.txt"), 3, 144),
        ("2026-11-29-c", include_str!("../blind/2026-11-29-c.txt"), 2, 138),
        ("2026-11-29-d", include_str!("../blind/2026-11-29-d.txt"), 1, 149),
        ("2026-11-29-e", include_str!("../blind/2026-11-29-e.txt"), 0, 146),
        ("2026-11-29-f", include_str!("../blind/2026-11-29-f.txt"), 3, 163),
        ("2026-11-29-g", include_str!("../blind/2026-11-29-g.txt"), 0, 149),
        ("2026-11-29-h", include_str!("../blind/2026-11-29-h.txt"), 0, 165),
        ("2026-11-29-i", include_str!("../blind/2026-11-29-i.txt"), 0, 164),
        ("2026-11-29-j", include_str!("../blind/2026-11-29-j.txt"), 1, 157),
        ("2026-11-29-k", include_str!("../blind/2026-11-29-k.txt"), 0, 153),
        ("2026-11-29-l", include_str!("../blind/2026-11-29-l.txt"), 0, 154),
        ("2026-11-29-m", include_str!("../blind/2026-11-29-m.txt"), 0, 158),
        ("2026-11-29-n", include_str!("../blind/2026-11-29-n.txt"), 0, 152),
        ("2026-11-29-o", include_str!("../blind/2026-11-29-o.txt"), 0, 152),
        ("2026-11-29-p", include_str!("../blind/2026-11-29-p.txt"), 1, 150),
        ("2026-11-29-q", include_str!("../blind/2026-11-29-q.txt"), 0, 144),
        ("2026-11-29-r", include_str!("../blind/2026-11-29-r.txt"), 1, 149),
        ("2026-11-29-s", include_str!("../blind/2026-11-29-s.txt"), 0, 139),
        ("2026-11-29-t", include_str!("../blind/2026-11-29-t.txt"), 0, 171),
        ("2026-11-29-u", include_str!("../blind/2026-11-29-u.txt"), 0, 177),
        ("2026-11-29-v", include_str!("../blind/2026-11-29-v.txt"), 1, 162),
        ("2026-11-29-w", include_str!("../blind/2026-11-29-w.txt"), 0, 144),
        ("2026-11-29-x", include_str!("../blind/2026-11-29-x.txt"), 0, 160),
        ("2026-11-29-y", include_str!("../blind/2026-11-29-y.txt"), 1, 126),
        ("2026-11-29-z", include_str!("../blind/2026-11-29-z.txt"), 0, 148),
        ("2026-11-29-aa", include_str!("../blind/2026-11-29-aa.txt"), 1, 145),
        ("2026-11-29-ab", include_str!("../blind/2026-11-29-ab.txt"), 0, 157),
        ("2026-11-29-ac", include_str!("../blind/2026-11-29-ac.txt"), 1, 114),
        ("2026-11-29-ad", include_str!("../blind/2026-11-29-ad.txt"), 4, 91),
        ("2026-11-29-ae", include_str!("../blind/2026-11-29-ae.txt"), 2, 66),
        ("2026-11-29-af", include_str!("../blind/2026-11-29-af.txt"), 0, 118),
        ("2026-11-29-ag", include_str!("../blind/2026-11-29-ag.txt"), 0, 97),
        ("2026-11-29-ah", include_str!("../blind/2026-11-29-ah.txt"), 2, 83),
        ("2026-11-29-ai", include_str!("../blind/2026-11-29-ai.txt"), 1, 106),
        ("2026-11-29-ak", include_str!("../blind/2026-11-29-ak.txt"), 1, 70),
        ("2026-11-29-al", include_str!("../blind/2026-11-29-al.txt"), 2, 87),
        ("2026-11-29-am", include_str!("../blind/2026-11-29-am.txt"), 2, 81),
        ("2026-11-29-an", include_str!("../blind/2026-11-29-an.txt"), 0, 120),
        ("2026-11-29-aj", include_str!("../blind/2026-11-29-aj.txt"), 1, 97),
        ("2026-11-29-ao", include_str!("../blind/2026-11-29-ao.txt"), 1, 153),
        ("2026-11-29-ap", include_str!("../blind/2026-11-29-ap.txt"), 3, 131),
        ("2026-11-29-aq", include_str!("../blind/2026-11-29-aq.txt"), 1, 163),
        ("2026-11-29-ar", include_str!("../blind/2026-11-29-ar.txt"), 1, 131),
        ("2026-11-29-as", include_str!("../blind/2026-11-29-as.txt"), 1, 129),
        ("2026-11-29-at", include_str!("../blind/2026-11-29-at.txt"), 1, 151),
        ("2026-11-30-au", include_str!("../blind/2026-11-30-au.txt"), 0, 144),
        ("2026-11-30-av", include_str!("../blind/2026-11-30-av.txt"), 0, 145),
        ("2026-11-30-aw", include_str!("../blind/2026-11-30-aw.txt"), 2, 115),
        ("2026-11-30-ax", include_str!("../blind/2026-11-30-ax.txt"), 1, 87),
        ("2026-12-01-ay", include_str!("../blind/2026-12-01-ay.txt"), 0, 119),
        ("2026-12-01-az", include_str!("../blind/2026-12-01-az.txt"), 3, 117),
        ("2026-12-01-ba", include_str!("../blind/2026-12-01-ba.txt"), 0, 97),
        ("2026-12-01-bb", include_str!("../blind/2026-12-01-bb.txt"), 0, 87),
        ("2026-12-02-bc", include_str!("../blind/2026-12-02-bc.txt"), 5, 126),
        ("2026-12-02-bd", include_str!("../blind/2026-12-02-bd.txt"), 3, 106),
        ("2026-12-02-be", include_str!("../blind/2026-12-02-be.txt"), 2, 98),
        ("2026-12-02-bf", include_str!("../blind/2026-12-02-bf.txt"), 2, 114),
        ("2026-12-02-bg", include_str!("../blind/2026-12-02-bg.txt"), 0, 80),
        ("2026-12-02-bh", include_str!("../blind/2026-12-02-bh.txt"), 0, 68),
        ("2026-12-03-bi", include_str!("../blind/2026-12-03-bi.txt"), 4, 109),
        ("2026-12-03-bj", include_str!("../blind/2026-12-03-bj.txt"), 6, 98),
        ("2026-12-03-bk", include_str!("../blind/2026-12-03-bk.txt"), 1, 161),
        ("2026-12-03-bl", include_str!("../blind/2026-12-03-bl.txt"), 0, 139),
        ("2026-12-03-bm", include_str!("../blind/2026-12-03-bm.txt"), 1, 167),
        ("2026-12-04-bn", include_str!("../blind/2026-12-04-bn.txt"), 0, 128),
        ("2026-12-04-bo", include_str!("../blind/2026-12-04-bo.txt"), 1, 128),
        ("2026-12-04-bp", include_str!("../blind/2026-12-04-bp.txt"), 0, 163),
        ("2026-12-04-bq", include_str!("../blind/2026-12-04-bq.txt"), 1, 101),
        ("2026-12-04-br", include_str!("../blind/2026-12-04-br.txt"), 2, 129),
        ("2026-12-05-bs", include_str!("../blind/2026-12-05-bs.txt"), 0, 154),
        ("2026-12-05-bt", include_str!("../blind/2026-12-05-bt.txt"), 0, 169),
        ("2026-12-05-bu", include_str!("../blind/2026-12-05-bu.txt"), 0, 160),
        ("2026-12-05-bv", include_str!("../blind/2026-12-05-bv.txt"), 0, 152),
        ("2026-12-05-bw", include_str!("../blind/2026-12-05-bw.txt"), 1, 153),
        ("2026-12-05-bx", include_str!("../blind/2026-12-05-bx.txt"), 1, 151),
        ("2026-12-05-by", include_str!("../blind/2026-12-05-by.txt"), 0, 139),
        ("2026-12-05-bz", include_str!("../blind/2026-12-05-bz.txt"), 0, 134),
        ("2026-12-05-ca", include_str!("../blind/2026-12-05-ca.txt"), 0, 181),
        ("2026-12-05-cb", include_str!("../blind/2026-12-05-cb.txt"), 0, 148),
        ("2026-12-05-cc", include_str!("../blind/2026-12-05-cc.txt"), 1, 136),
    ];

    #[test]
    fn blind_sets_do_not_go_backwards() {
        let vocab = include_str!("../../../backend/demo/vocabulary.json");
        let parser = Parser::new(serde_json::from_str::<Vocabulary>(vocab).unwrap());
        for (name, text, most_wrong, least_high) in SETS {
            let f = measure(&parser, text);
            println!("blind {name}: {}", f.summary());
            assert!(
                f.wrong() <= *most_wrong,
                "{name}: {} wrong (at most {most_wrong}):\n{}",
                f.wrong(),
                f.wrong.join("\n")
            );
            assert!(
                f.complete_high >= *least_high,
                "{name}: {} answered right at high (at least {least_high})",
                f.complete_high
            );
            assert_eq!(f.dropped, 0, "{name}: a request of several parts answered by one plan");
        }
    }
}
