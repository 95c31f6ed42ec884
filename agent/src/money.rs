//! Money is integer minor units plus an ISO 4217 currency. There is no `f64` here.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::locale::Locale;

/// `{"minor": -4599, "currency": "EUR"}` is minus 45.99 euros.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

/// Three upper-case ASCII letters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency([u8; 3]);

impl Currency {
    pub const EUR: Currency = Currency(*b"EUR");

    pub fn new(code: &str) -> Option<Currency> {
        let b = code.as_bytes();
        if b.len() == 3 && b.iter().all(u8::is_ascii_uppercase) {
            Some(Currency([b[0], b[1], b[2]]))
        } else {
            None
        }
    }

    pub fn as_str(&self) -> &str {
        // Constructed only from ASCII upper-case letters.
        std::str::from_utf8(&self.0).unwrap_or("XXX")
    }

    /// Digits after the decimal point (ISO 4217 exponent).
    pub fn exponent(&self) -> u32 {
        match &self.0 {
            b"JPY" | b"KRW" | b"XOF" | b"XAF" | b"CLP" | b"ISK" | b"VND" => 0,
            b"BHD" | b"KWD" | b"OMR" | b"TND" | b"JOD" => 3,
            _ => 2,
        }
    }

    fn symbol(&self) -> Option<&'static str> {
        match &self.0 {
            b"EUR" => Some("€"),
            b"USD" => Some("$"),
            b"GBP" => Some("£"),
            b"JPY" => Some("¥"),
            b"CHF" => Some("CHF"),
            _ => None,
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Currency {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Currency".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 currency code"
        })
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Currency {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Currency::new(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("invalid currency {s:?}, expected an ISO 4217 code"))
        })
    }
}

impl Money {
    pub fn new(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    /// Formats for people: `1 234,56 €` in French, `€1,234.56` in English.
    pub fn format(&self, locale: Locale) -> String {
        let exp = self.currency.exponent();
        let scale = 10u64.pow(exp);
        let abs = self.minor.unsigned_abs();
        let units = group_thousands(abs / scale, locale);
        let number = if exp == 0 {
            units
        } else {
            let sep = match locale {
                Locale::Fr => ',',
                Locale::En => '.',
            };
            format!("{units}{sep}{:0width$}", abs % scale, width = exp as usize)
        };
        let sign = if self.minor < 0 { "-" } else { "" };
        match (locale, self.currency.symbol()) {
            (Locale::Fr, Some(sym)) => format!("{sign}{number}\u{a0}{sym}"),
            (Locale::Fr, None) => format!("{sign}{number}\u{a0}{}", self.currency),
            (Locale::En, Some(sym)) if sym.chars().count() == 1 => format!("{sign}{sym}{number}"),
            (Locale::En, _) => format!("{sign}{} {number}", self.currency),
        }
    }
}

pub(crate) fn group_thousands(n: u64, locale: Locale) -> String {
    let digits = n.to_string();
    let sep = match locale {
        Locale::Fr => '\u{202f}',
        Locale::En => ',',
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// `part / whole` in hundredths of a percent, rounded half away from zero; `None` when
/// the whole is zero. Integers only.
pub fn share_bp(part: i64, whole: i64) -> Option<i64> {
    if whole == 0 {
        return None;
    }
    let (p, w) = (i128::from(part) * 10_000, i128::from(whole));
    let q = (2 * p + w.signum() * p.signum() * w.abs()) / (2 * w);
    i64::try_from(q).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_per_locale() {
        let m = Money::new(123_456, Currency::EUR);
        assert_eq!(m.format(Locale::Fr), "1\u{202f}234,56\u{a0}€");
        assert_eq!(m.format(Locale::En), "€1,234.56");
        let m = Money::new(-5, Currency::EUR);
        assert_eq!(m.format(Locale::En), "-€0.05");
        let jpy = Money::new(1500, Currency::new("JPY").unwrap());
        assert_eq!(jpy.format(Locale::En), "¥1,500");
        let chf = Money::new(1000, Currency::new("CHF").unwrap());
        assert_eq!(chf.format(Locale::En), "CHF 10.00");
    }

    #[test]
    fn currency_json() {
        let m: Money = serde_json::from_str(r#"{"minor":-4599,"currency":"EUR"}"#).unwrap();
        assert_eq!(m, Money::new(-4599, Currency::EUR));
        assert!(serde_json::from_str::<Money>(r#"{"minor":1,"currency":"eur"}"#).is_err());
    }
}
