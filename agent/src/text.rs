//! Normalisation and tokenisation: lower case, no accents, words and numbers.

/// Messages longer than this are not planned by the parser (they go to the LLM or a
/// clarification); it keeps parsing time bounded whatever the input.
pub const MAX_MESSAGE_CHARS: usize = 500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Lower case, accents removed: "dépensé" -> "depense".
    pub norm: String,
    /// Byte range in the original message, to quote the user's own words back.
    pub start: usize,
    pub end: usize,
    pub kind: TokenKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Word,
    /// Digits, possibly with inner `/ . , -` between digits: "2026", "12/01/2026", "1,5".
    Number,
    /// A currency sign: "€", "$", "£".
    Currency,
}

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
    spelled_numbers(tokens)
}

/// Without the feature (the browser), numbers in words stay words.
#[cfg(not(feature = "spelled-numbers"))]
fn spelled_numbers(tokens: Vec<Token>) -> Vec<Token> {
    tokens
}

#[cfg(feature = "spelled-numbers")]
/// What a number word is worth, and how it may follow another.
#[derive(Clone, Copy, PartialEq)]
enum Numeral {
    /// 1–9; `weak` ones are other words alone ("one", "une", "sept" for September,
    /// "neuf" for new) and count only beside another number word.
    Unit(u32, bool),
    /// 10–19.
    Teen(u32),
    /// 20–90.
    Ten(u32),
    Hundred,
    Thousand,
}

#[cfg(feature = "spelled-numbers")]
fn numeral(w: &str) -> Option<Numeral> {
    use Numeral::*;
    Some(match w {
        "one" | "un" | "une" => Unit(1, true),
        "two" | "deux" => Unit(2, false),
        "three" | "trois" => Unit(3, false),
        "four" | "quatre" => Unit(4, false),
        "five" | "cinq" => Unit(5, false),
        "six" => Unit(6, false),
        "seven" => Unit(7, false),
        "sept" => Unit(7, true),
        "eight" | "huit" => Unit(8, false),
        "nine" => Unit(9, false),
        "neuf" => Unit(9, true),
        "ten" | "dix" => Teen(10),
        "eleven" | "onze" => Teen(11),
        "twelve" | "douze" => Teen(12),
        "thirteen" | "treize" => Teen(13),
        "fourteen" | "quatorze" => Teen(14),
        "fifteen" | "quinze" => Teen(15),
        "sixteen" | "seize" => Teen(16),
        "seventeen" => Teen(17),
        "eighteen" => Teen(18),
        "nineteen" => Teen(19),
        "twenty" | "vingt" | "vingts" => Ten(20),
        "thirty" | "trente" => Ten(30),
        "forty" | "quarante" => Ten(40),
        "fifty" | "cinquante" => Ten(50),
        "sixty" | "soixante" => Ten(60),
        "seventy" | "septante" => Ten(70),
        "eighty" | "huitante" | "octante" => Ten(80),
        "ninety" | "nonante" => Ten(90),
        "hundred" | "hundreds" | "cent" | "cents" => Hundred,
        "thousand" | "mille" => Thousand,
        _ => return None,
    })
}

#[cfg(feature = "spelled-numbers")]
/// Money words after which "cent", "mille" or "hundred" alone is a number ("cent euros",
/// "a hundred quid") — elsewhere "to the cent" and "mille mercis" are not.
fn money_word(w: &str) -> bool {
    matches!(w, "€" | "euro" | "euros" | "eur" | "balles" | "piasses" | "quid" | "bucks" | "dollars")
}

#[cfg(feature = "spelled-numbers")]
/// Numbers written in words become one number token: "septante-cinq" → 75, "one hundred
/// and fifty" → 150, "quatre-vingt-dix" → 90, "thirty" → 30. A chain stops where the next
/// word could not follow ("twenty twenty-six" is 20, then 26); "one", "une", "sept" and
/// "neuf" alone stay words.
fn spelled_numbers(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens.iter().any(|t| t.kind == TokenKind::Word && numeral(&t.norm).is_some()) {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match read_numeral(&tokens, i) {
            Some((value, last)) => {
                out.push(Token {
                    norm: value.to_string(),
                    start: tokens[i].start,
                    end: tokens[last].end,
                    kind: TokenKind::Number,
                });
                i = last + 1;
            }
            None => {
                out.push(tokens[i].clone());
                i += 1;
            }
        }
    }
    out
}

#[cfg(feature = "spelled-numbers")]
/// The number spelled from `tokens[i]`, and the index of its last word.
fn read_numeral(tokens: &[Token], i: usize) -> Option<(u32, usize)> {
    use Numeral::*;
    let word = |j: usize| tokens.get(j).filter(|t| t.kind == TokenKind::Word).map(|t| t.norm.as_str());
    let (mut total, mut current) = (0u32, 0u32);
    let mut prev: Option<Numeral> = None;
    let mut last = i;
    let mut j = i;
    while let Some(w) = word(j) {
        // "vingt et un", "one hundred and fifty": a joining word between two numerals.
        let (n, at) = match numeral(w) {
            Some(n) => (n, j),
            None if matches!(w, "et" | "and") && prev.is_some() => match word(j + 1).and_then(numeral) {
                Some(n @ (Unit(..) | Teen(_) | Ten(_))) => (n, j + 1),
                _ => break,
            },
            None => break,
        };
        let follows = match (prev, n) {
            (None, _) => true,
            // "quatre-vingt(s)": four twenties.
            (Some(Unit(4, _)), Ten(20)) => true,
            (Some(Ten(_)), Unit(..)) => true,
            // "soixante-dix", "quatre-vingt-dix-sept".
            (Some(Ten(_)), Teen(_)) => matches!(current % 100, 60 | 80),
            (Some(Teen(10)), Unit(u, _)) => (7..=9).contains(&u),
            (Some(Unit(..) | Teen(_) | Ten(_)), Hundred) => current < 100,
            (Some(Unit(..) | Teen(_) | Ten(_) | Hundred), Thousand) => true,
            (Some(Hundred | Thousand), Unit(..) | Teen(_) | Ten(_)) => true,
            _ => false,
        };
        if !follows {
            break;
        }
        match n {
            Unit(v, _) if prev == Some(Teen(10)) => current += v,
            Ten(20) if prev == Some(Unit(4, false)) => current = current - 4 + 80,
            Unit(v, _) | Teen(v) | Ten(v) => current += v,
            Hundred => current = current.max(1) * 100,
            Thousand => {
                total += current.max(1) * 1000;
                current = 0;
            }
        }
        prev = Some(n);
        last = at;
        j = at + 1;
    }
    let first = numeral(word(i)?)?;
    let alone = last == i;
    let weak = match first {
        Unit(_, weak) => weak,
        Hundred | Thousand => {
            !word(i + 1).is_some_and(money_word)
                && !tokens.get(i + 1).is_some_and(|t| t.kind == TokenKind::Currency)
        }
        _ => false,
    };
    if alone && weak {
        return None;
    }
    Some((total + current, last))
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
    if word.len() > 3 && (word.ends_with('s') || word.ends_with('x')) && !word.ends_with("ss") {
        &word[..word.len() - 1]
    } else {
        word
    }
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

    #[cfg(feature = "spelled-numbers")]
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
}
