//! `compare_periods`' result: the two totals and their difference; as shares, the change.

use agent::{CompareResult, Locale};
use leptos::prelude::*;

use super::ToolView;
use crate::render::cells::heading;

pub(crate) struct View;

impl ToolView for View {
    type Output = CompareResult;
    const LABEL: (&'static str, &'static str) = ("Comparaisons de périodes", "Period comparisons");

    fn view(r: CompareResult, locale: Locale) -> AnyView {
        comparison(r, locale).into_any()
    }

    fn shares(r: CompareResult, locale: Locale) -> Option<AnyView> {
        let change = match r.change_basis_points {
            Some(bp) => agent::answer::percent(bp, locale),
            None => "—".into(),
        };
        let filters = [r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()];
        Some(
            view! {
                <section class="result" data-testid="result" data-tool="compare_periods">
                    <p class="result-heading">{heading(&filters, &r.current.period)}</p>
                    <p class="total" data-testid="change">{change}</p>
                    <p class="result-sub">
                        {match locale {
                            Locale::Fr => format!("par rapport à {}", r.reference.period.label),
                            Locale::En => format!("compared with {}", r.reference.period.label),
                        }}
                    </p>
                </section>
            }
            .into_any(),
        )
    }

    fn figure(r: &CompareResult, _: bool, locale: Locale) -> Option<String> {
        r.change_basis_points.map(|bp| agent::answer::percent(bp, locale))
    }
}

fn comparison(r: CompareResult, locale: Locale) -> impl IntoView {
    let heading =
        heading(&[r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()], &r.current.period);
    let change = r.change_basis_points.map(|bp| agent::answer::percent(bp, locale));
    let diff = if r.difference.minor > 0 {
        format!("+{}", r.difference.format(locale))
    } else {
        r.difference.format(locale)
    };
    let trend = match r.difference.minor.signum() {
        1 => "trend up",
        -1 => "trend down",
        _ => "trend",
    };
    view! {
        <section class="result" data-testid="result" data-tool="compare_periods">
            <p class="result-heading">{heading}</p>
            <table class="compare">
                <tbody>
                    <tr>
                        <th scope="row">{r.current.period.label.clone()}</th>
                        <td class="num total-cell" data-testid="total" data-minor=r.current.total.minor>
                            {r.current.total.format(locale)}
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">{r.reference.period.label.clone()}</th>
                        <td class="num" data-testid="reference-total" data-minor=r.reference.total.minor>
                            {r.reference.total.format(locale)}
                        </td>
                    </tr>
                    <tr class=trend>
                        <th scope="row">"Δ"</th>
                        <td class="num" data-testid="difference" data-minor=r.difference.minor>
                            {diff} {change.map(|c| format!(" ({c})"))}
                        </td>
                    </tr>
                </tbody>
            </table>
        </section>
    }
}
