//! Message -> plan. Deterministic: the same message, vocabulary, `today` and previous
//! plan always give the same outcome. Never panics, never fails: a plan or a question.
//!
//! `parse` reads a message once — its language, amounts, a period, what it asks, the
//! names it holds — and hands the reading on: to the analyst when it is about a
//! dataset (`datasets`), else to a comparison, a follow-up of the previous plan, a new
//! question (`question`), or a clarifying question (`clarify`).

// Without `datasets` (the browser), only its names are used: what a message names.
#[cfg_attr(not(feature = "datasets"), allow(dead_code))]
pub mod analyst;
#[cfg(feature = "readings")]
mod back;
mod build;
mod clarify;
mod comparison;
mod datasets;
pub(crate) mod entities;
pub(crate) mod examples;
mod followup;
pub(crate) mod intent;
pub(crate) mod lexicon;
pub use self::lexicon::{is_exclusion_word, is_negation_word, is_write_word, negates_at};
#[cfg(feature = "asides")]
mod correction;
mod names;
mod question;
#[cfg(feature = "readings")]
mod readings;
#[cfg(feature = "asides")]
mod refusal;
#[cfg(feature = "asides")]
mod remark;
pub mod steps;
#[cfg(feature = "writes")]
mod writes;

use self::build::{call_for, plan, Slots};
use self::clarify::Near;
use self::entities::{Entities, Finder};
use self::intent::{Intent, Kind};
use self::lexicon::{compare_words, detect_locale, is_budget_word, is_followup, label_text};
use crate::amount::{self, AmountFilter};
use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::period::{self, Found};
use crate::plan::{ParseOutcome, Suggestion, ToolCallPlan};
use crate::protocol::DetectedEntity;
use crate::reason::{Reason, ReasonCode};
use crate::text::{tokenize, Token, TokenKind, MAX_MESSAGE_CHARS};
use crate::tool::ToolCall;
use crate::vocab::{EntityKind, Index, Vocabulary};

/// What the parser knows besides the message.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Today in the user's time zone; relative words resolve against it.
    pub today: Date,
    /// The interface language, used when the message itself does not tell.
    pub locale: Option<Locale>,
    /// The previous plan of the conversation, for follow-ups.
    pub previous: Option<&'a ToolCallPlan>,
}

impl<'a> Context<'a> {
    /// The previous plan when it has a period to carry over (a question on the ledger):
    /// a previous question about a dataset has no period or filters to carry over.
    fn ledger_previous(&self) -> Option<(&'a ToolCallPlan, &'a Period)> {
        self.previous.filter(|p| !p.call.is_write()).and_then(|p| Some((p, p.call.period()?)))
    }
}

pub struct Parser {
    vocab: Vocabulary,
    index: Index,
    /// The datasets' and their columns' names, for analyst questions.
    dataset_names: analyst::Names,
}

/// What a message says about the ledger, read once; a follow-up or a new question
/// makes it a plan.
#[derive(Clone)]
struct Reading<'m> {
    message: &'m str,
    locale: Locale,
    intent: Intent,
    entities: Entities,
    /// The names left out: "hors Picard", "excluding rent".
    excluded: Vec<entities::EntityMatch>,
    amounts: Option<AmountFilter>,
    text: Option<String>,
    period: Option<Period>,
    /// Anything to compute or filter on: an intent, a breakdown, amounts, text, a
    /// period or a name.
    has_content: bool,
    /// The tool the words point at, for a clarification's first suggestion.
    topic: Option<Kind>,
}

impl Parser {
    pub fn new(vocab: Vocabulary) -> Parser {
        let index = Index::build(&vocab);
        let dataset_names = analyst::Names::build(&vocab.datasets);
        Parser { vocab, index, dataset_names }
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The user's names, to find in a message.
    fn finder(&self) -> Finder<'_> {
        Finder { vocab: &self.vocab, index: &self.index }
    }

    pub fn parse(&self, message: &str, cx: &Context<'_>) -> ParseOutcome {
        let outcome = self.parse_whole(message, cx);
        if matches!(&outcome, ParseOutcome::Plan(p) if p.meta.confidence == crate::reason::Confidence::High) {
            return outcome;
        }
        #[cfg(feature = "asides")]
        if let Some(p) = self.aside(message, cx) {
            return ParseOutcome::Plan(p);
        }
        outcome
    }

    /// The question with what is said beside it set aside, read surely: a form turned
    /// down before it, a remark, or a correction before or after it.
    #[cfg(feature = "asides")]
    fn aside(&self, message: &str, cx: &Context<'_>) -> Option<ToolCallPlan> {
        // "I don't want the list, just the total at Monoprix": the question after
        // "just", read surely, runs if it is not what was turned down.
        let refused = refusal::refusal(message).and_then(|(question, said, refused)| {
            self.surely(question, ReasonCode::Remark, &format!("« {said} »"), cx)
                .filter(|p| !refused.is(&p.call))
        });
        // A remark beside the question ("…, ça fait mal"): the question alone, read
        // surely, runs; the remark is said not to be used.
        let remarked = || {
            let (question, remark) = self.remark(message, cx)?;
            self.surely(&question, ReasonCode::Remark, &format!("« {remark} »"), cx)
        };
        // "… en septembre… non pardon, en octobre": the question read again as corrected;
        // "no not October, I meant September. restaurants": the rest. If read surely.
        let corrected = || {
            let (fixed, old, new) = self.corrected(message, cx)?;
            self.surely(&fixed, ReasonCode::Correction, &format!("« {old} » → « {new} »"), cx)
        };
        let corrected_first = || {
            let (rest, old, new) = self.corrected_first(message, cx)?;
            self.surely(rest, ReasonCode::Correction, &format!("« {old} » → « {new} »"), cx)
        };
        // "…, pas la liste hein, juste le chiffre": the question before, read surely, runs
        // if it is a figure.
        let refused_after = || {
            let (question, said, refused) = refusal::refusal_after(message)?;
            self.surely(question, ReasonCode::Remark, &format!("« {said} »"), cx)
                .filter(|p| !refused.is(&p.call))
        };
        refused.or_else(refused_after).or_else(remarked).or_else(corrected).or_else(corrected_first)
    }

    /// The plan for `text` if read surely (high), with a reason saying what was set aside
    /// or corrected to get it.
    #[cfg(feature = "asides")]
    fn surely(&self, text: &str, code: ReasonCode, detail: &str, cx: &Context<'_>) -> Option<ToolCallPlan> {
        let ParseOutcome::Plan(mut p) = self.parse_whole(text, cx) else { return None };
        if p.meta.confidence != crate::reason::Confidence::High {
            return None;
        }
        p.meta.confidence_reasons.push(Reason::new(code, p.meta.locale, detail));
        Some(p)
    }

    /// A message read whole: one request, or a plan marked as leaving a part out.
    fn parse_whole(&self, message: &str, cx: &Context<'_>) -> ParseOutcome {
        let outcome = self.parse_request(message, cx);
        // A message that asks two things is never answered by one plan that leaves a
        // part out: the plan does not run as is (a plan of steps, or a question).
        let ParseOutcome::Plan(mut p) = outcome else { return outcome };
        // A greeting before the question ("hey, how much…") asks nothing.
        let parts: Vec<&str> = steps::clauses(message)
            .into_iter()
            // ("j'ai combien et …", "il me reste combien": what is had, asked, though every
            // word is one that carries nothing alone.)
            .filter(|c| {
                let tokens = tokenize(c);
                let has = |w: &str| tokens.iter().any(|t| t.norm == w);
                tokens.iter().any(|t| !lexicon::is_stopword(t.norm.as_str()))
                    || ((has("combien") || has("cmb"))
                        && (has("ai") || has("jai") || has("avons") || has("reste")))
                    // "…, and is it still going?": a question of its own, after "and".
                    || (tokens.len() > 1
                        && tokens.first().is_some_and(|t| steps::starts_a_question(&t.norm))
                        && joined_before(message, c))
            })
            .collect();
        // "weekend before last, how much did I spend", "month by month, how much…": a
        // period or a breakdown said first is the question's, not a request of its own.
        let parts: Vec<&str> = if parts.len() >= 2
            && (self.only_period(parts[0], cx)
                || self.only_breakdown(parts[0])
                || self.only_name(parts[0], &parts[1..], cx))
        {
            parts[1..].to_vec()
        } else {
            parts
        };
        if parts.len() >= 2 {
            let quoted = parts[1..].iter().map(|c| format!("« {c} »")).collect::<Vec<_>>().join(", ");
            p.meta.confidence_reasons.push(Reason::new(ReasonCode::UnplacedMeaning, p.meta.locale, &quoted));
            p.meta.confidence = crate::reason::confidence_of(&p.meta.confidence_reasons);
        }
        ParseOutcome::Plan(p)
    }

    /// One request read: a write, a dataset question, a comparison, a follow-up or a new
    /// question.
    pub(crate) fn parse_request(&self, message: &str, cx: &Context<'_>) -> ParseOutcome {
        let char_count = message.chars().count();
        if char_count > MAX_MESSAGE_CHARS {
            return ParseOutcome::Clarification(self.too_long(message, char_count, cx));
        }
        let tokens = tokenize(message);
        let locale = message_locale(&tokens, cx);
        // A request to change something: a write plan, or a question for what it misses.
        #[cfg(feature = "writes")]
        if let Some(outcome) = self.write(&tokens, message, locale, cx) {
            return outcome;
        }
        // The browser's parser does not read writes (they would not fit its bundle): it
        // says the message asks for a change, which the server reads and shows first.
        #[cfg(not(feature = "writes"))]
        if let Some(c) = change_request(&tokens, locale) {
            return ParseOutcome::Clarification(c);
        }
        // Nor questions of when and how often: it says the message is one.
        #[cfg(not(feature = "activity"))]
        if let Some(c) = when_request(&tokens, locale) {
            return ParseOutcome::Clarification(c);
        }
        #[cfg(feature = "datasets")]
        if let Some(outcome) = self.dataset_question(&tokens, message, locale, cx) {
            return outcome;
        }
        // The browser's parser does not read dataset questions: it says the message is
        // one, which the server reads.
        #[cfg(not(feature = "datasets"))]
        if let Some(c) = self.dataset_request(&tokens, locale, cx) {
            return ParseOutcome::Clarification(c);
        }
        let mut used = vec![false; tokens.len()];
        self.set_aside_examples(&tokens, &mut used, message);
        set_aside_harmless(&tokens, &mut used, message);

        // "compared to my budget" asks for the budget, not two periods.
        let about_budget = tokens.iter().any(|t| is_budget_word(&t.norm));
        // "entrées vs sorties" is cash flow, not two periods.
        let in_vs_out = lexicon::in_against_out(&tokens);
        // ("spending vs income", which no cash-flow phrase says whole: its "vs" is read.)
        if let Some(v) = in_vs_out {
            let phrased = (v.saturating_sub(3)..=v)
                .any(|i| lexicon::cash_flow_phrase(&tokens, &used, i).is_some_and(|n| i + n > v));
            used[v] = !phrased;
        }
        let compared = if in_vs_out.is_some() { None } else { compare_words(&tokens, &mut used, message) };
        if let Some(words) = compared.filter(|_| !about_budget) {
            return self.comparison((message, &words), &tokens, &mut used, locale, cx);
        }
        let text = self.text_to_find(message, &tokens, &mut used);
        // Amounts first: "plus de 2000 €" is not the year 2000.
        let currency = self.vocab.currency.unwrap_or(crate::money::Currency::EUR);
        let amounts = amount::find(&tokens, &used, locale, currency).filter(|a| !are_days(&tokens, a));
        if let Some(a) = &amounts {
            used[a.first..=a.last].iter_mut().for_each(|u| *u = true);
        }
        let mut found = period::find(&tokens, &used, message, cx.today, locale);
        if let Some(Found { first, last, .. }) = &found {
            used[*first..=*last].iter_mut().for_each(|u| *u = true);
        }
        second_period(&mut found, &tokens, &mut used, (message, cx.today, locale));
        self.set_aside_left_out(&tokens, &mut used, message);
        let intent = intent::read(&tokens, &mut used, message);
        let mut excluded = self.finder().excluded(&tokens, &mut used, message);
        excluded.extend(self.finder().excluded_after(&tokens, &mut used, message));
        let Entities { categories, merchants, accounts, unrecognized } =
            self.finder().entities(&tokens, &mut used, message);
        let (period, apart) = match found {
            Some(f) if f.apart => (Some(f.period), f.parts),
            Some(f) => (Some(f.period), Vec::new()),
            None => (None, Vec::new()),
        };

        let world = lexicon::asks_about_world(&tokens);
        if intent.advice || world {
            let reasons = vec![Reason::new(ReasonCode::OutOfScope, locale, "")];
            // A question about the world ("who won the world cup in 1998") lends its
            // period to nothing; advice about the user's money does.
            let near = Near {
                period: period.filter(|_| !world),
                entity: merchants.first().or(categories.first()).filter(|_| !world),
                kind: intent.kind.or(intent::topic(&tokens)),
            };
            return ParseOutcome::Clarification(self.clarify(locale, cx, reasons, near));
        }

        let has_content = intent.kind.is_some()
            || intent.group_by.is_some()
            || amounts.is_some()
            || text.is_some()
            || period.is_some()
            || !categories.is_empty()
            || !merchants.is_empty()
            || !accounts.is_empty()
            || !excluded.is_empty();
        let reading = Reading {
            message,
            locale,
            intent,
            entities: Entities { categories, merchants, accounts, unrecognized },
            excluded,
            amounts,
            text,
            period,
            has_content,
            topic: intent::topic(&tokens),
        };
        let outcome = self.followup_or_question(reading, &tokens, cx);
        if apart.is_empty() {
            return outcome;
        }
        self.each_period(outcome, &apart, locale, cx)
    }

    /// A message over the length read: asked to be shorter, in the language of its
    /// beginning.
    fn too_long(&self, message: &str, char_count: usize, cx: &Context<'_>) -> crate::plan::Clarification {
        // The language of its beginning, as for any message.
        let head: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
        let locale = message_locale(&tokenize(&head), cx);
        self.clarify(
            locale,
            cx,
            vec![Reason::new(ReasonCode::TooLong, locale, &char_count.to_string())],
            Near::default(),
        )
    }

    /// Text to find in bank labels: quoted, or after "contenant"/"containing" (its
    /// tokens used) — unless it is a name of the user's.
    fn text_to_find(&self, message: &str, tokens: &[Token], used: &mut Vec<bool>) -> Option<String> {
        let text = label_text(message, tokens, used);
        // « Restaurants » in quotes is the category of that name, not label text (unless
        // said to be, "containing « amazon »", or in capitals as banks write: « PAUL »).
        let a_name = text.as_ref().is_some_and(|t| {
            t.chars().any(char::is_lowercase)
                && !tokens.iter().any(|w| lexicon::is_text_marker(&w.norm))
                && self.index.exact(&crate::text::normalize(t)).is_some()
        });
        if a_name {
            *used = vec![false; tokens.len()];
            return None;
        }
        text
    }

    /// "leaving out the Decathlon purchases": the transactions of a name left out are
    /// no list asked for — set aside before the intent is read.
    fn set_aside_left_out(&self, tokens: &[Token], used: &mut [bool], message: &str) {
        let mut probe = used.to_vec();
        let left_out = self.finder().excluded(tokens, &mut probe, message);
        for (k, t) in tokens.iter().enumerate() {
            let after_name = entities::follows_a_name(&left_out, t, message);
            if probe[k] && !used[k] && after_name && entities::names_transactions(&t.norm) {
                used[k] = true;
            }
        }
    }

    /// The plan for what a message says: a follow-up of the previous plan, or a new
    /// question.
    fn followup_or_question(&self, reading: Reading<'_>, tokens: &[Token], cx: &Context<'_>) -> ParseOutcome {
        let followup_marker = is_followup(tokens);

        // A previous question about a dataset has no period or filters to carry over.
        let previous = cx.ledger_previous();

        // A follow-up: something to change in the last plan ("et en février ?", "by
        // merchant"). A ranking with its own period ("top 5 merchants last quarter") is a
        // new question, though it names only a breakdown.
        // "how much was it in october?" with nothing before: "it" is nothing.
        #[cfg(feature = "readings")]
        if previous.is_none() {
            let e = &reading.entities;
            let named = !(e.categories.is_empty() && e.merchants.is_empty() && e.accounts.is_empty());
            if back::pointing_back(tokens, reading.message, named).is_some() {
                return self.followup(reading, cx, None);
            }
        }
        let intent = &reading.intent;
        let ranking = intent.top.is_some() && reading.period.is_some();
        let followup = reading.has_content
            && match previous {
                Some(_) => followup_marker || !intent.explicit || (intent.group_only && !ranking),
                None => followup_marker && !intent.explicit,
            };
        if followup && !followup_marker {
            // A message that says all a plan needs ("factures au premier semestre 2025")
            // means the same in a conversation: when the previous plan would change
            // nothing, it is a new question, not a follow-up that must be confirmed.
            let alone = self.question(reading.clone(), cx, None);
            let continued = self.followup(reading, cx, previous);
            match (&alone, &continued) {
                (ParseOutcome::Plan(a), ParseOutcome::Plan(c))
                    if a.meta.confidence == crate::reason::Confidence::High && a.call == c.call =>
                {
                    alone
                }
                _ => continued,
            }
        } else if followup {
            self.followup(reading, cx, previous)
        } else {
            self.question(reading, cx, previous)
        }
    }

    /// Months named apart ("courses en janvier et mars", "June or July", "oct et nov"):
    /// the plan is offered for each month (and for months that follow each other, for
    /// them together); no sum runs unasked.
    fn each_period(
        &self,
        outcome: ParseOutcome,
        parts: &[Period],
        locale: Locale,
        cx: &Context<'_>,
    ) -> ParseOutcome {
        let ParseOutcome::Plan(mut p) = outcome else { return outcome };
        let labels: Vec<&str> = parts.iter().map(|p| p.label.as_str()).collect();
        // A plan that would not run for other reasons is not offered per month either:
        // each month would carry the same unread words.
        if p.meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::UnplacedMeaning) {
            p.meta.confidence_reasons.push(Reason::new(
                ReasonCode::SeparatePeriods,
                locale,
                &labels.join(", "),
            ));
            p.meta.confidence = crate::reason::confidence_of(&p.meta.confidence_reasons);
            return ParseOutcome::Plan(p);
        }
        // Months that follow each other ("June and July") may also be meant together:
        // their sum is offered last.
        // (Distinct months inside the whole that add up to it follow each other.)
        let days = |p: &Period| p.end.to_days() - p.start.to_days();
        let together = p.call.period().filter(|whole| {
            parts.iter().all(|m| whole.start <= m.start && m.end <= whole.end)
                && parts.iter().map(days).sum::<i64>() == days(whole)
        });
        let each = if together.is_some() { clarify::MAX_SUGGESTIONS - 1 } else { clarify::MAX_SUGGESTIONS };
        let mut suggestions: Vec<Suggestion> = parts
            .iter()
            .take(each)
            .filter_map(|part| {
                let mut call = p.call.clone();
                *call.period_mut()? = part.clone();
                let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &part.label)];
                Some(Suggestion {
                    label: self.describe(&call, locale),
                    plan: plan(call, picked, locale, cx.today),
                })
            })
            .collect();
        if let Some(whole) = together {
            let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &whole.label)];
            suggestions.push(Suggestion {
                label: self.describe(&p.call, locale),
                plan: plan(p.call.clone(), picked, locale, cx.today),
            });
        }
        let question = match locale {
            Locale::Fr => {
                format!("Plusieurs périodes possibles ({}). Laquelle voulez-vous voir ?", labels.join(", "))
            }
            Locale::En => {
                format!("Several periods are possible ({}). Which one would you like?", labels.join(", "))
            }
        };
        let reasons = vec![Reason::new(ReasonCode::SeparatePeriods, locale, &labels.join(", "))];
        ParseOutcome::Clarification(crate::plan::Clarification { question, reasons, suggestions, locale })
    }

    /// The user's categories, merchants and accounts a text names exactly (a model's
    /// answer), in order of first mention, at most `max`, each with a one-click plan:
    /// the spending on it over the default period, or an account's balance today.
    pub fn mentions(&self, text: &str, cx: &Context<'_>, max: usize) -> Vec<DetectedEntity> {
        let text: String = text.chars().take(MAX_MESSAGE_CHARS * 4).collect();
        let tokens = tokenize(&text);
        let mut used = vec![false; tokens.len()];
        let locale = cx.locale.unwrap_or(Locale::Fr);
        let mut out: Vec<DetectedEntity> = Vec::new();
        for m in self.finder().exact_matches(&tokens, &mut used, &text) {
            let Some(id) = m.ids.first().copied().filter(|_| m.ids.len() == 1) else { continue };
            let Some(term) = self.vocab.term(id) else { continue };
            if out.iter().any(|e| e.key == term.key) {
                continue;
            }
            let period = period::default_period(cx.today, locale);
            let slots = |category: Option<String>, merchant: Option<String>| Slots {
                category,
                merchant,
                ..Slots::over(period.clone())
            };
            let (kind, call) = match id.kind {
                EntityKind::Category => {
                    ("category", call_for(Kind::Spending, slots(Some(term.key.clone()), None)))
                }
                EntityKind::Merchant => {
                    ("merchant", call_for(Kind::Spending, slots(None, Some(term.key.clone()))))
                }
                EntityKind::Account => (
                    "account",
                    call_for(
                        Kind::Balance,
                        Slots {
                            period: period::today(cx.today, locale),
                            account: Some(term.key.clone()),
                            ..slots(None, None)
                        },
                    ),
                ),
            };
            let label = self.describe(&call, locale);
            let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
            out.push(DetectedEntity {
                kind: kind.to_string(),
                key: term.key.clone(),
                name: term.label(locale).to_string(),
                confidence: 1.0,
                suggestion: Suggestion { label, plan: plan(call, picked, locale, cx.today) },
            });
            if out.len() == max {
                break;
            }
        }
        out
    }

    /// One line saying what a call computes: "Dépenses en Courses — janvier 2026".
    pub fn describe(&self, call: &ToolCall, locale: Locale) -> String {
        crate::tool::describe(&self.vocab, call, locale)
    }
}

/// A question of when or how often ("quand", "how often", "la dernière fois", "since
/// when"), for a parser that does not read them itself.
#[cfg(not(feature = "activity"))]
fn when_request(tokens: &[crate::text::Token], locale: Locale) -> Option<crate::plan::Clarification> {
    let w = |i: usize| tokens.get(i).map_or("", |t| t.norm.as_str());
    let went =
        |i: usize| (i..i + 5).any(|k| matches!(w(k), "go" | "went" | "been" | "alle" | "allee" | "alles"));
    // ("how many times did I go", "did I go over budget": a count, a budget.)
    let counted = tokens
        .iter()
        .any(|t| matches!(t.norm.as_str(), "times" | "fois" | "budget" | "over" | "more" | "plus"));
    let when = (0..tokens.len()).find(|&i| {
        matches!(w(i), "quand" | "when" | "often" | "souvent" | "frequence" | "frequency" | "freq")
            || (matches!(w(i), "dernier" | "derniere" | "premier" | "premiere" | "last" | "first")
                && matches!(w(i + 1), "fois" | "time"))
            || (w(i), w(i + 1)) == ("how", "long")
            || (w(i), w(i + 1), w(i + 2)) == ("combien", "de", "temps")
            // "did I go to Lidl this week", "est-ce que je suis allée chez Franprix".
            || (matches!((w(i), w(i + 1)), ("did", "i" | "we") | ("est", "ce")) && went(i + 2) && !counted)
    })?;
    Some(crate::plan::Clarification {
        question: locale
            .pick(
                "Une question de date ou de fréquence : envoyez-la, Sou la lit sur le serveur.",
                "A question of when or how often: send it, and Sou reads it on the server.",
            )
            .to_string(),
        reasons: vec![Reason::new(ReasonCode::ExplicitIntent, locale, w(when))],
        suggestions: Vec::new(),
        locale,
    })
}

/// A message asking for a change (a write verb, no question word), for a parser that
/// does not read writes itself.
#[cfg(not(feature = "writes"))]
fn change_request(tokens: &[crate::text::Token], locale: Locale) -> Option<crate::plan::Clarification> {
    const ASKS: [&str; 12] = [
        "combien", "how", "what", "whats", "quel", "quelle", "quels", "quelles", "which", "why", "pourquoi",
        "did",
    ];
    let write = tokens.iter().any(|t| is_write_word(&t.norm));
    if !write || tokens.iter().any(|t| ASKS.contains(&t.norm.as_str())) {
        return None;
    }
    Some(crate::plan::Clarification {
        question: locale
            .pick(
                "Une modification : envoyez-la, Sou vous montrera ce qui changerait avant de rien modifier.",
                "A change: send it, and Sou shows what would change before changing anything.",
            )
            .to_string(),
        reasons: vec![Reason::new(ReasonCode::WriteRequest, locale, "")],
        suggestions: Vec::new(),
        locale,
    })
}

/// The language of a message's own words, when they tell.
pub fn locale_of(message: &str) -> Option<Locale> {
    detect_locale(&crate::text::tokenize(message))
}

/// The language a message is read in: its own words', else the conversation's, else the
/// interface's, else English.
fn message_locale(tokens: &[crate::text::Token], cx: &Context<'_>) -> Locale {
    detect_locale(tokens).or(cx.previous.map(|p| p.meta.locale)).or(cx.locale).unwrap_or(Locale::En)
}

/// "between 3 and 10 October", "entre le 5 et le 20 de mars": numbers with no currency
/// before a month are days, not the amounts `a` read them as.
fn are_days(tokens: &[Token], a: &AmountFilter) -> bool {
    let time = |k: usize| tokens.get(k).is_some_and(period::is_time_word);
    let of = tokens.get(a.last + 1).is_some_and(|t| matches!(t.norm.as_str(), "of" | "de" | "d"));
    let bare = tokens[a.first..=a.last].iter().all(|t| {
        t.kind != TokenKind::Currency
            && !amount::is_currency_word(&t.norm)
            && !t.norm.contains(['€', '$', '£'])
    });
    a.min.is_some() && a.max.is_some() && bare && (time(a.last + 1) || (of && time(a.last + 2)))
}

/// Whether `part`, a slice of `message`, comes right after "and" or "et".
fn joined_before(message: &str, part: &str) -> bool {
    let at = (part.as_ptr() as usize).saturating_sub(message.as_ptr() as usize);
    let before = message.get(..at).unwrap_or("").trim_end().as_bytes();
    let ends = |w: &[u8]| before.len() > w.len() && before[before.len() - w.len()..].eq_ignore_ascii_case(w);
    ends(b" and") || ends(b" et") || ends(b",and")
}

/// Words that ask nothing more, set aside: phrases that carry nothing ("du coup",
/// "both dates inclusive"), remarks closing a clause ("…, be honest"), and "or not", "ou pas" closing a yes/no question ("… plus
/// cette année que l'an dernier ou pas ?", "did my wages come in or not yet?"). A
/// negation anywhere else stays to be read.
pub(super) fn set_aside_harmless(tokens: &[crate::text::Token], used: &mut [bool], message: &str) {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    for i in 0..tokens.len() {
        if let Some(n) = lexicon::harmless_phrase_at(tokens, i) {
            used[i..i + n].iter_mut().for_each(|u| *u = true);
        }
    }
    #[cfg(feature = "asides")]
    for i in 0..tokens.len() {
        let Some((n, whole_clause)) = lexicon::closing_remark_at(tokens, i) else { continue };
        let mut end = i + n;
        // (What it is for goes with it — unless the rest of the clause restricts or
        // breaks down: "j'en ai besoin sans le loyer", "I need it for the restaurants
        // only", "need it for each month", whose words are read.)
        let restricts = |j: usize| {
            lexicon::is_negation_word(w(j))
                || matches!(
                    w(j),
                    "only" | "uniquement" | "seulement" | "juste" | "each" | "chaque" | "par" | "per"
                )
                || w(j).starts_with("separ")
                || tokens
                    .get(j)
                    .is_some_and(|t| period::is_time_word(t) || t.kind == crate::text::TokenKind::Number)
        };
        if whole_clause {
            let mut last = end;
            while !clause_ends(tokens, message, last) {
                last += 1;
            }
            if !(end..last).any(restricts) {
                end = last;
            }
        }
        if clause_ends(tokens, message, end) && used[i..end].iter().all(|u| !u) {
            used[i..end].iter_mut().for_each(|u| *u = true);
        }
    }
    // "list every Utilities transaction", "balance of every account": all of them — not
    // "every month", "every 2 weeks" (how often).
    for (i, u) in used.iter_mut().enumerate() {
        let next = tokens.get(i + 1);
        *u |= w(i) == "every"
            && next.is_some_and(|t| t.kind == crate::text::TokenKind::Word && !period::is_time_word(t))
            && !matches!(w(i + 1), "other" | "time" | "times" | "single" | "month" | "year" | "morning");
    }
    for i in 0..tokens.len() {
        let n = match (w(i), w(i + 1), w(i + 2)) {
            ("or" | "ou", "not" | "pas" | "non", "yet") => 3,
            ("or" | "ou", "not" | "pas" | "non", _) => 2,
            _ => continue,
        };
        if clause_ends(tokens, message, i + n) && used[i..i + n].iter().all(|u| !u) {
            used[i..i + n].iter_mut().for_each(|u| *u = true);
        }
    }
}

/// A second period said beside the first ("cette semaine ou la semaine dernière", "this
/// week and last week") that no list of months read: both are offered, each on its own,
/// rather than one run and the other's words read as something else (a ranking's unit).
/// On the server (`readings`): the browser's badge shows the first.
#[cfg(feature = "readings")]
fn second_period(
    found: &mut Option<Found>,
    tokens: &[Token],
    used: &mut [bool],
    (message, today, locale): (&str, Date, Locale),
) {
    let Some(first) = found.as_mut().filter(|f| f.parts.is_empty()) else { return };
    let Some(second) = period::find(tokens, used, message, today, locale) else { return };
    // Joined by "ou", "or", "et", "and" or a comma — not "en 2025 sauf décembre", "this
    // year except last week" (left out, read elsewhere), nor two clauses apart.
    let (a, b) = if first.last < second.first {
        (first.last + 1, second.first)
    } else {
        (second.last + 1, first.first)
    };
    let between = || tokens.get(a..b).unwrap_or(&[]).iter().map(|t| t.norm.as_str());
    let joined = between().any(|w| matches!(w, "ou" | "or" | "et" | "and" | "vs" | "versus"))
        || message
            .get(tokens.get(a.saturating_sub(1)).map_or(0, |t| t.end)..tokens.get(b).map_or(0, |t| t.start))
            .is_some_and(|g| g.contains(','));
    if !joined || between().any(lexicon::is_negation_word) {
        return;
    }
    used[second.first..=second.last].iter_mut().for_each(|u| *u = true);
    first.parts = vec![first.period.clone(), second.period];
    first.apart = true;
}

#[cfg(not(feature = "readings"))]
fn second_period(_: &mut Option<Found>, _: &[Token], _: &mut [bool], _: (&str, Date, Locale)) {}

/// Whether a clause ends before token `end`: the message ends, or a stop or comma
/// comes first.
pub(super) fn clause_ends(tokens: &[crate::text::Token], message: &str, end: usize) -> bool {
    end == tokens.len()
        || (end > 0
            && message
                .get(tokens[end - 1].end..tokens.get(end).map_or(message.len(), |t| t.start))
                .is_some_and(|g| g.contains([',', '.', '?', '!', ';'])))
}
