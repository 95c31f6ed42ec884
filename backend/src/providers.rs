//! Which language model answers a user: the instance's provider settings, the user's
//! saved keys (sealed by the [`Vault`]) with the environment as fallback, and the
//! user's choice of provider and model.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use crate::error::BackendError;
use crate::ids::UserId;
use crate::llm::catalog::ProviderId;
use crate::llm::context::DEFAULT_BUDGET;
use crate::llm::model::{Caller, Model};
use crate::llm::{self, Endpoint, LlmError};
use crate::store::Store;
use crate::vault::{self, Sealed, Vault};

/// One provider as this instance reaches it.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    pub base_url: String,
    pub simple_model: String,
    pub complex_model: String,
    /// The key from the environment or the configuration file, used when the user
    /// saved none.
    pub env_key: Option<SecretString>,
    /// Offered to users. Providers needing a key are always offered; a local Ollama
    /// only when configured.
    pub enabled: bool,
}

impl ProviderConfig {
    pub fn defaults(p: ProviderId) -> ProviderConfig {
        let (simple, complex) = p.default_models();
        ProviderConfig {
            base_url: p.default_base_url().to_string(),
            simple_model: simple.to_string(),
            complex_model: complex.to_string(),
            env_key: None,
            enabled: p.needs_key(),
        }
    }
}

/// The instance's language-model settings.
#[derive(Clone, Debug)]
pub struct LlmConfig {
    /// Where questions go for users who chose nothing: this provider if usable, else
    /// the first usable one in [`ProviderId::ALL`] order.
    pub default_provider: Option<ProviderId>,
    /// Token budget of one request (20,000 by default).
    pub context_tokens: u32,
    pub connect_timeout: Duration,
    /// A stream that sends nothing for this long is a timeout.
    pub read_timeout: Duration,
    pub providers: BTreeMap<ProviderId, ProviderConfig>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            default_provider: None,
            context_tokens: DEFAULT_BUDGET,
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(60),
            providers: ProviderId::ALL.into_iter().map(|p| (p, ProviderConfig::defaults(p))).collect(),
        }
    }
}

/// Where a provider's key comes from, as the settings page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum KeyState {
    /// Saved by the user, encrypted at rest.
    Saved {
        last4: String,
    },
    /// From the server's environment.
    Environment {
        last4: String,
    },
    /// The provider needs none (a local Ollama).
    NotNeeded,
    Missing,
}

/// One provider on the settings page. Never carries a key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderView {
    pub id: ProviderId,
    pub name: String,
    pub base_url: String,
    pub simple_model: String,
    pub complex_model: String,
    pub key: KeyState,
    pub usable: bool,
}

/// What the user picked: a provider and a model, or the router's choice (`None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub provider: ProviderId,
    pub model: Option<String>,
}

/// The models a user's question may use.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub provider: ProviderId,
    pub simple: Model,
    pub complex: Model,
    /// The user fixed the model: the router has nothing to choose.
    pub fixed: bool,
}

/// A user's model settings, as Settings shows and changes them: the providers with the
/// store they keep the keys and the choice in (`Sou::model_settings`).
pub struct ModelSettings<'a> {
    providers: &'a Providers,
    store: &'a Store,
}

impl<'a> ModelSettings<'a> {
    pub(crate) fn new(providers: &'a Providers, store: &'a Store) -> ModelSettings<'a> {
        ModelSettings { providers, store }
    }

    /// Every enabled provider, with where its key comes from.
    pub async fn views(&self, user: UserId) -> Result<Vec<ProviderView>, BackendError> {
        self.providers.views(self.store, user).await
    }

    /// The provider and model chosen for free-form questions, if any.
    pub async fn choice(&self, user: UserId) -> Result<Option<Choice>, BackendError> {
        self.providers.choice(self.store, user).await
    }

    /// Checks `secret` with the provider, then seals and stores it.
    pub async fn save_key(
        &self,
        user: UserId,
        p: ProviderId,
        secret: SecretString,
    ) -> Result<ProviderView, BackendError> {
        self.providers.save_key(self.store, user, p, secret).await
    }

    pub async fn delete_key(&self, user: UserId, p: ProviderId) -> Result<(), BackendError> {
        self.providers.delete_key(self.store, user, p).await
    }

    pub async fn choose(&self, user: UserId, choice: &Choice) -> Result<(), BackendError> {
        self.providers.choose(self.store, user, choice).await
    }
}

/// The language-model side of Sou: settings, vault and the HTTP caller.
#[derive(Clone)]
pub struct Providers {
    config: Arc<LlmConfig>,
    vault: Vault,
    caller: Caller,
}

impl Providers {
    pub fn new(config: LlmConfig, vault: Vault) -> Result<Providers, LlmError> {
        let caller = Caller::new(config.connect_timeout, config.read_timeout, config.context_tokens)?;
        Ok(Providers { config: Arc::new(config), vault, caller })
    }

    /// The same, with another caller (tests inject retry timings).
    pub fn with_caller(mut self, caller: Caller) -> Providers {
        self.caller = caller;
        self
    }

    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    fn provider(&self, p: ProviderId) -> Result<&ProviderConfig, BackendError> {
        self.config.providers.get(&p).filter(|c| c.enabled).ok_or_else(|| {
            BackendError::BadRequest(format!("the provider {p} is not enabled on this server"))
        })
    }

    async fn sealed(
        &self,
        store: &Store,
        user: UserId,
        p: ProviderId,
    ) -> Result<Option<Sealed>, BackendError> {
        let mut db = store.tenant_read(user).await?;
        let row: Option<(Vec<u8>, Vec<u8>)> = sqlx::query_as(
            "SELECT nonce, ciphertext FROM provider_keys WHERE user_id = $1 AND provider = $2",
        )
        .bind(user.0)
        .bind(p.as_str())
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        Ok(row.map(|(nonce, ciphertext)| Sealed { nonce, ciphertext }))
    }

    /// The key a call to `p` uses for `user`: theirs, else the environment's.
    async fn key(
        &self,
        store: &Store,
        user: UserId,
        p: ProviderId,
    ) -> Result<Option<SecretString>, BackendError> {
        if let Some(sealed) = self.sealed(store, user, p).await? {
            return Ok(Some(self.vault.unseal(user, p, &sealed)?));
        }
        Ok(self.config.providers.get(&p).and_then(|c| c.env_key.clone()))
    }

    /// Every enabled provider, with where its key comes from.
    pub async fn views(&self, store: &Store, user: UserId) -> Result<Vec<ProviderView>, BackendError> {
        let mut db = store.tenant_read(user).await?;
        let saved: BTreeMap<String, String> =
            sqlx::query_as("SELECT provider, last4 FROM provider_keys WHERE user_id = $1")
                .bind(user.0)
                .fetch_all(&mut *db)
                .await?
                .into_iter()
                .collect();
        db.commit().await?;
        let mut out = Vec::new();
        for (&id, c) in self.config.providers.iter().filter(|(_, c)| c.enabled) {
            let key = match (saved.get(id.as_str()), &c.env_key) {
                (Some(last4), _) => KeyState::Saved { last4: last4.clone() },
                (None, Some(k)) => KeyState::Environment { last4: vault::last4(k) },
                (None, None) if !id.needs_key() => KeyState::NotNeeded,
                (None, None) => KeyState::Missing,
            };
            out.push(ProviderView {
                id,
                name: id.display_name().to_string(),
                base_url: c.base_url.clone(),
                simple_model: c.simple_model.clone(),
                complex_model: c.complex_model.clone(),
                usable: key != KeyState::Missing,
                key,
            });
        }
        Ok(out)
    }

    /// Checks `secret` with a cheap call to the provider, then seals and stores it.
    /// A rejected key is not saved.
    pub async fn save_key(
        &self,
        store: &Store,
        user: UserId,
        p: ProviderId,
        secret: SecretString,
    ) -> Result<ProviderView, BackendError> {
        let config = self.provider(p)?;
        let trimmed = secrecy::ExposeSecret::expose_secret(&secret).trim().to_string();
        if trimmed.is_empty() || trimmed.len() > 500 || trimmed.chars().any(char::is_control) {
            return Err(BackendError::BadRequest(
                "the key is empty, too long or contains control characters".into(),
            ));
        }
        let secret = SecretString::from(trimmed);
        let endpoint = Endpoint::new(config.base_url.clone(), Some(secret.clone()));
        llm::check_key(p.wire(), self.caller.client(), &endpoint)
            .await
            .map_err(|e| BackendError::Llm { provider: p, error: e })?;
        let sealed = self.vault.seal(user, p, &secret)?;
        let mut db = store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO provider_keys (user_id, provider, nonce, ciphertext, last4, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id, provider) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext,
             last4 = excluded.last4, updated_at = excluded.updated_at",
        )
        .bind(user.0)
        .bind(p.as_str())
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(vault::last4(&secret))
        .bind(crate::store::timestamp(chrono::Utc::now()))
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        tracing::info!(provider = %p, "provider key saved");
        self.views(store, user).await?.into_iter().find(|v| v.id == p).ok_or(BackendError::NotFound)
    }

    pub async fn delete_key(&self, store: &Store, user: UserId, p: ProviderId) -> Result<(), BackendError> {
        let mut db = store.tenant(user).await?;
        sqlx::query("DELETE FROM provider_keys WHERE user_id = $1 AND provider = $2")
            .bind(user.0)
            .bind(p.as_str())
            .execute(&mut *db)
            .await?;
        db.commit().await?;
        Ok(())
    }

    pub async fn choice(&self, store: &Store, user: UserId) -> Result<Option<Choice>, BackendError> {
        let mut db = store.tenant_read(user).await?;
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT provider, model FROM llm_choices WHERE user_id = $1")
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        let Some((provider, model)) = row else { return Ok(None) };
        let provider = provider.parse().map_err(BackendError::Corrupt)?;
        Ok(Some(Choice { provider, model }))
    }

    /// Saves the user's provider and model (`None`: let the router pick).
    pub async fn choose(&self, store: &Store, user: UserId, choice: &Choice) -> Result<(), BackendError> {
        self.provider(choice.provider)?;
        if let Some(m) = &choice.model {
            let ok = !m.is_empty()
                && m.len() <= 100
                && m.chars().all(|c| c.is_ascii_alphanumeric() || "._:/-@".contains(c));
            if !ok {
                return Err(BackendError::BadRequest(format!(
                    "{m:?} is not a model name (letters, digits and . _ : / - @, at most 100)"
                )));
            }
        }
        let mut db = store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO llm_choices (user_id, provider, model) VALUES ($1, $2, $3)
             ON CONFLICT (user_id) DO UPDATE SET provider = excluded.provider, model = excluded.model",
        )
        .bind(user.0)
        .bind(choice.provider.as_str())
        .bind(choice.model.as_deref())
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        Ok(())
    }

    /// The models for `user`'s next question, or `None` when no provider is usable
    /// (then Sou answers with its parser alone, and asks instead of guessing).
    /// A chosen provider that is not usable is reported, never swapped for another.
    pub async fn resolve(&self, store: &Store, user: UserId) -> Result<Option<Resolved>, BackendError> {
        let choice = self.choice(store, user).await?;
        let candidates: Vec<ProviderId> = match &choice {
            Some(c) => vec![c.provider],
            None => self.config.default_provider.into_iter().chain(ProviderId::ALL).collect(),
        };
        for p in candidates {
            let Some(config) = self.config.providers.get(&p).filter(|c| c.enabled) else { continue };
            let key = self.key(store, user, p).await?;
            if key.is_none() && p.needs_key() {
                continue;
            }
            let endpoint = Endpoint::new(config.base_url.clone(), key);
            let model =
                |name: &str| Model { provider: p, name: name.to_string(), endpoint: endpoint.clone() };
            let fixed = choice.as_ref().and_then(|c| c.model.clone());
            return Ok(Some(match fixed {
                Some(m) => Resolved { provider: p, simple: model(&m), complex: model(&m), fixed: true },
                None => Resolved {
                    provider: p,
                    simple: model(&config.simple_model),
                    complex: model(&config.complex_model),
                    fixed: config.simple_model == config.complex_model,
                },
            }));
        }
        Ok(None)
    }
}
