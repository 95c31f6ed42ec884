//! What a session was opened from, in a person's words: the browser and the system a
//! `User-Agent` names ("Chrome" and "Linux"), each a name from a fixed list, or none.
//! Only these names are stored, never the header: whatever a client sends, the
//! sessions list shows one of the names below.

/// The browser and system of a session, as names from the lists below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Device {
    pub browser: Option<&'static str>,
    pub os: Option<&'static str>,
}

/// At most this much of a header is read.
const READ: usize = 512;

/// Browsers by a word of their `User-Agent`, the first that matches: those built on
/// Chromium before Chrome, Chrome before Safari (both say "Safari").
const BROWSERS: &[(&str, &str)] = &[
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("EdgiOS/", "Edge"),
    ("OPR/", "Opera"),
    ("Opera", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Vivaldi/", "Vivaldi"),
    ("YaBrowser/", "Yandex Browser"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("HeadlessChrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
];

/// Systems, the first that matches: iPhone and iPad before macOS (they say "like Mac
/// OS X"), Android and ChromeOS before Linux.
const SYSTEMS: &[(&str, &str)] = &[
    ("iPhone", "iOS"),
    ("iPod", "iOS"),
    ("iPad", "iPadOS"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
    ("X11", "Linux"),
    ("FreeBSD", "FreeBSD"),
];

/// The device a `User-Agent` header names.
pub fn device(user_agent: &str) -> Device {
    let mut end = user_agent.len().min(READ);
    while !user_agent.is_char_boundary(end) {
        end -= 1;
    }
    let ua = &user_agent[..end];
    let find =
        |list: &[(&str, &'static str)]| list.iter().find(|(word, _)| ua.contains(word)).map(|(_, n)| *n);
    Device { browser: find(BROWSERS), os: find(SYSTEMS) }
}

/// A stored name, if it is one of the lists' (a row written by hand shows nothing).
pub fn known(name: Option<&str>) -> Option<&'static str> {
    let name = name?;
    BROWSERS.iter().chain(SYSTEMS).map(|(_, n)| *n).find(|n| *n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(ua: &str) -> (Option<&'static str>, Option<&'static str>) {
        let d = device(ua);
        (d.browser, d.os)
    }

    #[test]
    fn browsers_and_systems_are_named() {
        let cases = [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                (Some("Chrome"), Some("Linux")),
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
                (Some("Chrome"), Some("Linux")),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                (Some("Edge"), Some("Windows")),
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0",
                (Some("Firefox"), Some("macOS")),
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
                (Some("Safari"), Some("macOS")),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                (Some("Safari"), Some("iOS")),
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1",
                (Some("Chrome"), Some("iPadOS")),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
                (Some("Samsung Internet"), Some("Android")),
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                (Some("Chrome"), Some("ChromeOS")),
            ),
            ("curl/8.5.0", (Some("curl"), None)),
            ("", (None, None)),
            ("<script>alert(1)</script>", (None, None)),
        ];
        for (ua, expected) in cases {
            assert_eq!(named(ua), expected, "{ua}");
        }
    }

    #[test]
    fn only_the_start_of_a_long_header_is_read() {
        let long = format!("{}Firefox/1 (Windows)", "é".repeat(400));
        assert_eq!(named(&long), (None, None));
        assert_eq!(
            named(&format!("Firefox/1 (Windows){}", "x".repeat(100_000))),
            (Some("Firefox"), Some("Windows"))
        );
    }

    #[test]
    fn only_listed_names_are_shown() {
        assert_eq!(known(Some("Firefox")), Some("Firefox"));
        assert_eq!(known(Some("iPadOS")), Some("iPadOS"));
        assert_eq!(known(Some("<b>Evil</b>")), None);
        assert_eq!(known(None), None);
    }
}
