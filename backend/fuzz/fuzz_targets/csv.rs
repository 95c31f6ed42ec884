//! Arbitrary bytes as a bank CSV export: detection and reading must not panic; what is
//! read must point at lines of the input; reading again with the detected layout must
//! give the same rows (the preview and the import read alike); labels go through
//! merchant recognition and the dedupe hashes.
#![no_main]

use backend::import::{csv, dedupe_hashes, merchant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = csv::parse(data) else { return };
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for r in &parsed.rows {
        assert!((1..=lines).contains(&r.line), "row line {} of {lines}", r.line);
        merchant::recognise(&r.label, &[]);
    }
    for r in &parsed.rejected {
        assert!((1..=lines).contains(&r.line), "rejected line {} of {lines}", r.line);
    }
    assert_eq!(dedupe_hashes(&parsed.rows).len(), parsed.rows.len());
    let again = csv::parse_with(data, parsed.mapping.clone()).expect("the detected layout reads the file");
    assert_eq!(again.rows, parsed.rows, "reading with the detected layout differs");
});
