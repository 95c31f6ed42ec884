//! Shared reports over HTTP: the page anyone with the link reads (`/r/{id}`), its link
//! preview picture (`/r/{id}/og.png`), the owner's API (`/api/v1/reports`) and the
//! forms of the chat and Settings pages.
//!
//! The page is a whole document rendered by `app::report`, outside the Leptos routes:
//! those add hydration and resource scripts to every page, and this one carries none.
//! Its policy allows no script at all, only this site's stylesheet and images.

use app::post::key;
use axum::routing::{get, post};
use std::collections::HashMap;
use std::hash::{Hash as _, Hasher as _};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use agent::reports::ReportSummary;
use agent::Locale;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH, REFERRER_POLICY, RETRY_AFTER,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use backend::UserError as _;
use backend::{NewReport, ReportChange, ReportError, ReportOptions};
use serde_json::json;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::reports as at;
    axum::Router::new()
        .route("/api/v1/reports", post(create).get(list))
        .route("/api/v1/reports/{id}", get(show).patch(change).delete(revoke))
        .route("/r/{id}", get(page))
        .route("/r/{id}/og.png", get(image))
        .route(at::CREATE.route(), post(create_form))
        .route(at::REVOKE.route(), post(revoke_form))
}

/// A shared page's policy: this site's stylesheet and images, nothing else — no
/// script, no frame, no form, no `<base>`.
pub const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; \
                               form-action 'none'; frame-ancestors 'none'";

/// `https://host` as the request reached Sou, for absolute links.
fn origin(headers: &HeaderMap) -> String {
    let host =
        headers.get("host").and_then(|h| h.to_str().ok()).filter(|h| !h.is_empty()).unwrap_or("localhost");
    let scheme = if crate::auth::https(headers) { "https" } else { "http" };
    format!("{scheme}://{host}")
}

fn absolute(mut r: ReportSummary, headers: &HeaderMap) -> ReportSummary {
    r.url = format!("{}{}", origin(headers), r.url);
    r
}

/// The headers of a shared page and of its "not found": never indexed, never framed,
/// never kept by a cache (a revoked link must stop working at once), no referrer.
fn page_headers(h: &mut HeaderMap) {
    h.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_POLICY));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex, nofollow"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    page_headers(response.headers_mut());
    response
}

/// The reader's language (a live report speaks it; a snapshot speaks its owner's).
fn viewer(headers: &HeaderMap) -> Option<Locale> {
    crate::forms::accept_language(headers)
}

/// `429` with `Retry-After`: a small page, nothing read about the report.
fn busy(locale: Locale, wait: Duration) -> Response {
    let secs = wait.as_millis().div_ceil(1000).max(1);
    let secs = u64::try_from(secs).unwrap_or(u64::MAX);
    let mut response = html(StatusCode::TOO_MANY_REQUESTS, app::report::busy_html(locale, secs));
    response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
    response
}

/// `GET /r/{id}`: the report, or the same 404 for an unknown, revoked or expired link;
/// `429` past the link's request limit, shared by every server on the database. A
/// `HEAD` is not a view: it says whether the link works, without running anything.
pub async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let locale = viewer(&headers);
    let failed = |e: backend::BackendError| {
        tracing::error!(error = %e, "a shared report could not be shown");
        html(StatusCode::INTERNAL_SERVER_ERROR, app::report::not_found_html(locale.unwrap_or_default()))
    };
    let not_found = || html(StatusCode::NOT_FOUND, app::report::not_found_html(locale.unwrap_or_default()));
    if !backend::well_formed(&id) {
        return not_found();
    }
    let limit = state.sou.reports().views_per_minute();
    if limit > 0 {
        let now = chrono::Utc::now().timestamp_millis();
        match state.sou.reports().take_request(&id, limit, now).await {
            Ok(Ok(())) => {}
            Ok(Err(wait)) => return busy(locale.unwrap_or_default(), wait),
            Err(e) => return failed(e),
        }
    }
    if method == Method::HEAD {
        return match state.sou.reports().stamp(&id).await {
            Ok(Some(_)) => html(StatusCode::OK, String::new()),
            Ok(None) => not_found(),
            Err(e) => failed(e),
        };
    }
    match state.sou.reports().page(&id, true, locale).await {
        Ok(Some(page)) => {
            let base = origin(&headers);
            let links =
                app::report::Links { page: format!("{base}/r/{id}"), image: format!("{base}/r/{id}/og.png") };
            html(StatusCode::OK, app::report::html(page, &links))
        }
        Ok(None) => not_found(),
        Err(e) => failed(e),
    }
}

/// Rendered pictures kept for a while, by report: the stamp they were drawn for
/// (`Reports::stamp`), when, their `ETag` and the PNG. A snapshot's picture holds
/// while its stamp does; a live one's for [`LIVE_PICTURE_FOR`].
struct Pictures {
    entries: HashMap<String, Picture>,
}

struct Picture {
    stamp: String,
    made: Instant,
    etag: String,
    png: Arc<Vec<u8>>,
}

const PICTURES_KEPT: usize = 256;
const LIVE_PICTURE_FOR: Duration = Duration::from_secs(600);

fn pictures() -> &'static Mutex<Pictures> {
    static CACHE: OnceLock<Mutex<Pictures>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Pictures { entries: HashMap::new() }))
}

/// The picture's `ETag`: what it was drawn for and how.
fn fingerprint(stamp: &str, svg: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    stamp.hash(&mut h);
    svg.hash(&mut h);
    h.finish()
}

/// The picture's SVG drawn to PNG, with the embedded font.
pub fn rasterise(svg: &str) -> Option<Vec<u8>> {
    draw(svg, app::report::og::WIDTH, app::report::og::HEIGHT)
}

/// A square SVG drawn to a PNG of `size` pixels a side (the app's icons).
pub fn rasterise_square(svg: &str, size: u32) -> Option<Vec<u8>> {
    draw(svg, size, size)
}

/// `svg` drawn to PNG at `width` × `height`, scaled to fill it, with the embedded font.
fn draw(svg: &str, width: u32, height: u32) -> Option<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    let options = OPTIONS.get_or_init(|| {
        let mut o = usvg::Options { font_family: app::report::og::FONT.into(), ..usvg::Options::default() };
        let db = o.fontdb_mut();
        db.load_font_data(notosans::REGULAR_TTF.to_vec());
        db.load_font_data(notosans::BOLD_TTF.to_vec());
        db.set_sans_serif_family(app::report::og::FONT);
        o
    });
    let tree =
        usvg::Tree::from_str(svg, options).map_err(|e| tracing::error!(error = %e, "preview SVG")).ok()?;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)?;
    let scale = tiny_skia::Transform::from_scale(
        width as f32 / tree.size().width(),
        height as f32 / tree.size().height(),
    );
    resvg::render(&tree, scale, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| tracing::error!(error = %e, "preview PNG")).ok()
}

/// `GET /r/{id}/og.png`: the link preview's picture (not counted as a view). A live
/// report's plans run at most once per [`LIVE_PICTURE_FOR`] for it.
pub async fn image(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let failed = |e: backend::BackendError| {
        tracing::error!(error = %e, "a report's picture could not be made");
        StatusCode::INTERNAL_SERVER_ERROR.into_response()
    };
    // Checked on every request: a revoked or expired report's picture is gone at once.
    let stamp = match state.sou.reports().stamp(&id).await {
        Ok(Some(stamp)) => stamp,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => return failed(e),
    };
    let live = stamp.contains("\u{1f}live\u{1f}");
    let cached = pictures().lock().ok().and_then(|c| {
        c.entries
            .get(&id)
            .filter(|p| p.stamp == stamp && (!live || p.made.elapsed() < LIVE_PICTURE_FOR))
            .map(|p| (p.etag.clone(), p.png.clone()))
    });
    let (etag, png) = match cached {
        Some(hit) => hit,
        None => {
            let page = match state.sou.reports().page(&id, false, None).await {
                Ok(Some(page)) => page,
                Ok(None) => return StatusCode::NOT_FOUND.into_response(),
                Err(e) => return failed(e),
            };
            let svg = app::report::og::svg(&page);
            let etag = format!("\"{:016x}\"", fingerprint(&stamp, &svg));
            let Some(png) = tokio::task::spawn_blocking(move || rasterise(&svg)).await.ok().flatten() else {
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            };
            let png = Arc::new(png);
            if let Ok(mut c) = pictures().lock() {
                if c.entries.len() >= PICTURES_KEPT {
                    let oldest = c.entries.iter().min_by_key(|(_, p)| p.made).map(|(k, _)| k.clone());
                    if let Some(k) = oldest {
                        c.entries.remove(&k);
                    }
                }
                let picture = Picture { stamp, made: Instant::now(), etag: etag.clone(), png: png.clone() };
                c.entries.insert(id, picture);
            }
            (etag, png)
        }
    };
    if headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return (StatusCode::NOT_MODIFIED, [(ETAG, etag)]).into_response();
    }
    let mut response = (StatusCode::OK, png.as_ref().clone()).into_response();
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("image/png"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(ETAG, v);
    }
    response
}

/// `POST /api/v1/reports`: `201` with the report and its absolute `url`.
pub async fn create(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    body: Result<Json<NewReport>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(new) = body?;
    let locale = crate::forms::api_locale(&headers);
    let report = state
        .sou
        .reports()
        .create(account.user, new, locale)
        .await
        .map_err(|e| ApiError::from_user_in(e, locale))?;
    Ok((StatusCode::CREATED, Json(absolute(report, &headers))).into_response())
}

/// `GET /api/v1/reports`: the caller's reports, newest first.
pub async fn list(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let reports: Vec<_> =
        state.sou.reports().list(account.user).await?.into_iter().map(|r| absolute(r, &headers)).collect();
    Ok(Json(json!({ "reports": reports })))
}

/// `GET /api/v1/reports/{id}`: one of the caller's reports.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ReportSummary>, ApiError> {
    Ok(Json(absolute(state.sou.reports().get(account.user, &id).await?, &headers)))
}

/// `PATCH /api/v1/reports/{id}`: title, mode, figures, names, `expires_on`.
pub async fn change(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ReportChange>, JsonRejection>,
) -> Result<Json<ReportSummary>, ApiError> {
    let Json(change) = body?;
    let locale = crate::forms::api_locale(&headers);
    let report = state
        .sou
        .reports()
        .change(account.user, &id, change)
        .await
        .map_err(|e| ApiError::from_user_in(e, locale))?;
    Ok(Json(absolute(report, &headers)))
}

/// `DELETE /api/v1/reports/{id}`: revoked at once; `204`.
pub async fn revoke(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.sou.reports().revoke(account.user, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A share form's fields (an answer's "Share", Settings' monthly report): `pins` may
/// repeat, one per pinned answer.
struct ShareForm {
    fields: Vec<(String, String)>,
}

impl ShareForm {
    fn get(&self, name: &str) -> &str {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).unwrap_or("")
    }
    fn all(&self, name: &str) -> Vec<String> {
        self.fields.iter().filter(|(k, v)| k == name && !v.is_empty()).map(|(_, v)| v.clone()).collect()
    }
}

/// Where a form goes back to with a sentence.
fn back(params: &[(&str, &str)]) -> Response {
    let query: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
    Redirect::to(&format!("/settings/reports?{query}")).into_response()
}

/// `POST /reports`: shares an answer or a month from a form; back to the list of shares,
/// which shows the new link (or says what was wrong).
pub async fn create_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let f = ShareForm { fields };
    let locale = crate::forms::locale(&headers);
    let today = state.sou.today();
    let bad = |en: &str| back(&[(key::ERROR, en)]);
    let days = match f.get("days") {
        "" => None,
        d => match d.parse::<u32>() {
            Ok(n) if (1..=3660).contains(&n) => Some(today.add_days(i64::from(n) - 1)),
            _ => return bad("days"),
        },
    };
    let (Some(mode), Some(figures), Some(names)) = (
        agent::reports::Freshness::parse(match f.get("mode") {
            "" => "snapshot",
            m => m,
        }),
        agent::reports::Figures::parse(match f.get("figures") {
            "" => "amounts",
            m => m,
        }),
        agent::reports::Names::parse(match f.get("names") {
            "" => "merchants",
            m => m,
        }),
    ) else {
        return bad("options");
    };
    let title = f.get("title");
    let options = ReportOptions {
        title: (!title.is_empty()).then(|| title.to_string()),
        mode,
        figures,
        names,
        expires_on: days,
    };
    let new = match f.get("kind") {
        "answer" => NewReport::Answer { message_id: f.get("message_id").to_string(), options },
        "monthly" => NewReport::Monthly { period: f.get("period").to_string(), pins: f.all("pins"), options },
        _ => return bad("kind"),
    };
    match state.sou.reports().create(account.user, new, locale).await {
        Ok(r) => back(&[(key::CREATED, &r.id)]),
        Err(ReportError::Refused(r)) => bad(r.code()),
        Err(e) if e.code() == "not_found" => bad("not_found"),
        Err(e) => {
            tracing::error!(error = %e, "sharing a report failed");
            bad("internal")
        }
    }
}

/// `POST /reports/{id}/revoke`.
pub async fn revoke_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Response {
    match state.sou.reports().revoke(account.user, &id).await {
        Ok(()) => back(&[(key::REVOKED, "1")]),
        Err(e) if e.code() == "not_found" => back(&[(key::ERROR, "not_found")]),
        Err(e) => {
            tracing::error!(error = %e, "revoking a report failed");
            back(&[(key::ERROR, "internal")])
        }
    }
}
