//! `income_summary`'s result: `spending_summary`'s views, on money coming in.

use agent::{Locale, SummaryResult};
use leptos::prelude::*;

use super::spending_summary::{shares, summary};
use super::ToolView;

pub(crate) struct View;

impl ToolView for View {
    type Output = SummaryResult;
    const LABEL: (&'static str, &'static str) = ("Revenus", "Income");

    fn view(r: SummaryResult, locale: Locale) -> AnyView {
        summary(r, "income_summary", locale).into_any()
    }

    fn shares(r: SummaryResult, locale: Locale) -> Option<AnyView> {
        Some(shares(r, locale))
    }

    fn figure(r: &SummaryResult, amounts: bool, locale: Locale) -> Option<String> {
        amounts.then(|| r.total.format(locale))
    }
}
