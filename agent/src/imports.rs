//! What the import pages show and send back: a bank file's detected layout (editable
//! for CSV), its preview, the import's progress and its report. Shared by the server,
//! which reads files, and the browser, which renders and edits these.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::money::Money;

/// Calls `$cb!` with every bank file format Sou reads, in the order detection breaks
/// ties and the upload page names them: its reader's module on the server
/// (`backend::import::<module>`), its variant in [`Format`], the name people know it by,
/// the name the upload page gives it, and the file extensions the upload accepts.
///
/// A new format is one line here and one module beside the server's readers (its
/// detection, its reader, its error); the compiler then asks for nothing else.
#[macro_export]
macro_rules! for_each_format {
    ($cb:ident) => {
        $cb! {
            csv Csv "CSV" "CSV" ["csv", "txt"],
            ofx Ofx "OFX" "OFX/QFX" ["ofx", "qfx", "ofc"],
            qif Qif "QIF" "QIF" ["qif"],
            camt Camt "CAMT.053" "CAMT.053" ["xml"],
            mt940 Mt940 "MT940" "MT940" ["sta", "mt940"],
        }
    };
}

macro_rules! formats {
    ($($module:ident $variant:ident $name:literal $upload:literal [$($extension:literal),*],)*) => {
        /// The bank file formats Sou reads (see [`for_each_format!`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Format {
            $($variant,)*
        }

        impl Format {
            /// Every format, in the list's order.
            pub const ALL: &'static [Format] = &[$(Format::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Format::$variant => stringify!($module),)*
                }
            }

            /// The name people know it by.
            pub fn name(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                }
            }

            /// The name the upload page gives it ("OFX/QFX").
            pub fn upload_name(self) -> &'static str {
                match self {
                    $(Format::$variant => $upload,)*
                }
            }

            /// The file extensions the upload accepts for it, lower case, without the dot.
            pub fn extensions(self) -> &'static [&'static str] {
                match self {
                    $(Format::$variant => &[$($extension),*],)*
                }
            }
        }
    };
}

for_each_format!(formats);

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.as_str() == s)
    }

    /// What an upload's `accept` attribute lists: every format's extensions
    /// (".csv,.txt,.ofx,…").
    pub fn accept() -> String {
        Format::ALL.iter().flat_map(|f| f.extensions()).map(|e| format!(".{e}")).collect::<Vec<_>>().join(",")
    }
}

/// How a file's bytes were read as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    Utf8,
    Windows1252,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Windows1252 => "Windows-1252 (Latin-1)",
        }
    }
}

/// Day, month and year order of a CSV date column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateOrder {
    /// 31/01/2026 (French banks)
    Dmy,
    /// 01/31/2026
    Mdy,
    /// 2026-01-31
    Ymd,
}

impl DateOrder {
    pub const ALL: [DateOrder; 3] = [DateOrder::Dmy, DateOrder::Mdy, DateOrder::Ymd];

    pub fn as_str(self) -> &'static str {
        match self {
            DateOrder::Dmy => "dmy",
            DateOrder::Mdy => "mdy",
            DateOrder::Ymd => "ymd",
        }
    }

    pub fn parse(s: &str) -> Option<DateOrder> {
        DateOrder::ALL.into_iter().find(|o| o.as_str() == s)
    }

    /// An example of a date written in this order.
    pub fn example(self) -> &'static str {
        match self {
            DateOrder::Dmy => "31/01/2026",
            DateOrder::Mdy => "01/31/2026",
            DateOrder::Ymd => "2026-01-31",
        }
    }
}

/// Where a CSV file's amount is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AmountColumns {
    /// One signed column.
    Signed { amount: usize },
    /// Money out in one column, money in in another (either may be signed or not).
    DebitCredit { debit: usize, credit: usize },
}

/// Where a part of a CSV layout was found, from the surest: a known bank layout, a
/// header cell naming it, the values alone (a guess), or the user said so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Found {
    Layout,
    Header,
    #[default]
    Values,
    User,
}

/// How each part of a CSV layout was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confidence {
    pub date: Found,
    pub label: Found,
    pub amount: Found,
}

/// A fee column's amounts: rows of their own, or taken off each row's amount.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fees {
    #[default]
    Separate,
    Netted,
}

/// How to read a CSV file: what detection chose, editable by the user. Columns count
/// from 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mapping {
    pub delimiter: char,
    /// Records (not lines) to skip before the data: preamble and header.
    pub skip: usize,
    /// The header's cells, when the file has one.
    pub header: Option<Vec<String>>,
    pub date: usize,
    pub order: DateOrder,
    pub label: usize,
    pub amounts: AmountColumns,
    /// `,` or `.`
    pub decimal: char,
    /// Detection was not sure which column holds the amounts (no header names one, and
    /// several columns of numbers could): these columns, the chosen one first. The
    /// import waits until the user confirms the layout, which clears it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsure_amount: Vec<usize>,
    /// Most rows read with this layout were rejected for their date or amount, and the
    /// user has not chosen those columns: the import waits. Set on each read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mostly_unreadable: bool,
    /// The known bank layout recognised by its header ("BoursoBank", "Revolut").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    #[serde(default)]
    pub found: Confidence,
    /// Each row's currency (a row in another currency than the file's is not imported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<usize>,
    /// A fee charged on the row, read as a positive charge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee: Option<usize>,
    #[serde(default)]
    pub fees: Fees,
    /// The row's state: pending, reverted, declined rows are not imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<usize>,
    /// The account's running balance: checked against the amounts, never one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<usize>,
    /// Which of the user's accounts each row is of (a file holding several: BoursoBank's
    /// `accountNum`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<usize>,
    /// The label when the label column is empty (N26's payment reference for a fee).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_else: Option<usize>,
}

impl Mapping {
    /// Whether the layout can be imported without asking the user.
    pub fn is_sure(&self) -> bool {
        self.unsure_amount.is_empty() && !self.mostly_unreadable
    }
}

/// A row state that means the bank has not booked it (or undid it): Revolut's and
/// N26's `PENDING`, `REVERTED`, `DECLINED`, `FAILED`, `CANCELLED`, in English or French.
pub fn is_unbooked_state(state: &str) -> bool {
    // Upper case with the accents of French states off: "Annulée" → "ANNULEE".
    let s: String = state
        .trim()
        .to_uppercase()
        .chars()
        .map(|c| match c {
            'É' | 'È' | 'Ê' => 'E',
            c => c,
        })
        .collect();
    [
        "PENDING",
        "REVERTED",
        "REVERSED",
        "DECLINED",
        "FAILED",
        "CANCELLED",
        "CANCELED",
        "EN ATTENTE",
        "ANNULE",
        "ANNULEE",
        "REFUSE",
        "REFUSEE",
        "REJETE",
        "REJETEE",
    ]
    .contains(&s.as_str())
}

/// Changes to the detected CSV layout, as the preview form sends them (columns count
/// from 1 there, as people count them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutEdit {
    pub delimiter: Option<String>,
    pub skip: Option<usize>,
    pub date: Option<usize>,
    pub order: Option<String>,
    pub label: Option<usize>,
    /// `signed` or `debit_credit`
    pub amounts: Option<String>,
    pub amount: Option<usize>,
    pub debit: Option<usize>,
    pub credit: Option<usize>,
    pub decimal: Option<String>,
    /// Optional columns: 0 is none.
    pub currency: Option<usize>,
    pub fee: Option<usize>,
    pub state: Option<usize>,
    /// `separate` or `netted`
    pub fees: Option<String>,
}

impl LayoutEdit {
    /// The preview form's fields that are numbers (columns from 1, lines to skip).
    pub const NUMBERS: [&'static str; 9] =
        ["skip", "date", "label", "amount", "debit", "credit", "currency", "fee", "state"];
    /// Its fields that are words.
    pub const WORDS: [&'static str; 5] = ["delimiter", "order", "amounts", "decimal", "fees"];

    /// The edit a query says, `get` giving a field's value: an empty field, or a number
    /// that does not read, says nothing.
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> LayoutEdit {
        let s = |k: &str| get(k).filter(|v| !v.is_empty());
        let n = |k: &str| s(k).and_then(|v| v.parse::<usize>().ok());
        LayoutEdit {
            delimiter: s("delimiter"),
            skip: n("skip"),
            date: n("date"),
            order: s("order"),
            label: n("label"),
            amounts: s("amounts"),
            amount: n("amount"),
            debit: n("debit"),
            credit: n("credit"),
            decimal: s("decimal"),
            currency: n("currency"),
            fee: n("fee"),
            state: n("state"),
            fees: s("fees"),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == LayoutEdit::default()
    }

    /// Whether the edit names the amount column (or the debit and credit ones).
    fn says_amount(&self) -> bool {
        match self.amounts.as_deref() {
            Some("debit_credit") => self.debit.is_some() && self.credit.is_some(),
            _ => self.amount.is_some(),
        }
    }

    /// `base` with these changes.
    pub fn apply(&self, base: &Mapping) -> Mapping {
        let col = |c: Option<usize>, default: usize| c.map_or(default, |c| c.saturating_sub(1));
        let optional = |c: Option<usize>, default: Option<usize>| match c {
            None => default,
            Some(0) => None,
            Some(c) => Some(c - 1),
        };
        let mut found = base.found;
        if self.date.is_some() {
            found.date = Found::User;
        }
        if self.label.is_some() {
            found.label = Found::User;
        }
        if self.says_amount() {
            found.amount = Found::User;
        }
        let delimiter = match self.delimiter.as_deref() {
            Some("tab") => '\t',
            Some(d) => d.chars().next().filter(|c| [';', ',', '|'].contains(c)).unwrap_or(base.delimiter),
            None => base.delimiter,
        };
        let skip = self.skip.unwrap_or(base.skip);
        let (debit0, credit0, amount0) = match base.amounts {
            AmountColumns::Signed { amount } => (amount, amount, amount),
            AmountColumns::DebitCredit { debit, credit } => (debit, credit, debit),
        };
        let amounts = match self.amounts.as_deref() {
            Some("signed") => AmountColumns::Signed { amount: col(self.amount, amount0) },
            Some("debit_credit") => AmountColumns::DebitCredit {
                debit: col(self.debit, debit0),
                credit: col(self.credit, credit0),
            },
            _ => base.amounts,
        };
        Mapping {
            delimiter,
            skip,
            // Another delimiter or start line: the detected header no longer names the columns.
            header: if delimiter == base.delimiter && skip == base.skip { base.header.clone() } else { None },
            date: col(self.date, base.date),
            order: self.order.as_deref().and_then(DateOrder::parse).unwrap_or(base.order),
            label: col(self.label, base.label),
            amounts,
            decimal: match self.decimal.as_deref() {
                Some(",") => ',',
                Some(".") => '.',
                _ => base.decimal,
            },
            // Sure once the user has said which column holds the amounts; any other
            // change (the account, the decimal mark) leaves the question open.
            unsure_amount: if self.says_amount() { Vec::new() } else { base.unsure_amount.clone() },
            // Read again with the new layout.
            mostly_unreadable: false,
            layout: base.layout.clone(),
            found,
            currency: optional(self.currency, base.currency),
            fee: optional(self.fee, base.fee),
            fees: match self.fees.as_deref() {
                Some("netted") => Fees::Netted,
                Some("separate") => Fees::Separate,
                _ => base.fees,
            },
            state: optional(self.state, base.state),
            balance: base.balance,
            account: base.account,
            label_else: base.label_else,
        }
    }
}

/// A line of a file that was not imported, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    pub line: u64,
    pub why: Why,
}

impl Rejected {
    /// The reason in English.
    pub fn reason(&self) -> String {
        self.why.text(crate::locale::Locale::En)
    }
}

/// Why a line was not imported. `fields` name where the format keeps the value
/// (`DTPOSTED`, `T line`), `format` how a date should be written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Why {
    NoDate {
        fields: Vec<String>,
    },
    BadDate {
        value: String,
        format: Option<String>,
    },
    NoAmount {
        fields: Vec<String>,
    },
    BadAmount {
        value: String,
    },
    /// More than two decimals that are not zeros ("-3.14159"): cents are kept, never
    /// rounded.
    TooPrecise {
        value: String,
    },
    DebitAndCredit,
    NoLabel {
        fields: Vec<String>,
    },
    OtherCurrency {
        currency: String,
        account: String,
    },
    NoDirection,
    BadDirection {
        value: String,
    },
    /// The bank says the line is not booked (pending, reverted, declined).
    NotBooked {
        state: String,
    },
    /// A file naming the account of each line names none for this one.
    NoAccount,
}

impl Why {
    pub fn text(&self, locale: crate::locale::Locale) -> String {
        use crate::locale::Locale::{En, Fr};
        let fields = |f: &[String], or: &str| {
            if f.is_empty() {
                String::new()
            } else {
                format!(" ({})", f.join(or))
            }
        };
        match (self, locale) {
            (Why::NoDate { fields: f }, En) => format!("no date{}", fields(f, " or ")),
            (Why::NoDate { fields: f }, Fr) => format!("pas de date{}", fields(f, " ou ")),
            (Why::BadDate { value, format }, En) => {
                format!(
                    "the date {value:?} is not a valid date{}",
                    format.as_ref().map(|f| format!(" ({f})")).unwrap_or_default()
                )
            }
            (Why::BadDate { value, format }, Fr) => format!(
                "la date « {value} » n'est pas une date valide{}",
                format
                    .as_ref()
                    .map(|f| format!(" ({})", f.replace("DD", "JJ").replace("YYYY", "AAAA")))
                    .unwrap_or_default()
            ),
            (Why::NoAmount { fields: f }, En) => format!("no amount{}", fields(f, " or ")),
            (Why::NoAmount { fields: f }, Fr) => format!("pas de montant{}", fields(f, " ou ")),
            (Why::BadAmount { value }, En) => format!("the amount {value:?} is not a number"),
            (Why::BadAmount { value }, Fr) => format!("le montant « {value} » n'est pas un nombre"),
            (Why::TooPrecise { value }, En) => {
                format!("the amount {value:?} has more than two decimals; Sou keeps cents and does not round")
            }
            (Why::TooPrecise { value }, Fr) => format!(
                "le montant « {value} » a plus de deux décimales ; Sou garde les centimes et n'arrondit pas"
            ),
            (Why::DebitAndCredit, En) => "both a debit and a credit".into(),
            (Why::DebitAndCredit, Fr) => "un débit et un crédit à la fois".into(),
            (Why::NoLabel { fields: f }, En) => format!("no label{}", fields(f, " or ")),
            (Why::NoLabel { fields: f }, Fr) => format!("pas de libellé{}", fields(f, " ou ")),
            (Why::OtherCurrency { currency, account }, En) => {
                format!("the amount is in {currency}, the account in {account}")
            }
            (Why::OtherCurrency { currency, account }, Fr) => {
                format!("le montant est en {currency}, le compte en {account}")
            }
            (Why::NoDirection, En) => "no direction (CdtDbtInd)".into(),
            (Why::NoDirection, Fr) => "pas de sens (CdtDbtInd)".into(),
            (Why::BadDirection { value }, En) => format!("the direction {value:?} is neither CRDT nor DBIT"),
            (Why::BadDirection { value }, Fr) => format!("le sens « {value} » n'est ni CRDT ni DBIT"),
            (Why::NotBooked { state }, En) => {
                format!("the bank marks it {state}: not booked, so not imported")
            }
            (Why::NotBooked { state }, Fr) => {
                format!("la banque l'indique « {state} » : pas comptabilisée, donc pas importée")
            }
            (Why::NoAccount, En) => "the file names an account for its other lines, none for this one".into(),
            (Why::NoAccount, Fr) => "le fichier nomme le compte de ses autres lignes, pas de celle-ci".into(),
        }
    }
}

/// One transaction of a file, as it will be imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviewRow {
    pub line: u64,
    pub date: Date,
    pub label: String,
    pub amount: Money,
    /// The merchant recognised in the label.
    pub merchant: Option<String>,
    /// The category a rule or the merchant gives it, in the page's language.
    pub category: Option<String>,
    /// Already in the account: the import will skip it.
    pub duplicate: bool,
}

/// What a file says of the account's balance, and whether its rows agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BalanceCheck {
    /// Where the file states balances: `LEDGERBAL`, `OPBD/CLBD`, a column's name, a
    /// QIF "Opening Balance" line.
    pub source: String,
    /// The balance before the file's first row, and the day it applies from.
    pub opening: Option<(Date, Money)>,
    /// Stated by the file (else derived: the closing balance less the rows).
    pub opening_stated: bool,
    /// The balance the file states at its end.
    pub closing: Option<(Date, Money)>,
    /// The balance at the closing date the rows give: from the opening, or from the
    /// account's balance in Sou plus the rows not yet there.
    pub computed: Option<Money>,
    /// Lines where a running balance does not follow from the amounts (a row missing).
    pub breaks: Vec<u64>,
    /// The import sets the account's opening balance to `opening` (a new account, or
    /// one without transactions, and the rows agree with the balances).
    pub sets_opening: bool,
}

impl BalanceCheck {
    /// The stated closing balance less the computed one, when both are known.
    pub fn gap(&self) -> Option<i64> {
        Some(self.closing?.1.minor.saturating_sub(self.computed?.minor))
    }

    /// Whether the rows agree with every balance the file states.
    pub fn adds_up(&self) -> bool {
        self.gap().unwrap_or(0) == 0 && self.breaks.is_empty()
    }
}

/// One of the accounts a file names, and where its rows go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartView {
    /// As the file names it (a QIF account's name, an OFX `ACCTID`, an IBAN).
    pub name: String,
    pub rows: u64,
    /// The currency the file states for it.
    pub currency: Option<String>,
    /// The account chosen for it (a key); else a new account of its name.
    pub account: Option<String>,
    /// Its rows already in the chosen account.
    pub duplicates: u64,
}

/// An account a file can be imported into.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountOption {
    pub key: String,
    pub name: String,
    pub currency: String,
}

/// Where an import stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ImportState {
    /// Read and previewed; nothing imported yet.
    Pending,
    /// Rows written so far (in one transaction: none is visible before the end).
    Running {
        done: u64,
        total: u64,
    },
    Done(ImportReport),
    /// The import stopped and wrote nothing; it can be started again.
    Failed {
        message: String,
    },
}

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportReport {
    pub account: String,
    /// Transactions read from the file.
    pub read: u64,
    pub added: u64,
    /// Already there (this file or an overlapping one was imported before).
    pub duplicates: u64,
    pub rejected: Vec<Rejected>,
    /// The first and last dates imported.
    pub first: Option<Date>,
    pub last: Option<Date>,
    pub imported_at: String,
    /// The account's opening balance the file gave it, and from which day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<(Date, Money)>,
}

/// An uploaded file: its layout, preview and state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportView {
    pub id: String,
    pub file_name: String,
    pub format: Format,
    pub encoding: Encoding,
    /// The currency the file states, if it does.
    pub currency: Option<String>,
    /// CSV only: the layout used for this preview.
    pub mapping: Option<Mapping>,
    /// CSV only: a name per column (the header's, else "1", "2"…) and a sample value.
    pub columns: Vec<(String, String)>,
    /// Why the layout asked for could not be used (the detected one is shown instead).
    pub mapping_error: Option<String>,
    /// The first rows.
    pub rows: Vec<PreviewRow>,
    pub total_rows: u64,
    /// Rows already in the chosen account.
    pub duplicates: u64,
    pub rejected: Vec<Rejected>,
    pub accounts: Vec<AccountOption>,
    /// The account chosen for this preview, else the name a new one would get.
    pub account: Option<String>,
    pub new_account_name: String,
    /// A file naming several accounts: each one, with its target.
    #[serde(default)]
    pub parts: Vec<PartView>,
    /// The file states no currency (or `XXX`, none): a new account's is asked for.
    #[serde(default)]
    pub asks_currency: bool,
    /// The currencies a new account may be opened in, the user's first.
    #[serde(default)]
    pub currencies: Vec<String>,
    /// The balances the file states, checked against its rows.
    #[serde(default)]
    pub balances: Option<BalanceCheck>,
    pub state: ImportState,
}

/// A past or pending import, for the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportSummary {
    pub id: String,
    pub file_name: String,
    pub format: Format,
    pub created_at: String,
    /// `None` while it is pending.
    pub added: Option<u64>,
    pub duplicates: Option<u64>,
    pub rejected: Option<u64>,
}

/// A categorisation rule: a label containing `pattern` gets `category`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleView {
    pub id: i64,
    pub pattern: String,
    pub category_key: String,
    pub category: String,
    pub created_at: String,
}

/// A rule just created, and the past transactions it would change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleProposal {
    pub rule: RuleView,
    /// Past transactions whose label matches.
    pub matching: u64,
    /// Of those, how many have another category (or none) today.
    pub changing: u64,
    /// A few of them: date, label, amount, category today.
    pub sample: Vec<(Date, String, Money, Option<String>)>,
}

/// A category a rule can give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryOption {
    pub key: String,
    pub name: String,
}

#[cfg(test)]
mod tests {
    #[test]
    fn unbooked_states_in_english_and_french() {
        for s in ["PENDING", "Reverted", "declined", "Annulée", "REFUSÉE", "en attente", "Rejeté"] {
            assert!(super::is_unbooked_state(s), "{s}");
        }
        for s in ["COMPLETED", "settled", "Exécutée", "", "ANNULÉES"] {
            assert!(!super::is_unbooked_state(s), "{s}");
        }
    }

    /// A format's name in the store and on the wire is its reader's module name, and
    /// reads back to itself; no two formats accept the same extension.
    #[test]
    fn every_format_is_named_once_and_reads_back() {
        use super::Format;
        let mut extensions: Vec<&str> = Vec::new();
        for &f in Format::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), serde_json::json!(f.as_str()));
            assert_eq!(Format::parse(f.as_str()), Some(f));
            assert!(!f.extensions().is_empty(), "{f:?}");
            extensions.extend(f.extensions());
        }
        let count = extensions.len();
        extensions.sort_unstable();
        extensions.dedup();
        assert_eq!(extensions.len(), count, "an extension in two formats");
        let accept = Format::accept();
        assert_eq!(accept.split(',').count(), count, "{accept}");
        assert!(accept.starts_with(".csv,.txt,.ofx,.qfx,.ofc,.qif,.xml"), "{accept}");
    }
}
