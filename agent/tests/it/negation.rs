//! No negation is ever dropped. Every form of negation, put at every place in messages
//! the parser reads at high, either becomes an exclusion the plan did not have (the
//! right way round: what it names is left out, never kept alone) or stops the run
//! (`low`, or a question). A plan that runs as if the negation were not there is the
//! opposite answer, the worst Sou can give.

use agent::{Confidence, Context, Date, ParseOutcome, Parser, ToolCall, Vocabulary};

/// Messages the parser reads at high, with names a negation can fall on.
const MESSAGES: &[&str] = &[
    "combien j'ai dépensé en courses en janvier 2026",
    "mes dépenses chez Carrefour le mois dernier",
    "how much did I spend on restaurants in March 2025",
    "what did I spend at Amazon last month",
    "my income in 2025",
    "mes revenus de l'année dernière",
    "top 5 merchants last quarter",
    "mes dépenses par catégorie en 2025",
    "list my transactions at Lidl in October",
    "les opérations de plus de 100 € en octobre",
    "solde du livret A",
    "my budgets this month",
    "mes abonnements",
    "spending on transport this year by month",
    "compare groceries october vs september",
];

/// Negation in its forms, French and English, as people type them.
const NEGATIONS: &[&str] = &[
    "not",
    "NOT",
    "n't",
    "don't",
    "didn't",
    "isn't",
    "wasn't",
    "dont",
    "never",
    "no",
    "nor",
    "but not",
    "other than",
    "not counting",
    "not including",
    "apart from",
    "except",
    "except for",
    "excluding",
    "without",
    "besides",
    "minus",
    "leaving out",
    "hors",
    "sauf",
    "sans",
    "mais pas",
    "pas",
    "ne",
    "n'",
    "à part",
    "mis à part",
    "autre que",
    "autres que",
    "en dehors de",
    "excepté",
    "jamais",
    "aucun",
    "ni",
    "non",
    "non compris",
    "sans compter",
    "hormis",
    "ailleurs que",
];

fn parser() -> Parser {
    let vocab: Vocabulary =
        serde_json::from_str(include_str!("../../../backend/demo/vocabulary.json")).unwrap();
    Parser::new(vocab)
}

/// The categories and merchants a call leaves out.
fn exclusions(call: &ToolCall) -> (Option<String>, Option<String>) {
    let (c, m) = call.excluded();
    (c.map(str::to_string), m.map(str::to_string))
}

#[test]
fn no_negation_is_ever_dropped() {
    let parser = parser();
    let cx = Context { today: Date::new(2026, 11, 29).unwrap(), locale: None, previous: None };
    let mut dropped = Vec::new();
    let mut tried = 0;
    let (mut excluded, mut stopped) = (0, 0);
    for message in MESSAGES {
        let Some(base) = parser.parse(message, &cx).plan().cloned() else { panic!("{message}: no plan") };
        assert_eq!(base.meta.confidence, Confidence::High, "{message} is read at high");
        let words: Vec<&str> = message.split(' ').collect();
        for negation in NEGATIONS {
            for at in 0..=words.len() {
                let mut w = words.clone();
                w.insert(at, negation);
                let text = w.join(" ");
                tried += 1;
                let outcome = parser.parse(&text, &cx);
                let ParseOutcome::Plan(p) = outcome else {
                    stopped += 1;
                    continue;
                };
                if p.meta.confidence == Confidence::Low {
                    stopped += 1;
                    continue;
                }
                // It runs: only as an exclusion the message did not have, of something
                // the plan does not also keep.
                let (before, after) = (exclusions(&base.call), exclusions(&p.call));
                let new = after != before && (after.0.is_some() || after.1.is_some());
                let kept_alone = after.0.as_deref().is_some_and(|k| p.call.category() == Some(k))
                    || after.1.as_deref().is_some_and(|k| p.call.merchant() == Some(k));
                if new && !kept_alone {
                    excluded += 1;
                } else {
                    dropped.push(format!("{text} => {} ({})", p.call.name(), p.meta.confidence.as_str()));
                }
            }
        }
    }
    println!(
        "negation: {tried} messages; {excluded} read as an exclusion, {stopped} stopped, {} dropped",
        dropped.len()
    );
    assert!(dropped.is_empty(), "{} negations dropped:\n{}", dropped.len(), dropped.join("\n"));
}
