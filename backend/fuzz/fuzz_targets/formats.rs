//! Arbitrary bytes read as every format Sou reads (the list of `agent::for_each_format!`,
//! so a new format is fuzzed without a target of its own): reading must not panic, and
//! what is read must point at lines of the input (`common::check`).
#![no_main]

#[path = "common.rs"]
mod common;

use backend::import::{read, Format};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for &format in Format::ALL {
        if let Ok(file) = read(format, data, None) {
            common::check(data, &file.rows, &file.rejected);
        }
    }
});
