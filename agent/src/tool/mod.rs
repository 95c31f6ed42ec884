//! Sou's tools, one file each, and the one list they are made from.
//!
//! A tool's file holds what the agent knows of it: its description (the registry's, for
//! models and API clients), its arguments and their JSON reader (the browser's, see
//! `plan_json`), what it filters on, its result, the line that
//! names a call ("Dépenses en Courses — janvier 2026"), the sentence that answers with
//! its result, what a shared page hides of it, and what a step of a plan expects of it.
//! [`for_each_tool!`] lists every tool once, in the registry's order; this module, the
//! server's registry and runner and the pages' views expand it into their `match`es,
//! so a tool left out of one of them does not compile.

use crate::amount;
use crate::args::Period;
use crate::locale::Locale;
use crate::money::Money;
use crate::tools::{EntityRef, TransactionRow};
use crate::vocab::Vocabulary;

/// Calls `$cb!` with every tool, in the registry's order, grouped as tools over the
/// ledger, tools over the user's datasets and tools that change data: each entry is the
/// tool's name (its module here, `agent::tool::<name>`, with its `Args` and, for a read,
/// its `Output`) and its variant in [`ToolCall`] (and [`ToolOutput`]).
///
/// A new tool is one line here and one file beside this one; the compiler then lists
/// the places that must say what the tool does (its run on the server, its view).
#[macro_export]
macro_rules! for_each_tool {
    ($cb:ident) => {
        $cb! {
            ledger: [
                spending_summary SpendingSummary,
                income_summary IncomeSummary,
                compare_periods ComparePeriods,
                list_transactions ListTransactions,
                cash_flow CashFlow,
                balances Balances,
                budget_status BudgetStatus,
                recurring_payments RecurringPayments,
                activity Activity,
            ]
            dataset: [
                dataset_info DatasetInfo,
                query_dataset QueryDataset,
                run_sql RunSql,
            ]
            write: [
                set_budget SetBudget,
                create_rule CreateRule,
                recategorise Recategorise,
                merge_merchants MergeMerchants,
                mark_transfers MarkTransfers,
            ]
        }
    };
}

/// What a call filters on, where its tool has it (the others are `None`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Filters<'a> {
    /// The period asked about; ledger reads have one, some writes may.
    pub period: Option<&'a Period>,
    pub category: Option<&'a str>,
    pub merchant: Option<&'a str>,
    pub account: Option<&'a str>,
    pub exclude_category: Option<&'a str>,
    pub exclude_merchant: Option<&'a str>,
    pub amount_min: Option<Money>,
    pub amount_max: Option<Money>,
}

/// What of a call a follow-up or a repair may change. A read's filters; of a write, only
/// its period and the category it writes into.
#[derive(Debug, Default)]
pub struct FiltersMut<'a> {
    pub period: Option<&'a mut Period>,
    pub category: Option<&'a mut Option<String>>,
    pub merchant: Option<&'a mut Option<String>>,
    pub account: Option<&'a mut Option<String>>,
    /// The category and the merchant left out.
    pub excluded: Option<(&'a mut Option<String>, &'a mut Option<String>)>,
    /// The bounds on amounts.
    pub amounts: Option<(&'a mut Option<Money>, &'a mut Option<Money>)>,
    /// The category a write puts transactions or a budget in.
    pub written_category: Option<&'a mut String>,
}

/// What every write is expected to give, as a step of a plan.
const WRITE_EXPECT: (&str, &str) = ("Une modification à approuver", "A change to approve");

/// What a call's line is made of: its filters in words and its period's label, with the
/// two ways of joining them to the tool's own words.
pub(crate) struct Heading<'a> {
    /// "Carrefour, plus de 50 € hors Deliveroo"; `None` when the call has no filter.
    pub filter: Option<String>,
    pub period: &'a str,
}

impl Heading<'_> {
    /// "Paiements récurrents : Netflix — 2026", "Recurring payments: Netflix — 2026".
    pub fn with(&self, what: &str, locale: Locale) -> String {
        match (&self.filter, locale) {
            (Some(f), Locale::Fr) => format!("{what} : {f} — {}", self.period),
            (Some(f), Locale::En) => format!("{what}: {f} — {}", self.period),
            (None, _) => format!("{what} — {}", self.period),
        }
    }
}

/// What [`crate::reports::redact`] takes out of a result a page shares.
pub(crate) struct Hide {
    pub categories: bool,
    pub locale: Locale,
    pub excluded_merchant: Option<String>,
    /// Whether the plan is known; without it every exclusion may be a merchant.
    pub known: bool,
}

impl Hide {
    pub fn someone(&self) -> EntityRef {
        EntityRef { key: String::new(), label: self.locale.pick("un commerçant", "a merchant").into() }
    }

    pub fn rows(&self, rows: &mut [TransactionRow]) {
        for r in rows.iter_mut() {
            r.id = 0;
            if self.categories {
                r.label = r
                    .category
                    .clone()
                    .unwrap_or_else(|| self.locale.pick("Sans catégorie", "Uncategorised").into());
                r.merchant = None;
            }
        }
    }

    pub fn merchant(&self, m: &mut Option<EntityRef>) {
        if self.categories && m.is_some() {
            *m = Some(self.someone());
        }
    }

    pub fn excluded(&self, list: &mut [EntityRef]) {
        if !self.categories {
            return;
        }
        for e in list.iter_mut() {
            if !self.known || self.excluded_merchant.as_deref() == Some(e.key.as_str()) {
                *e = self.someone();
            }
        }
    }
}

/// Expands into the enums and the dispatches of this crate.
macro_rules! agent_tools {
    (
        ledger: [$($l:ident $L:ident,)*]
        dataset: [$($d:ident $D:ident,)*]
        write: [$($w:ident $W:ident,)*]
    ) => {
        $(pub mod $l;)*
        $(pub mod $d;)*
        $(pub mod $w;)*

        /// One call of one tool of the registry. The serde tag is the tool's registry name.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "tool", content = "args", rename_all = "snake_case")]
        pub enum ToolCall {
            $($L($l::Args),)*
            $($D($d::Args),)*
            $($W($w::Args),)*
        }

        /// The output of one tool run; the tag is the tool's registry name.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "tool_name", content = "result", rename_all = "snake_case")]
        pub enum ToolOutput {
            $($L($l::Output),)*
            $($D($d::Output),)*
        }

        impl ToolCall {
            /// The tools over the ledger, in registry order.
            pub const LEDGER_NAMES: &'static [&'static str] = &[$(stringify!($l)),*];

            /// The tools that only read, in registry order.
            pub const READ_NAMES: &'static [&'static str] = &[$(stringify!($l),)* $(stringify!($d)),*];

            /// The tools that change the user's data, in registry order: they run only
            /// once the user approved their effect.
            pub const WRITE_NAMES: &'static [&'static str] = &[$(stringify!($w)),*];

            pub fn name(&self) -> &'static str {
                match self {
                    $(ToolCall::$L(_) => stringify!($l),)*
                    $(ToolCall::$D(_) => stringify!($d),)*
                    $(ToolCall::$W(_) => stringify!($w),)*
                }
            }

            /// Whether the call changes the user's data (and so waits for their approval).
            pub fn is_write(&self) -> bool {
                matches!(self, $(ToolCall::$W(_))|*)
            }

            /// Whether the tool reads datasets rather than the ledger.
            pub fn is_dataset(&self) -> bool {
                matches!(self, $(ToolCall::$D(_))|*)
            }

            /// What the call filters on.
            pub fn filters(&self) -> Filters<'_> {
                match self {
                    $(ToolCall::$L(a) => $l::filters(a),)*
                    $(ToolCall::$D(_) => Filters::default(),)*
                    $(ToolCall::$W(a) => $w::filters(a),)*
                }
            }

            /// What a follow-up or a repair may change of the call.
            pub fn filters_mut(&mut self) -> FiltersMut<'_> {
                match self {
                    $(ToolCall::$L(a) => $l::filters_mut(a),)*
                    $(ToolCall::$D(_) => FiltersMut::default(),)*
                    $(ToolCall::$W(a) => $w::filters_mut(a),)*
                }
            }

            /// What a step running this call is expected to give: "Un total de dépenses".
            pub fn expected(&self, locale: Locale) -> &'static str {
                let (fr, en) = match self {
                    $(ToolCall::$L(_) => $l::EXPECT,)*
                    $(ToolCall::$D(_) => $d::EXPECT,)*
                    $(ToolCall::$W(_) => $w::EXPECT,)*
                };
                locale.pick(fr, en)
            }

            /// The call's line, for a read (writes are worded in `wording`).
            pub(crate) fn title(&self, heading: &Heading<'_>, locale: Locale) -> String {
                match self {
                    $(ToolCall::$L(a) => $l::title(a, heading, locale),)*
                    $(ToolCall::$D(a) => $d::title(a, heading, locale),)*
                    $(ToolCall::$W(_) => String::new(),)*
                }
            }

            /// A write's line: "Budget Restaurants : 300,00 € par mois à partir de
            /// décembre 2026"; `None` for a read.
            #[cfg(feature = "writes")]
            pub(crate) fn write_title(
                &self,
                vocab: &crate::vocab::Vocabulary,
                locale: Locale,
            ) -> Option<String> {
                match self {
                    $(ToolCall::$L(_))|* | $(ToolCall::$D(_))|* => None,
                    $(ToolCall::$W(a) => Some($w::title(vocab, a, locale)),)*
                }
            }

            /// Reads a call from the tool's name and its arguments' JSON, as serde does.
            pub(crate) fn read(
                tool: &str,
                args: &crate::json::Json,
            ) -> Result<ToolCall, serde_json::Error> {
                Ok(match tool {
                    $(stringify!($l) => ToolCall::$L($l::read(args)?),)*
                    $(stringify!($d) => ToolCall::$D($d::read(args)?),)*
                    // The browser's bundle reads no write plan (see `writes` in Cargo.toml).
                    $(#[cfg(feature = "writes")]
                    stringify!($w) => ToolCall::$W($w::read(args)?),)*
                    _ => return crate::json::fail("unknown tool"),
                })
            }
        }

        impl ToolOutput {
            /// Sou's sentence for the result, written without a model: text, never Markdown
            /// (it quotes what banks and files named; see [`crate::protocol::ChatEvent::answer`]).
            pub fn answer(&self, locale: Locale) -> String {
                match self {
                    $(ToolOutput::$L(r) => $l::answer(r, locale),)*
                    $(ToolOutput::$D(r) => $d::answer(r, locale),)*
                }
            }

            /// The period the result is about; dataset tools have none.
            pub fn period(&self) -> Option<&Period> {
                match self {
                    $(ToolOutput::$L(r) => Some($l::period(r)),)*
                    $(ToolOutput::$D(_) => None,)*
                }
            }

            /// The result as a shared page may show it (see [`crate::reports::redact`]).
            pub(crate) fn redact(self, hide: &Hide) -> ToolOutput {
                match self {
                    $(ToolOutput::$L(r) => ToolOutput::$L($l::redact(r, hide)),)*
                    $(ToolOutput::$D(r) => ToolOutput::$D($d::redact(r, hide)),)*
                }
            }
        }
    };
}

for_each_tool!(agent_tools);

/// One line saying what a call computes: "Dépenses en Courses — janvier 2026": its
/// filters in words, then each tool's own words (in its file, `crate::tool`).
pub fn describe(vocab: &Vocabulary, call: &ToolCall, locale: Locale) -> String {
    if let Some(write) = describe_write(vocab, call, locale) {
        return write;
    }
    let period = call.period().map_or("", |p| p.label.as_str());
    let (min, max) = call.amounts();
    let amounts = amount::describe(min, max, locale);
    let names: Vec<String> = [call.merchant().or(call.category()), call.account()]
        .into_iter()
        .flatten()
        .map(|k| vocab.label_of(k, locale))
        .collect();
    let name = (!names.is_empty()).then(|| names.join(", "));
    let filter = match (name, amounts.is_empty()) {
        (Some(n), false) => Some(format!("{n}, {amounts}")),
        (Some(n), true) => Some(n),
        (None, false) => Some(amounts),
        (None, true) => None,
    };
    // "Restaurants hors Deliveroo", "excluding Rent".
    let (ex_category, ex_merchant) = call.excluded();
    let left_out: Vec<String> =
        [ex_merchant, ex_category].into_iter().flatten().map(|k| vocab.label_of(k, locale)).collect();
    let filter = match (filter, crate::wording::excluding(&left_out, locale)) {
        (f, None) => f,
        (None, Some(but)) => Some(but),
        (Some(f), Some(but)) => Some(format!("{f} {but}")),
    };
    call.title(&Heading { filter, period }, locale)
}

/// The browser's line for a write (its bundle has no room for the wording below; the
/// server's rendering of the answer, which replaces it, has the full line).
#[cfg(not(feature = "writes"))]
fn describe_write(
    _: &crate::vocab::Vocabulary,
    call: &ToolCall,
    locale: crate::locale::Locale,
) -> Option<String> {
    call.is_write().then(|| locale.pick("Modification à approuver", "Change to approve").to_string())
}

/// One line saying what a write does: "Budget Restaurants : 300,00 € par mois à partir
/// de décembre 2026". `None` for a read.
#[cfg(feature = "writes")]
fn describe_write(
    vocab: &crate::vocab::Vocabulary,
    call: &ToolCall,
    locale: crate::locale::Locale,
) -> Option<String> {
    call.write_title(vocab, locale)
}

/// What a call filters on, read and changed through [`ToolCall::filters`] and
/// [`ToolCall::filters_mut`], which each tool's file fills.
impl ToolCall {
    /// The period asked about; ledger tools have one, dataset tools none.
    pub fn period(&self) -> Option<&Period> {
        self.filters().period
    }

    pub fn period_mut(&mut self) -> Option<&mut Period> {
        self.filters_mut().period
    }

    /// The category a read filters on, or the one a budget or a rule is for.
    pub fn category(&self) -> Option<&str> {
        self.filters().category
    }

    /// The category a write puts transactions or a budget in: a budget's, a rule's, a
    /// recategorisation's target.
    pub fn written_category_mut(&mut self) -> Option<&mut String> {
        self.filters_mut().written_category
    }

    pub fn merchant(&self) -> Option<&str> {
        self.filters().merchant
    }

    pub fn account(&self) -> Option<&str> {
        self.filters().account
    }

    /// The category and the merchant the call leaves out, where the tool has them.
    pub fn excluded(&self) -> (Option<&str>, Option<&str>) {
        let f = self.filters();
        (f.exclude_category, f.exclude_merchant)
    }

    pub fn amounts(&self) -> (Option<Money>, Option<Money>) {
        let f = self.filters();
        (f.amount_min, f.amount_max)
    }

    /// Sets the amount bounds where the tool has them; other tools ignore them.
    pub fn set_amounts(&mut self, min: Option<Money>, max: Option<Money>) {
        if let Some((lo, hi)) = self.filters_mut().amounts {
            (*lo, *hi) = (min, max);
        }
    }

    /// Sets the category and merchant filters where the tool has them.
    pub fn set_filters(&mut self, category: Option<String>, merchant: Option<String>) {
        let f = self.filters_mut();
        if let Some(c) = f.category {
            *c = category;
        }
        if let Some(m) = f.merchant {
            *m = merchant;
        }
    }

    /// Sets the category and merchant to leave out where the tool has them; returns
    /// whether it has them.
    pub fn set_excluded(&mut self, category: Option<String>, merchant: Option<String>) -> bool {
        match self.filters_mut().excluded {
            Some((c, m)) => {
                (*c, *m) = (category, merchant);
                true
            }
            None => false,
        }
    }

    /// Sets the account filter where the tool has one.
    pub fn set_account(&mut self, account: Option<String>) {
        if let Some(a) = self.filters_mut().account {
            *a = account;
        }
    }
}
