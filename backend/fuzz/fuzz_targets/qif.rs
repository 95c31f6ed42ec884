//! Arbitrary bytes as a QIF file: reading must not panic, and what is read must
//! point at lines of the input (`common::check`).
#![no_main]

#[path = "common.rs"]
mod common;

use backend::import::qif;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = qif::parse(data) else { return };
    common::check(data, &read.rows, &read.rejected);
});
