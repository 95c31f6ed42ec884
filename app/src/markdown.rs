//! A model's answer as safe HTML: Markdown (CommonMark, tables, strikethrough) parsed
//! by `pulldown-cmark`, then sanitised on the event stream before any HTML is written:
//! raw HTML becomes visible text, images become their alt text (nothing remote
//! loads), and links keep only `http`, `https` and `mailto` targets, opening in a new
//! tab without referrer or opener. The same function runs on the server and in the
//! browser, so streamed and stored answers look the same.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Whether a link target may be followed.
fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("mailto:")
}

/// `markdown` rendered to sanitised HTML.
pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // A stack of "was this link kept" for nested link ends.
    let mut links: Vec<bool> = Vec::new();
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Html(s) | Event::InlineHtml(s) => Some(Event::Text(s)),
        // In brackets, so the reader sees an image was left out.
        Event::Start(Tag::Image { .. }) => Some(Event::Text(CowStr::Borrowed("["))),
        Event::End(TagEnd::Image) => Some(Event::Text(CowStr::Borrowed("]"))),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let keep = safe_url(&dest_url);
            links.push(keep);
            keep.then_some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
        }
        Event::End(TagEnd::Link) => links.pop().unwrap_or(false).then_some(Event::End(TagEnd::Link)),
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    // Every `<a href` left is a link kept above: raw HTML was turned into text.
    out.replace("<a href=", "<a rel=\"noopener noreferrer nofollow\" target=\"_blank\" href=")
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn markdown_renders() {
        assert_eq!(to_html("**Total** : 12 €"), "<p><strong>Total</strong> : 12 €</p>\n");
        let list = to_html("- a\n- b");
        assert!(list.contains("<ul>") && list.contains("<li>a</li>"), "{list}");
        let table = to_html("| a | b |\n|---|---|\n| 1 | 2 |");
        assert!(table.contains("<table>") && table.contains("<td>1</td>"), "{table}");
    }

    #[test]
    fn raw_html_is_shown_not_run() {
        for bad in [
            "<script>alert(1)</script>",
            "hello <img src=x onerror=alert(1)> there",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<a href=\"javascript:alert(1)\">x</a>",
        ] {
            let html = to_html(bad);
            assert!(
                !html.contains("<script") && !html.contains("<img") && !html.contains("<iframe"),
                "{html}"
            );
            assert!(!html.contains("<a "), "{html}");
        }
    }

    #[test]
    fn images_do_not_load_and_links_are_safe() {
        let html = to_html("![tracker](https://evil.example/pixel.png)");
        assert!(
            !html.contains("<img") && !html.contains("evil.example") && html.contains("[tracker]"),
            "{html}"
        );
        let html = to_html("[site](https://sou.example/a?b=1&c=2)");
        assert!(
            html.contains(r#"<a rel="noopener noreferrer nofollow" target="_blank" href="https://sou.example/a?b=1&amp;c=2">site</a>"#),
            "{html}"
        );
        for bad in [
            "[x](javascript:alert(1))",
            "[x](JaVaScRiPt:alert(1))",
            "[x](data:text/html,hi)",
            "[x](vbscript:y)",
        ] {
            let html = to_html(bad);
            assert!(!html.contains("<a ") && html.contains('x'), "{bad} → {html}");
        }
        let nested = to_html("[**bold** [inner](javascript:x)](https://ok.example)");
        assert!(!nested.contains("javascript"), "{nested}");
    }
}
