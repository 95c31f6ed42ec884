//! A word, a number or a currency sign of a message, where it stands in it.

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
