//! Arbitrary bytes as a message: the parser must not panic, must give the same outcome
//! twice, and the outcome must serialise to JSON and read back equal (plans travel
//! between browser and server as JSON).
//!
//! Input: the bytes as lossy UTF-8. A first line, if any, is parsed first and its plan
//! is the context of the rest, so the follow-up code runs too. Optionally a 3-byte
//! header, recognised by a first byte of 0..=5 (which nobody types): byte 0 mod 3 is the
//! interface locale (none, fr, en), bytes 1-2 are `today` as days after 2000-01-01
//! (within 100 years). Without it: no interface locale, today 2026-11-21, as in the corpus.
//!
//! `scripts/fuzz-parser.sh` seeds it with the corpus messages and runs it.
#![no_main]

use std::sync::OnceLock;

use agent::{Context, Date, Locale, ParseOutcome, Parser, Vocabulary};
use libfuzzer_sys::fuzz_target;

const VOCABULARY: &str = include_str!("../../../backend/demo/vocabulary.json");

fn parser() -> &'static Parser {
    static PARSER: OnceLock<Parser> = OnceLock::new();
    PARSER.get_or_init(|| {
        let vocab: Vocabulary = serde_json::from_str(VOCABULARY).expect("the demo vocabulary parses");
        Parser::new(vocab)
    })
}

fn check(message: &str, cx: &Context<'_>) -> ParseOutcome {
    let outcome = parser().parse(message, cx);
    assert_eq!(parser().parse(message, cx), outcome, "two parses of {message:?} differ");
    let json = serde_json::to_string(&outcome)
        .unwrap_or_else(|e| panic!("the outcome of {message:?} does not serialise: {e}"));
    let back: ParseOutcome = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("the outcome of {message:?} does not read back: {e}\n{json}"));
    assert_eq!(back, outcome, "the outcome of {message:?} changes through JSON: {json}");
    outcome
}

fuzz_target!(|data: &[u8]| {
    let mut today = Date::new(2026, 11, 21).expect("a valid date");
    let mut locale = None;
    let mut body = data;
    if let [flags @ 0..=5, lo, hi, rest @ ..] = data {
        locale = [None, Some(Locale::Fr), Some(Locale::En)][usize::from(*flags % 3)];
        let epoch = Date::new(2000, 1, 1).expect("a valid date").to_days();
        today = Date::from_days(epoch + i64::from(u16::from_le_bytes([*lo, *hi])) % 36_525);
        body = rest;
    }
    let text = String::from_utf8_lossy(body);
    let (first, rest) = match text.split_once('\n') {
        Some((first, rest)) => (first, Some(rest)),
        None => (&*text, None),
    };
    let outcome = check(first, &Context { today, locale, previous: None });
    if let Some(rest) = rest {
        check(rest, &Context { today, locale, previous: outcome.plan() });
    }
});
