//! Categorisation rules' forms: a rule saved, applied to the past once approved,
//! deleted. Each answers with a redirect to `/rules`, which shows what happened.

use app::post::key;
use app::post::rules as at;
use app::post::RuleForm;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Router};
use backend::{ErrorKind, UserError};

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::forms::{locale, see_other};
use crate::state::AppState;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route(at::CREATE.route(), post(create_rule))
        .route(at::APPLY.route(), post(apply_rule))
        .route(at::DELETE.route(), post(delete_rule))
}

/// `POST /rules`: saves a rule and shows what it would change in the past.
pub async fn create_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Form(form): Form<RuleForm>,
) -> Response {
    let locale = locale(&headers);
    match state.sou.rules().create(account.user, (&form.pattern, &form.category), locale).await {
        Ok(p) => see_other(&format!("/rules?{}={}", key::RULE, p.rule.id)),
        Err(e) if e.kind() != ErrorKind::Invalid => ApiError::from_user(e).into_response(),
        Err(e) => {
            let q = form_urlencoded::Serializer::new(String::new())
                .append_pair(key::PATTERN, &form.pattern)
                .append_pair(key::CATEGORY, &form.category)
                .append_pair(key::ERROR, e.code())
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
    let rule = match state.sou.rules().proposal(account.user, id, locale).await {
        Ok(p) => p.rule,
        Err(e) => return ApiError::from_user(e).into_response(),
    };
    let call = agent::ToolCall::CreateRule(agent::CreateRuleArgs {
        pattern: rule.pattern,
        category: rule.category_key,
        apply_to_past: true,
    });
    match state.sou.approvals().write_now(account.user, &call, locale).await {
        Ok((_, n)) => see_other(&format!("/rules?{}={n}", key::APPLIED)),
        Err(e) if e.code() == "nothing_to_change" => see_other(&format!("/rules?{}=0", key::APPLIED)),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// `POST /rules/{id}/delete`
pub async fn delete_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<i64>,
) -> Response {
    match state.sou.rules().delete(account.user, id).await {
        Ok(()) => see_other("/rules"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}
