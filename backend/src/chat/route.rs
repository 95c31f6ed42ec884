//! What the chat does with a message, decided in one place and without I/O: from what
//! the parser read and what is known around it, a [`Route`]. `chat::answer` gathers the
//! facts, asks [`route`], and does what it says; the guardian's verdict is routed by
//! [`reviewed`]. The table in this file's tests is the diagram of ARCHITECTURE.md.

use agent::Confidence;

/// What the parser made of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Read {
    /// A plan, and how sure the parser is of it.
    Plan(Confidence),
    /// A question Sou would ask; `free_form` when no plan of Sou's fits it (advice, a
    /// question about the world): one for a model.
    Question { free_form: bool },
}

/// What is known of a message when Sou decides what to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Facts {
    pub read: Read,
    /// A widget's visitor asks: only what the site offers, never a model, no plan of
    /// steps.
    pub visitor: bool,
    /// The parser splits the message into a plan of steps (looked for only when
    /// [`may_split`]).
    pub split: bool,
    /// What was read is within the site's scope (always so for a signed-in user).
    pub in_scope: bool,
    /// A model can answer: configured, with a key, within the month's limits (looked
    /// for only when [`needs_model`]).
    pub model: bool,
    /// The message holds two clauses or more (looked for only when a model can answer).
    pub clauses: bool,
    /// The planner model was asked for a plan of steps and gave none that can run.
    pub planner_gave_none: bool,
}

/// What Sou does with the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// The parser's plan of steps is proposed; nothing runs before the user accepts.
    Steps,
    /// Refused: the widget's site does not offer it.
    OutsideScope,
    /// The planner model is asked for a plan of steps.
    Planner,
    /// A model answers through the router and the tool loop.
    Assistant,
    /// Sou's question is asked, with its one-click plans.
    Ask,
    /// The plan runs (a write: its dry run waits for the user's approval). With
    /// `checked`, a model approved or repaired it.
    Run { checked: Checked },
    /// The plan is too unsure to run without a model: Sou says what it read and asks.
    AskAbout,
    /// The guardian model approves, repairs or asks.
    Guardian,
}

/// Who looked at a plan before it runs, which weighs its answer's confidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Checked {
    /// Nobody but the parser (a sure plan, or a medium one without a model).
    No,
    /// The guardian approved it.
    Approved,
    /// The guardian repaired it (and the registry validated the repair).
    Repaired,
}

impl Checked {
    /// The answer confidence a model's review gives the plan (`agent::runs::plan_base`).
    pub(super) fn weight(self) -> f32 {
        match self {
            Checked::No => 0.0,
            Checked::Approved => 0.9,
            Checked::Repaired => 0.8,
        }
    }
}

/// Whether a plan of steps is looked for: never for a plan the parser is sure of, nor
/// for a widget's visitor.
pub(super) fn may_split(read: Read, visitor: bool) -> bool {
    !visitor && read != Read::Plan(Confidence::High)
}

/// Whether a model is looked for: a plan the parser is not sure of, or a question for a
/// model — never for a widget's visitor.
pub(super) fn needs_model(read: Read, visitor: bool) -> bool {
    !visitor
        && match read {
            Read::Plan(c) => c != Confidence::High,
            Read::Question { free_form } => free_form,
        }
}

/// The one decision.
pub(super) fn route(f: Facts) -> Route {
    if f.split && may_split(f.read, f.visitor) {
        return Route::Steps;
    }
    if f.visitor && !f.in_scope {
        return Route::OutsideScope;
    }
    let model = f.model && needs_model(f.read, f.visitor);
    if model && f.clauses && !f.planner_gave_none {
        return Route::Planner;
    }
    match f.read {
        Read::Question { free_form: true } if model => Route::Assistant,
        Read::Question { .. } => Route::Ask,
        Read::Plan(_) if model => Route::Guardian,
        Read::Plan(Confidence::Low) => Route::AskAbout,
        Read::Plan(_) => Route::Run { checked: Checked::No },
    }
}

/// The guardian's verdict on a plan, as the chat reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Review {
    Approve,
    /// A repair the registry validated.
    Repair,
    /// The guardian asks its own question.
    Clarify,
    /// A repair the registry refused.
    InvalidRepair,
    /// No verdict: the call failed or could not be read.
    None,
}

/// What follows the guardian's verdict on a plan the parser read at `confidence`.
/// Without a verdict, the rules for no model apply (the user is told why).
pub(super) fn reviewed(verdict: Review, confidence: Confidence) -> Route {
    match verdict {
        Review::Approve => Route::Run { checked: Checked::Approved },
        Review::Repair => Route::Run { checked: Checked::Repaired },
        Review::Clarify => Route::Ask,
        Review::InvalidRepair => Route::AskAbout,
        Review::None if confidence == Confidence::Low => Route::AskAbout,
        Review::None => Route::Run { checked: Checked::No },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagram of ARCHITECTURE.md, row by row: what was read, the facts that hold
    /// (the others do not; a user's message is in scope), and the route.
    const TABLE: &str = "
        # A sure plan runs; it is never split, never reviewed.
        high                                      => run
        high split clauses model                  => run
        # A plan of several requests the parser splits: proposed, model or not.
        medium split                              => steps
        low split model clauses                   => steps
        question split                            => steps
        free split model                          => steps
        # A widget's visitor: never split, never a model; outside its scope, refused.
        medium visitor split model in_scope       => run
        low visitor in_scope                      => ask_about
        high visitor                              => outside_scope
        question visitor                          => outside_scope
        question visitor in_scope                 => ask
        free visitor in_scope model               => ask
        # Several clauses the parser could not split: the planner, then the usual route.
        medium model clauses                      => planner
        free model clauses                        => planner
        medium model clauses planner_gave_none    => guardian
        free model clauses planner_gave_none      => assistant
        question model clauses                    => ask
        medium clauses                            => run
        # Unsure, a model: the guardian. No model: medium runs (its reasons a warning),
        # low is asked about.
        medium model                              => guardian
        low model                                 => guardian
        medium                                    => run
        low                                       => ask_about
        # Sou's question; a free-form one goes to a model when there is one.
        question                                  => ask
        question model                            => ask
        free model                                => assistant
        free                                      => ask
    ";

    fn facts(words: &str) -> Facts {
        let has = |w: &str| words.split_whitespace().any(|x| x == w);
        let read = match words.split_whitespace().next() {
            Some("high") => Read::Plan(Confidence::High),
            Some("medium") => Read::Plan(Confidence::Medium),
            Some("low") => Read::Plan(Confidence::Low),
            Some("question") => Read::Question { free_form: false },
            Some("free") => Read::Question { free_form: true },
            other => panic!("no reading {other:?}"),
        };
        Facts {
            read,
            visitor: has("visitor"),
            split: has("split"),
            in_scope: has("in_scope") || !has("visitor"),
            model: has("model"),
            clauses: has("clauses"),
            planner_gave_none: has("planner_gave_none"),
        }
    }

    fn name(r: Route) -> &'static str {
        match r {
            Route::Steps => "steps",
            Route::OutsideScope => "outside_scope",
            Route::Planner => "planner",
            Route::Assistant => "assistant",
            Route::Ask => "ask",
            Route::Run { checked: Checked::No } => "run",
            Route::Run { checked: Checked::Approved } => "run_approved",
            Route::Run { checked: Checked::Repaired } => "run_repaired",
            Route::AskAbout => "ask_about",
            Route::Guardian => "guardian",
        }
    }

    #[test]
    fn the_chat_routes_as_the_diagram_says() {
        let mut rows = 0;
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (given, want) = line.split_once("=>").expect("a row is `FACTS => ROUTE`");
            assert_eq!(name(route(facts(given))), want.trim(), "{given}");
            rows += 1;
        }
        assert!(rows >= 25, "{rows} rows");
    }

    #[test]
    fn the_guardians_verdict_runs_the_plan_or_asks() {
        use Confidence::{Low, Medium};
        let table = [
            (Review::Approve, Low, "run_approved"),
            (Review::Repair, Medium, "run_repaired"),
            (Review::Clarify, Medium, "ask"),
            (Review::InvalidRepair, Medium, "ask_about"),
            (Review::None, Medium, "run"),
            (Review::None, Low, "ask_about"),
        ];
        for (verdict, confidence, want) in table {
            assert_eq!(name(reviewed(verdict, confidence)), want, "{verdict:?} on {confidence:?}");
        }
    }
}
