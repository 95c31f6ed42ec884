//! The plain form posts (the sign-in forms aside, in `auth.rs`): the chat without
//! JavaScript, bank imports, datasets and rules. Each is answered with a redirect (303)
//! to the page that shows what happened, the same with and without JavaScript; an
//! error the page cannot show is answered by [`ApiError::from_user`]. The pages
//! themselves are Leptos routes (`/c/{id}`, `/import`, `/import/{id}`, `/datasets`,
//! `/rules`).

use axum::extract::rejection::FormRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use backend::imports::{ImportError, Target, MAX_FILE_BYTES};
use backend::{ChatRequest, ErrorKind, UserError};
use futures::StreamExt;
use serde::Deserialize;

use crate::auth::SignedIn;
use crate::{ApiError, AppState};

/// The largest request body of an upload: the file and the form around it.
pub const UPLOAD_BODY_LIMIT: usize = MAX_FILE_BYTES + 64 * 1024;
/// The same for a dataset.
pub const DATASET_BODY_LIMIT: usize = backend::datasets::MAX_FILE_BYTES + 64 * 1024;

/// The language a request's `Accept-Language` asks for, if Sou speaks it.
pub(crate) fn accept_language(headers: &HeaderMap) -> Option<agent::Locale> {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(agent::Locale::from_accept_language)
}

/// A page's language: the request's, else French.
pub(crate) fn locale(headers: &HeaderMap) -> agent::Locale {
    accept_language(headers).unwrap_or(agent::Locale::Fr)
}

fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// `POST /import` (multipart, field `file`): keeps the file and goes to its preview;
/// a file Sou cannot read goes back to `/import`, which says why.
pub async fn upload(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let imports = state.sou.imports();
    let file = read_file(multipart).await;
    let result = match file {
        Ok((name, bytes)) => imports.upload(account.user, &name, bytes).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(id) => see_other(&format!("/import/{id}")),
        Err(e) => {
            if e.kind() == ErrorKind::Internal {
                tracing::error!(error = %e, "an upload failed");
            }
            match imports.refused(account.user, &e).await {
                Ok(refused) => see_other(&format!("/import?refused={refused}")),
                Err(e) => {
                    tracing::error!(error = %e, "keeping why an upload was refused failed");
                    see_other("/import")
                }
            }
        }
    }
}

/// `POST /datasets` (multipart, field `file`): a CSV file becomes a dataset; back to
/// `/datasets`, which shows it or says why not.
pub async fn upload_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let result = match read_file(multipart).await {
        Ok((name, bytes)) => backend::datasets::create(state.sou.store(), account.user, &name, &bytes).await,
        Err(ImportError::TooLarge) => Err(backend::datasets::DatasetError::TooLarge),
        Err(_) => Err(backend::datasets::DatasetError::Empty),
    };
    match result {
        Ok(info) => {
            let q = form_urlencoded::Serializer::new(String::new()).append_pair("added", &info.name).finish();
            see_other(&format!("/datasets?{q}"))
        }
        Err(e) => {
            if e.kind() == ErrorKind::Internal {
                tracing::error!(error = %e, "a dataset upload failed");
            }
            let (fr, en) = (e.message(agent::Locale::Fr), e.message(agent::Locale::En));
            match state.sou.imports().refused_with(account.user, fr, en).await {
                Ok(refused) => see_other(&format!("/datasets?refused={refused}")),
                Err(e) => {
                    tracing::error!(error = %e, "keeping why a dataset upload was refused failed");
                    see_other("/datasets")
                }
            }
        }
    }
}

/// `POST /datasets/{name}/delete`
pub async fn delete_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(name): Path<String>,
) -> Response {
    match backend::datasets::delete(state.sou.store(), account.user, &name).await {
        Ok(()) => see_other("/datasets"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// The `file` field of the form: its name and bytes.
async fn read_file(mut multipart: Multipart) -> Result<(String, Vec<u8>), ImportError> {
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => return Err(ImportError::Empty),
            // A body over the limit ends here too.
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(ImportError::TooLarge),
            Err(_) => return Err(ImportError::Empty),
        };
        if field.name() != Some("file") {
            continue;
        }
        let name = field.file_name().unwrap_or_default().to_string();
        return match field.bytes().await {
            Ok(bytes) => Ok((name, bytes.to_vec())),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ImportError::TooLarge),
            Err(_) => Err(ImportError::Empty),
        };
    }
}

#[derive(Deserialize)]
pub struct RunForm {
    /// The CSV layout the preview showed, as JSON; empty: the detected one.
    #[serde(default)]
    mapping: String,
    /// An account key; empty: a new account named `new_account`.
    #[serde(default)]
    account: String,
    #[serde(default)]
    new_account: String,
    /// A new account's currency, asked when the file states none; empty: the user's.
    #[serde(default)]
    currency: String,
    /// A file naming several accounts: `part1`, `part2`… (an account key, empty for a
    /// new account named as the file names that account).
    #[serde(flatten)]
    parts: std::collections::HashMap<String, String>,
}

/// The targets of a file naming several accounts, from `part<n>` (`None` when the form
/// has no `part1`).
fn split(form: &RunForm) -> Option<Target> {
    let currency = form.currency.trim();
    let targets: Vec<Target> = (1..)
        .map_while(|n| {
            let key = form.parts.get(&format!("part{n}"))?.trim().to_string();
            Some(match (key.is_empty(), currency.is_empty()) {
                (false, _) => Target::Existing(key),
                (true, true) => Target::New(String::new()),
                (true, false) => Target::NewIn(String::new(), currency.to_string()),
            })
        })
        .collect();
    (!targets.is_empty()).then_some(Target::Split(targets))
}

/// `POST /import/{id}/run`: starts the import and goes to its page (progress, report,
/// or why it could not start).
pub async fn run(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<RunForm>,
) -> Response {
    let mapping = match form.mapping.trim() {
        "" => None,
        json => match serde_json::from_str(json) {
            Ok(m) => Some(m),
            Err(_) => {
                let message = match locale(&headers) {
                    agent::Locale::Fr => "La disposition des colonnes envoyée n'est pas lisible.",
                    agent::Locale::En => "The column layout sent could not be read.",
                };
                return ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message).into_response();
            }
        },
    };
    let target = match split(&form) {
        Some(split) => split,
        None => match (form.account.trim(), form.currency.trim()) {
            ("", "") => Target::New(form.new_account.clone()),
            ("", currency) => Target::NewIn(form.new_account.clone(), currency.to_string()),
            (key, _) => Target::Existing(key.to_string()),
        },
    };
    match state.sou.imports().start(account.user, &id, mapping, target).await {
        // The upload's page says why an import did not start.
        Ok(()) => see_other(&format!("/import/{id}")),
        Err(e) if !matches!(e.kind(), ErrorKind::NotFound | ErrorKind::Internal) => {
            see_other(&format!("/import/{id}"))
        }
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// `POST /import/{id}/discard`: forgets an upload that was not imported.
pub async fn discard(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Response {
    match state.sou.imports().discard(account.user, &id).await {
        Ok(()) => see_other("/import"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

#[derive(Deserialize)]
pub struct RuleForm {
    pattern: String,
    category: String,
}

/// `POST /rules`: saves a rule and shows what it would change in the past.
pub async fn create_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Form(form): Form<RuleForm>,
) -> Response {
    let locale = locale(&headers);
    match backend::rules::create(state.sou.store(), account.user, &form.pattern, &form.category, locale).await
    {
        Ok(p) => see_other(&format!("/rules?rule={}", p.rule.id)),
        Err(e) if e.kind() != ErrorKind::Invalid => ApiError::from_user(e).into_response(),
        Err(e) => {
            let q = form_urlencoded::Serializer::new(String::new())
                .append_pair("pattern", &form.pattern)
                .append_pair("category", &form.category)
                .append_pair("error", e.code())
                .finish();
            see_other(&format!("/rules?{q}"))
        }
    }
}

/// `POST /rules/{id}/apply`: the approval — past transactions get the rule's category.
/// The page showed which past transactions the rule would change: applying it is the
/// approval of that write, recorded as a change (Settings → History of changes undoes it).
pub async fn apply_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    let locale = locale(&headers);
    let rule = match backend::rules::proposal(state.sou.store(), account.user, id, locale).await {
        Ok(p) => p.rule,
        Err(e) => return ApiError::from_user(e).into_response(),
    };
    let call = agent::ToolCall::CreateRule(agent::CreateRuleArgs {
        pattern: rule.pattern,
        category: rule.category_key,
        apply_to_past: true,
    });
    match state.sou.write_now(account.user, &call, locale).await {
        Ok((_, n)) => see_other(&format!("/rules?applied={n}")),
        Err(e) if e.code() == "nothing_to_change" => see_other("/rules?applied=0"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// `POST /rules/{id}/delete`
pub async fn delete_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<i64>,
) -> Response {
    match backend::rules::delete(state.sou.store(), account.user, id).await {
        Ok(()) => see_other("/rules"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

#[derive(Deserialize)]
pub struct ChatForm {
    message: String,
    #[serde(default)]
    conversation_id: Option<String>,
    #[serde(default)]
    plan: Option<String>,
}

/// The chat without JavaScript: a plain form post, answered server-side, then a
/// redirect to the conversation page (post/redirect/get, so reload does not resend).
pub async fn chat(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    form: Result<Form<ChatForm>, FormRejection>,
) -> Response {
    // The page's language, as the hydrated chat sends it: answers and errors in it.
    let locale = locale(&headers);
    let Ok(Form(form)) = form else {
        let message = locale.pick("Le formulaire n'a pas pu être lu.", "The form could not be read.");
        return form_error(locale, StatusCode::BAD_REQUEST, message, "", None);
    };
    let conversation_id = form.conversation_id.filter(|c| !c.is_empty());
    let plan = match form.plan.as_deref().filter(|p| !p.is_empty()).map(serde_json::from_str) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(_)) => {
            return form_error(
                locale,
                StatusCode::BAD_REQUEST,
                locale.pick("Le plan choisi n'est pas du JSON valide.", "The chosen plan is not valid JSON."),
                &form.message,
                conversation_id,
            )
        }
    };
    let req = ChatRequest {
        message: form.message.clone(),
        conversation_id: conversation_id.clone(),
        plan,
        locale: Some(locale.as_str().to_string()),
    };
    match state.sou.chat(account.user, req).await {
        Ok(stream) => {
            let id = stream.conversation_id.clone();
            // Run the answer to its end (it is stored) before showing the page.
            stream.events.for_each(|_| async {}).await;
            Redirect::to(&format!("/c/{id}#latest")).into_response()
        }
        Err(e) => {
            let api = ApiError::from_user_in(e, locale);
            let message: &str = match api.status {
                StatusCode::NOT_FOUND => {
                    locale.pick("Cette conversation n'existe pas.", "This conversation does not exist.")
                }
                StatusCode::INTERNAL_SERVER_ERROR => locale.pick(
                    "Un problème est survenu sur le serveur ; rien n'est perdu, réessayez.",
                    "Something went wrong on the server; nothing was lost, try again.",
                ),
                _ => api.message.as_str(),
            };
            // A conversation that is not the user's is not offered again: resent, the
            // message starts a new one.
            let keep = conversation_id.filter(|_| api.status != StatusCode::NOT_FOUND);
            form_error(locale, api.status, message, &form.message, keep)
        }
    }
}

/// A small page that says what went wrong and gives the message back to resend.
fn form_error(
    locale: agent::Locale,
    status: StatusCode,
    message: &str,
    draft: &str,
    conversation_id: Option<String>,
) -> Response {
    let esc =
        |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let conversation = conversation_id.map(|c| esc(&c)).unwrap_or_default();
    let body = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title} · Sou</title>\
         <link rel=\"stylesheet\" href=\"{css}\"></head><body><main class=\"notfound\">\
         <h1>{title}</h1><p class=\"error\" role=\"alert\">{}</p>\
         <form method=\"post\" action=\"/chat\" class=\"composer-inline\">\
         <input type=\"hidden\" name=\"conversation_id\" value=\"{conversation}\">\
         <label for=\"message\">{label}</label>\
         <textarea id=\"message\" name=\"message\" required maxlength=\"{max}\">{}</textarea>\
         <button type=\"submit\">{send}</button></form>\
         <p><a href=\"/\">{back}</a></p></main></body></html>",
        esc(message),
        esc(draft),
        lang = locale.as_str(),
        title = locale.pick("Message non envoyé", "Message not sent"),
        label = locale.pick("Votre message", "Your message"),
        send = locale.pick("Envoyer", "Send"),
        back = locale.pick("Retour au chat", "Back to the chat"),
        max = agent::protocol::MAX_CHAT_MESSAGE_CHARS,
        css = app::site::files().css,
    );
    (status, Html(body)).into_response()
}
