//! Comparisons: "mars 2026 vs mars 2025", "courses en janvier par rapport à l'an
//! dernier", "compare with 2024" after a question — the same total over two periods.

use super::build::{plan, push_unrecognized};
use super::entities::Entities;
use super::followup::context_step;
use super::intent::{self, Kind};
use super::{Context, Parser};
use crate::period;
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::vocab::EntityKind;
use crate::{Locale, ParseOutcome, ToolCall};

impl Parser {
    /// "mars 2026 vs mars 2025", "courses en janvier par rapport à l'an dernier",
    /// "compare with 2024" (a follow-up): the same total over two periods.
    // Over 120 lines; to split (issue 49).
    #[allow(clippy::too_many_lines)]
    pub(super) fn comparison(
        &self,
        (message, words): (&str, &str),
        tokens: &[Token],
        used: &mut [bool],
        locale: Locale,
        cx: &Context<'_>,
    ) -> ParseOutcome {
        let found = period::find_all(tokens, used, message, cx.today, locale);
        for f in &found {
            used[f.first..=f.last].iter_mut().for_each(|u| *u = true);
        }
        // "compare juin et juillet": a list of two months, alone, is the two periods, in
        // the order typed. A list on one side ("June and July 2026 vs June and July
        // 2025") or a third period is more than two totals compared: it is asked.
        let lists = found.iter().filter(|f| !f.parts.is_empty()).count();
        let list_of_two = matches!(found.as_slice(), [one] if one.parts.len() == 2 && !one.wrapped);
        let unread: Vec<String> = if (lists > 0 && !list_of_two) || found.len() > 2 {
            found.iter().map(|f| format!("« {} »", f.period.words)).collect()
        } else {
            Vec::new()
        };
        let found: Vec<period::Found> =
            if list_of_two { found.into_iter().flat_map(period::Found::each).collect() } else { found };
        // "this year than last": the word standing for the other period is read.
        let elliptic = match found.as_slice() {
            [a] => than_the_last(tokens, a.last),
            _ => None,
        };
        let versus = elliptic.is_some_and(|(_, vs)| vs);
        let elliptic = elliptic.map(|(k, _)| k);
        if let Some(k) = elliptic {
            used[k] = true;
        }
        let intent = intent::read(tokens, used, message);
        let Entities { categories, merchants, accounts, unrecognized } =
            self.finder().entities(tokens, used, message);
        let previous = cx.ledger_previous();
        let mut reasons = vec![Reason::new(ReasonCode::ExplicitIntent, locale, words)];
        if !unread.is_empty() {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &unread.join(", ")));
        }
        // A comparison of averages is not a comparison of totals.
        if intent.average {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &intent.words.join(" ")));
        }
        let mut borrowed = Vec::new();

        let flow = match (intent.kind, previous.map(|(p, _)| &p.call)) {
            (Some(Kind::Income), _) | (None, Some(ToolCall::IncomeSummary(_))) => crate::Flow::Income,
            _ => crate::Flow::Spending,
        };
        let (category, merchant) = if categories.is_empty() && merchants.is_empty() {
            match previous {
                Some((p, _)) if p.call.category().is_some() || p.call.merchant().is_some() => {
                    let keys = (p.call.category().map(str::to_string), p.call.merchant().map(str::to_string));
                    borrowed
                        .extend(keys.0.iter().chain(keys.1.iter()).map(|k| self.vocab.label_of(k, locale)));
                    keys
                }
                _ => (None, None),
            }
        } else {
            (
                self.finder().pick(&categories, locale, &mut reasons, EntityKind::Category),
                self.finder().pick(&merchants, locale, &mut reasons, EntityKind::Merchant),
            )
        };
        // Said of the current period ("this month", "cette année"): it so far, against
        // the same days of the other.
        let so_far_of = |a: &period::Found, b: &period::Found| {
            let this = a
                .period
                .words
                .split_whitespace()
                .any(|w| matches!(crate::text::normalize(w).as_str(), "this" | "cette" | "ce" | "cet"));
            let current = a.period.start <= cx.today && cx.today < a.period.end;
            (this && current)
                .then(|| {
                    period::to_date_against(&b.period, cx.today, locale)
                        .filter(|(c, _)| c.start == a.period.start)
                        .or_else(|| period::so_far_against(&a.period, &b.period, cx.today, locale))
                })
                .flatten()
        };
        let mut so_far = None;
        let (current, reference) = match (found.as_slice(), previous) {
            // "plus cette année que l'an dernier", "this month than last month": the
            // current one so far against the same days of the other, as "than last year"
            // alone. Years named by number ("en 2026 qu'en 2025") are taken whole.
            ([a, b, ..], _)
                if (b.first.saturating_sub(3)..b.first)
                    .any(|k| matches!(tokens[k].norm.as_str(), "than" | "que" | "qu"))
                    && so_far_of(a, b).is_some() =>
            {
                let (current, reference) = so_far_of(a, b).unwrap_or((a.period.clone(), b.period.clone()));
                let detail = format!("{} / {}", current.label, reference.label);
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
                (current, reference)
            }
            ([a, b, ..], _) => {
                // "Uber 2025 vs 2026": the later period is the one compared, the earlier
                // the reference, whichever is said first.
                // ("plus en 2024 qu'en 2025": what follows "than" is the reference.)
                let than = (b.first.saturating_sub(3)..b.first)
                    .any(|k| matches!(tokens[k].norm.as_str(), "than" | "que" | "qu"));
                let (a, b) = if !than && b.period.start > a.period.start && b.period.end > a.period.end {
                    (b, a)
                } else {
                    (a, b)
                };
                // "décembre … pour comparer avec cette année": a month against a year
                // compares nothing like with like — asked.
                // ("January compared to last year" is January a year back: as read.)
                let days = |p: &crate::Period| p.end.to_days() - p.start.to_days();
                let against = period::against(&a.period, &b.period, locale);
                let (da, db) = (days(&a.period), days(&against));
                if da.max(db) > 2 * da.min(db) + 3 {
                    let detail = format!("« {} », « {} »", a.period.words, b.period.words);
                    reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
                }
                // "ce mois-ci par rapport au mois dernier", "this year vs last year":
                // the whole of the other, or only its days up to today's date? Writers
                // read both; the user picks.
                so_far = so_far_of(a, b);
                let reference = period::against(&a.period, &b.period, locale);
                reasons.push(Reason::new(
                    ReasonCode::ExplicitPeriod,
                    locale,
                    &format!("{} / {}", a.period.label, reference.label),
                ));
                (a.period.clone(), reference)
            }
            ([b], Some((_, prev_period))) => {
                let current = period::relabel(prev_period.clone(), locale);
                borrowed.push(current.label.clone());
                // "par rapport au mois précédent": the month before the one asked about.
                let reference = match context_step(&b.period.words) {
                    Some((unit, n)) => period::step(&current, unit, n, locale),
                    None => period::against(&current, &b.period, locale),
                };
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &reference.label));
                (current, reference)
            }
            // "more than last year": the one period is what to compare with; the current
            // one so far is compared with the same days of it.
            ([a], None) if is_reference(tokens, a.first) => {
                match period::to_date_against(&a.period, cx.today, locale) {
                    Some((current, reference)) => {
                        let detail = format!("{} / {}", current.label, reference.label);
                        reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
                        (current, reference)
                    }
                    None => {
                        let quoted = format!("« {} »", a.period.words);
                        reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quoted));
                        (a.period.clone(), period::preceding(&a.period, locale))
                    }
                }
            }
            // "this year than last": the one said is the current one, the other left to
            // be understood; as with both said, the current one so far.
            // With "vs" ("income this year vs last"), as with both said, the user picks.
            ([a], None) if elliptic.is_some() && a.period.start <= cx.today && cx.today < a.period.end => {
                let reference = period::preceding(&a.period, locale);
                let to_date = period::to_date_against(&reference, cx.today, locale)
                    .filter(|(c, _)| c.start == a.period.start)
                    .or_else(|| period::so_far_against(&a.period, &reference, cx.today, locale));
                let (current, reference) = if versus {
                    so_far = to_date;
                    (a.period.clone(), reference)
                } else {
                    to_date.unwrap_or((a.period.clone(), reference))
                };
                let detail = format!("{} / {}", current.label, reference.label);
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
                (current, reference)
            }
            ([a], None) => {
                let reference = period::preceding(&a.period, locale);
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &a.period.label));
                (a.period.clone(), reference)
            }
            ([], Some((_, prev_period))) => {
                let current = period::relabel(prev_period.clone(), locale);
                borrowed.push(current.label.clone());
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
            ([], None) => {
                let current = period::default_period(cx.today, locale);
                reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &current.label));
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
        };
        if !borrowed.is_empty() {
            reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &borrowed.join(", ")));
        }
        // A period compared with itself ("this October vs last October", read in
        // November) is never what was meant: the words were misread.
        if current.start == reference.start && current.end == reference.end {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &current.label));
        }
        push_unrecognized(&mut reasons, &unrecognized, locale);
        let account = match self.finder().pick(&accounts, locale, &mut reasons, EntityKind::Account) {
            Some(a) => Some(a),
            None => previous.and_then(|(p, _)| p.call.account()).map(str::to_string),
        };
        let call = ToolCall::ComparePeriods(crate::CompareArgs {
            flow,
            current,
            reference,
            category,
            merchant,
            account,
        });
        let sure = crate::reason::confidence_of(&reasons) != crate::Confidence::Low;
        if let (Some((current, reference)), true) = (so_far, sure) {
            let mut to_date = call.clone();
            if let ToolCall::ComparePeriods(a) = &mut to_date {
                a.current = current;
                a.reference = reference;
            }
            let question = locale.pick(
                "Jusqu'à la même date, ou les deux périodes entières ?",
                "Up to the same date, or both periods whole?",
            );
            return ParseOutcome::Clarification(crate::Clarification {
                question: question.to_string(),
                reasons: vec![Reason::new(ReasonCode::SoFarOrWhole, locale, "")],
                suggestions: vec![
                    self.picked(to_date, locale, cx.today),
                    self.picked(call, locale, cx.today),
                ],
                locale,
            });
        }
        ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
    }
}

/// Whether the period whose words start at `first` follows "than", "que", "vs", "compared
/// to", "par rapport à": it is what to compare with, not the period asked about.
fn is_reference(tokens: &[Token], first: usize) -> bool {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let before = first.checked_sub(1).map_or("", w);
    // "que l'an dernier", "than the year before".
    let glue = |x: &str| matches!(x, "l" | "le" | "la" | "the" | "en" | "in" | "during" | "pendant");
    let before = if glue(before) { first.checked_sub(2).map_or("", w) } else { before };
    let compared = |x: &str| {
        matches!(x, "than" | "que" | "qu" | "vs" | "versus" | "to" | "with" | "contre" | "a" | "au" | "avec")
    };
    // "than I did last year", "que ce que j'ai dépensé l'an dernier": who did it, said
    // between.
    let said_again = |x: &str| {
        matches!(
            x,
            "i" | "we"
                | "did"
                | "spent"
                | "do"
                | "ce"
                | "j"
                | "ai"
                | "on"
                | "a"
                | "depense"
                | "l"
                | "le"
                | "la"
                | "the"
        )
    };
    compared(before)
        || (2..=6).any(|back| {
            first.checked_sub(back).is_some_and(|k| {
                (w(k) == "than" || w(k) == "que" || w(k) == "qu") && (k + 1..first).all(|j| said_again(w(j)))
            })
        })
}

/// "this year than last", "ce mois-ci que le précédent", "ce trimestre vs le précédent":
/// "than" or "vs" after the period, then "last" or "previous" standing for the one before
/// it.
/// Returns the word's index, and whether "vs" joined them.
fn than_the_last(tokens: &[Token], last: usize) -> Option<(usize, bool)> {
    let w = |k: usize| tokens.get(k).map_or("", |t| t.norm.as_str());
    let than =
        (last + 1..last + 3).find(|&k| matches!(w(k), "than" | "que" | "qu" | "vs" | "versus" | "contre"))?;
    let versus = matches!(w(than), "vs" | "versus" | "contre");
    (than + 1..than + 3)
        .find(|&k| matches!(w(k), "last" | "previous" | "dernier" | "precedent"))
        .map(|k| (k, versus))
}
