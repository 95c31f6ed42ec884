//! Arbitrary bytes as a QIF file: reading must not panic, and every row and
//! rejected line must point at a line of the input; labels go through merchant
//! recognition and the dedupe hashes.
#![no_main]

use backend::import::{dedupe_hashes, merchant, qif};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = qif::parse(data) else { return };
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for r in &parsed.rows {
        assert!((1..=lines).contains(&r.line), "row line {} of {lines}", r.line);
        merchant::recognise(&r.label, &[]);
    }
    for r in &parsed.rejected {
        assert!((1..=lines).contains(&r.line), "rejected line {} of {lines}", r.line);
    }
    assert_eq!(dedupe_hashes(&parsed.rows).len(), parsed.rows.len());
});
