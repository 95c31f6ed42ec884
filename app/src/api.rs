//! Server functions: who is asking, call `backend`, map the error (once, by `?`: see
//! `AppError`'s `From` in `error.rs`). Nothing else.

use agent::protocol::{ConversationSummary, ConversationView};
use agent::{Date, Locale, Vocabulary};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// Who is signed in, as the header shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountView {
    pub name: String,
    /// For a demo account: whole hours until it and its data are deleted.
    pub demo_hours_left: Option<i64>,
}

/// Everything the chat page needs, in one request, serialised into the page so the
/// browser's parser has the user's vocabulary without a round trip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageData {
    pub account: AccountView,
    pub vocabulary: Vocabulary,
    pub conversation: Option<ConversationView>,
    /// Interface language, from the browser's Accept-Language.
    pub locale: Locale,
    /// Today in the user's time zone: the browser's parser resolves "last month" with it.
    pub today: Date,
}

#[server(endpoint = "page")]
pub async fn load_page(conversation_id: Option<String>) -> Result<PageData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let vocabulary = sou.vocabulary(user).await?;
        let conversation = match conversation_id {
            Some(id) => Some(sou.conversations().get(user, &id, ssr::accept_language()).await?),
            None => None,
        };
        Ok(PageData {
            account: ssr::account_view()?,
            vocabulary,
            conversation,
            locale: ssr::accept_language(),
            today: sou.today(),
        })
    })
    .await
}

/// What the sign-in pages offer. Anyone may call this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthPage {
    pub locale: Locale,
    pub signup: bool,
    pub demo: bool,
    /// How long a demo account lives.
    pub demo_hours: u64,
}

#[server(endpoint = "auth_page")]
pub async fn load_auth_page() -> Result<AuthPage, AppError> {
    let Some(sou) = use_context::<backend::Sou>() else {
        return Err(AppError::Internal);
    };
    let config = sou.auth().config();
    Ok(AuthPage {
        locale: ssr::accept_language(),
        signup: config.allow_signup,
        demo: config.allow_demo,
        demo_hours: config.demo_ttl.as_secs().div_ceil(3600),
    })
}

/// The user's conversations, most recent first, for the history sidebar.
#[server(endpoint = "history")]
pub async fn load_history() -> Result<Vec<ConversationSummary>, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        Ok(sou.conversations().list(user, HISTORY_LENGTH).await?)
    })
    .await
}

/// An answer as the chat page draws it, with the history beside it and the page's
/// name after it: what the composer puts in place of an answer it streamed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerView {
    /// The answer's HTML, drawn by the page's own views.
    pub answer: String,
    /// The history's HTML (inside its `<nav>`), the conversation marked.
    pub history: String,
    /// What the answer computed, when it ran a plan: the page's new name.
    pub heading: Option<String>,
}

/// `target` if it leads to a page of this site, as the path (and query) a browser
/// would go to, else the start page: where a form may send the browser back to. It is
/// read as a browser reads it — a URL relative to this site, with tabs and newlines
/// dropped and `\\` taken as `/` — and kept only if it stays on this site's origin
/// and its path does not itself start with `//`; what comes back is percent-encoded
/// ASCII, so it is always a valid `Location`.
#[cfg(feature = "ssr")]
pub fn same_site_path(target: &str) -> String {
    const ORIGIN: &str = "http://sou.invalid/";
    let Ok(base) = url::Url::parse(ORIGIN) else { return "/".into() };
    let Some(url) = base.join(target).ok().filter(|u| u.origin() == base.origin()) else {
        return "/".into();
    };
    let path = url.path();
    if !path.starts_with('/') || path.starts_with("//") {
        return "/".into();
    }
    match url.query() {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    }
}

/// How many conversations the sidebar lists.
pub const HISTORY_LENGTH: u32 = 100;

#[server(endpoint = "rename_conversation")]
pub async fn rename_conversation(id: String, title: String) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        Ok(sou.conversations().rename(user, &id, &title).await?)
    })
    .await
}

/// Deletes a conversation, then goes to `back` (the page it was deleted from, or the
/// start page when it was the one on screen). Only same-site paths are followed.
#[server(endpoint = "delete_conversation")]
pub async fn delete_conversation(id: String, back: String) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        sou.conversations().delete(user, &id).await?;
        leptos_axum::redirect(&same_site_path(&back));
        Ok(())
    })
    .await
}

/// One provider as the settings page shows it. Never a key: its last four characters
/// and where it comes from (`saved`, `environment`, `not_needed`, `missing`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderInfo {
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub simple_model: String,
    pub complex_model: String,
    pub key_source: String,
    pub last4: Option<String>,
    pub usable: bool,
}

/// A personal API token as listed: never the token, only its first characters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenView {
    pub id: i64,
    pub label: String,
    pub prefix: String,
    /// Dates (`YYYY-MM-DD`, UTC).
    pub created: String,
    pub last_used: Option<String>,
}

/// A token just created: the only time it is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewToken {
    pub id: i64,
    pub label: String,
    pub token: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsData {
    pub account: AccountView,
    pub tokens: Vec<TokenView>,
    /// After creating a token without JavaScript, the token, this once.
    pub revealed: Option<NewToken>,
    pub providers: Vec<ProviderInfo>,
    pub choice_provider: Option<String>,
    pub choice_model: Option<String>,
    pub locale: Locale,
}

/// `reveal`: the id of a token created by a form post without JavaScript, to show once.
#[server(endpoint = "settings")]
pub async fn load_settings(reveal: Option<i64>) -> Result<SettingsData, AppError> {
    ssr::answer(async move {
        use backend::KeyState;
        use secrecy::ExposeSecret;
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let account = ssr::account_view()?;
        let tokens: Vec<TokenView> = sou
            .auth()
            .tokens(user)
            .await?
            .into_iter()
            .map(|t| TokenView {
                id: t.id,
                label: t.label,
                prefix: t.prefix,
                created: t.created_at.chars().take(10).collect(),
                last_used: t.last_used_at.map(|d| d.chars().take(10).collect()),
            })
            .collect();
        let revealed = match (reveal, ssr::session_cookie()) {
            (Some(id), Some(session)) => {
                sou.auth().take_reveal(user, id, &session).await?.and_then(|token| {
                    let label = tokens.iter().find(|t| t.id == id)?.label.clone();
                    Some(NewToken { id, label, token: token.expose_secret().to_string() })
                })
            }
            _ => None,
        };
        let Some(settings) = sou.model_settings() else {
            return Ok(SettingsData {
                account,
                tokens,
                revealed,
                providers: vec![],
                choice_provider: None,
                choice_model: None,
                locale,
            });
        };
        let views = settings.views(user).await?;
        let choice = settings.choice(user).await?;
        let providers = views
            .into_iter()
            .map(|v| {
                let (source, last4) = match v.key {
                    KeyState::Saved { last4 } => ("saved", Some(last4)),
                    KeyState::Environment { last4 } => ("environment", Some(last4)),
                    KeyState::NotNeeded => ("not_needed", None),
                    KeyState::Missing => ("missing", None),
                };
                ProviderInfo {
                    id: v.id.as_str().to_string(),
                    name: v.name,
                    base_url: v.base_url,
                    simple_model: v.simple_model,
                    complex_model: v.complex_model,
                    key_source: source.to_string(),
                    last4: last4.filter(|l| !l.is_empty()),
                    usable: v.usable,
                }
            })
            .collect();
        Ok(SettingsData {
            account,
            tokens,
            revealed,
            providers,
            choice_provider: choice.as_ref().map(|c| c.provider.as_str().to_string()),
            choice_model: choice.and_then(|c| c.model),
            locale,
        })
    })
    .await
}

/// Checks `key` with the provider (a cheap authenticated call), then stores it sealed.
#[server(endpoint = "save_key")]
pub async fn save_key(provider: String, key: String) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let settings = ssr::model_settings(&sou)?;
        let id = ssr::provider_id(&provider)?;
        settings.save_key(user, id, secrecy::SecretString::from(key)).await?;
        Ok(())
    })
    .await
}

#[server(endpoint = "delete_key")]
pub async fn delete_key(provider: String) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let settings = ssr::model_settings(&sou)?;
        settings.delete_key(user, ssr::provider_id(&provider)?).await?;
        Ok(())
    })
    .await
}

/// The provider and model for free-form questions; an empty model lets the router pick.
#[server(endpoint = "choose_model")]
pub async fn choose_model(provider: String, model: String) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let settings = ssr::model_settings(&sou)?;
        let model = Some(model.trim().to_string()).filter(|m| !m.is_empty());
        let choice = backend::Choice { provider: ssr::provider_id(&provider)?, model };
        settings.choose(user, &choice).await?;
        Ok(())
    })
    .await
}

/// Creates a personal API token for `Authorization: Bearer`. With JavaScript the
/// token comes back in the answer; a plain form post is sent back to Settings, which
/// shows it once.
#[server(endpoint = "create_token")]
pub async fn create_token(label: String) -> Result<Option<NewToken>, AppError> {
    ssr::answer(async move {
        use secrecy::ExposeSecret;
        let (sou, user) = ssr::session()?;
        let (info, token) = sou.auth().create_token(user, &label).await?;
        if let (true, Some(session)) = (ssr::is_form_post(), ssr::session_cookie()) {
            sou.auth().hold_for_reveal(user, info.id, &token, &session).await?;
            leptos_axum::redirect(&format!("/settings?{}={}#tokens", crate::post::key::TOKEN, info.id));
            return Ok(None);
        }
        Ok(Some(NewToken { id: info.id, label: info.label, token: token.expose_secret().to_string() }))
    })
    .await
}

/// Revokes one of the user's tokens; someone else's id is "not found".
#[server(endpoint = "revoke_token")]
pub async fn revoke_token(id: i64) -> Result<(), AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        if sou.auth().revoke_token(user, id).await? {
            Ok(())
        } else {
            Err(AppError::NotFound)
        }
    })
    .await
}

/// The import page: the upload form, why the last upload was refused, past imports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportsData {
    pub account: AccountView,
    pub locale: Locale,
    pub imports: Vec<agent::imports::ImportSummary>,
    pub refused: Option<String>,
    /// The largest file accepted, in MB.
    pub max_mb: usize,
}

#[server(endpoint = "imports")]
pub async fn load_imports(refused: Option<String>) -> Result<ImportsData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let imports = sou.imports().list(user).await?;
        let refused = match refused {
            Some(id) => sou.imports().refusal(user, &id, locale).await?,
            None => None,
        };
        Ok(ImportsData {
            account: ssr::account_view()?,
            locale,
            imports,
            refused,
            max_mb: backend::MAX_IMPORT_BYTES / 1024 / 1024,
        })
    })
    .await
}

pub use agent::imports::LayoutEdit;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportData {
    pub account: AccountView,
    pub locale: Locale,
    pub view: agent::imports::ImportView,
}

/// An upload's page: its preview (with `edit` applied to the detected layout, into
/// `into`, an account key; for a file naming several accounts, `parts`: an account key
/// per account, comma-separated, empty for a new one), its progress, or its report.
/// `edit` defaults to no change: the browser's URL encoding sends nothing at all for an
/// empty one.
#[server(endpoint = "import")]
pub async fn load_import(
    id: String,
    #[server(default)] edit: LayoutEdit,
    into: Option<String>,
    #[server(default)] parts: String,
) -> Result<ImportData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let imports = sou.imports();
        let into = into.filter(|a| !a.is_empty());
        let layout = backend::Layout::Edited(&edit);
        let parts: Vec<String> = parts.split(',').map(str::to_string).collect();
        let chosen = backend::Chosen { account: into.as_deref(), parts: &parts };
        let view = imports.view(user, &id, layout, chosen, locale).await?;
        Ok(ImportData { account: ssr::account_view()?, locale, view })
    })
    .await
}

/// Where an import stands, for the progress bar.
#[server(endpoint = "import_state")]
pub async fn import_state(id: String) -> Result<agent::imports::ImportState, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        Ok(sou.imports().state(user, &id, locale).await?)
    })
    .await
}

/// The rules page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesData {
    pub account: AccountView,
    pub locale: Locale,
    pub categories: Vec<agent::imports::CategoryOption>,
    pub rules: Vec<agent::imports::RuleView>,
    /// A rule just saved and what it would change.
    pub proposal: Option<agent::imports::RuleProposal>,
    /// Why the last rule was not saved.
    pub error: Option<String>,
}

#[server(endpoint = "rules")]
pub async fn load_rules(rule: Option<i64>, error: Option<String>) -> Result<RulesData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let proposal = match rule {
            Some(id) => Some(sou.rules().proposal(user, id, locale).await?),
            None => None,
        };
        Ok(RulesData {
            account: ssr::account_view()?,
            locale,
            categories: sou.rules().categories(user, locale).await?,
            rules: sou.rules().list(user, locale).await?,
            proposal,
            error: error.map(|code| backend::RuleError::message(&code, locale).to_string()),
        })
    })
    .await
}

/// The shared reports page: the user's shares, and what a new monthly report may pin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportsData {
    pub account: AccountView,
    pub locale: Locale,
    pub reports: Vec<agent::reports::ReportSummary>,
    /// Recent answers (id, question) a monthly report may pin.
    pub answers: Vec<(String, String)>,
    /// Last month, `2026-10`: the monthly form's default.
    pub last_month: String,
    /// Why the last form was refused, in words.
    pub error: Option<String>,
}

#[server(endpoint = "reports")]
pub async fn load_reports(error: Option<String>) -> Result<ReportsData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let origin = ssr::origin();
        let reports = sou
            .reports()
            .list(user)
            .await?
            .into_iter()
            .map(|mut r| {
                r.url = format!("{origin}{}", r.url);
                r
            })
            .collect();
        let answers = sou
            .reports()
            .pinnable_answers(user, 20)
            .await?
            .into_iter()
            .map(|a| (a.message_id, a.question))
            .collect();
        let last = sou.today().first_of_month().add_months(-1);
        let error = error.map(|code| match backend::Refusal::from_code(&code) {
            Some(r) => r.message(locale).to_string(),
            None if code == "not_found" => locale
                .pick("Ce partage ou cette réponse n'existe plus.", "This share or answer no longer exists.")
                .into(),
            None => locale
                .pick("Le partage n'a pas pu être fait. Réessayez.", "Sharing failed. Try again.")
                .into(),
        });
        Ok(ReportsData {
            account: ssr::account_view()?,
            locale,
            reports,
            answers,
            last_month: format!("{:04}-{:02}", last.year(), last.month()),
            error,
        })
    })
    .await
}

/// Settings → Widgets: the user's sites, the datasets a site may offer, and this
/// server's address for the snippet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WidgetsData {
    pub account: AccountView,
    pub locale: Locale,
    pub sites: Vec<agent::widgets::WidgetSite>,
    pub datasets: Vec<String>,
    /// `https://host`, as the browser reached Sou.
    pub origin: String,
}

#[server(endpoint = "widgets")]
pub async fn load_widgets() -> Result<WidgetsData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let datasets = sou.datasets().list(user).await?.into_iter().map(|d| d.name).collect();
        Ok(WidgetsData {
            account: ssr::account_view()?,
            locale: ssr::accept_language(),
            sites: sou.widgets().list(user).await?,
            datasets,
            origin: ssr::origin(),
        })
    })
    .await
}

/// The datasets page: the user's datasets, how the model sees them, and the result of
/// the SQL typed in the page, if any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetsData {
    pub account: AccountView,
    pub locale: Locale,
    pub datasets: Vec<agent::datasets::DatasetInfo>,
    /// `dataset_info`: what the model is told.
    pub described: String,
    pub refused: Option<String>,
    pub sql: String,
    pub result: Option<agent::datasets::QueryResult>,
    pub query_error: Option<String>,
    /// The query got no turn (too many at once): the page answers 429.
    pub query_busy: bool,
    pub max_mb: usize,
    pub row_cap: usize,
    /// A user's queries running at once at most.
    pub per_user: usize,
}

#[server(endpoint = "datasets")]
pub async fn load_datasets(refused: Option<String>, sql: Option<String>) -> Result<DatasetsData, AppError> {
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let datasets = sou.datasets().list(user).await?;
        let sql = sql.unwrap_or_default();
        let (result, query_error, query_busy) = if sql.trim().is_empty() {
            (None, None, false)
        } else {
            match sou.datasets().query(user, &sql).await {
                Ok(r) => (Some(r), None, false),
                // A query's error is the user's to read, in the page.
                Err(e) if e.is_users() => {
                    let busy = matches!(e, backend::DatasetError::Busy(_));
                    (None, Some(e.message(locale)), busy)
                }
                Err(e) => return Err(e.into()),
            }
        };
        Ok(DatasetsData {
            account: ssr::account_view()?,
            locale,
            described: sou.datasets().describe(&datasets),
            datasets,
            refused: match refused {
                Some(id) => sou.imports().refusal(user, &id, locale).await?,
                None => None,
            },
            sql,
            result,
            query_error,
            query_busy,
            max_mb: backend::MAX_DATASET_BYTES / 1024 / 1024,
            row_cap: backend::DATASET_ROW_CAP,
            per_user: sou.datasets().per_user(),
        })
    })
    .await
}

#[cfg(feature = "ssr")]
pub mod ssr {
    use backend::Account;
    use backend::{Sou, UserId};
    use leptos::prelude::*;

    pub use crate::error::accept_language;
    use crate::error::AppError;

    /// A server function's result, with its HTTP status set from the error (a rejected
    /// key is a 400, not a 500). A plain form post keeps its redirect back to the page:
    /// the error travels in the URL and the page shows it.
    pub async fn answer<T>(
        run: impl std::future::Future<Output = Result<T, AppError>>,
    ) -> Result<T, AppError> {
        let result = run.await;
        if let Err(e) = &result {
            if let (false, Some(options)) = (is_form_post(), use_context::<leptos_axum::ResponseOptions>()) {
                options.set_status(e.status());
            }
        }
        result
    }

    /// Whether this server function was called by a plain form post (no JavaScript):
    /// its answer is a redirect back to a page, not data.
    pub fn is_form_post() -> bool {
        use_context::<http::request::Parts>().is_some_and(|p| {
            p.headers
                .get(http::header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("text/html"))
        })
    }

    /// The backend and the signed-in user this request is for. The server's gate put
    /// the account in the request; without one the answer is "sign in".
    pub fn session() -> Result<(Sou, UserId), AppError> {
        let Some(sou) = use_context::<Sou>() else {
            tracing::error!("server function called without the backend in context");
            return Err(AppError::Internal);
        };
        Ok((sou, account()?.user))
    }

    /// The session cookie of this request, when signed in by one.
    pub fn session_cookie() -> Option<String> {
        let parts = use_context::<http::request::Parts>()?;
        let values = parts.headers.get_all(http::header::COOKIE).iter().filter_map(|v| v.to_str().ok());
        backend::session_in_cookies(values).map(str::to_string)
    }

    /// The signed-in account of this request.
    pub fn account() -> Result<Account, AppError> {
        use_context::<http::request::Parts>()
            .and_then(|p| p.extensions.get::<Account>().cloned())
            .ok_or(AppError::Unauthorized)
    }

    pub fn account_view() -> Result<super::AccountView, AppError> {
        let account = account()?;
        Ok(super::AccountView { demo_hours_left: account.demo_hours_left(), name: account.name })
    }

    pub fn model_settings(sou: &Sou) -> Result<backend::ModelSettings<'_>, AppError> {
        sou.model_settings()
            .ok_or_else(|| AppError::BadRequest("language models are not enabled on this server".into()))
    }

    pub fn provider_id(s: &str) -> Result<backend::llm::catalog::ProviderId, AppError> {
        s.parse().map_err(AppError::BadRequest)
    }

    /// `https://host` as this request reached Sou, for the links it shows.
    pub fn origin() -> String {
        use_context::<http::request::Parts>()
            .map(|p| {
                let text =
                    |name: &str| p.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
                let https = text("x-forwarded-proto").eq_ignore_ascii_case("https")
                    || text("forwarded").to_ascii_lowercase().contains("proto=https");
                let host = text("host");
                let host = if host.is_empty() { "localhost".to_string() } else { host };
                format!("{}://{host}", if https { "https" } else { "http" })
            })
            .unwrap_or_default()
    }
}
