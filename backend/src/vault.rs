//! Provider keys at rest: XChaCha20-Poly1305 (RustCrypto's `chacha20poly1305`) under a
//! 32-byte master key, with a random 24-byte nonce per key and the owner and provider
//! as associated data, so a ciphertext moved to another user or provider does not open.
//!
//! The master key comes from `SOU_MASTER_KEY` (base64 of 32 bytes) or, without it, from
//! `<data_dir>/master.key`, generated on first start with mode 0600. Keys never leave
//! the server: the browser sees the last four characters and where the key came from.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use secrecy::{ExposeSecret, SecretString};

use crate::ids::UserId;
use crate::llm::catalog::ProviderId;

/// The file the master key is kept in when `SOU_MASTER_KEY` is not set.
pub const MASTER_KEY_FILE: &str = "master.key";

#[derive(Debug, thiserror::Error)]
pub enum VaultError {
    #[error("SOU_MASTER_KEY must be the base64 of 32 bytes")]
    BadEnvKey,
    #[error("the master key file {0} is not the base64 of 32 bytes")]
    BadFile(PathBuf),
    #[error("cannot read or create the master key file {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("a stored key could not be decrypted (was the master key changed?)")]
    Decrypt,
    #[error("encryption failed")]
    Encrypt,
}

/// Seals and opens provider keys. `Debug` shows nothing of the master key.
#[derive(Clone)]
pub struct Vault {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Vault([redacted])")
    }
}

/// A sealed key as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub nonce: Vec<u8>,
    pub ciphertext: Vec<u8>,
}

impl Vault {
    /// The master key from `env_key` if given, else from the data directory's file,
    /// created (0600) when missing.
    pub fn open(data_dir: &Path, env_key: Option<&SecretString>) -> Result<Vault, VaultError> {
        if let Some(k) = env_key {
            return decode_key(k.expose_secret()).map(Vault::from_key).ok_or(VaultError::BadEnvKey);
        }
        let path = data_dir.join(MASTER_KEY_FILE);
        let io = |source| VaultError::Io { path: path.clone(), source };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                tighten(&path).map_err(io)?;
                decode_key(&text).map(Vault::from_key).ok_or_else(|| VaultError::BadFile(path.clone()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(data_dir).map_err(io)?;
                let key = XChaCha20Poly1305::generate_key(&mut OsRng);
                let text = base64::engine::general_purpose::STANDARD.encode(key.as_slice());
                let mut file = create_private(&path).map_err(io)?;
                file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(io)?;
                tracing::info!(path = %path.display(), "generated a master key for provider keys");
                Ok(Vault { cipher: XChaCha20Poly1305::new(&key) })
            }
            Err(e) => Err(io(e)),
        }
    }

    pub fn from_key(key: [u8; 32]) -> Vault {
        Vault { cipher: XChaCha20Poly1305::new(&key.into()) }
    }

    pub fn seal(
        &self,
        user: UserId,
        provider: ProviderId,
        secret: &SecretString,
    ) -> Result<Sealed, VaultError> {
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let aad = aad(user, provider);
        let ciphertext = self
            .cipher
            .encrypt(&nonce, Payload { msg: secret.expose_secret().as_bytes(), aad: &aad })
            .map_err(|_| VaultError::Encrypt)?;
        Ok(Sealed { nonce: nonce.to_vec(), ciphertext })
    }

    pub fn unseal(
        &self,
        user: UserId,
        provider: ProviderId,
        sealed: &Sealed,
    ) -> Result<SecretString, VaultError> {
        if sealed.nonce.len() != 24 {
            return Err(VaultError::Decrypt);
        }
        let nonce = XNonce::from_slice(&sealed.nonce);
        let aad = aad(user, provider);
        let plain = self
            .cipher
            .decrypt(nonce, Payload { msg: &sealed.ciphertext, aad: &aad })
            .map_err(|_| VaultError::Decrypt)?;
        let text = String::from_utf8(plain).map_err(|_| VaultError::Decrypt)?;
        Ok(SecretString::from(text))
    }
}

fn aad(user: UserId, provider: ProviderId) -> Vec<u8> {
    format!("sou-provider-key:{}:{}", user.0, provider.as_str()).into_bytes()
}

fn decode_key(text: &str) -> Option<[u8; 32]> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(text.trim()).ok()?;
    bytes.try_into().ok()
}

#[cfg(unix)]
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

#[cfg(not(unix))]
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(path)
}

/// A master key file readable by others is made private again, with a warning.
#[cfg(unix)]
fn tighten(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode();
    if mode & 0o077 != 0 {
        tracing::warn!(path = %path.display(), "the master key file was readable by others; setting it to 0600");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn tighten(_: &Path) -> std::io::Result<()> {
    Ok(())
}

/// The last four characters of a key, the only part ever shown.
pub fn last4(secret: &SecretString) -> String {
    let s = secret.expose_secret();
    let n = s.chars().count();
    if n < 12 {
        // Too short to show any of it safely.
        return String::new();
    }
    s.chars().skip(n - 4).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANARY: &str = "sk-canary-0123456789abcdef";

    #[test]
    fn seals_open_only_for_their_owner_and_provider() {
        let v = Vault::from_key([7; 32]);
        let secret = SecretString::from(CANARY);
        let s = v.seal(UserId(1), ProviderId::Openai, &secret).unwrap();
        assert!(!s.ciphertext.windows(CANARY.len()).any(|w| w == CANARY.as_bytes()));
        assert_eq!(v.unseal(UserId(1), ProviderId::Openai, &s).unwrap().expose_secret(), CANARY);
        assert!(v.unseal(UserId(2), ProviderId::Openai, &s).is_err());
        assert!(v.unseal(UserId(1), ProviderId::Anthropic, &s).is_err());
        assert!(Vault::from_key([8; 32]).unseal(UserId(1), ProviderId::Openai, &s).is_err());
        let again = v.seal(UserId(1), ProviderId::Openai, &secret).unwrap();
        assert_ne!(again.nonce, s.nonce, "a fresh nonce every time");
        assert_eq!(format!("{v:?}"), "Vault([redacted])");
    }

    #[test]
    fn the_master_key_file_is_generated_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let v1 = Vault::open(dir.path(), None).unwrap();
        let sealed = v1.seal(UserId(1), ProviderId::Xai, &SecretString::from(CANARY)).unwrap();
        let path = dir.path().join(MASTER_KEY_FILE);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let v2 = Vault::open(dir.path(), None).unwrap();
        assert_eq!(v2.unseal(UserId(1), ProviderId::Xai, &sealed).unwrap().expose_secret(), CANARY);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        std::fs::write(&path, "short").unwrap();
        assert!(matches!(Vault::open(dir.path(), None), Err(VaultError::BadFile(_))));
    }

    #[test]
    fn an_env_master_key_wins_and_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        let good = SecretString::from(base64::engine::general_purpose::STANDARD.encode([3u8; 32]));
        assert!(Vault::open(dir.path(), Some(&good)).is_ok());
        assert!(!dir.path().join(MASTER_KEY_FILE).exists(), "no file when the env gives the key");
        let bad = SecretString::from("not base64!");
        assert!(matches!(Vault::open(dir.path(), Some(&bad)), Err(VaultError::BadEnvKey)));
    }

    #[test]
    fn only_the_last_four_show() {
        assert_eq!(last4(&SecretString::from(CANARY)), "cdef");
        assert_eq!(last4(&SecretString::from("short")), "");
    }
}
