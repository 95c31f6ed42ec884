//! Comparisons: "mars 2026 vs mars 2025", "courses en janvier par rapport à l'an
//! dernier", "compare with 2024" after a question — the same total over two periods.

use super::build::{plan, push_unrecognized};
use super::entities::{Entities, EntityMatch};
use super::followup::context_step;
use super::intent::{self, Kind};
use super::{Context, Parser};
use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::period;
use crate::plan::{ParseOutcome, ToolCallPlan};
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::tool::ToolCall;
use crate::vocab::EntityKind;

impl Parser {
    /// "mars 2026 vs mars 2025", "courses en janvier par rapport à l'an dernier",
    /// "compare with 2024" (a follow-up): the same total over two periods.
    pub(super) fn comparison(
        &self,
        (message, words): (&str, &str),
        tokens: &[Token],
        used: &mut [bool],
        locale: Locale,
        cx: &Context<'_>,
    ) -> ParseOutcome {
        let said = periods_said(tokens, used, message, cx, locale);
        let intent = intent::read(tokens, used, message);
        let Entities { categories, merchants, accounts, unrecognized } =
            self.finder().entities(tokens, used, message);
        let previous = cx.ledger_previous();
        let mut reasons = vec![Reason::new(ReasonCode::ExplicitIntent, locale, words)];
        if !said.unread.is_empty() {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &said.unread.join(", ")));
        }
        // A comparison of averages is not a comparison of totals; nor is one of
        // anything but spending or income ("cash flow vs last month", "my balance vs").
        let not_totals = intent.average
            || matches!(intent.kind, Some(Kind::CashFlow | Kind::Balance | Kind::Budget | Kind::Activity));
        if not_totals {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &intent.words.join(" ")));
        }
        // "Et par rapport à l'année dernière ?", "compare it with last year", "vs last
        // month?" with nothing before it: compared what? Asked (on the server:
        // `readings`).
        #[cfg(feature = "readings")]
        if previous.is_none() && {
            let named = !(categories.is_empty() && merchants.is_empty() && accounts.is_empty());
            let unsaid = intent.kind.is_none() && !named;
            let first = tokens.first().map(|t| t.norm.as_str());
            (unsaid
                && (matches!(first, Some("et" | "and" | "pareil" | "same"))
                    || super::back::comparison_without_subject(tokens)))
                || super::back::pointing_back(tokens, message, named).is_some()
        } {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, message));
        }
        let mut c = Comparing {
            tokens,
            today: cx.today,
            locale,
            previous,
            reasons,
            borrowed: Vec::new(),
            so_far: None,
        };

        let (category, merchant) = self.compared_names(&mut c, &categories, &merchants);
        // ("salary 2026 vs 2025": an income's category, with no word of spending, is
        // compared as income.)
        let earned = category.as_deref().is_some_and(|k| self.vocab.category_is(k, "income"));
        let flow = match (intent.kind, previous.map(|(p, _)| &p.call)) {
            (Some(Kind::Income), _) | (None, Some(ToolCall::IncomeSummary(_))) => crate::args::Flow::Income,
            (None, _) if earned => crate::args::Flow::Income,
            _ => crate::args::Flow::Spending,
        };
        let (current, reference) = c.periods(&said);
        let Comparing { mut reasons, borrowed, so_far, .. } = c;
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
        let call = ToolCall::ComparePeriods(crate::tool::compare_periods::CompareArgs {
            flow,
            current,
            reference,
            category,
            merchant,
            account,
        });
        // Up to the same date, or whole? Asked on the server; the browser's badge shows
        // the whole periods (feature `readings`).
        #[cfg(feature = "readings")]
        if let (Some(so_far), true) =
            (so_far, crate::reason::confidence_of(&reasons) != crate::reason::Confidence::Low)
        {
            return ParseOutcome::Clarification(self.so_far_or_whole(call, so_far, locale, cx));
        }
        #[cfg(not(feature = "readings"))]
        let _ = so_far;
        ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
    }

    /// The category and merchant compared: those named, else the previous plan's
    /// (borrowed).
    fn compared_names(
        &self,
        c: &mut Comparing<'_, '_>,
        categories: &[EntityMatch],
        merchants: &[EntityMatch],
    ) -> (Option<String>, Option<String>) {
        if categories.is_empty() && merchants.is_empty() {
            match c.previous {
                Some((p, _)) if p.call.category().is_some() || p.call.merchant().is_some() => {
                    let keys = (p.call.category().map(str::to_string), p.call.merchant().map(str::to_string));
                    c.borrowed
                        .extend(keys.0.iter().chain(keys.1.iter()).map(|k| self.vocab.label_of(k, c.locale)));
                    keys
                }
                _ => (None, None),
            }
        } else {
            (
                self.finder().pick(categories, c.locale, &mut c.reasons, EntityKind::Category),
                self.finder().pick(merchants, c.locale, &mut c.reasons, EntityKind::Merchant),
            )
        }
    }

    /// "Up to the same date, or both periods whole?": the comparison so far (`so_far`,
    /// the current period and the reference), or `call`'s whole periods.
    #[cfg(feature = "readings")]
    fn so_far_or_whole(
        &self,
        call: ToolCall,
        (current, reference): (Period, Period),
        locale: Locale,
        cx: &Context<'_>,
    ) -> crate::plan::Clarification {
        let mut to_date = call.clone();
        if let ToolCall::ComparePeriods(a) = &mut to_date {
            a.current = current;
            a.reference = reference;
        }
        let question = locale.pick(
            "Jusqu'à la même date, ou les deux périodes entières ?",
            "Up to the same date, or both periods whole?",
        );
        crate::plan::Clarification {
            question: question.to_string(),
            reasons: vec![Reason::new(ReasonCode::SoFarOrWhole, locale, "")],
            suggestions: vec![self.picked(to_date, locale, cx.today), self.picked(call, locale, cx.today)],
            locale,
        }
    }
}

/// The periods a comparison names, their tokens used.
struct PeriodsSaid {
    found: Vec<period::Found>,
    /// The periods quoted, when they are more than two totals compared: asked.
    unread: Vec<String>,
    /// The word standing for the other period ("this year than last").
    elliptic: Option<usize>,
    /// Whether "vs" joined it ("income this year vs last").
    versus: bool,
}

/// The periods compared, read and their tokens used: each month of a list of two, and
/// the word standing for the other period when one is said.
fn periods_said(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    cx: &Context<'_>,
    locale: Locale,
) -> PeriodsSaid {
    let found = period::find_all(tokens, used, message, cx.today, locale);
    for f in &found {
        used[f.first..=f.last].iter_mut().for_each(|u| *u = true);
    }
    // "compare juin et juillet": a list of two months, alone, is the two periods, in
    // the order typed. A list on one side ("June and July 2026 vs June and July
    // 2025") or a third period is more than two totals compared: it is asked.
    let lists = found.iter().filter(|f| !f.parts.is_empty()).count();
    let list_of_two = matches!(found.as_slice(), [one] if one.parts.len() == 2 && !one.wrapped);
    let mut unread: Vec<String> =
        if (lists > 0 && !list_of_two) || found.len() > 2 || read_one_way(&found, tokens) {
            found.iter().map(|f| format!("« {} »", f.period.words)).collect()
        } else {
            Vec::new()
        };
    unread.extend(compared_by(tokens));
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
    PeriodsSaid { found, unread, elliptic, versus }
}

/// A comparison's periods being read: what they are read against, and what is said of
/// them so far.
struct Comparing<'a, 'p> {
    tokens: &'a [Token],
    today: Date,
    locale: Locale,
    previous: Option<(&'p ToolCallPlan, &'p Period)>,
    reasons: Vec<Reason>,
    /// What the previous plan lends: its names, its period.
    borrowed: Vec<String>,
    /// The current period so far and the same days of the other, for the user to pick
    /// against both whole.
    so_far: Option<(Period, Period)>,
}

impl Comparing<'_, '_> {
    /// The current period and the one it is compared with.
    fn periods(&mut self, said: &PeriodsSaid) -> (Period, Period) {
        let (today, locale) = (self.today, self.locale);
        match (said.found.as_slice(), self.previous) {
            // "plus cette année que l'an dernier", "this month than last month": the
            // current one so far against the same days of the other, as "than last year"
            // alone. Years named by number ("en 2026 qu'en 2025") are taken whole.
            ([a, b, ..], _) if self.than_before(b) && self.so_far_of(a, b).is_some() => {
                let (current, reference) =
                    self.so_far_of(a, b).unwrap_or((a.period.clone(), b.period.clone()));
                let detail = format!("{} / {}", current.label, reference.label);
                self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
                (current, reference)
            }
            ([a, b, ..], _) => self.both_said(a, b),
            ([b], Some((_, prev_period))) => self.against_previous(b, prev_period),
            // "more than last year": the one period is what to compare with; the current
            // one so far is compared with the same days of it.
            ([a], None) if is_reference(self.tokens, a.first) => self.reference_said(a),
            // "this year than last": the one said is the current one, the other left to
            // be understood; as with both said, the current one so far.
            // With "vs" ("income this year vs last"), as with both said, the user picks.
            ([a], None) if said.elliptic.is_some() && a.period.start <= today && today < a.period.end => {
                self.than_last(a, said.versus)
            }
            ([a], None) => {
                let reference = period::preceding(&a.period, locale);
                self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &a.period.label));
                (a.period.clone(), reference)
            }
            ([], Some((_, prev_period))) => {
                let current = period::relabel(prev_period.clone(), locale);
                self.borrowed.push(current.label.clone());
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
            ([], None) => {
                let current = period::default_period(today, locale);
                self.reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &current.label));
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
        }
    }

    /// Whether "than", "que" comes just before the period `b`: what follows it is the
    /// reference.
    fn than_before(&self, b: &period::Found) -> bool {
        (b.first.saturating_sub(3)..b.first)
            .any(|k| matches!(self.tokens[k].norm.as_str(), "than" | "que" | "qu"))
    }

    /// Said of the current period ("this month", "cette année"): it so far, against the
    /// same days of the other.
    fn so_far_of(&self, a: &period::Found, b: &period::Found) -> Option<(Period, Period)> {
        let (today, locale) = (self.today, self.locale);
        let this = a
            .period
            .words
            .split_whitespace()
            .any(|w| matches!(crate::text::normalize(w).as_str(), "this" | "cette" | "ce" | "cet"));
        let current = a.period.start <= today && today < a.period.end;
        (this && current)
            .then(|| {
                period::to_date_against(&b.period, today, locale)
                    .filter(|(c, _)| c.start == a.period.start)
                    .or_else(|| period::so_far_against(&a.period, &b.period, today, locale))
            })
            .flatten()
    }

    /// Two periods said: the later compared with the earlier, whichever is said first,
    /// unless "than" says which is the reference.
    fn both_said<'f>(&mut self, a: &'f period::Found, b: &'f period::Found) -> (Period, Period) {
        let locale = self.locale;
        // "Uber 2025 vs 2026": the later period is the one compared, the earlier
        // the reference, whichever is said first.
        // ("plus en 2024 qu'en 2025": what follows "than" is the reference.)
        let than = self.than_before(b);
        let (a, b) = if !than && b.period.start > a.period.start && b.period.end > a.period.end {
            (b, a)
        } else {
            (a, b)
        };
        // "décembre … pour comparer avec cette année": a month against a year
        // compares nothing like with like — asked.
        // ("January compared to last year" is January a year back: as read.)
        let days = |p: &crate::args::Period| p.end.to_days() - p.start.to_days();
        let against = period::against(&a.period, &b.period, locale);
        let (da, db) = (days(&a.period), days(&against));
        if da.max(db) > 2 * da.min(db) + 3 {
            let detail = format!("« {} », « {} »", a.period.words, b.period.words);
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // "ce mois-ci par rapport au mois dernier", "this year vs last year":
        // the whole of the other, or only its days up to today's date? Writers
        // read both; the user picks.
        self.so_far = self.so_far_of(a, b);
        let reference = period::against(&a.period, &b.period, locale);
        self.reasons.push(Reason::new(
            ReasonCode::ExplicitPeriod,
            locale,
            &format!("{} / {}", a.period.label, reference.label),
        ));
        (a.period.clone(), reference)
    }

    /// One period said after a question: the previous plan's period against it.
    fn against_previous(&mut self, b: &period::Found, prev_period: &Period) -> (Period, Period) {
        let locale = self.locale;
        let current = period::relabel(prev_period.clone(), locale);
        self.borrowed.push(current.label.clone());
        // "par rapport au mois précédent": the month before the one asked about.
        let reference = match context_step(&b.period.words) {
            Some((unit, n)) => period::step(&current, unit, n, locale),
            None => period::against(&current, &b.period, locale),
        };
        self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &reference.label));
        (current, reference)
    }

    /// The one period said is the reference: the current one so far against the same
    /// days of it.
    fn reference_said(&mut self, a: &period::Found) -> (Period, Period) {
        let locale = self.locale;
        match period::to_date_against(&a.period, self.today, locale) {
            Some((current, reference)) => {
                let detail = format!("{} / {}", current.label, reference.label);
                self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
                (current, reference)
            }
            None => {
                let quoted = format!("« {} »", a.period.words);
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &quoted));
                (a.period.clone(), period::preceding(&a.period, locale))
            }
        }
    }

    /// The one period said is the current one, the one before it understood: it so far,
    /// or (after "vs") for the user to pick against both whole.
    fn than_last(&mut self, a: &period::Found, versus: bool) -> (Period, Period) {
        let (today, locale) = (self.today, self.locale);
        let reference = period::preceding(&a.period, locale);
        let to_date = period::to_date_against(&reference, today, locale)
            .filter(|(c, _)| c.start == a.period.start)
            .or_else(|| period::so_far_against(&a.period, &reference, today, locale));
        let (current, reference) = if versus {
            self.so_far = to_date;
            (a.period.clone(), reference)
        } else {
            to_date.unwrap_or((a.period.clone(), reference))
        };
        let detail = format!("{} / {}", current.label, reference.label);
        self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &detail));
        (current, reference)
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
        matches!(
            x,
            "than"
                | "que"
                | "qu"
                | "vs"
                | "versus"
                | "to"
                | "with"
                | "contre"
                | "against"
                | "a"
                | "au"
                | "avec"
        )
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
                (w(k) == "than" || w(k) == "que" || w(k) == "qu")
                    && (k + 1..first).all(|j| said_again(w(j)) || said_again_too(w(j)))
            })
        })
}

/// More words that say again who did it between "than" and the period ("than I was
/// last year", "que ce que j'avais"), read on the server (`readings`).
#[cfg(feature = "readings")]
fn said_again_too(x: &str) -> bool {
    matches!(
        x,
        "was" | "were" | "had" | "spending" | "earning" | "earned" | "etais" | "etait" | "avais" | "avait"
    )
}

#[cfg(not(feature = "readings"))]
fn said_again_too(_: &str) -> bool {
    false
}

/// "this year than last", "ce mois-ci que le précédent", "ce trimestre vs le précédent":
/// "than" or "vs" after the period, then "last" or "previous" standing for the one before
/// it.
/// Returns the word's index, and whether "vs" joined them.
fn than_the_last(tokens: &[Token], last: usize) -> Option<(usize, bool)> {
    let w = |k: usize| tokens.get(k).map_or("", |t| t.norm.as_str());
    let than = (last + 1..last + 3)
        .find(|&k| matches!(w(k), "than" | "que" | "qu" | "vs" | "versus" | "contre" | "against"))?;
    let versus = matches!(w(than), "vs" | "versus" | "contre" | "against");
    (than + 1..than + 3)
        .find(|&k| matches!(w(k), "last" | "previous" | "dernier" | "precedent"))
        .map(|k| (k, versus))
}

/// Two periods compared that a reading one way would guess, on the server (`readings`;
/// the browser's badge shows the reading):
#[cfg(feature = "readings")]
fn read_one_way(found: &[period::Found], tokens: &[Token]) -> bool {
    // "more than I was last year" read as the period itself: a "than" shortly before
    // the one period said, which is not read as its reference — asked, not guessed.
    let than_unread = matches!(found, [one] if !is_reference(tokens, one.first)
        && (one.first.saturating_sub(6)..one.first).any(|k| matches!(tokens[k].norm.as_str(), "than" | "que" | "qu")));
    // "compare september to october": one stretch read from the first to the second,
    // where two months are meant — asked.
    let said = |f: &period::Found| format!(" {} ", crate::text::normalize(&f.period.words));
    let stretch = matches!(found, [one] if one.parts.is_empty() && from_one_to_another(&said(one)));
    // "compare march vs april 2025": a year said of one side only — the other's too, or
    // this year's? Asked.
    let year = |f: &period::Found| {
        said(f).split_whitespace().any(|w| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()))
    };
    let relative = |f: &period::Found| {
        said(f).split_whitespace().any(|w| {
            matches!(
                w,
                "this"
                    | "last"
                    | "next"
                    | "ce"
                    | "cette"
                    | "dernier"
                    | "derniere"
                    | "prochain"
                    | "prochaine"
                    | "current"
                    | "cours"
                    | "passe"
                    | "passee"
            )
        })
    };
    // ("octobre par rapport à octobre 2025", "T3 contre T3 2025": the same name on both
    // sides, the one without a year the latest.)
    let named = |f: &period::Found| {
        said(f)
            .split_whitespace()
            .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
            .filter(|w| {
                !matches!(
                    *w,
                    "l" | "le"
                        | "la"
                        | "the"
                        | "of"
                        | "de"
                        | "d"
                        | "en"
                        | "in"
                        | "cet"
                        | "cette"
                        | "ce"
                        | "this"
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let one_year = matches!(found, [a, b]
        if year(a) != year(b) && !relative(a) && !relative(b) && named(a) != named(b));
    stretch || one_year || than_unread
}

/// "september to october", "de janvier à mars" — not "year to date", "a year ago",
/// "jusqu'à aujourd'hui": a stretch from one named time to another.
#[cfg(feature = "readings")]
fn from_one_to_another(said: &str) -> bool {
    [" to ", " a ", " au ", " until ", " till ", " jusqu "].iter().any(|j| {
        said.split_once(j).is_some_and(|(a, b)| {
            let (a, b) = (a.trim(), b.trim());
            // ("il y a un an": ago.)
            let ago = a == "y" || a.ends_with(" y");
            let till_now = ["date", "ce jour", "aujourd hui", "today", "now", "maintenant", "present"]
                .iter()
                .any(|x| b.starts_with(x));
            !(a.is_empty() || b.is_empty() || ago || till_now)
        })
    })
}

#[cfg(not(feature = "readings"))]
fn read_one_way(_: &[period::Found], _: &[Token]) -> bool {
    false
}

/// A comparison asked by category, merchant or shop ("october vs september by
/// category", "what did I spend more on"): two totals would drop the breakdown — asked,
/// on the server (`readings`).
#[cfg(feature = "readings")]
fn compared_by(tokens: &[Token]) -> Option<String> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    (0..tokens.len()).find_map(|i| {
        let (word, next) = (w(i), w(i + 1));
        let unit = next.starts_with("categor")
            || next.starts_with("merchant")
            || next.starts_with("marchand")
            || matches!(next, "poste" | "postes" | "shop" | "shops" | "store" | "stores");
        let by = matches!(word, "by" | "par" | "per") && unit;
        // ("what did I spend more on in October" — not "more on restaurants".)
        let more_on = matches!((word, next), ("more" | "plus", "on"))
            && matches!(w(i + 2), "" | "in" | "this" | "last" | "during" | "than" | "compared" | "en");
        let on_what = more_on || matches!((word, next), ("on" | "sur", "what" | "quoi"));
        (by || on_what).then(|| format!("« {word} {next} »"))
    })
}

#[cfg(not(feature = "readings"))]
fn compared_by(_: &[Token]) -> Option<String> {
    None
}
