//! Arbitrary bytes as a CAMT.053 statement: reading must not panic, and what is read must
//! point at lines of the input (`common::check`).
#![no_main]

#[path = "common.rs"]
mod common;

use backend::import::camt;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = camt::parse(data) else { return };
    common::check(data, &read.rows, &read.rejected);
});
