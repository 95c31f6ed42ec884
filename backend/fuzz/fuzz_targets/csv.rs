//! Arbitrary bytes as a bank CSV export: detection and reading must not panic, what is
//! read must point at lines of the input (`common::check`), and reading again with the
//! detected layout must give the same rows (the preview and the import read alike).
#![no_main]

#[path = "common.rs"]
mod common;

use backend::import::csv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = csv::parse(data) else { return };
    common::check(data, &parsed.rows, &parsed.rejected);
    let again = csv::parse_with(data, parsed.mapping.clone()).expect("the detected layout reads the file");
    assert_eq!(again.rows, parsed.rows, "reading with the detected layout differs");
});
