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

use crate::tools::{EntityRef, TransactionRow};
use crate::{Locale, Money, Period};

/// Calls `$cb!` with every tool, in the registry's order, grouped as tools over the
/// ledger, tools over the user's datasets and tools that change data: each entry is the
/// tool's name (its module here, `agent::tool::<name>`, with its `Args` and, for a read,
/// its `Output`) and its variant in [`crate::ToolCall`] (and [`crate::ToolOutput`]).
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
                vocab: &crate::Vocabulary,
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
            /// Sou's sentence for the result, written without a model.
            pub(crate) fn answer(&self, locale: Locale) -> String {
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

crate::for_each_tool!(agent_tools);
