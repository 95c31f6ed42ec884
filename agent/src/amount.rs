//! Amounts in messages: "plus de 100 €", "under $20", "entre 50 et 200 euros",
//! "1 234,56 €", "€1,234.56", "1.5k". Amounts become integer minor units.

use crate::locale::Locale;
use crate::money::{Currency, Money};
use crate::text::{Token, TokenKind};

/// Bounds on the size of a transaction (its absolute amount), both inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmountFilter {
    pub min: Option<Money>,
    pub max: Option<Money>,
    pub first: usize,
    pub last: usize,
}

/// Whether `w` names a currency ("€", "euros", "balles", "$").
pub fn is_currency_word(w: &str) -> bool {
    currency_word(w).is_some()
}

pub(crate) fn currency_word(w: &str) -> Option<Currency> {
    let code = match w {
        // "500 balles": euros, as people say them.
        "€" | "eur" | "euro" | "euros" | "balles" => "EUR",
        "$" | "usd" | "dollar" | "dollars" => "USD",
        "£" | "gbp" | "livre" | "livres" | "pound" | "pounds" => "GBP",
        "chf" => "CHF",
        _ => return None,
    };
    Currency::new(code)
}

fn is_time_unit(w: &str) -> bool {
    matches!(
        w,
        "jour"
            | "jours"
            | "day"
            | "days"
            | "semaine"
            | "semaines"
            | "week"
            | "weeks"
            | "mois"
            | "month"
            | "months"
            | "an"
            | "ans"
            | "annee"
            | "annees"
            | "year"
            | "years"
            | "fois"
            | "times"
    )
}

enum Bound {
    Min,
    Max,
    Between,
}

/// Comparator phrases, normalised, longest first.
const COMPARATORS: &[(&[&str], Bound)] = &[
    (&["superieur", "ou", "egal", "a"], Bound::Min),
    (&["superieurs", "a"], Bound::Min),
    (&["superieures", "a"], Bound::Min),
    (&["superieur", "a"], Bound::Min),
    (&["superieure", "a"], Bound::Min),
    (&["inferieur", "a"], Bound::Max),
    (&["inferieure", "a"], Bound::Max),
    (&["inferieurs", "a"], Bound::Max),
    (&["inferieures", "a"], Bound::Max),
    (&["au", "dessus", "de"], Bound::Min),
    (&["en", "dessous", "de"], Bound::Max),
    (&["au", "moins"], Bound::Min),
    (&["au", "plus"], Bound::Max),
    (&["plus", "de"], Bound::Min),
    (&["moins", "de"], Bound::Max),
    (&["more", "than"], Bound::Min),
    (&["greater", "than"], Bound::Min),
    (&["bigger", "than"], Bound::Min),
    (&["larger", "than"], Bound::Min),
    (&["less", "than"], Bound::Max),
    (&["smaller", "than"], Bound::Max),
    (&["at", "least"], Bound::Min),
    (&["at", "most"], Bound::Max),
    (&["over"], Bound::Min),
    (&["depasse"], Bound::Min),
    (&["depassent"], Bound::Min),
    (&["depassant"], Bound::Min),
    (&["exceeding"], Bound::Min),
    (&["exceeds"], Bound::Min),
    (&["exceeded"], Bound::Min),
    (&["exceed"], Bound::Min),
    (&["above"], Bound::Min),
    (&["under"], Bound::Max),
    (&["sous"], Bound::Max),
    (&["below"], Bound::Max),
    (&["between"], Bound::Between),
    (&["entre"], Bound::Between),
];

/// Comparator phrases said after the amount: "250 € or more", "50 balles ou moins".
const AFTER: &[(&[&str], Bound)] = &[
    (&["or", "more"], Bound::Min),
    (&["or", "over"], Bound::Min),
    (&["or", "above"], Bound::Min),
    (&["and", "up"], Bound::Min),
    (&["and", "above"], Bound::Min),
    (&["and", "over"], Bound::Min),
    (&["ou", "plus"], Bound::Min),
    (&["et", "plus"], Bound::Min),
    (&["or", "less"], Bound::Max),
    (&["or", "under"], Bound::Max),
    (&["or", "below"], Bound::Max),
    (&["and", "under"], Bound::Max),
    (&["and", "below"], Bound::Max),
    (&["ou", "moins"], Bound::Max),
    (&["et", "moins"], Bound::Max),
];

struct Reader<'a> {
    tokens: &'a [Token],
    used: &'a [bool],
    locale: Locale,
    default_currency: Currency,
}

impl Reader<'_> {
    fn free(&self, i: usize) -> bool {
        i < self.tokens.len() && !self.used.get(i).copied().unwrap_or(true)
    }

    fn word(&self, i: usize) -> Option<&str> {
        self.free(i).then(|| self.tokens[i].norm.as_str())
    }

    fn adjacent(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(a), Some(b)) => a.end == b.start,
            _ => false,
        }
    }

    /// Digits as written, to minor units: "1 234,56", "1,234.56", "1.5", "1 500".
    /// Returns (minor units, last token used).
    fn number(&self, i: usize, exponent: u32) -> Option<(i64, usize)> {
        let t = self.tokens.get(i).filter(|_| self.free(i))?;
        if t.kind != TokenKind::Number || t.norm.contains('/') || t.norm.contains('-') {
            return None;
        }
        let mut text = t.norm.clone();
        let mut last = i;
        // "1 234,56": groups of three digits after a 1-3 digit head, separated by spaces.
        while text.len() <= 7 && text.bytes().all(|b| b.is_ascii_digit()) {
            let Some(next) = self.tokens.get(last + 1).filter(|_| self.free(last + 1)) else { break };
            let gap = self.tokens[last].end..next.start;
            let group = next.norm.split([',', '.']).next().unwrap_or_default();
            if next.kind == TokenKind::Number && group.len() == 3 && gap.len() <= 3 && !gap.is_empty() {
                text.push_str(&next.norm);
                last += 1;
            } else {
                break;
            }
        }
        let (int, frac) = split_decimal(&text, self.locale)?;
        let scale = 10i64.pow(exponent);
        let mut minor = int.checked_mul(scale)?;
        let frac_digits: String = frac.chars().take(exponent as usize).collect();
        if !frac_digits.is_empty() {
            let f: i64 = frac_digits.parse().ok()?;
            minor = minor.checked_add(f * 10i64.pow(exponent - frac_digits.len() as u32))?;
        }
        // "1.5k", "2k€".
        if self.adjacent(last) && self.word(last + 1) == Some("k") {
            minor = minor.checked_mul(1000)?;
            last += 1;
        }
        Some((minor, last))
    }

    /// An amount with an optional currency before or after: (money, first, last).
    fn amount(&self, i: usize, needs_currency: bool) -> Option<(Money, usize, usize)> {
        let before = self.word(i).and_then(currency_word);
        let start = if before.is_some() { i + 1 } else { i };
        let guess = before.unwrap_or(self.default_currency);
        let (minor, mut last) = self.number(start, guess.exponent())?;
        // ("50e", "75e": the euro sign typed as an "e" against the number.)
        let glued_e = self.word(last + 1) == Some("e")
            && self.tokens.get(last + 1).is_some_and(|e| e.start == self.tokens[last].end);
        let after = self.word(last + 1).and_then(currency_word).or(glued_e.then_some(Currency::EUR));
        if after.is_some() {
            last += 1;
        }
        let currency = before.or(after);
        if needs_currency && currency.is_none() {
            return None;
        }
        // "plus de 3 mois" is a duration, not an amount.
        if currency.is_none() && self.word(last + 1).is_some_and(is_time_unit) {
            return None;
        }
        Some((Money::new(minor, currency.unwrap_or(self.default_currency)), i, last))
    }
}

/// "1,234.56" -> (1234, "56"); "1 234,56" (joined) -> (1234, "56"); "1.500" in French
/// is fifteen hundred, "1.5" is one and a half everywhere.
fn split_decimal(text: &str, locale: Locale) -> Option<(i64, String)> {
    let last_sep = text.rfind([',', '.']);
    let (int_part, frac) = match last_sep {
        None => (text.to_string(), String::new()),
        Some(p) => {
            let after = &text[p + 1..];
            let sep = text.as_bytes()[p];
            let both = text.contains(',') && text.contains('.');
            let thousands = !both
                && after.len() == 3
                && match (sep, locale) {
                    (b',', Locale::En) => true,
                    (b'.', Locale::Fr) => true,
                    _ => text.matches(sep as char).count() > 1,
                };
            if thousands {
                (text.to_string(), String::new())
            } else {
                (text[..p].to_string(), after.to_string())
            }
        }
    };
    let digits: String = int_part.chars().filter(char::is_ascii_digit).collect();
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    Some((digits.parse().ok()?, frac))
}

/// The amount bounds in the message, if any. A bare number needs a comparator or a
/// currency to count as an amount ("3" alone could be anything).
pub fn find(
    tokens: &[Token],
    used: &[bool],
    locale: Locale,
    default_currency: Currency,
) -> Option<AmountFilter> {
    let r = Reader { tokens, used, locale, default_currency };
    for i in 0..tokens.len() {
        for (pattern, bound) in COMPARATORS {
            let n = pattern.len();
            let matches = i + n <= tokens.len()
                && (i..i + n).all(|j| r.free(j))
                && pattern.iter().zip(&tokens[i..i + n]).all(|(p, t)| *p == t.norm);
            if !matches {
                continue;
            }
            let Some((a, _, last)) = r.amount(i + n, false) else { continue };
            match bound {
                Bound::Min => return Some(AmountFilter { min: Some(a), max: None, first: i, last }),
                Bound::Max => return Some(AmountFilter { min: None, max: Some(a), first: i, last }),
                Bound::Between => {
                    if !matches!(r.word(last + 1), Some("et" | "and" | "a")) {
                        continue;
                    }
                    let Some((b, _, last)) = r.amount(last + 2, false) else { continue };
                    // "entre 50 et 200 €": the currency written once applies to both.
                    let a = Money::new(a.minor, b.currency);
                    let (lo, hi) = if a.minor <= b.minor { (a, b) } else { (b, a) };
                    return Some(AmountFilter { min: Some(lo), max: Some(hi), first: i, last });
                }
            }
        }
    }
    // "EUR 250.00 or more", "100 € ou moins".
    for i in 0..tokens.len() {
        // Without a currency, an amount of something: "transactions of 1,000.00 or more"
        // ("2 or more times" is a count).
        let of = i > 0 && matches!(tokens[i - 1].norm.as_str(), "of" | "de" | "d");
        let Some((a, _, last)) = r.amount(i, !of) else { continue };
        for (pattern, bound) in AFTER {
            let n = pattern.len();
            let matches = (last + 1..=last + n).all(|j| r.free(j))
                && pattern.iter().zip(&tokens[last + 1..]).all(|(p, t)| *p == t.norm);
            if matches {
                let (min, max) = match bound {
                    Bound::Min => (Some(a), None),
                    _ => (None, Some(a)),
                };
                return Some(AmountFilter { min, max, first: i, last: last + n });
            }
        }
    }
    None
}

/// "plus de 100 €", "between $20 and $50": the bounds said back to the user.
pub fn describe(min: Option<Money>, max: Option<Money>, locale: Locale) -> String {
    match (min, max, locale) {
        (Some(a), Some(b), Locale::Fr) if a == b => format!("de {} exactement", a.format(locale)),
        (Some(a), Some(b), Locale::En) if a == b => format!("of exactly {}", a.format(locale)),
        (Some(a), Some(b), Locale::Fr) => format!("entre {} et {}", a.format(locale), b.format(locale)),
        (Some(a), Some(b), Locale::En) => format!("between {} and {}", a.format(locale), b.format(locale)),
        (Some(a), None, Locale::Fr) => format!("au moins {}", a.format(locale)),
        (Some(a), None, Locale::En) => format!("at least {}", a.format(locale)),
        (None, Some(b), Locale::Fr) => format!("au plus {}", b.format(locale)),
        (None, Some(b), Locale::En) => format!("at most {}", b.format(locale)),
        (None, None, _) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenize;

    fn bounds(msg: &str, locale: Locale) -> Option<(Option<i64>, Option<i64>, String)> {
        let tokens = tokenize(msg);
        let used = vec![false; tokens.len()];
        find(&tokens, &used, locale, Currency::EUR).map(|f| {
            let cur = f.min.or(f.max).map(|m| m.currency.to_string()).unwrap_or_default();
            (f.min.map(|m| m.minor), f.max.map(|m| m.minor), cur)
        })
    }

    #[test]
    fn written_amounts() {
        let eur = |a: Option<i64>, b: Option<i64>| Some((a, b, "EUR".to_string()));
        assert_eq!(bounds("plus de 1 234,56 €", Locale::Fr), eur(Some(123_456), None));
        assert_eq!(bounds("plus de 1\u{202f}234,56\u{a0}€", Locale::Fr), eur(Some(123_456), None));
        assert_eq!(bounds("over €1,234.56", Locale::En), eur(Some(123_456), None));
        assert_eq!(bounds("moins de 100 euros", Locale::Fr), eur(None, Some(10_000)));
        assert_eq!(bounds("under 50$", Locale::En), Some((None, Some(5_000), "USD".into())));
        assert_eq!(bounds("above 1.5k", Locale::En), eur(Some(150_000), None));
        assert_eq!(bounds("au moins 1,5k€", Locale::Fr), eur(Some(150_000), None));
        assert_eq!(bounds("entre 200 et 50 €", Locale::Fr), eur(Some(5_000), Some(20_000)));
        assert_eq!(bounds("supérieures à 1.500 €", Locale::Fr), eur(Some(150_000), None));
        assert_eq!(bounds("over 1,500", Locale::En), eur(Some(150_000), None));
        assert_eq!(bounds("plus de 12,5 €", Locale::Fr), eur(Some(1_250), None));
        assert_eq!(bounds("3 mois", Locale::Fr), None);
        assert_eq!(bounds("plus de", Locale::Fr), None);
        assert_eq!(bounds("plus de 3 mois", Locale::Fr), None);
        assert_eq!(bounds("over 99999999999999999999 €", Locale::En), None);
        // Said after the amount.
        assert_eq!(bounds("EUR 250.00 or more", Locale::En), eur(Some(25_000), None));
        assert_eq!(bounds("100 € ou moins", Locale::Fr), eur(None, Some(10_000)));
        assert_eq!(bounds("€1,000.00 and up", Locale::En), eur(Some(100_000), None));
        assert_eq!(bounds("transactions of 1,000.00 or more", Locale::En), eur(Some(100_000), None));
        assert_eq!(bounds("2 or more times", Locale::En), None);
    }
}
