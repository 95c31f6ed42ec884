//! Normalisation and tokenisation: lower case, no accents, words and numbers.

/// Messages longer than this are not planned by the parser (they go to the LLM or a
/// clarification); it keeps parsing time bounded whatever the input.
pub const MAX_MESSAGE_CHARS: usize = 500;

pub use crate::token::{Token, TokenKind};

/// Folds one character to lower-case ASCII where it has an obvious ASCII form.
/// Pushes nothing for characters that separate words.
fn fold(c: char, out: &mut String) {
    let lower = c.to_lowercase();
    for c in lower {
        let s = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => "a",
            'ç' => "c",
            'è' | 'é' | 'ê' | 'ë' => "e",
            'ì' | 'í' | 'î' | 'ï' => "i",
            'ñ' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => "o",
            'ù' | 'ú' | 'û' | 'ü' => "u",
            'ý' | 'ÿ' => "y",
            'œ' => "oe",
            'æ' => "ae",
            'ß' => "ss",
            c if c.is_alphanumeric() => {
                out.push(c);
                continue;
            }
            _ => continue,
        };
        out.push_str(s);
    }
}

/// Whether `c` may not appear in a name, title, label or pattern a person gives Sou: a
/// control character (C0, DEL, C1: NUL, ESC, a line break…) or a bidirectional control,
/// which reorders the text shown around it (U+202A–U+202E, U+2066–U+2069, U+200E,
/// U+200F, U+061C) so that what is read is not what is stored.
pub fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The first character of `text` that [`is_hidden_control`] refuses, if any: the one
/// check every name, title, label and pattern goes through before it is stored.
pub fn hidden_control(text: &str) -> Option<char> {
    text.chars().find(|&c| is_hidden_control(c))
}

/// Normalises a whole phrase the way tokens are normalised, words joined by one space.
pub fn normalize(s: &str) -> String {
    tokenize(s).into_iter().map(|t| t.norm).collect::<Vec<_>>().join(" ")
}

pub fn tokenize(message: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let chars: Vec<(usize, char)> = message.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        if matches!(c, '€' | '$' | '£') {
            tokens.push(Token {
                norm: c.to_string(),
                start,
                end: start + c.len_utf8(),
                kind: TokenKind::Currency,
            });
            i += 1;
            continue;
        }
        if !c.is_alphanumeric() {
            i += 1;
            continue;
        }
        let is_number = c.is_ascii_digit();
        let mut norm = String::new();
        let mut j = i;
        while j < chars.len() {
            let (_, cj) = chars[j];
            if is_number {
                let inner_sep = matches!(cj, '/' | '.' | ',' | '-')
                    && j > i
                    && chars.get(j + 1).is_some_and(|(_, n)| n.is_ascii_digit());
                if cj.is_ascii_digit() || inner_sep {
                    norm.push(cj);
                    j += 1;
                    continue;
                }
                break;
            }
            if cj.is_alphanumeric() && !cj.is_ascii_digit() {
                fold(cj, &mut norm);
                j += 1;
                continue;
            }
            break;
        }
        let end = chars.get(j).map_or(message.len(), |(b, _)| *b);
        if !norm.is_empty() {
            tokens.push(Token {
                norm,
                start,
                end,
                kind: if is_number { TokenKind::Number } else { TokenKind::Word },
            });
        }
        i = j.max(i + 1);
    }
    #[cfg(feature = "shorthand")]
    let tokens = crate::shorthand::expand(tokens);
    tokens
}

/// Optimal-string-alignment distance, giving up (returning `limit + 1`) past `limit`.
pub fn edit_distance(a: &str, b: &str, limit: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let width = b.len() + 1;
    let mut prev2 = vec![0usize; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut cur = vec![0usize; width];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > limit {
            return limit + 1;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()].min(limit + 1)
}

/// "restaurants" -> "restaurant", "journaux" -> "journal" is out of scope: only the
/// regular `s`/`x` plural of French and English.
pub fn singular(word: &str) -> &str {
    if word.len() > 3
        && (word.ends_with('s') || word.ends_with('x'))
        && !word.ends_with("ss")
        && !word.ends_with("xx")
    {
        &word[..word.len() - 1]
    } else {
        word
    }
}

/// A small number written in words: "six", "trois", "twelve".
pub(crate) fn number_word(w: &str) -> Option<u32> {
    let n = match w {
        "one" | "un" | "une" => 1,
        "two" | "deux" => 2,
        "three" | "trois" => 3,
        "four" | "quatre" => 4,
        "five" | "cinq" => 5,
        "six" => 6,
        "seven" | "sept" => 7,
        "eight" | "huit" => 8,
        "nine" | "neuf" => 9,
        "ten" | "dix" => 10,
        "eleven" | "onze" => 11,
        "twelve" | "douze" => 12,
        _ => return None,
    };
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidi_characters_are_hidden_controls() {
        for bad in ["a\u{0}b", "\u{1b}[31m", "a\u{7f}", "\u{85}", "x\u{9f}", "tab\there", "line\nbreak"] {
            assert!(hidden_control(bad).is_some(), "{bad:?}");
        }
        for c in ['\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}']
            .into_iter()
            .chain(['\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}'])
        {
            assert_eq!(hidden_control(&format!("gpj{c}.exe")), Some(c), "U+{:04X}", c as u32);
        }
        for good in ["Courses d'été", "Compte joint — Société Générale", "日本語", "café 2025", "🍞 bread"]
        {
            assert_eq!(hidden_control(good), None, "{good}");
        }
    }

    fn norms(s: &str) -> Vec<String> {
        tokenize(s).into_iter().map(|t| t.norm).collect()
    }

    #[test]
    fn folds_accents_case_and_punctuation() {
        assert_eq!(
            norms("Combien j'ai DÉPENSÉ en courses en janvier 2026 ?"),
            ["combien", "j", "ai", "depense", "en", "courses", "en", "janvier", "2026"]
        );
        assert_eq!(norms("Œufs 🍳 au café-crème"), ["oeufs", "au", "cafe", "creme"]);
        assert_eq!(norms("le 12/01/2026, 1,5 k€"), ["le", "12/01/2026", "1,5", "k", "€"]);
        assert_eq!(norms("2026."), ["2026"]);
    }

    #[test]
    fn byte_ranges_quote_the_original() {
        let msg = "En Février 2026";
        let t = tokenize(msg);
        assert_eq!(&msg[t[1].start..t[2].end], "Février 2026");
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("restaurents", "restaurants", 2), 1);
        assert_eq!(edit_distance("cuorses", "courses", 2), 1);
        assert_eq!(edit_distance("abc", "xyzuvw", 2), 3);
        assert_eq!(singular("courses"), "course");
        assert_eq!(singular("express"), "express");
    }

    #[cfg(feature = "shorthand")]
    #[test]
    fn numbers_in_words_are_numbers() {
        for (said, number) in [
            ("septante-cinq euros", "75 euros"),
            ("nonante euros par mois", "90 euros par mois"),
            ("cent vingt-cinq balles", "125 balles"),
            ("quatre-vingt-dix", "90"),
            ("quatre-vingts euros", "80 euros"),
            ("soixante-dix-sept", "77"),
            ("dix-sept", "17"),
            ("vingt et un", "21"),
            ("trois cents euros", "300 euros"),
            ("deux mille", "2000"),
            ("cent euros", "100 euros"),
            ("one hundred and fifty euros", "150 euros"),
            ("a hundred quid", "a 100 quid"),
            ("the last thirty days", "the last 30 days"),
            ("my last ten transactions", "my last 10 transactions"),
            ("twenty-five", "25"),
            ("twenty twenty-six", "20 26"),
            ("top five and the total", "top 5 and the total"),
            ("il y a deux mois", "il y a 2 mois"),
            // Other words alone.
            ("which one", "which one"),
            ("une fois", "une fois"),
            ("en sept", "en sept"),
            ("un compte neuf", "un compte neuf"),
            ("to the cent", "to the cent"),
            ("mille mercis", "mille mercis"),
        ] {
            assert_eq!(norms(said).join(" "), number, "{said}");
        }
        let t = tokenize("budget de septante-cinq €");
        assert_eq!(
            (t[2].kind, &"budget de septante-cinq €"[t[2].start..t[2].end]),
            (TokenKind::Number, "septante-cinq")
        );
    }

    #[cfg(feature = "shorthand")]
    #[test]
    fn shorthand_is_spelled_out() {
        for (typed, read) in [
            ("cmb lidl en octobre", "combien lidl en octobre"),
            ("dep total mois der stp", "depenses total mois dernier stp"),
            ("combien courses cette sem", "combien courses cette semaine"),
            ("cette sem vs sem der", "cette semaine vs semaine dernier"),
            ("budget restos a partir du mois pro", "budget restos a partir du mois prochain"),
            ("montre les transac de la semaine", "montre les transactions de la semaine"),
            ("txns > 500€ oct", "transactions 500 € oct"),
            ("depenses d auj", "depenses d aujourd hui"),
            // Shorthand only where it is one.
            ("la der des ders", "la der des ders"),
            ("un pro", "un pro"),
        ] {
            assert_eq!(norms(typed).join(" "), read, "{typed}");
        }
        // The words as typed, in order, never overlapping.
        let t = tokenize("cmb auj");
        assert_eq!((&"cmb auj"[t[1].start..t[1].end], &"cmb auj"[t[2].start..t[2].end]), ("auj", ""));
        assert!(t.windows(2).all(|w| w[0].end <= w[1].start));
    }
}
