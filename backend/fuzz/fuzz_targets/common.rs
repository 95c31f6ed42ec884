//! What every parser's target checks of what it read from arbitrary bytes: every row
//! and rejected line points at a line of the input, and the labels go through merchant
//! recognition and dedupe hashing without a panic.

use backend::import::{dedupe_hashes, merchant, Rejected, Row};

pub fn check(data: &[u8], rows: &[Row], rejected: &[Rejected]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for r in rows {
        assert!((1..=lines).contains(&r.line), "row line {} of {lines}", r.line);
        merchant::recognise(&r.label, &[]);
    }
    for r in rejected {
        assert!((1..=lines).contains(&r.line), "rejected line {} of {lines}", r.line);
    }
    assert_eq!(dedupe_hashes(rows).len(), rows.len());
}
