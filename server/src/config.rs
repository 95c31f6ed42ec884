//! Configuration in layers: built-in defaults, then a TOML file (`SOU_CONFIG`, or
//! `sou.toml` in the working directory if present), then environment variables
//! (`SOU_ADDR`, `SOU_DATA_DIR`, `SOU_LOG`, `SOU_TIMEZONE`, `SOU_DEMO`, `SOU_DEMO_HOURS`, `SOU_DEMO_PER_ADDRESS`, `SOU_SIGNUP`,
//! `SOU_SESSION_DAYS`, `SOU_SESSION_IDLE_DAYS`,
//! `SOU_TRUST_PROXY`, `SOU_RETENTION_DAYS`, `SOU_APPROVAL_MINUTES`, `SOU_USAGE_LIMIT_EUR`,
//! `SOU_USER_USAGE_LIMIT_EUR`, `SOU_RUN_STALE_SECS`, `SOU_SHUTDOWN_GRACE_SECS`, `SOU_DATASET_QUERIES_PER_USER`,
//! `SOU_DATASET_QUERIES_QUEUE`, `SOU_DATASET_QUERIES_TOTAL`, `DATABASE_URL`, `SOU_DATABASE_OWNER_URL`,
//! `SOU_MASTER_KEY`, and `SOU_LLM__…` for the `[llm]` table, `__` separating levels:
//! `SOU_LLM__PROVIDERS__OPENAI__BASE_URL`). Provider keys fall back to the usual
//! variables (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`, …).
//! Validated once at start; a bad value stops the server with a clear message.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use backend::llm::catalog::ProviderId;
use backend::{LlmConfig, ProviderConfig};

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
    demo_hours: u32,
    demo_per_address: u32,
    signup: bool,
    session_days: u32,
    session_idle_days: u32,
    trust_proxy: bool,
    retention_days: u32,
    approval_minutes: u32,
    #[serde(default)]
    pause_before_write_ms: u64,
    #[serde(default)]
    usage_limit_eur: Option<Euros>,
    #[serde(default)]
    user_usage_limit_eur: Option<Euros>,
    run_stale_secs: u64,
    #[serde(default)]
    pause_between_steps_ms: u64,
    shutdown_grace_secs: u64,
    dataset_queries_per_user: usize,
    dataset_queries_queue: usize,
    dataset_queries_total: usize,
    widget_visitor_percent: u32,
    report_views_per_minute: usize,
    #[serde(default, skip_serializing)]
    database_url: Option<SecretString>,
    #[serde(default, skip_serializing)]
    database_owner_url: Option<SecretString>,
    #[serde(default, skip_serializing)]
    master_key: Option<SecretString>,
    #[serde(default)]
    llm: RawLlm,
}

/// An amount of euros as written in the file or the environment: `25`, `"25.50"`. A
/// number with a fraction is read from its decimal text, never computed as a float.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum Euros {
    Whole(u64),
    Fraction(f64),
    Text(String),
}

impl Euros {
    /// Millionths of a euro.
    fn micros(&self) -> Option<u64> {
        let text = match self {
            Euros::Whole(n) => return n.checked_mul(1_000_000),
            Euros::Fraction(f) => f.to_string(),
            Euros::Text(t) => t.trim().replace(',', "."),
        };
        let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
        if whole.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || frac.len() > 6
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let frac = format!("{frac:0<6}");
        whole.parse::<u64>().ok()?.checked_mul(1_000_000)?.checked_add(frac.parse().ok()?)
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
struct RawLlm {
    /// Where users who chose nothing are answered.
    provider: Option<String>,
    context_tokens: u32,
    connect_timeout_secs: u64,
    read_timeout_secs: u64,
    providers: BTreeMap<String, RawProvider>,
}

impl Default for RawLlm {
    fn default() -> Self {
        RawLlm {
            provider: None,
            context_tokens: backend::llm::context::DEFAULT_BUDGET,
            connect_timeout_secs: 10,
            read_timeout_secs: 60,
            providers: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
struct RawProvider {
    base_url: Option<String>,
    simple_model: Option<String>,
    complex_model: Option<String>,
    #[serde(skip_serializing)]
    api_key: Option<SecretString>,
    enabled: Option<bool>,
}

impl Default for Raw {
    fn default() -> Self {
        Raw {
            addr: "127.0.0.1:3000".into(),
            data_dir: PathBuf::from("data"),
            log: "info".into(),
            timezone: "Europe/Paris".into(),
            demo: true,
            demo_hours: 24,
            demo_per_address: 3,
            signup: true,
            session_days: 30,
            session_idle_days: 14,
            trust_proxy: false,
            retention_days: 30,
            approval_minutes: 30,
            pause_before_write_ms: 0,
            usage_limit_eur: None,
            user_usage_limit_eur: None,
            run_stale_secs: 60,
            pause_between_steps_ms: 0,
            shutdown_grace_secs: 8,
            dataset_queries_per_user: backend::QueryLimits::default().per_user,
            dataset_queries_queue: backend::QueryLimits::default().queue,
            dataset_queries_total: backend::QueryLimits::default().total,
            widget_visitor_percent: backend::DEFAULT_VISITOR_PERCENT,
            report_views_per_minute: backend::VIEWS_PER_MINUTE,
            database_url: None,
            database_owner_url: None,
            master_key: None,
            llm: RawLlm::default(),
        }
    }
}

#[derive(Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    /// `sqlite://…`; defaults to `<data_dir>/sou.db`. May hold a password: secret.
    pub database_url: Option<SecretString>,
    /// PostgreSQL only: the role that runs the migrations and owns the tables
    /// (`SOU_DATABASE_OWNER_URL`); Sou itself connects with `database_url`.
    pub database_owner_url: Option<SecretString>,
    pub log: String,
    pub timezone: chrono_tz::Tz,
    /// Offer "Try the demo": a throwaway account with the demo ledger.
    pub demo: bool,
    /// A demo account and its data are deleted this long after creation.
    pub demo_ttl: Duration,
    /// Demo accounts one client address may start in an hour.
    pub demo_per_address: usize,
    /// Anyone may create an account from the sign-in page.
    pub signup: bool,
    /// A session ends this long after sign-in (`SOU_SESSION_DAYS`, default 30), or
    /// sooner when unused this long (`SOU_SESSION_IDLE_DAYS`, default 14).
    pub session_ttl: Duration,
    pub session_idle: Duration,
    /// Behind a reverse proxy: take the client's address from `X-Forwarded-For`.
    pub trust_proxy: bool,
    /// Conversations inactive for this many days are deleted (`SOU_RETENTION_DAYS`,
    /// default 30; 0 keeps them forever).
    pub retention_days: u32,
    /// How long a proposed write waits for the user's approval (`SOU_APPROVAL_MINUTES`,
    /// default 30), and a pause between an approval and its write
    /// (`SOU_PAUSE_BEFORE_WRITE_MS`, default 0: only crash tests set it).
    pub writes: backend::WriteConfig,
    /// Model spending limits per month: all users together (`SOU_USAGE_LIMIT_EUR`) and
    /// each user (`SOU_USER_USAGE_LIMIT_EUR`), in euros, none by default; and how long a
    /// running answer may go without news before it is taken for stopped
    /// (`SOU_RUN_STALE_SECS`, default 60); a pause between two steps of a plan
    /// (`SOU_PAUSE_BETWEEN_STEPS_MS`, default 0: only crash tests set it).
    pub runs: backend::RunConfig,
    /// On SIGTERM or Ctrl-C, how long answers in flight get to finish before they are cut
    /// short and marked interrupted (`SOU_SHUTDOWN_GRACE_SECS`, default 8: within the
    /// 10 s a container runtime waits before SIGKILL).
    pub shutdown_grace: Duration,
    /// Dataset queries at once: each user's (`SOU_DATASET_QUERIES_PER_USER`, default 2),
    /// each user's waiting their turn past it (`SOU_DATASET_QUERIES_QUEUE`, default 2;
    /// past it a query is refused as busy) and all users' (`SOU_DATASET_QUERIES_TOTAL`,
    /// default 6, more than a user's share, at most 32).
    pub queries: backend::QueryLimits,
    /// The share of a widget site's hourly questions one visitor may ask, in percent
    /// (`SOU_WIDGET_VISITOR_PERCENT`, 1 to 100, default 20; at least one question).
    pub widget_visitor_percent: u32,
    /// Requests one shared link serves a minute, on every server of the database
    /// (`SOU_REPORT_VIEWS_PER_MINUTE`, default 60; `0` serves every one).
    pub report_views_per_minute: usize,
    /// The key that seals provider keys (`SOU_MASTER_KEY`); else a file in `data_dir`.
    pub master_key: Option<SecretString>,
    pub llm: LlmConfig,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Load(#[from] Box<figment::Error>),
    #[error("configuration: addr {0:?} is not an address like 127.0.0.1:3000")]
    Addr(String),
    #[error("configuration: timezone {0:?} is not an IANA time zone like Europe/Paris")]
    Timezone(String),
    #[error("configuration: demo_hours must be between 1 and 8760 (a year), not {0}")]
    DemoHours(u32),
    #[error("configuration: session_days and session_idle_days must be 1 to 3650, not {0}")]
    SessionDays(u32),
    #[error("configuration: widget_visitor_percent must be 1 to 100, not {0}")]
    WidgetVisitorPercent(u32),
    #[error("configuration: approval_minutes must be 1 to 10080 (a week), not {0}")]
    ApprovalMinutes(u32),
    #[error("configuration: llm: {0}")]
    Llm(String),
    #[error("configuration: {0} must be an amount of euros like 25 or \"25.50\"")]
    Euros(&'static str),
    #[error("configuration: run_stale_secs must be 1 to 3600, not {0}")]
    RunStale(u64),
    #[error("configuration: shutdown_grace_secs must be 0 to 600, not {0}")]
    ShutdownGrace(u64),
    #[error("configuration: dataset_queries_per_user, _queue and _total: {0}")]
    DatasetQueries(String),
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
            .merge(Env::prefixed("SOU_").ignore(&["config"]).split("__"))
            .merge(Env::raw().only(&["database_url"]))
    }

    pub fn from_figment(figment: Figment) -> Result<Config, ConfigError> {
        let raw: Raw = figment.extract().map_err(Box::new)?;
        let addr = raw.addr.parse().map_err(|_| ConfigError::Addr(raw.addr.clone()))?;
        let timezone = raw.timezone.parse().map_err(|_| ConfigError::Timezone(raw.timezone.clone()))?;
        let llm = llm_config(raw.llm, |name| std::env::var(name).ok())?;
        if !(1..=8760).contains(&raw.demo_hours) {
            return Err(ConfigError::DemoHours(raw.demo_hours));
        }
        for days in [raw.session_days, raw.session_idle_days] {
            if !(1..=3650).contains(&days) {
                return Err(ConfigError::SessionDays(days));
            }
        }
        if !(1..=10080).contains(&raw.approval_minutes) {
            return Err(ConfigError::ApprovalMinutes(raw.approval_minutes));
        }
        let euros = |v: &Option<Euros>, name: &'static str| {
            v.as_ref().map(|e| e.micros().ok_or(ConfigError::Euros(name))).transpose()
        };
        let limits = backend::UsageLimits {
            instance_monthly_eur_micros: euros(&raw.usage_limit_eur, "usage_limit_eur")?,
            user_monthly_eur_micros: euros(&raw.user_usage_limit_eur, "user_usage_limit_eur")?,
        };
        if !(1..=3600).contains(&raw.run_stale_secs) {
            return Err(ConfigError::RunStale(raw.run_stale_secs));
        }
        if raw.shutdown_grace_secs > 600 {
            return Err(ConfigError::ShutdownGrace(raw.shutdown_grace_secs));
        }
        let queries = backend::QueryLimits {
            per_user: raw.dataset_queries_per_user,
            queue: raw.dataset_queries_queue,
            total: raw.dataset_queries_total,
            ..Default::default()
        };
        if let Some(problem) = queries.problem() {
            return Err(ConfigError::DatasetQueries(problem));
        }
        if !(1..=100).contains(&raw.widget_visitor_percent) {
            return Err(ConfigError::WidgetVisitorPercent(raw.widget_visitor_percent));
        }
        Ok(Config {
            addr,
            data_dir: raw.data_dir,
            database_url: raw.database_url,
            database_owner_url: raw.database_owner_url,
            log: raw.log,
            timezone,
            demo: raw.demo,
            demo_ttl: Duration::from_secs(u64::from(raw.demo_hours) * 3600),
            demo_per_address: raw.demo_per_address as usize,
            signup: raw.signup,
            session_ttl: Duration::from_secs(u64::from(raw.session_days) * 24 * 3600),
            session_idle: Duration::from_secs(u64::from(raw.session_idle_days) * 24 * 3600),
            trust_proxy: raw.trust_proxy,
            retention_days: raw.retention_days,
            writes: backend::WriteConfig {
                approval_ttl: Duration::from_secs(u64::from(raw.approval_minutes) * 60),
                pause_before_execute: Duration::from_millis(raw.pause_before_write_ms.min(60_000)),
            },
            runs: backend::RunConfig {
                stale_after: Duration::from_secs(raw.run_stale_secs),
                record: true,
                limits,
                pause_between_steps: Duration::from_millis(raw.pause_between_steps_ms.min(60_000)),
                ..backend::RunConfig::default()
            },
            shutdown_grace: Duration::from_secs(raw.shutdown_grace_secs),
            queries,
            widget_visitor_percent: raw.widget_visitor_percent,
            report_views_per_minute: raw.report_views_per_minute,
            master_key: raw.master_key,
            llm,
        })
    }

    pub fn database_url(&self) -> Option<&str> {
        self.database_url.as_ref().map(|s| s.expose_secret())
    }

    pub fn database_owner_url(&self) -> Option<&str> {
        self.database_owner_url.as_ref().map(|s| s.expose_secret())
    }
}

/// The `[llm]` table checked and completed with defaults; keys missing from it are read
/// from the providers' usual environment variables through `env`.
fn llm_config(raw: RawLlm, env: impl Fn(&str) -> Option<String>) -> Result<LlmConfig, ConfigError> {
    let mut config = LlmConfig {
        default_provider: raw.provider.as_deref().map(str::parse).transpose().map_err(ConfigError::Llm)?,
        context_tokens: raw.context_tokens,
        connect_timeout: Duration::from_secs(raw.connect_timeout_secs),
        read_timeout: Duration::from_secs(raw.read_timeout_secs),
        ..LlmConfig::default()
    };
    if !(1_000..=2_000_000).contains(&raw.context_tokens) {
        return Err(ConfigError::Llm(format!(
            "context_tokens is {}; use a budget between 1000 and 2000000 tokens",
            raw.context_tokens
        )));
    }
    if raw.read_timeout_secs == 0 || raw.connect_timeout_secs == 0 {
        return Err(ConfigError::Llm("timeouts must be at least 1 second".into()));
    }
    let mut overrides = BTreeMap::new();
    for (name, p) in raw.providers {
        let id: ProviderId = name.parse().map_err(ConfigError::Llm)?;
        overrides.insert(id, p);
    }
    for id in ProviderId::ALL {
        let mut c = ProviderConfig::defaults(id);
        let given = overrides.remove(&id);
        let configured = given.is_some() || config.default_provider == Some(id);
        if let Some(p) = given {
            if let Some(url) = p.base_url {
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(ConfigError::Llm(format!(
                        "providers.{id}.base_url {url:?} is not an http(s) URL"
                    )));
                }
                c.base_url = url;
            }
            c.simple_model = p.simple_model.unwrap_or(c.simple_model);
            c.complex_model = p.complex_model.unwrap_or(c.complex_model);
            c.env_key = p.api_key;
            c.enabled = p.enabled.unwrap_or(true);
        }
        if c.env_key.is_none() {
            c.env_key = id
                .key_env()
                .iter()
                .find_map(|v| env(v).filter(|k| !k.trim().is_empty()))
                .map(SecretString::from);
        }
        // A local Ollama needs no key, so it is offered only when configured.
        if id == ProviderId::Ollama && !configured {
            c.enabled = false;
        }
        config.providers.insert(id, c);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::result_large_err)]
    fn session_lifetimes() {
        figment::Jail::expect_with(|jail| {
            let c = Config::load().map_err(|e| e.to_string())?;
            assert_eq!(c.session_ttl, Duration::from_secs(30 * 24 * 3600));
            assert_eq!(c.session_idle, Duration::from_secs(14 * 24 * 3600));
            jail.set_env("SOU_SESSION_IDLE_DAYS", "2");
            jail.set_env("SOU_SESSION_DAYS", "90");
            let c = Config::load().map_err(|e| e.to_string())?;
            assert_eq!((c.session_ttl.as_secs(), c.session_idle.as_secs()), (90 * 86_400, 2 * 86_400));
            jail.set_env("SOU_SESSION_IDLE_DAYS", "0");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("session_idle_days"), "{err}");
            Ok(())
        });
    }

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
            assert_eq!(c.demo_per_address, 3);
            jail.set_env("SOU_DEMO_PER_ADDRESS", "40");
            assert_eq!(Config::load().map_err(|e| e.to_string())?.demo_per_address, 40);
            assert!(!format!("{c:?}").contains("secret-password"), "secrets never print");
            jail.set_env("SOU_TIMEZONE", "Mars/Olympus");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("Mars/Olympus"), "{err}");
            jail.set_env("SOU_TIMEZONE", "UTC");
            // Limits in euros, read exactly; a bad one is named.
            jail.set_env("SOU_USAGE_LIMIT_EUR", "25.5");
            jail.set_env("SOU_USER_USAGE_LIMIT_EUR", "3");
            let limits = Config::load().map_err(|e| e.to_string())?.runs.limits;
            assert_eq!(limits.instance_monthly_eur_micros, Some(25_500_000));
            assert_eq!(limits.user_monthly_eur_micros, Some(3_000_000));
            jail.set_env("SOU_USAGE_LIMIT_EUR", "lots");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("usage_limit_eur"), "{err}");
            jail.set_env("SOU_USAGE_LIMIT_EUR", "0.0000001");
            assert!(Config::load().is_err(), "more than six decimals");
            jail.set_env("SOU_USAGE_LIMIT_EUR", "10");
            // Dataset queries at once: a user's share must leave room for another's.
            assert_eq!(c.queries, backend::QueryLimits::default());
            jail.set_env("SOU_DATASET_QUERIES_PER_USER", "1");
            jail.set_env("SOU_DATASET_QUERIES_TOTAL", "3");
            let queries = Config::load().map_err(|e| e.to_string())?.queries;
            assert_eq!((queries.per_user, queries.queue, queries.total), (1, 2, 3));
            jail.set_env("SOU_DATASET_QUERIES_PER_USER", "3");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("less than the total"), "{err}");
            jail.set_env("SOU_DATASET_QUERIES_PER_USER", "1");
            // A shared link's requests a minute: read at start, a word is an error.
            assert_eq!(c.report_views_per_minute, backend::VIEWS_PER_MINUTE);
            jail.set_env("SOU_REPORT_VIEWS_PER_MINUTE", "0");
            assert_eq!(Config::load().map_err(|e| e.to_string())?.report_views_per_minute, 0);
            jail.set_env("SOU_REPORT_VIEWS_PER_MINUTE", "lots");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("REPORT_VIEWS_PER_MINUTE"), "{err}");
            jail.set_env("SOU_REPORT_VIEWS_PER_MINUTE", "60");
            jail.set_env("SOU_ADDR", "nope");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("nope"), "{err}");
            Ok(())
        });
    }

    #[test]
    #[allow(clippy::result_large_err)]
    fn llm_table_env_keys_and_errors() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "sou.toml",
                "[llm]\nprovider = \"anthropic\"\ncontext_tokens = 6000\n[llm.providers.ollama]\nbase_url = \"http://127.0.0.1:11434\"\n",
            )?;
            jail.set_env("SOU_LLM__PROVIDERS__OPENAI__BASE_URL", "http://127.0.0.1:9/v1");
            jail.set_env("SOU_LLM__PROVIDERS__OPENAI__SIMPLE_MODEL", "gpt-test");
            jail.set_env("OPENAI_API_KEY", "sk-canary-config-test-0000");
            let c = Config::load().map_err(|e| e.to_string())?;
            assert_eq!(c.llm.default_provider, Some(ProviderId::Anthropic));
            assert_eq!(c.llm.context_tokens, 6000);
            let openai = &c.llm.providers[&ProviderId::Openai];
            assert_eq!(
                (openai.base_url.as_str(), openai.simple_model.as_str()),
                ("http://127.0.0.1:9/v1", "gpt-test")
            );
            assert!(openai.env_key.is_some());
            assert!(c.llm.providers[&ProviderId::Ollama].enabled, "configured Ollama is offered");
            assert!(!format!("{c:?}").contains("sk-canary-config-test"), "keys never print");
            jail.set_env("SOU_LLM__PROVIDER", "openia");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("openia"), "{err}");
            jail.set_env("SOU_LLM__PROVIDER", "openai");
            jail.set_env("SOU_LLM__CONTEXT_TOKENS", "10");
            let err = Config::load().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("context_tokens"), "{err}");
            Ok(())
        });
        let c = llm_config(RawLlm::default(), |_| None).map_err(|e| e.to_string());
        assert!(c.is_ok_and(|c| !c.providers[&ProviderId::Ollama].enabled));
    }
}
