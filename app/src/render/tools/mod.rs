//! Each tool's result as a page shows it, one file each: its view in an answer, as a
//! report of shares shows it (or not at all), the large figure of a shared page's
//! picture, and its name in the widget form. `agent::for_each_tool!` expands into the
//! dispatches below, so a read tool without a file here does not compile.

use agent::{Locale, ToolOutput};
use leptos::prelude::*;

/// What a page draws of one tool's result.
pub(crate) trait ToolView {
    type Output;

    /// The tool as the widget form names it: French, English.
    const LABEL: (&'static str, &'static str);

    /// The result in an answer.
    fn view(r: Self::Output, locale: Locale) -> AnyView;

    /// The result in a report of shares only, no amount of money written; `None` when
    /// it only exists as amounts (the report says it left it out).
    fn shares(_: Self::Output, _: Locale) -> Option<AnyView> {
        None
    }

    /// The figure a shared page's picture shows large when it has no chart, amounts
    /// shown or not; `None`: no figure.
    fn figure(_: &Self::Output, _amounts: bool, _: Locale) -> Option<String> {
        None
    }
}

macro_rules! app_tools {
    (
        ledger: [$($l:ident $L:ident,)*]
        dataset: [$($d:ident $D:ident,)*]
        write: [$($w:ident $W:ident,)*]
    ) => {
        $(pub(crate) mod $l;)*
        $(pub(crate) mod $d;)*

        /// A tool's result as the answer shows it.
        pub fn tool_output(output: ToolOutput, locale: Locale) -> AnyView {
            match output {
                $(ToolOutput::$L(r) => <$l::View as ToolView>::view(r, locale),)*
                $(ToolOutput::$D(r) => <$d::View as ToolView>::view(r, locale),)*
            }
        }

        /// A tool's result in a report of shares; `None` when it only exists as amounts.
        pub(crate) fn shares(output: ToolOutput, locale: Locale) -> Option<AnyView> {
            match output {
                $(ToolOutput::$L(r) => <$l::View as ToolView>::shares(r, locale),)*
                $(ToolOutput::$D(r) => <$d::View as ToolView>::shares(r, locale),)*
            }
        }

        /// The large figure of a shared page's picture.
        pub(crate) fn figure(output: &ToolOutput, amounts: bool, locale: Locale) -> Option<String> {
            match output {
                $(ToolOutput::$L(r) => <$l::View as ToolView>::figure(r, amounts, locale),)*
                $(ToolOutput::$D(r) => <$d::View as ToolView>::figure(r, amounts, locale),)*
            }
        }

        /// A read tool as the widget form names it; empty for another name.
        pub(crate) fn label(name: &str, locale: Locale) -> &'static str {
            let (fr, en) = match name {
                $(stringify!($l) => <$l::View as ToolView>::LABEL,)*
                $(stringify!($d) => <$d::View as ToolView>::LABEL,)*
                _ => ("", ""),
            };
            locale.pick(fr, en)
        }
    };
}

agent::for_each_tool!(app_tools);
