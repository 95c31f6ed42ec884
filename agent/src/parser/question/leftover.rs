//! What a new question says besides its tool, period and filters: the words left over
//! that the tool reads after all, the rest unread, and other asks made beside it.

use super::Question;
use crate::parser::build::push_unrecognized;
use crate::parser::entities::Unplaced;
use crate::parser::intent::Kind;
use crate::parser::lexicon::{group_word, is_subscription_word};
use crate::parser::names::{pronoun_object, said_to_be};
use crate::reason::{Reason, ReasonCode};
use crate::text::normalize;

/// Whether a word asks what a budget's tool answers: "did I stay within", "am I over",
/// "how's it looking".
fn asked_of_a_budget(word: &str) -> bool {
    matches!(
        word,
        "stay"
            | "va"
            | "vont"
            | "anywhere"
            | "somewhere"
            | "stayed"
            | "within"
            | "over"
            | "under"
            | "exceed"
            | "exceeded"
            | "respecte"
            | "depasse"
            | "left"
            | "remaining"
            | "restant"
            | "reste"
            | "looking"
            | "look"
            | "going"
            | "doing"
            | "track"
            | "respecter"
            | "depasser"
    )
}

impl Question<'_> {
    /// The words no name or period read: those the tool reads after all are dropped,
    /// the rest are reasons (that stop the run when they may change the meaning).
    pub(super) fn left_over(&mut self, unrecognized: Vec<Unplaced>) {
        let (intent, kind, tokens) = (self.intent, self.kind, self.tokens);
        // With the calculation guessed from a name or a period alone, a word left over
        // may be what the message is about ("any meetings today?"): it stops the run.
        let mut unrecognized = unrecognized;
        // "rank my spending categories": the groups of the breakdown asked, named.
        if let Some(g) = intent.group_by {
            unrecognized.retain(|u| group_word(&normalize(&u.words)) != Some(g));
        }
        // "the biggest thing I bought": the largest transaction ("the thing last
        // Tuesday", with no superlative, is one Sou cannot tell).
        if intent.largest {
            unrecognized.retain(|u| !matches!(normalize(&u.words).as_str(), "thing" | "truc"));
        }
        // "mes abonnements" with no such category: the word asked for the recurring
        // payments, and is read.
        if kind == Kind::Recurring {
            unrecognized.retain(|u| !is_subscription_word(&normalize(&u.words)));
        }
        // A balance over a period is its balance at the period's close: "fin octobre",
        // "at the end of last year" say just that.
        if kind == Kind::Balance {
            // "combien j'avais sur le livret fin juin": what the account held.
            unrecognized.retain(|u| {
                !matches!(normalize(&u.words).as_str(), "fin" | "end" | "avais" | "avait" | "had")
            });
        }
        // Budgets, balances and recurring payments take few filters: a word left over
        // is what the message is about ("wedding budget checklist").
        if !self.explicit || matches!(kind, Kind::Budget | Kind::Balance | Kind::Recurring) {
            // What one asks of a budget — "did I stay within", "am I over", "how's it
            // looking" — is what the tool answers: those words are read, not left over.
            let about_budget = |u: &Unplaced| kind == Kind::Budget && asked_of_a_budget(&normalize(&u.words));
            unrecognized.retain(|u| !about_budget(u));
            // "il me reste combien sur le livret A", "what's left on my current account":
            // the balance. (With spending, "what's left" may be a budget's: not read.)
            unrecognized.retain(|u| {
                !(kind == Kind::Balance
                    && matches!(normalize(&u.words).as_str(), "left" | "remaining" | "restant" | "reste"))
            });
            // "est-ce que je dépasse un budget quelque part": anywhere ("à part" is not).
            let somewhere = tokens.windows(2).any(|w| w[0].norm == "quelque" && w[1].norm == "part");
            if somewhere && kind == Kind::Budget {
                unrecognized.retain(|u| !matches!(normalize(&u.words).as_str(), "quelque" | "part"));
            }
            unrecognized.iter_mut().for_each(|u| u.changes_meaning = true);
        }
        push_unrecognized(&mut self.reasons, &unrecognized, self.locale);
    }

    /// Asks made beside the question: savings (the net, or the transfers?), a second
    /// question, a category said of transactions (a change to make).
    pub(super) fn other_asks(&mut self) {
        let (intent, locale, tokens, message) = (self.intent, self.locale, self.tokens, self.message);
        // "combien j'ai épargné cette année": the net kept back, or the transfers to
        // savings — asked.
        if let (Some(said), Kind::CashFlow) = (&intent.saved, self.kind) {
            let net = crate::parser::intent::kind_label(Kind::CashFlow, locale);
            let savings = locale.pick("virements vers l'épargne", "transfers to savings");
            self.reasons.push(Reason::new(
                ReasonCode::AmbiguousEntity,
                locale,
                &format!("« {said} » → {net}, {savings}"),
            ));
        }
        if intent.second_ask {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(", ")));
        }
        // "les achats Decathlon de cet été, c'est des loisirs", "these were groceries": a
        // category said of transactions is a change to make, not a filter to read.
        if let Some(words) =
            said_to_be(self.parser, tokens, message).or_else(|| pronoun_object(tokens, message))
        {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words));
        }
    }
}
