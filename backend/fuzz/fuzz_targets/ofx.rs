//! Arbitrary bytes as an OFX or QFX statement: reading must not panic, and what is read must
//! point at lines of the input (`common::check`).
#![no_main]

#[path = "common.rs"]
mod common;

use backend::import::ofx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = ofx::parse(data) else { return };
    common::check(data, &read.rows, &read.rejected);
});
