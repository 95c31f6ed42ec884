//! Form controls whose content the server would not escape if written as children.
//!
//! Leptos writes the children of `<textarea>`, `<noscript>`, `<script>` and `<style>`
//! into server-rendered HTML as they are, unescaped (tachys' `ESCAPE_CHILDREN` is
//! `false` for them), so a text child of a `<textarea>` is markup:
//! `/datasets?sql=</textarea><script>…` ran script. This module is the one place a
//! `<textarea>` is built: its text is escaped here and given as the element's inner
//! HTML, which both the server's HTML and the browser's `innerHTML` read back as the
//! same text. A test below fails when any other file writes one of these elements
//! with content, uses `inner_html`, or gives leptos_meta's `<Title>` (written into the
//! page's head unescaped too) anything but a literal.

use leptos::prelude::*;

/// A multi-line text field holding `value` as text, whatever it contains.
#[component]
pub fn TextArea(
    id: &'static str,
    name: &'static str,
    rows: u32,
    maxlength: u32,
    #[prop(into)] placeholder: String,
    value: String,
    #[prop(optional)] required: bool,
) -> impl IntoView {
    view! {
        <textarea id=id name=name rows=rows maxlength=maxlength spellcheck="false" required=required
            placeholder=placeholder inner_html=escape_text(&value)></textarea>
    }
}

/// The page's title, `text · Sou` (or just `Sou` for an empty text). leptos_meta writes
/// a title into the server's HTML as it is, so there the text is escaped; the browser
/// sets `document.title`, which is text, so there it is not.
#[component]
pub fn PageTitle(#[prop(into)] text: Signal<String>) -> impl IntoView {
    // Read when leptos_meta writes the head, which may come after the page's owner was
    // disposed (a request that ended first): then the text as it was when the page was
    // drawn, never a panic (and never the plain name: a test compares pages whole).
    let drawn = text.try_get_untracked().unwrap_or_default();
    let full = move || {
        let text = text.try_get().unwrap_or_else(|| drawn.clone());
        let full = if text.trim().is_empty() { "Sou".to_string() } else { format!("{text} · Sou") };
        #[cfg(feature = "ssr")]
        let full = escape_text(&full);
        full
    };
    view! { <leptos_meta::Title text=full/> }
}

/// Components that are not islands render as plain HTML, with no hydration markers
/// (as Leptos' `HydrationScripts` does for islands). Called first, by the shell.
pub fn no_hydration_markers() {
    if let Some(context) = Owner::current_shared_context() {
        context.set_is_hydrating(false);
    }
}

/// Loads the browser bundle once the page is idle, then wakes its islands (Leptos'
/// islands loader, without its preload links, so that the page's text and style come
/// first on a slow network), and with `service_worker` registers the service worker
/// (`island_loader.js`; not in a widget's frame, on someone else's site). The script's
/// only variable text is this build's file names, checked to be plain hashes by
/// `site.rs`.
pub fn island_loader(service_worker: bool) -> impl IntoView {
    let files = crate::site::files();
    let script = include_str!("island_loader.js")
        .replace("JS_FILE", &format!("{:?}", files.js))
        .replace("WASM_FILE", &format!("{:?}", files.wasm))
        .replace("SERVICE_WORKER", if service_worker { "true" } else { "false" });
    view! { <script type="module" nonce=leptos::nonce::use_nonce()>{script}</script> }
}

/// One of Sou's own scripts, inline, with the page's nonce: only a text compiled into
/// Sou (`include_str!`), never one made at run time.
pub fn inline_script(js: &'static str) -> impl IntoView {
    view! { <script nonce=leptos::nonce::use_nonce()>{js}</script> }
}

/// `text` as HTML text: `&`, `<` and `>` escaped (enough for element content).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_is_escaped() {
        assert_eq!(
            escape_text("</textarea><script>x&y</script>"),
            "&lt;/textarea&gt;&lt;script&gt;x&amp;y&lt;/script&gt;"
        );
        assert_eq!(escape_text("SELECT 'a' \"b\""), "SELECT 'a' \"b\"");
    }

    /// The elements whose children Leptos writes unescaped (the `<textarea>` and the
    /// islands' loader here), and `inner_html`, appear nowhere in the app's views but here (and `inner_html` for model Markdown, in
    /// `render/answer.rs`, which `markdown.rs` renders without raw HTML, and for the
    /// server's own rendering in `chat/composer.rs`). Test code (after `#[cfg(test)]`)
    /// is not read.
    #[test]
    fn no_view_writes_unescaped_children() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let (mut found, mut inner) = (Vec::new(), Vec::new());
        let mut files = vec![dir.clone()];
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            // The path under src/, with `/` on every system: "render/answer.rs".
            let rel = path.strip_prefix(&dir).unwrap();
            let name =
                rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                for tag in ["<textarea", "<script", "<style", "<noscript"] {
                    // A <noscript> holding only a static element is the one exception.
                    let static_noscript = tag == "<noscript"
                        && (line.contains("<noscript><meta")
                            || line.contains("<noscript><input type=\"hidden\""))
                        && !line.contains('{');
                    let here = name == "fields.rs" && (tag == "<textarea" || tag == "<script");
                    if line.contains(tag) && !here && !static_noscript {
                        found.push(format!("{name}:{}: {tag}", n + 1));
                    }
                }
                // leptos_meta writes a title's text into <head> unescaped: literals only.
                // (`PageTitle`, in this file, is the one that escapes it.)
                let meta_title =
                    line.replace("<PageTitle", "").contains("<Title") || line.contains("::Title");
                let escaping = name == "fields.rs" && line.contains("<leptos_meta::Title text=full/>");
                if meta_title && !line.contains("<Title text=\"") && !escaping {
                    found.push(format!("{name}:{}: <Title> with a computed text", n + 1));
                }
                if line.contains("inner_html") && name != "fields.rs" {
                    inner.push(format!("{name}:{}", n + 1));
                }
            }
        }
        assert!(found.is_empty(), "unescaped markup outside fields.rs: {found:?}");
        // render/answer.rs' one use: a model's whole answer, as `markdown::to_html` wrote
        // it. chat/composer.rs' two: an answer and the history, as the server drew them
        // with these same views (`answer_parts`), put in the page after streaming.
        let (markdown, server): (Vec<_>, Vec<_>) =
            inner.iter().partition(|at| at.starts_with("render/answer.rs:"));
        assert!(
            markdown.len() == 1
                && server.len() == 2
                && server.iter().all(|at| at.starts_with("chat/composer.rs:")),
            "inner_html outside fields.rs, the model's Markdown and the server's own HTML: {inner:?}"
        );
    }
}
