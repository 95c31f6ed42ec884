//! Everyday assistant requests with no meaning on the ledger or a dataset
//! (`out_of_domain.txt`: travel, calendar, weather, banking services that are not
//! reads…): Sou must not answer them with figures. None may get a high plan, and at
//! most 0.5 % a medium one (a medium plan runs when no model is configured).

use agent::{Confidence, Context, Date, ParseOutcome, Parser, Vocabulary};

const MESSAGES: &str = include_str!("../out_of_domain.txt");
const VOCABULARY: &str = include_str!("../../../backend/demo/vocabulary.json");
/// The datasets the corpus reads with: their columns ("ville", "temperature",
/// "salaire") are words these requests use too.
const DATASETS: &[&str] = &[
    "ventes: region text, montant number, mois text, quantite integer, vendeur text",
    "employes: service text, salaire number, age integer, ville text, date_embauche date",
    "sales: region text, amount number, product text, units integer, day date",
];

#[test]
fn out_of_domain_requests_get_no_answer() {
    let mut vocab: Vocabulary = serde_json::from_str(VOCABULARY).unwrap();
    for d in DATASETS {
        vocab.datasets.push(agent::datasets::DatasetShape::from_outline(d).unwrap());
    }
    let parser = Parser::new(vocab);
    let today = Date::new(2026, 11, 21).unwrap();
    let cx = Context { today, locale: None, previous: None };
    let (mut total, mut high, mut medium) = (0usize, Vec::new(), Vec::new());
    for line in MESSAGES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        total += 1;
        if let ParseOutcome::Plan(p) = parser.parse(line, &cx) {
            let codes: Vec<&str> = p.meta.confidence_reasons.iter().map(|r| r.code.as_str()).collect();
            let seen = format!("{line} => {} | {}", p.call.name(), codes.join(" "));
            match p.meta.confidence {
                Confidence::High => high.push(seen),
                Confidence::Medium => medium.push(seen),
                Confidence::Low => {}
            }
        }
    }
    let share = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!(
        "out of domain: {total} messages; {} planned high ({:.1}%); {} planned medium ({:.2}%)",
        high.len(),
        share(high.len()),
        medium.len(),
        share(medium.len()),
    );
    assert!(total >= 600, "the out-of-domain set must keep at least 600 messages, has {total}");
    assert!(high.is_empty(), "{} got a high plan:\n{}", high.len(), high.join("\n"));
    // At most 0.5 %: 3 of 600.
    assert!(
        medium.len() * 200 <= total,
        "{} of {total} got a medium plan (at most 0.5 %):\n{}",
        medium.len(),
        medium.join("\n")
    );
}
