//! What logs may say about a user (trace sanitisation): ids are replaced by
//! keyed hashes that correlate lines within a run of the server but cannot be turned
//! back into ids, and amounts by coarse buckets. Messages, labels and exact amounts are
//! never logged.

use std::fmt;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::ids::UserId;

/// A random key per server process: the same id hashes the same within a run.
fn key() -> &'static [u8; 32] {
    static KEY: OnceLock<[u8; 32]> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut k = [0u8; 32];
        argon2::password_hash::rand_core::RngCore::fill_bytes(
            &mut argon2::password_hash::rand_core::OsRng,
            &mut k,
        );
        k
    })
}

/// 12 hex characters of SHA-256(key ‖ kind ‖ id).
fn tag(kind: &str, id: &str) -> String {
    let mut h = Sha256::new();
    h.update(key());
    h.update(kind.as_bytes());
    h.update([0]);
    h.update(id.as_bytes());
    h.finalize().iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// A user as logs show them: `u:` and a keyed hash.
pub fn user(u: UserId) -> Tagged {
    Tagged(format!("u:{}", tag("user", &u.0.to_string())))
}

/// A conversation, account or other row id as logs show it.
pub fn id(kind: &'static str, id: &str) -> Tagged {
    Tagged(format!("{}:{}", &kind[..1], tag(kind, id)))
}

/// A hashed id, for `%` in tracing fields.
pub struct Tagged(String);

impl fmt::Display for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An amount in minor units as an order of magnitude of its major units: `0`,
/// `<10`, `10-100`, `100-1k`, `1k-10k`, `10k-100k`, `>=100k`, signed.
pub fn bucket(minor: i64) -> &'static str {
    const UP: [&str; 6] = ["<10", "10-100", "100-1k", "1k-10k", "10k-100k", ">=100k"];
    const DOWN: [&str; 6] = ["-<10", "-10-100", "-100-1k", "-1k-10k", "-10k-100k", "-(>=100k)"];
    if minor == 0 {
        return "0";
    }
    // The power of ten of the major units, capped at the last bucket.
    let i = (minor.unsigned_abs() / 100).checked_ilog10().map_or(0, |p| p as usize).min(UP.len() - 1);
    if minor < 0 {
        DOWN[i]
    } else {
        UP[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_hashed_stably_within_a_run() {
        assert_eq!(user(UserId(1)).to_string(), user(UserId(1)).to_string());
        assert_ne!(user(UserId(1)).to_string(), user(UserId(2)).to_string());
        let c = id("conversation", "3f2a9c").to_string();
        assert!(c.starts_with("c:") && c.len() == 14 && !c.contains("3f2a9c"), "{c}");
    }

    #[test]
    fn amounts_are_bucketed() {
        assert_eq!(bucket(0), "0");
        assert_eq!(bucket(999), "<10");
        assert_eq!(bucket(41_230), "100-1k");
        assert_eq!(bucket(-41_230), "-100-1k");
        assert_eq!(bucket(123_456_789), ">=100k");
    }
}
