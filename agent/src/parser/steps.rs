//! A message that asks several things becomes a plan of steps, shown to the user before
//! it runs: "compare groceries and restaurants in 2025 and show my biggest grocery
//! purchases" (a summary for each name, then the list), "prépare mon bilan d'octobre"
//! (the month's review: flows, categories, the month before, budgets, the largest
//! expenses). The parser splits a message only where each part is a request it reads
//! on its own; a part without a period takes the period of the part before. Anything
//! less sure is not split: the message goes the usual way (a question, or a model).

use crate::args::Period;
use crate::locale::Locale;
use crate::parser::{Context, Parser};
use crate::plan::{ParseOutcome, ToolCallPlan};
use crate::reason::Confidence;
use crate::reason::ReasonCode;
use crate::runs::{PlanStep, RunPlan, MAX_PLAN_STEPS};
use crate::text::tokenize;
use crate::tool::ToolCall;

/// Words that join two requests.
const JOINS: &[&str] = &["and", "then", "also", "plus", "et", "puis", "ensuite", "aussi", "enfin"];
/// Words a request starts with.
const ASKS: &[&str] = &[
    "show", "list", "give", "tell", "compare", "how", "what", "which", "display", "find", "top", "montre",
    "montrez", "affiche", "affichez", "liste", "listez", "donne", "donnez", "compare", "comparez", "combien",
    "quel", "quels", "quelle", "quelles", "trouve", "trouvez", "dis", "dites",
];
/// Words that start a question after a join ("…, and am I on track").
const QUESTIONS: &[&str] = &["am", "are", "is", "do", "does", "did"];
/// Words that start a request only after a joining word ("…, then the top 3 merchants",
/// "et le total"); after a comma alone they refine the request before ("units sold per
/// product, top 3").
const AFTER_JOIN: &[&str] = &["top", "total", "somme", "where", "ou"];
/// Words between a join and the request ("and then show me", "et aussi montre-moi").
const FILLERS: &[&str] = &["then", "also", "puis", "ensuite", "aussi", "alors", "enfin"];
/// A pronoun or an article before the request's word ("and I did", "et le total").
const LEAD: &[&str] = &["i", "je", "j", "le", "la", "les", "l", "the", "my", "mes", "mon", "ma"];
/// A month's review.
const REVIEW: &[&str] = &["bilan", "recap", "recapitulatif", "review", "roundup"];
/// Asking to compare.
const COMPARE: &[&str] = &["compare", "comparez", "comparer", "versus", "vs"];

/// Whether a clause starting with `w` asks a yes-or-no question ("is…", "did…").
pub(crate) fn starts_a_question(w: &str) -> bool {
    QUESTIONS.contains(&w)
}

/// Whether a clause starting with `w` asks something ("how…", "montre…", "is…").
#[cfg(feature = "asides")]
pub(crate) fn starts_a_request(w: &str) -> bool {
    ASKS.contains(&w) || QUESTIONS.contains(&w)
}

/// Whether `w` asks something wherever it stands ("combien", "how", "montre") or leads
/// to a next request ("puis", "then", "also").
#[cfg(feature = "asides")]
pub(crate) fn asks_or_leads_on(w: &str) -> bool {
    ASKS.contains(&w) || FILLERS.contains(&w)
}

/// The parts of a message that each start a request, as byte ranges.
pub fn clauses(message: &str) -> Vec<&str> {
    let tokens = tokenize(message);
    let mut starts = vec![0usize];
    let mut i = 1;
    while i < tokens.len() {
        let gap = &message[tokens[i - 1].end..tokens[i].start];
        let punct = gap.contains([',', ';', '.', '?']);
        // "dépenses santé + ce que la mutuelle m'a remboursé": a "+" joins too.
        let join = JOINS.contains(&tokens[i].norm.as_str()) || gap.contains('+');
        let j0 = if JOINS.contains(&tokens[i].norm.as_str()) { i + 1 } else { i };
        if join || punct {
            let mut j = j0;
            while j < tokens.len() && FILLERS.contains(&tokens[j].norm.as_str()) {
                j += 1;
            }
            let starts_request = |j: usize| {
                tokens.get(j).is_some_and(|t| {
                    let w = t.norm.as_str();
                    (ASKS.contains(&w) && (join || w != "top"))
                        || QUESTIONS.contains(&w)
                        || (join && AFTER_JOIN.contains(&w))
                        // "… et c'est quoi mon budget", "et c koi": another question.
                        || (cfg!(feature = "readings")
                            && join
                            && w == "c"
                            && tokens.get(j + 1).is_some_and(|t| matches!(t.norm.as_str(), "est" | "koi")))
                        // "… et ce que j'ai gagné": what was asked of another thing.
                        || (join
                            && w == "ce"
                            && tokens.get(j + 1).is_some_and(|t| matches!(t.norm.as_str(), "que" | "qu")))
                })
            };
            if j < tokens.len() && LEAD.contains(&tokens[j].norm.as_str()) && starts_request(j + 1) {
                j += 1;
            }
            // "…, plus my recurring payments", "… and my biggest expense": after a joining
            // word, what another tool answers, named after "my"/"mes"/"the" (not income:
            // "my spending and my income" is one cash flow).
            let names_a_tool = |w: &str| {
                use super::lexicon::*;
                is_balance_word(w)
                    || is_budget_word(w)
                    || is_recurring_word(w)
                    || is_largest_word(w)
                    || is_latest_word(w)
                    // "… et mes remboursements de santé": one side of the ledger.
                    || matches!(w, "remboursements" | "refunds" | "credits" | "debits")
            };
            // ("… et mes 3 plus grosses dépenses": a number and "plus" may come first.)
            let mut k = j + 1;
            while tokens.get(k).is_some_and(|t| {
                t.kind == crate::text::TokenKind::Number || matches!(t.norm.as_str(), "plus" | "single")
            }) {
                k += 1;
            }
            if join
                && k < tokens.len()
                && LEAD.contains(&tokens[j].norm.as_str())
                && (names_a_tool(&tokens[k].norm) || (k > j + 1 && names_a_tool(&tokens[k - 1].norm)))
            {
                starts.push(tokens[j].start);
                i = j + 1;
                continue;
            }
            if starts_request(j) {
                starts.push(tokens[j].start);
                i = j + 1;
                continue;
            }
            // "j'ai combien et j'ai dépensé combien hier", "how much is left and I spent
            // how much": "how much" again, a few words after the join, with "how much"
            // before it: a second request.
            let asks_much = |k: usize| {
                tokens.get(k).is_some_and(|t| matches!(t.norm.as_str(), "combien" | "cb" | "cmb" | "cbn"))
                    || (tokens.get(k).is_some_and(|t| t.norm == "how")
                        && tokens.get(k + 1).is_some_and(|t| matches!(t.norm.as_str(), "much" | "many")))
            };
            let before = *starts.last().unwrap_or(&0);
            let asked_before = (0..i).any(|k| tokens[k].start >= before && asks_much(k));
            // The clause after the join, to the next break.
            let end = (j + 1..tokens.len())
                .find(|&k| message[tokens[k - 1].end..tokens[k].start].contains([',', ';', '.', '?']))
                .unwrap_or(tokens.len());
            let again = (j..(j + 4).min(end)).any(asks_much);
            // (It asks of something of its own — spending, income, a balance: "…et
            // combien ça fait au total" asks the same thing again.)
            let own = (j..end).any(|k| {
                use super::lexicon::*;
                let w = tokens[k].norm.as_str();
                is_spend_word(w) || is_income_word(w) || is_balance_word(w) || is_budget_word(w)
            });
            if join && asked_before && again && own {
                starts.push(tokens[j].start);
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let end = match starts.get(k + 1) {
            // The part ends where its last token does, before the join.
            Some(&next) => tokens.iter().filter(|t| t.end <= next).rev().find(|t| {
                t.start >= s && !JOINS.contains(&t.norm.as_str()) && !FILLERS.contains(&t.norm.as_str())
            }),
            None => tokens.last(),
        }
        .map(|t| t.end)
        .unwrap_or(s);
        if end > s {
            out.push(&message[s..end]);
        }
    }
    out
}

impl Parser {
    /// A plan of two steps or more for a message that asks several things, or `None`
    /// when the message is one request or a part of it is not read surely enough.
    pub fn plan_steps(&self, message: &str, cx: &Context<'_>) -> Option<RunPlan> {
        if message.chars().count() > crate::text::MAX_MESSAGE_CHARS {
            return None;
        }
        let tokens = tokenize(message);
        if tokens.iter().any(|t| REVIEW.contains(&t.norm.as_str())) {
            return self.review(message, cx);
        }
        let parts = clauses(message);
        if parts.iter().any(|p| self.only_period(p, cx)) {
            return None;
        }
        let mut steps: Vec<(ToolCallPlan, String)> = Vec::new();
        let mut period: Option<String> = None;
        for part in &parts {
            if let Some(two) = self.two_names(part, cx) {
                if let Some(p) = two.first().and_then(|(p, _)| p.call.period()) {
                    period = Some(p.words.clone());
                }
                steps.extend(two);
                continue;
            }
            let named = |p: &ToolCallPlan| p.call.category().is_some() || p.call.merchant().is_some();
            let plan = self.part_plan(part, cx, period.as_deref())?;
            // "…and show me the biggest ones": a part that names nothing after one that
            // did may be about it, or not. Sou does not guess which.
            let borrowed = plan.meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::ImplicitPeriod);
            if !named(&plan) && (borrowed || steps.last().is_some_and(|(p, _)| named(p))) {
                return None;
            }
            if let Some(p) = plan.call.period().filter(|p| !p.words.is_empty()) {
                period = Some(p.words.clone());
            }
            steps.push((plan, String::new()));
        }
        if steps.len() < 2 || steps.len() > MAX_PLAN_STEPS {
            return None;
        }
        let locale = steps[0].0.meta.locale;
        let confidence = steps.iter().map(|(p, _)| p.meta.confidence).min()?;
        let steps = steps
            .into_iter()
            .map(|(p, why)| {
                let title = self.describe(&p.call, locale);
                let why = if why.is_empty() { locale.pick("Demandé", "Asked").to_string() } else { why };
                PlanStep { expect: expected(&p.call, locale), call: p.call, why, title }
            })
            .collect();
        Some(RunPlan { steps, confidence, by: "parser".into(), locale, today: cx.today })
    }

    /// A part that names only a period ("weekend before last, how much did I spend",
    /// "en octobre, combien en courses"): it says when the other part asks about, it
    /// asks nothing of its own.
    pub(crate) fn only_period(&self, part: &str, cx: &Context<'_>) -> bool {
        let cx = Context { previous: None, ..*cx };
        let ParseOutcome::Plan(p) = self.parse_request(part, &cx) else { return false };
        let asks = p.meta.confidence_reasons.iter().any(|r| {
            !matches!(
                r.code,
                ReasonCode::InferredIntent
                    | ReasonCode::ExplicitPeriod
                    | ReasonCode::FiltersOnly
                    | ReasonCode::NoIntent
            )
        });
        let (min, max) = p.call.amounts();
        !asks
            && p.call.category().is_none()
            && p.call.merchant().is_none()
            && p.call.account().is_none()
            && min.is_none()
            && max.is_none()
    }

    /// "restos, combien ce mois ?": one name said first is what the question after it is
    /// about — when that question names nothing else; "Excluding the supermarket, what did
    /// I spend…": so is one thing left out.
    pub(crate) fn only_name(&self, part: &str, rest: &[&str], cx: &Context<'_>) -> bool {
        let cx = Context { previous: None, ..*cx };
        let ParseOutcome::Plan(p) = self.parse_request(part, &cx) else { return false };
        let plain = p.meta.confidence_reasons.iter().all(|r| {
            matches!(
                r.code,
                ReasonCode::InferredIntent
                    | ReasonCode::FiltersOnly
                    | ReasonCode::NoIntent
                    | ReasonCode::ImplicitPeriod
                    | ReasonCode::ExactCategory
                    | ReasonCode::ExactMerchant
                    | ReasonCode::ExactAccount
                    | ReasonCode::Excluded
            )
        });
        let names = [p.call.category(), p.call.merchant(), p.call.account()].iter().flatten().count();
        let (ex_category, ex_merchant) = p.call.excluded();
        let excluded = usize::from(ex_category.is_some()) + usize::from(ex_merchant.is_some());
        let (min, max) = p.call.amounts();
        let after = |f: &dyn Fn(&crate::tool::ToolCall) -> bool| {
            rest.iter().any(|r| match self.parse_request(r, &cx) {
                ParseOutcome::Plan(q) => f(&q.call),
                ParseOutcome::Clarification(_) => false,
            })
        };
        let named_after =
            after(&|c| c.category().is_some() || c.merchant().is_some() || c.account().is_some());
        let excluded_after = after(&|c| c.excluded() != (None, None));
        // "Leaving out Airbnb, what did travel cost me last summer?", "Hors loyer et hors
        // Amazon, combien …": what is left out (a category, a merchant), said first.
        let left_out = names == 0 && excluded >= 1 && !excluded_after;
        plain && min.is_none() && max.is_none() && ((names == 1 && excluded == 0 && !named_after) || left_out)
    }

    /// "month by month, how much did I pay for transport": a breakdown said first is
    /// the question's, not a request of its own.
    pub(crate) fn only_breakdown(&self, part: &str) -> bool {
        let tokens = tokenize(part);
        let mut used = vec![false; tokens.len()];
        let read = super::intent::read(&tokens, &mut used, part);
        read.group_by.is_some()
            && (read.kind.is_none() || read.group_only)
            && tokens.iter().zip(&used).all(|(t, u)| *u || super::lexicon::is_stopword(&t.norm))
    }

    /// One part of a message, read surely enough to run (medium or high); a part with
    /// no period of its own is read again with the period of the part before.
    fn part_plan(&self, part: &str, cx: &Context<'_>, period: Option<&str>) -> Option<ToolCallPlan> {
        let cx = Context { previous: None, ..*cx };
        let ParseOutcome::Plan(plan) = self.parse(part, &cx) else { return None };
        let implicit = plan.meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::ImplicitPeriod);
        let plan = match period.filter(|w| implicit && !w.is_empty()) {
            Some(words) => match self.parse(&format!("{part} {words}"), &cx) {
                ParseOutcome::Plan(p) => p,
                ParseOutcome::Clarification(_) => return None,
            },
            None => plan,
        };
        (plan.meta.confidence >= Confidence::Medium).then_some(plan)
    }

    /// "compare groceries and restaurants in 2025": a spending summary for each of the
    /// two names, over the one period.
    fn two_names(&self, part: &str, cx: &Context<'_>) -> Option<Vec<(ToolCallPlan, String)>> {
        let tokens = tokenize(part);
        if !tokens.iter().any(|t| COMPARE.contains(&t.norm.as_str())) {
            return None;
        }
        let cx = Context { previous: None, ..*cx };
        let ParseOutcome::Plan(plan) = self.parse(part, &cx) else { return None };
        let period = match &plan.call {
            ToolCall::ComparePeriods(a) => a.current.clone(),
            other => other.period()?.clone(),
        };
        if period.words.is_empty() {
            return None;
        }
        if says_more_than_two_totals(&plan.call, part) {
            return None;
        }
        let names = self.mentions(part, &cx, 3);
        let kind = names.first()?.kind.clone();
        if names.len() != 2
            || names.iter().any(|n| n.kind != kind)
            || !matches!(kind.as_str(), "category" | "merchant")
        {
            return None;
        }
        let locale = plan.meta.locale;
        let mut out = Vec::new();
        for n in &names {
            let call = summary(&period, &kind, &n.key)?;
            let why = locale.pick(format!("Pour comparer : {}", n.name), format!("To compare: {}", n.name));
            let meta = crate::plan::PlanMeta { confidence: Confidence::High, ..plan.meta.clone() };
            out.push((ToolCallPlan { call, meta }, why));
        }
        Some(out)
    }

    /// "prépare mon bilan d'octobre": the month's review, in five steps.
    fn review(&self, message: &str, cx: &Context<'_>) -> Option<RunPlan> {
        let cx = Context { previous: None, ..*cx };
        // "monthly review for October": "monthly" says what kind of review, not a rate.
        let plan = match self.parse(message, &cx) {
            ParseOutcome::Plan(plan) => plan,
            ParseOutcome::Clarification(c)
                if c.reasons.iter().any(|r| r.code == ReasonCode::RateOrBreakdown) =>
            {
                c.suggestions.into_iter().next()?.plan
            }
            _ => return None,
        };
        let period = plan.call.period()?.clone();
        if period.words.is_empty() {
            return None;
        }
        if self.review_of_one_thing(&plan.call, message, &cx) {
            return None;
        }
        let locale = plan.meta.locale;
        let previous = crate::period::preceding(&period, locale);
        let pick = |fr: &str, en: &str| locale.pick(fr, en).to_string();
        let json = |tool: &str, args: serde_json::Value| -> Option<ToolCall> {
            serde_json::from_value(serde_json::json!({"tool": tool, "args": args})).ok()
        };
        let steps = [
            (
                json("cash_flow", serde_json::json!({"period": period}))?,
                pick("Ce qui est entré et sorti", "What came in and went out"),
            ),
            (
                json("spending_summary", serde_json::json!({"period": period, "group_by": "category"}))?,
                pick("Où est allé l'argent", "Where the money went"),
            ),
            (
                json("compare_periods", serde_json::json!({"current": period, "reference": previous}))?,
                pick("Par rapport à la période d'avant", "Against the period before"),
            ),
            (
                json("budget_status", serde_json::json!({"period": period}))?,
                pick("Les budgets", "The budgets"),
            ),
            (
                json(
                    "list_transactions",
                    serde_json::json!({"period": period, "direction": "debit", "order": "largest", "limit": 5}),
                )?,
                pick("Les plus grosses dépenses", "The largest expenses"),
            ),
        ];
        let steps = steps
            .into_iter()
            .map(|(call, why)| PlanStep {
                title: self.describe(&call, locale),
                expect: expected(&call, locale),
                call,
                why,
            })
            .collect();
        Some(RunPlan { steps, confidence: Confidence::High, by: "parser".into(), locale, today: cx.today })
    }
}

/// A spending summary of one category or merchant over `period`.
fn summary(period: &Period, kind: &str, key: &str) -> Option<ToolCall> {
    serde_json::from_value(
        serde_json::json!({"tool": "spending_summary", "args": {"period": period, kind: key}}),
    )
    .ok()
}

/// What a step gives, in words (each tool's, in its file).
pub fn expected(call: &ToolCall, locale: Locale) -> String {
    call.expected(locale).to_string()
}

/// Two names compared and more said (on the server, `readings`): two totals would drop it.
#[cfg(feature = "readings")]
fn says_more_than_two_totals(call: &ToolCall, part: &str) -> bool {
    // Two names compared and nothing else: not two periods too ("lidl and carrefour
    // this month vs last month"), nor a breakdown, an amount or a name left out,
    // which two totals would drop.
    let more = match call {
        // (The period compared with is only the one before, unless it was said.)
        ToolCall::ComparePeriods(a) => !a.reference.words.is_empty(),
        ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.group_by != crate::args::GroupBy::None,
        _ => false,
    };
    // ("month by month", "par mois": a breakdown a comparison of two totals drops.)
    let whole = crate::text::normalize(part);
    let grouped = [" by ", " par ", "per ", "each ", "chaque "].iter().any(|g| {
        ["month", "mois", "week", "semaine", "category", "categorie", "merchant", "marchand", "day", "jour"]
            .iter()
            .any(|u| whole.contains(&format!("{g}{u}")))
    });
    more || grouped || call.amounts() != (None, None) || call.excluded() != (None, None)
}

#[cfg(not(feature = "readings"))]
fn says_more_than_two_totals(_: &ToolCall, _: &str) -> bool {
    false
}

impl Parser {
    /// "le bilan des restos", "review of my Uber spending", "bilan hors loyer": a review
    /// of one thing, which the whole ledger's would drop (on the server, `readings`).
    #[cfg(feature = "readings")]
    fn review_of_one_thing(&self, c: &ToolCall, message: &str, cx: &Context<'_>) -> bool {
        !self.mentions(message, cx, 1).is_empty()
            || c.category().is_some()
            || c.merchant().is_some()
            || c.account().is_some()
            || c.excluded() != (None, None)
    }

    #[cfg(not(feature = "readings"))]
    fn review_of_one_thing(&self, _: &ToolCall, _: &str, _: &Context<'_>) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_message_splits_where_a_new_request_starts() {
        assert_eq!(
            clauses("compare groceries and restaurants in 2025 and show my biggest grocery purchases"),
            ["compare groceries and restaurants in 2025", "show my biggest grocery purchases"]
        );
        assert_eq!(
            clauses("combien en courses en 2025, et puis montre-moi les plus grosses"),
            ["combien en courses en 2025", "montre-moi les plus grosses"]
        );
        assert_eq!(clauses("courses et restaurants en 2025"), ["courses et restaurants en 2025"]);
        assert_eq!(clauses("how much on groceries in 2025"), ["how much on groceries in 2025"]);
    }
}
