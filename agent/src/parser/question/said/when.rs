//! Words said of a period that make it another ("up to October", "le vendredi",
//! "janvier 26"), a period not begun, and times of year read as something else.

use super::super::Question;
use crate::parser::intent::Kind;
use crate::tool::ToolCall;

impl Question<'_> {
    /// Words around a period that make it another: "up to October", "as of yesterday",
    /// "from October on", "dès octobre" (up to or from it, not it alone); "le vendredi",
    /// "on Fridays", "every Friday" (each one, not the last); "janvier 26", "dec '25"
    /// (the 26th, or 2026?).
    pub(super) fn period_said_around(&self) -> Option<String> {
        use crate::period::{month_word, weekday_number};
        (0..self.tokens.len()).find_map(|i| {
            let (w, next) = (self.w(i), self.w(i + 1));
            let last = i + 1 == self.tokens.len();
            let said = match w {
                // (Not "as of today", nor a balance's "as of": at that date.)
                "up" | "as" => {
                    matches!((w, next), ("up", "to") | ("as", "of"))
                        && !matches!(self.w(i + 2), "today" | "now" | "date")
                        && !(w == "as" && self.kind == Kind::Balance)
                }
                "onwards" | "onward" => true,
                "on" => last && self.find(&["from", "starting"]).is_some_and(|f| f < i),
                "des" => self.span(i, i).to_lowercase() == "dès",
                "every" | "chaque" | "tous" => weekday_number(next).is_some(),
                "le" | "les" => {
                    weekday_number(next.trim_end_matches('s')).is_some()
                        && !matches!(self.w(i + 2), "dernier" | "passe" | "prochain" | "d")
                        && self.tokens.get(i + 2).is_none_or(|t| t.kind != crate::token::TokenKind::Number)
                }
                _ if w.ends_with('s') && w.len() > 6 => weekday_number(&w[..w.len() - 1]).is_some(),
                _ => {
                    let two_digits = self.tokens.get(i + 1).is_some_and(|t| {
                        t.kind == crate::token::TokenKind::Number
                            && t.norm.len() == 2
                            && t.norm.parse::<u32>().is_ok_and(|n| n >= 20)
                    });
                    let before_is_number =
                        i > 0 && self.tokens[i - 1].kind == crate::token::TokenKind::Number;
                    // ("oct 20" in English is a day; "dec '25" is a year.)
                    let apostrophe = self.gap_holds(i + 1, &['\'']);
                    let read_as_year = apostrophe || self.locale == crate::locale::Locale::Fr;
                    month_word(w).is_some() && two_digits && !before_is_number && read_as_year
                }
            };
            said.then(|| self.span(i, (i + 1).min(self.tokens.len() - 1)))
        })
    }

    /// A period that has not begun ("rent next month", "loyer du mois prochain"): nothing
    /// is spent or received in it yet.
    pub(super) fn in_the_future(&self, call: &ToolCall) -> Option<String> {
        let p = call.period()?;
        let writes_ahead = matches!(call, ToolCall::BudgetStatus(_) | ToolCall::RecurringPayments(_));
        (p.start > self.cx.today && !writes_ahead).then(|| p.words.clone()).filter(|w| !w.is_empty())
    }
}

impl Question<'_> {
    /// Words of a time of year read as something else: "pendant les soldes" (the
    /// sales, not balances), "pour la rentrée" (back to school, not money in), "pendant
    /// les vacances", "during my holidays" (a time, not the travel category), and "l'an
    /// dernier" after a period it does not move ("cette semaine l'an dernier").
    pub(super) fn times_of_year(&self, call: &ToolCall) -> Option<String> {
        let words = call.period().map_or("", |p| p.words.as_str());
        let year_back = crate::text::normalize(words);
        (0..self.tokens.len()).find_map(|i| {
            let (prev, w, next) = (self.w(i.wrapping_sub(1)), self.w(i), self.w(i + 1));
            let said = match w {
                "soldes" => {
                    matches!(prev, "les" | "aux" | "des" | "pendant" | "durant") && self.kind == Kind::Balance
                }
                "rentree" => matches!(prev, "la"),
                "vacances" | "holidays" | "holiday" | "vacation" => {
                    // (Not "spent on holidays": the category.)
                    let time = |w: &str| matches!(w, "pendant" | "durant" | "during" | "over");
                    time(prev)
                        || (matches!(prev, "my" | "mes" | "les" | "the" | "our" | "nos")
                            && time(self.w(i.wrapping_sub(2))))
                }
                "an" => {
                    prev == "l"
                        && matches!(next, "dernier" | "passe" | "precedent")
                        && !year_back.contains("an")
                }
                "year" => prev == "last" && !year_back.contains("year"),
                _ => false,
            };
            said.then(|| self.span(i.saturating_sub(1), i))
        })
    }
}
