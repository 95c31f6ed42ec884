//! Runs over HTTP: an answer's trace (`GET /api/v1/runs/{id}`), its events again for a
//! client that reconnects (`GET /api/v1/runs/{id}/events` with `Last-Event-ID`), and
//! model usage with the user's own limit (`GET /api/v1/usage`, `PUT
//! /api/v1/usage/limit`, and the Settings → Usage form). Another user's run is a 404.

use app::post::key;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post, put};
use axum::{Form, Json};
use serde::Deserialize;

use backend::UserError as _;
use backend::{RunAction, RunError};
use serde_json::{json, Value};

use crate::approvals::{back, field};
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::runs as at;
    axum::Router::new()
        .route("/api/v1/runs/{id}", get(trace).patch(edit))
        .route("/api/v1/runs/{id}/events", get(events))
        .route("/api/v1/runs/{id}/{action}", post(act))
        .route(at::EDIT.route(), post(edit_form))
        .route(at::ACT.route(), post(act_form))
        .route("/api/v1/usage", get(usage))
        .route("/api/v1/usage/limit", put(set_limit))
        .route(at::LIMIT.route(), post(limit_form))
}

/// `GET /api/v1/runs/{id}`: the trace, its words in the `Accept-Language`.
pub async fn trace(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let locale = crate::forms::api_locale(&headers);
    Ok(Json(state.sou.runs().trace(account.user, &id, locale).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct After {
    /// The last event the client has, when it cannot send `Last-Event-ID`.
    after: Option<String>,
}

/// `GET /api/v1/runs/{id}/events`: the events after `Last-Event-ID` (or `?after=`), then
/// the rest until the run's terminal event. Without either, from the first.
pub async fn events(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Query(q): Query<After>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let given = headers.get("last-event-id").and_then(|v| v.to_str().ok()).map(str::to_string).or(q.after);
    let after = match given.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => 0,
        Some(last) => event_number(&id, last).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_event_id",
                "Last-Event-ID must be an id this run's stream sent, like \"<run>:12\"",
            )
        })?,
    };
    let stream = state.sou.runs().attach(account.user, &id, after).await?;
    Ok(crate::chat::event_stream(stream))
}

/// The number in an event id: `<run>:<n>` (of this run) or `<n>`.
fn event_number(run: &str, id: &str) -> Option<u64> {
    let n = match id.split_once(':') {
        Some((r, n)) if r == run => n,
        Some(_) => return None,
        None => id,
    };
    n.parse().ok().filter(|n| *n < 10_000_000)
}

/// `POST /api/v1/runs/{id}/{accept|reject|pause|resume|cancel}`: the run as it is now.
/// Accepted or resumed, its steps run on the server; follow them on
/// `GET /api/v1/runs/{id}/events` with the last event id you have.
pub async fn act(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path((id, action)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let action = RunAction::parse(&action).ok_or_else(ApiError::not_found)?;
    let trace = state.sou.runs().act(account.user, &id, action).await.map_err(ApiError::from_user)?;
    Ok(Json(trace).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditBody {
    /// Each `{"tool", "args", "why"?}`, in the order they are to run.
    steps: Vec<Value>,
}

/// `PATCH /api/v1/runs/{id}`: the plan's steps, edited (while it is proposed).
pub async fn edit(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    body: Result<Json<EditBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body?;
    let plan =
        state.sou.runs().edit_plan(account.user, &id, &body.steps).await.map_err(ApiError::from_user)?;
    Ok(Json(json!({ "plan": plan })).into_response())
}

/// `POST /runs/{id}/{action}` from a plan's card: back to the conversation, at the plan.
pub async fn act_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path((id, action)): Path<(String, String)>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let page = field(&fields, "back").unwrap_or("/").to_string();
    let anchor = anchor(&id);
    let Some(action) = RunAction::parse(&action) else { return back(&page, Some("not_found"), &anchor) };
    if let Err(e) = state.sou.runs().act(account.user, &id, action).await {
        return refused(&page, &anchor, e);
    }
    // Without JavaScript (the form's `<noscript>` field), the page comes back once the
    // steps have run, as the chat's form does once the answer is written; a minute at
    // most, then as they are.
    if field(&fields, "wait").is_some() && matches!(action, RunAction::Accept | RunAction::Resume) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < until {
            match state.sou.runs().state(account.user, &id).await {
                Ok((agent::runs::RunStatus::Running, ..)) => {}
                _ => break,
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    back(&page, None, &anchor)
}

/// `POST /runs/{id}/edit`: each step kept or not (`keep_<n>`), its position
/// (`order_<n>`) and its period (`period_<n>`: `2026-10`, `2026`, `first..last`).
pub async fn edit_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let page = field(&fields, "back").unwrap_or("/").to_string();
    let anchor = anchor(&id);
    let plan = match state.sou.runs().state(account.user, &id).await {
        Ok((_, plan, _)) => plan,
        Err(e) => return refused(&page, &anchor, RunError::Backend(e)),
    };
    let Some(plan) = plan else { return back(&page, Some("not_a_plan"), &anchor) };
    let mut kept: Vec<(usize, usize, Value)> = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let k = i + 1;
        if field(&fields, &format!("keep_{k}")).is_none() {
            continue;
        }
        let order =
            field(&fields, &format!("order_{k}")).and_then(|o| o.trim().parse::<usize>().ok()).unwrap_or(k);
        let mut value = serde_json::to_value(step).unwrap_or(Value::Null);
        if let Some(text) = field(&fields, &format!("period_{k}")).map(str::trim).filter(|t| !t.is_empty()) {
            let Some(period) = agent::reports::parse_period(text, plan.locale) else {
                return back(&page, Some("period"), &anchor);
            };
            let mut call = step.call.clone();
            if let agent::ToolCall::ComparePeriods(a) = &mut call {
                if a.current != period {
                    a.reference = agent::reports::previous(&period, plan.locale);
                    a.current = period;
                }
            } else if let Some(p) = call.period_mut() {
                *p = period;
            }
            let call = serde_json::to_value(&call).unwrap_or(Value::Null);
            value["args"] = call["args"].clone();
        }
        kept.push((order, k, value));
    }
    kept.sort_by_key(|(order, k, _)| (*order, *k));
    let steps: Vec<Value> = kept.into_iter().map(|(_, _, v)| v).collect();
    match state.sou.runs().edit_plan(account.user, &id, &steps).await {
        Ok(_) => back(&page, None, &anchor),
        Err(e) => refused(&page, &anchor, e),
    }
}

fn anchor(id: &str) -> String {
    if id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("run-{id}")
    } else {
        "latest".into()
    }
}

fn refused(page: &str, anchor: &str, e: RunError) -> Response {
    if e.code() == "internal" {
        tracing::error!(error = %e, "a plan's form failed");
    }
    back(page, Some(e.code()), anchor)
}

/// `GET /api/v1/usage`.
pub async fn usage(State(state): State<AppState>, SignedIn(account): SignedIn) -> Result<Response, ApiError> {
    Ok(Json(state.sou.runs().usage(account.user).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitBody {
    /// Millionths of a euro per month; `null` removes the user's own limit.
    monthly_eur_micros: Option<u64>,
}

/// `PUT /api/v1/usage/limit`: the user's own monthly limit; answers the usage report.
pub async fn set_limit(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<LimitBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body?;
    state.sou.runs().set_usage_limit(account.user, body.monthly_eur_micros).await?;
    Ok(Json(state.sou.runs().usage(account.user).await?).into_response())
}

#[derive(Deserialize)]
pub struct LimitForm {
    /// Euros, as typed: "25", "25,50"; empty removes the limit.
    limit: String,
}

/// `POST /usage/limit`, from Settings → Usage: back to the page, with `?limit_error=`
/// and what was typed when it is not an amount.
pub async fn limit_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Form(form): Form<LimitForm>,
) -> Result<Response, ApiError> {
    let typed = form.limit.trim();
    let limit = if typed.is_empty() {
        None
    } else {
        // Euros with their cents, as the bank files' amounts are read.
        let decimal = if typed.contains(',') { ',' } else { '.' };
        let micros = backend::import::parse_amount(typed, decimal)
            .and_then(|cents| u64::try_from(cents).ok())
            .and_then(|cents| cents.checked_mul(10_000));
        match micros {
            Some(v) if v <= backend::MAX_OWN_LIMIT_EUR_MICROS => Some(v),
            _ => {
                let typed: String = typed.chars().take(40).collect();
                let query: String = form_urlencoded::Serializer::new(String::new())
                    .extend_pairs([(key::LIMIT_ERROR, "amount"), (key::TYPED, typed.as_str())])
                    .finish();
                return Ok(Redirect::to(&format!("/settings/usage?{query}")).into_response());
            }
        }
    };
    state.sou.runs().set_usage_limit(account.user, limit).await?;
    Ok(Redirect::to(&format!("/settings/usage?{}=1", key::SAVED)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_their_run() {
        assert_eq!(event_number("abc", "abc:12"), Some(12));
        assert_eq!(event_number("abc", "12"), Some(12));
        assert_eq!(event_number("abc", "xyz:12"), None);
        assert_eq!(event_number("abc", "abc:-1"), None);
        assert_eq!(event_number("abc", "abc:"), None);
    }
}
