//! Label text in a message: quoted ("…", «…», “…”, 'LIKE THIS'), or after a word
//! that says so ("containing", "le libellé comporte", "the label says"), or a label in
//! capitals as banks write them.

use crate::text::Token;

pub(crate) fn is_text_marker(w: &str) -> bool {
    TEXT_MARKERS.contains(&w)
}

const TEXT_MARKERS: &[&str] = &[
    "contenant",
    "containing",
    "contains",
    "contient",
    "libelle",
    "label",
    "labelled",
    "labeled",
    "marque",
    "marques",
    "marquee",
    "marquees",
    "libelles",
    "libellee",
    "libellees",
    "mentioning",
    "mentions",
    "mentionne",
    "comporte",
    "says",
    "pattern",
    "motif",
];

/// Text between single quotes used as quotes, not apostrophes: "'LA CAVE A BIERES'" (the
/// opening one at the start or after a space, the closing one before a space, a sign or
/// the end): (where the text starts, its length).
pub(crate) fn single_quoted(message: &str) -> Option<(usize, usize)> {
    let bytes = message.as_bytes();
    let open = (0..bytes.len()).find(|&i| {
        bytes[i] == b'\'' && (i == 0 || bytes[i - 1].is_ascii_whitespace() || bytes[i - 1] == b':')
    })?;
    let start = open + 1;
    let len = (start + 1..bytes.len()).find(|&i| {
        bytes[i] == b'\''
            && !bytes[i - 1].is_ascii_whitespace()
            && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace() || b".,;:!?)".contains(b))
    })? - start;
    Some((start, len))
}

/// Text the user wants found in bank labels: between quotes ("NAVIGO", « PAUL »,
/// “SNCF”), or the word after "contenant", "containing", "libellé"… Its tokens are used.
pub(crate) fn label_text(message: &str, tokens: &[Token], used: &mut [bool]) -> Option<String> {
    const QUOTES: [(char, char); 4] = [('"', '"'), ('«', '»'), ('“', '”'), ('\'', '\'')];
    for (open, close) in QUOTES {
        let (inner_start, len) = if open == '\'' {
            let Some(found) = single_quoted(message) else { continue };
            found
        } else {
            let Some(start) = message.find(open) else { continue };
            let inner_start = start + open.len_utf8();
            let Some(len) = message[inner_start..].find(close) else { continue };
            (inner_start, len)
        };
        let inner = message[inner_start..inner_start + len].trim();
        if inner.is_empty() || inner.chars().count() > 60 {
            continue;
        }
        for (i, t) in tokens.iter().enumerate() {
            if (t.start >= inner_start && t.end <= inner_start + len) || is_text_marker(&t.norm) {
                used[i] = true;
            }
        }
        return Some(inner.to_string());
    }
    // A word written in capitals, as bank labels are.
    let caps = |k: usize| {
        tokens.get(k).is_some_and(|t| {
            !used[k]
                && message
                    .get(t.start..t.end)
                    .is_some_and(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase))
        })
    };
    // Said to be in the label, a word in capitals is label text even if another
    // reading took it ("VIREMENT in the label" in a request to mark transfers).
    let said_caps = |k: usize| {
        tokens.get(k).is_some_and(|t| {
            message
                .get(t.start..t.end)
                .is_some_and(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase))
        })
    };
    let mut markers = Vec::new();
    for i in 0..tokens.len() {
        // (The marker may have been read already as a word of the request: "in the
        // label" still says what is before it.)
        if !is_text_marker(&tokens[i].norm) {
            continue;
        }
        // "PAYPAL in the label", "VIR LOYER dans le libellé": the capitals before.
        let before = |k: usize| i.checked_sub(k).map(|j| tokens[j].norm.as_str());
        if matches!((before(2), before(1)), (Some("in" | "dans"), Some("the" | "le" | "la" | "les" | "l")))
            && i >= 3
            && said_caps(i - 3)
        {
            let mut a = i - 3;
            while a > 0 && said_caps(a - 1) {
                a -= 1;
            }
            let text = message.get(tokens[a].start..tokens[i - 3].end)?.to_string();
            used[a..=i].iter_mut().for_each(|u| *u = true);
            return Some(text);
        }
        if used[i] {
            continue;
        }
        // "the label says WISE", "dont le libellé comporte KINE": the text is after the
        // second.
        if tokens.get(i + 1).is_some_and(|t| is_text_marker(&t.norm)) {
            markers.push(i);
            continue;
        }
        let next = tokens.get(i + 1).filter(|_| !used.get(i + 1).copied().unwrap_or(true))?;
        // "with label VIR BOURSO": a label in capitals to its last capital word, though
        // another reading took a word of it ("TOO GOOD TO GO", "AMZN MKTP DE").
        let mut end = i + 1;
        while caps(i + 1) && said_caps(end + 1) {
            end += 1;
        }
        let word = message.get(next.start..tokens[end].end)?.to_string();
        used[i..=end].iter_mut().for_each(|u| *u = true);
        markers.into_iter().for_each(|k| used[k] = true);
        return Some(word);
    }
    None
}
