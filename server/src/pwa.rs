//! Sou as an installable app: its manifest (in the browser's language), its icons, and
//! its service worker, written once per process from this build's files. The worker
//! keeps the chat's shell (`/offline`, a page with no one's data) and the browser
//! bundle, so that the chat opens and parses without a network; it never keeps the
//! API, server functions, streams or any page with someone's data.

use axum::routing::get;
use std::hash::{Hash as _, Hasher as _};
use std::sync::OnceLock;

use agent::Locale;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

pub(crate) fn routes() -> axum::Router<crate::state::AppState> {
    axum::Router::new()
        .route("/manifest.webmanifest", get(manifest))
        .route("/icons/{name}", get(icon))
        .route("/sw.js", get(service_worker))
}

/// The offline shell: the chat page with no conversation, no history, no vocabulary.
pub const SHELL_PAGE: &str = "/offline";

/// The icons, by the name they are served under (`/icons/<name>`): size and whether
/// the picture fills the square (a maskable icon, cut to any shape by the system).
const ICONS: [(&str, u32, bool); 3] =
    [("192.png", 192, false), ("512.png", 512, false), ("maskable-512.png", 512, true)];

/// Light theme's background and accent, as in `style/main.css`.
const BACKGROUND: &str = "#f7f6f2";
const ACCENT: &str = "#1f6f5c";

fn locale(headers: &HeaderMap) -> Locale {
    headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Locale::from_accept_language)
        .unwrap_or(Locale::Fr)
}

/// `GET /manifest.webmanifest`, in the language the browser asks for.
pub async fn manifest(headers: HeaderMap) -> Response {
    let locale = locale(&headers);
    let icons: Vec<_> = ICONS
        .iter()
        .map(|(name, size, maskable)| {
            json!({
                "src": format!("/icons/{name}"),
                "sizes": format!("{size}x{size}"),
                "type": "image/png",
                "purpose": if *maskable { "maskable" } else { "any" },
            })
        })
        .collect();
    let body = json!({
        "id": "/",
        "name": locale.pick("Sou — vos comptes, en réponses", "Sou — your money, answered"),
        "short_name": "Sou",
        "description": locale.pick(
            "Posez vos questions sur votre argent : des réponses immédiates, sans IA quand c'est possible.",
            "Ask about your money: instant answers, no AI when none is needed."),
        "lang": locale.as_str(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": ACCENT,
        "icons": icons,
    });
    ([(CONTENT_TYPE, "application/manifest+json"), (CACHE_CONTROL, "no-cache")], body.to_string())
        .into_response()
}

/// The icon's picture: Sou's "S" on its green, with rounded corners, or filling the
/// square with the letter inside the safe circle for a maskable icon.
fn icon_svg(maskable: bool) -> String {
    let (rx, size) = if maskable { (0, 26) } else { (14, 34) };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\">\
         <rect width=\"64\" height=\"64\" rx=\"{rx}\" fill=\"{ACCENT}\"/>\
         <text x=\"32\" y=\"{y}\" font-family=\"{font}\" font-weight=\"700\" font-size=\"{size}\" \
         text-anchor=\"middle\" fill=\"#fff\">S</text></svg>",
        y = 32 + size * 12 / 34,
        font = app::report::og::FONT,
    )
}

/// `GET /icons/<name>`: drawn once per process.
pub async fn icon(Path(name): Path<String>) -> Response {
    static DRAWN: OnceLock<Vec<Option<Vec<u8>>>> = OnceLock::new();
    let drawn = DRAWN.get_or_init(|| {
        ICONS
            .iter()
            .map(|(_, size, maskable)| crate::reports::rasterise_square(&icon_svg(*maskable), *size))
            .collect()
    });
    match ICONS.iter().position(|(n, _, _)| *n == name).and_then(|i| drawn[i].clone()) {
        Some(png) => {
            ([(CONTENT_TYPE, "image/png"), (CACHE_CONTROL, "public, max-age=86400")], png).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// What the service worker keeps: the offline shell, this build's bundle and style,
/// the icons and the manifest. Nothing else.
pub fn precache(files: &app::site::SiteFiles) -> Vec<String> {
    let mut list = vec![
        SHELL_PAGE.to_string(),
        files.js.clone(),
        files.wasm.clone(),
        files.css.clone(),
        "/favicon.svg".to_string(),
        "/manifest.webmanifest".to_string(),
    ];
    list.extend(ICONS.iter().map(|(name, _, _)| format!("/icons/{name}")));
    list
}

/// The service worker's source for `files`. Its cache is named after the list, so a
/// new build makes a new worker, which the page offers as an update.
pub fn worker_source(files: &app::site::SiteFiles) -> String {
    let list = precache(files);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    list.hash(&mut hasher);
    let version = format!("sou-{:016x}", hasher.finish());
    let list = serde_json::to_string(&list).unwrap_or_else(|_| "[]".into());
    format!(
        "// Sou's service worker, written by the server for this build.\n\
         const VERSION = {version:?};\n\
         const PRECACHE = {list};\n\
         const SHELL = {SHELL_PAGE:?};\n{}",
        include_str!("pwa.js")
    )
}

/// `GET /sw.js`: never cached by the browser, so that a new build is seen at once.
pub async fn service_worker() -> Response {
    static SOURCE: OnceLock<String> = OnceLock::new();
    let source = SOURCE.get_or_init(|| worker_source(app::site::files()));
    ([(CONTENT_TYPE, "text/javascript; charset=utf-8"), (CACHE_CONTROL, "no-cache")], source.as_str())
        .into_response()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn files() -> app::site::SiteFiles {
        app::site::SiteFiles {
            css: "/pkg/sou.C.css".into(),
            js: "/pkg/sou.J.js".into(),
            wasm: "/pkg/sou.W.wasm".into(),
            hashed: vec!["sou.J.js".into(), "sou.W.wasm".into(), "sou.C.css".into()],
        }
    }

    /// The worker keeps exactly the shell and this build's files: never a page with
    /// someone's data, the API, or a server function.
    #[test]
    fn the_worker_keeps_the_shell_and_the_build_s_files() {
        let source = worker_source(&files());
        let line = source.lines().find(|l| l.starts_with("const PRECACHE = ")).unwrap();
        let list: Vec<String> =
            serde_json::from_str(line.trim_start_matches("const PRECACHE = ").trim_end_matches(';')).unwrap();
        assert_eq!(
            list,
            [
                "/offline",
                "/pkg/sou.J.js",
                "/pkg/sou.W.wasm",
                "/pkg/sou.C.css",
                "/favicon.svg",
                "/manifest.webmanifest",
                "/icons/192.png",
                "/icons/512.png",
                "/icons/maskable-512.png"
            ]
        );
        // Another build, another cache.
        let mut other = files();
        other.wasm = "/pkg/sou.X.wasm".into();
        let version = |s: &str| s.lines().find(|l| l.starts_with("const VERSION")).unwrap().to_string();
        assert_ne!(version(&source), version(&worker_source(&other)));
    }

    #[test]
    fn every_icon_is_drawn_at_its_size() {
        for (_, size, maskable) in ICONS {
            let png = crate::reports::rasterise_square(&icon_svg(maskable), size).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            // The IHDR chunk's width and height.
            assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), size);
            assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), size);
        }
    }
}
