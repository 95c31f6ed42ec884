//! Configuration in layers: built-in defaults, then a TOML file (`SOU_CONFIG`, or
//! `sou.toml` in the working directory if present), then environment variables
//! (`SOU_ADDR`, `SOU_DATA_DIR`, `SOU_LOG`, `SOU_TIMEZONE`, `SOU_DEMO`, `DATABASE_URL`).
//! Validated once at start; a bad value stops the server with a clear message.

use std::net::SocketAddr;
use std::path::PathBuf;

use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, Serialize)]
struct Raw {
    addr: String,
    data_dir: PathBuf,
    log: String,
    timezone: String,
    demo: bool,
    #[serde(default, skip_serializing)]
    database_url: Option<SecretString>,
}

impl Default for Raw {
    fn default() -> Self {
        Raw {
            addr: "127.0.0.1:3000".into(),
            data_dir: PathBuf::from("data"),
            log: "info".into(),
            timezone: "Europe/Paris".into(),
            demo: true,
            database_url: None,
        }
    }
}

#[derive(Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    /// `sqlite://…`; defaults to `<data_dir>/sou.db`. May hold a password: secret.
    pub database_url: Option<SecretString>,
    pub log: String,
    pub timezone: chrono_tz::Tz,
    /// Give the local user the demo ledger when they have no transactions.
    pub demo: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Load(#[from] Box<figment::Error>),
    #[error("configuration: addr {0:?} is not an address like 127.0.0.1:3000")]
    Addr(String),
    #[error("configuration: timezone {0:?} is not an IANA time zone like Europe/Paris")]
    Timezone(String),
}

impl Config {
    /// Reads the layers from the process environment.
    pub fn load() -> Result<Config, ConfigError> {
        Config::from_figment(Config::figment())
    }

    pub fn figment() -> Figment {
        let file = std::env::var("SOU_CONFIG").unwrap_or_else(|_| "sou.toml".to_string());
        Figment::from(Serialized::defaults(Raw::default()))
            .merge(Toml::file(file))
            .merge(Env::prefixed("SOU_").ignore(&["config"]))
            .merge(Env::raw().only(&["database_url"]))
    }

    pub fn from_figment(figment: Figment) -> Result<Config, ConfigError> {
        let raw: Raw = figment.extract().map_err(Box::new)?;
        let addr = raw.addr.parse().map_err(|_| ConfigError::Addr(raw.addr.clone()))?;
        let timezone = raw.timezone.parse().map_err(|_| ConfigError::Timezone(raw.timezone.clone()))?;
        Ok(Config {
            addr,
            data_dir: raw.data_dir,
            database_url: raw.database_url,
            log: raw.log,
            timezone,
            demo: raw.demo,
        })
    }

    pub fn database_url(&self) -> Option<&str> {
        self.database_url.as_ref().map(|s| s.expose_secret())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail API returns its own large error
    fn layers_and_validation() {
        figment::Jail::expect_with(|jail| {
            jail.create_file("sou.toml", "addr = \"0.0.0.0:8080\"\ntimezone = \"America/New_York\"")?;
            jail.set_env("SOU_DATA_DIR", "/tmp/sou-test");
            jail.set_env("DATABASE_URL", "sqlite://secret-password@x");
            let c = Config::load().map_err(|e| e.to_string())?;
            assert_eq!(c.addr.port(), 8080);
            assert_eq!(c.data_dir, PathBuf::from("/tmp/sou-test"));
            assert_eq!(c.timezone, chrono_tz::America::New_York);
            assert!(!format!("{c:?}").contains("secret-password"), "secrets never print");
            jail.set_env("SOU_TIMEZONE", "Mars/Olympus");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("Mars/Olympus"), "{err}");
            jail.set_env("SOU_TIMEZONE", "UTC");
            jail.set_env("SOU_ADDR", "nope");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("nope"), "{err}");
            Ok(())
        });
    }
}
