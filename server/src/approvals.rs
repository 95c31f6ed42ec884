//! Writes over HTTP: the API (`GET|POST /api/v1/approvals/{id}`, `GET /api/v1/changes`,
//! `POST /api/v1/changes/{id}/undo`) and the forms the chat's approval cards and
//! Settings → Changes post without JavaScript (`POST /approvals/{id}`,
//! `POST /changes/{id}/undo`). Another user's approval or change is a 404.

use agent::{Currency, Date, Money};
use app::post::key;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json};
use backend::UserError as _;
use backend::{Decision, WriteError};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::approvals as at;
    axum::Router::new()
        .route("/api/v1/approvals/{id}", get(show).post(decide))
        .route("/api/v1/changes", get(list))
        .route("/api/v1/changes/{id}/undo", post(undo))
        .route(at::DECIDE.route(), post(decide_form))
        .route(at::UNDO.route(), post(undo_form))
        .route(at::BUDGET.route(), post(budget_form))
}

/// `POST /api/v1/approvals/{id}`.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Approve {
        #[serde(default)]
        digest: Option<String>,
    },
    Reject,
    Edit {
        args: Value,
    },
}

/// `GET /api/v1/approvals/{id}`: an approval as it is now.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(Json(state.sou.approvals().approval(account.user, &id).await?).into_response())
}

/// `POST /api/v1/approvals/{id}`: approve (runs it, once), reject, or edit (201, the new
/// approval that replaces it).
pub async fn decide(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    body: Result<Json<Action>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(action) = body?;
    let (decision, created) = match action {
        Action::Approve { digest } => (Decision::Approve { digest }, false),
        Action::Reject => (Decision::Reject, false),
        Action::Edit { args } => (Decision::Edit { args }, true),
    };
    let approval =
        state.sou.approvals().decide(account.user, &id, decision).await.map_err(ApiError::from_user)?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(approval)).into_response())
}

/// `GET /api/v1/changes`: the caller's executed writes, newest first.
pub async fn list(State(state): State<AppState>, SignedIn(account): SignedIn) -> Result<Response, ApiError> {
    Ok(Json(json!({ "changes": state.sou.approvals().changes(account.user).await? })).into_response())
}

/// `POST /api/v1/changes/{id}/undo`: the rows back as they were (409 if they changed since).
pub async fn undo(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let change = state.sou.approvals().undo(account.user, &id).await.map_err(ApiError::from_user)?;
    Ok(Json(change).into_response())
}

/// Where a form goes back to: the approval's conversation, at its card, or `fallback`.
pub(crate) fn back(to: &str, error: Option<&str>, anchor: &str) -> Response {
    let (path, query) = match to.split_once('?') {
        Some((p, q)) => (p.to_string(), Some(q.to_string())),
        None => (to.to_string(), None),
    };
    let mut params: Vec<(String, String)> = query
        .map(|q| {
            form_urlencoded::parse(q.as_bytes()).into_owned().filter(|(k, _)| k != key::WRITE_ERROR).collect()
        })
        .unwrap_or_default();
    if let Some(code) = error {
        params.push((key::WRITE_ERROR.into(), code.into()));
    }
    let query: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
    let path = app::api::same_site_path(&path);
    let target =
        if query.is_empty() { format!("{path}#{anchor}") } else { format!("{path}?{query}#{anchor}") };
    Redirect::to(&target).into_response()
}

pub(crate) fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// An amount typed in a form ("300", "249,90") in `currency`'s minor units.
fn typed_amount(text: &str, currency: Currency) -> Option<Money> {
    let decimal = if text.contains(',') { ',' } else { '.' };
    let minor = backend::import::parse_amount(text.trim(), decimal)?;
    (minor > 0).then(|| Money::new(minor, currency))
}

/// New arguments from an approval card's edit form, over the plan's own. A field the
/// card does not show (a budget's `category`) is refused, not read.
fn edited(call: &agent::ToolCall, fields: &[(String, String)]) -> Result<Value, &'static str> {
    let editable = agent::writes::editable_fields(call.name());
    let shown = |name: &str| {
        ["action", "back", "digest"].contains(&name)
            || editable.contains(&name)
            || (name == "currency" && matches!(call, agent::ToolCall::SetBudget(_)))
    };
    if fields.iter().any(|(name, _)| !shown(name)) {
        return Err("not_editable");
    }
    let mut args =
        serde_json::to_value(call).ok().and_then(|v| v.get("args").cloned()).unwrap_or(Value::Null);
    let Some(obj) = args.as_object_mut() else { return Err("bad_request") };
    match call {
        agent::ToolCall::SetBudget(a) => {
            let currency = field(fields, "currency").and_then(Currency::new).or(a.amount.map(|m| m.currency));
            match field(fields, "amount").map(str::trim).filter(|t| !t.is_empty()) {
                None => {
                    obj.remove("amount");
                }
                Some(text) => {
                    let money = currency.and_then(|c| typed_amount(text, c)).ok_or("amount")?;
                    obj.insert("amount".into(), json!(money));
                }
            }
            if let Some(month) = field(fields, "from").map(str::trim).filter(|t| !t.is_empty()) {
                let day = Date::parse_iso(&format!("{month}-01")).ok_or("month")?;
                obj.insert("from".into(), json!(day));
            }
        }
        agent::ToolCall::CreateRule(_) => {
            if let Some(p) = field(fields, "pattern") {
                obj.insert("pattern".into(), json!(p));
            }
            obj.insert("apply_to_past".into(), json!(field(fields, "apply_to_past").is_some()));
        }
        agent::ToolCall::MergeMerchants(_) => match field(fields, "name").map(str::trim) {
            Some("") | None => {
                obj.remove("name");
            }
            Some(n) => {
                obj.insert("name".into(), json!(n));
            }
        },
        _ => {}
    }
    for key in ["category", "to"] {
        if let Some(k) = field(fields, key).filter(|k| !k.is_empty()) {
            if obj.contains_key(key) && editable.contains(&key) {
                obj.insert(key.into(), json!(k));
            }
        }
    }
    Ok(args)
}

/// `POST /approvals/{id}` (`action` = `approve` | `reject` | `edit`, with the card's
/// fields): back to the conversation, at the card, which now says what happened.
pub async fn decide_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let approval = match state.sou.approvals().approval(account.user, &id).await {
        Ok(a) => a,
        Err(e) if e.code() == "not_found" => return back("/", Some("not_found"), "latest"),
        Err(e) => {
            tracing::error!(error = %e, "reading an approval failed");
            return back("/", Some("internal"), "latest");
        }
    };
    let page = field(&fields, "back").unwrap_or("/").to_string();
    let anchor = format!("approval-{}", approval.id);
    let decision = match field(&fields, "action") {
        Some("approve") => Decision::Approve { digest: field(&fields, "digest").map(str::to_string) },
        Some("reject") => Decision::Reject,
        Some("edit") => match edited(&approval.plan.call, &fields) {
            Ok(args) => Decision::Edit { args },
            Err(code) => return back(&page, Some(code), &anchor),
        },
        _ => return back(&page, Some("bad_request"), &anchor),
    };
    match state.sou.approvals().decide(account.user, &id, decision).await {
        Ok(after) => back(&page, None, &format!("approval-{}", after.id)),
        Err(WriteError::Backend(e)) if e.code() == "internal" => {
            tracing::error!(error = %e, "deciding an approval failed");
            back(&page, Some("internal"), &anchor)
        }
        Err(e) => back(&page, Some(e.code()), &anchor),
    }
}

/// `POST /changes/{id}/undo`, from a card or Settings → Changes (`back` says which).
pub async fn undo_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let page = field(&fields, "back").unwrap_or("/settings/changes").to_string();
    let anchor = if backend::well_formed(&id) { format!("change-{id}") } else { "latest".into() };
    match state.sou.approvals().undo(account.user, &id).await {
        Ok(_) => back(&page, None, &anchor),
        Err(WriteError::Backend(e)) if e.code() == "internal" => {
            tracing::error!(error = %e, "undoing a change failed");
            back(&page, Some("internal"), &anchor)
        }
        Err(e) => back(&page, Some(e.code()), &anchor),
    }
}

/// `POST /budgets` (`category`, `amount` — empty removes —, `from` `YYYY-MM`, else this
/// month): Settings → Budgets. The form says exactly what to write, so it runs at once,
/// as a change the page offers to undo; a refusal comes back with the fields as typed.
pub async fn budget_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: axum::http::HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let locale = crate::forms::locale(&headers);
    let category = field(&fields, "category").unwrap_or("").trim().to_string();
    let amount_text = field(&fields, "amount").unwrap_or("").trim().to_string();
    let from_text = field(&fields, "from").unwrap_or("").trim().to_string();
    let again = |code: &str| {
        let query: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs([
                (key::WRITE_ERROR, code),
                (key::CATEGORY, &category),
                (key::AMOUNT, &amount_text),
                (key::FROM, &from_text),
            ])
            .finish();
        Redirect::to(&format!("/settings/budgets?{query}")).into_response()
    };
    let today = state.sou.today();
    let from = if from_text.is_empty() {
        today.first_of_month()
    } else {
        match Date::parse_iso(&format!("{from_text}-01")) {
            Some(d) => d,
            None => return again("month"),
        }
    };
    let currency = match state.sou.budgets().currency(account.user).await {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "reading the ledger's currency failed");
            return again("internal");
        }
    };
    let amount = if amount_text.is_empty() {
        None
    } else {
        match typed_amount(&amount_text, currency) {
            Some(m) => Some(m),
            None => return again("amount"),
        }
    };
    let call = agent::ToolCall::SetBudget(agent::SetBudgetArgs { category: category.clone(), amount, from });
    if let Err(e) = backend::check_call(&call) {
        tracing::info!(error = %e, "a budget form was refused");
        return again("bad_request");
    }
    match state.sou.approvals().write_now(account.user, &call, locale).await {
        Ok((change, _)) => {
            Redirect::to(&format!("/settings/budgets?{}={}", key::SAVED, change.id)).into_response()
        }
        Err(WriteError::Backend(backend::BackendError::BadRequest(why))) if why.contains("category") => {
            again("category")
        }
        Err(WriteError::Backend(e)) if e.code() == "internal" => {
            tracing::error!(error = %e, "saving a budget failed");
            again("internal")
        }
        Err(e) => again(e.code()),
    }
}
