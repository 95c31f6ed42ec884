//! The link preview's picture: the report's title, its one-line summary and its main
//! chart, drawn as a 1200×630 SVG that the server rasterises to PNG. Styles are written
//! on each shape (no stylesheet reaches a rasteriser) and every text names the one font
//! the server embeds, [`FONT`].

use agent::reports::{BlockKind, Figures, ReportPage};
use agent::{Group, ToolOutput};
use leptos::prelude::*;

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;
/// The font family every text of the picture asks for.
pub const FONT: &str = "Noto Sans";
/// Bars drawn, at most.
const BARS: usize = 6;
/// Columns of a time series drawn, at most.
const COLUMNS: usize = 24;

/// The groups the picture draws: the month's categories, or the answer's groups, with
/// the total they are shares of and whether they are a time series.
fn groups(page: &ReportPage) -> Option<(Vec<Group>, i64, bool)> {
    for b in &page.blocks {
        let first = b.outputs.first();
        match (&b.kind, first) {
            (
                BlockKind::Categories | BlockKind::Answer,
                Some(ToolOutput::SpendingSummary(r) | ToolOutput::IncomeSummary(r)),
            ) if !r.groups.is_empty() => {
                let time = r.group_by.is_time();
                let n = if time { COLUMNS } else { BARS };
                return Some((r.groups.iter().take(n).cloned().collect(), r.total.minor, time));
            }
            _ => {}
        }
    }
    None
}

/// With no chart to draw, the answer's figure, large: a total, or a share or change
/// when the report shows no money.
fn figure(page: &ReportPage) -> Option<String> {
    let locale = page.locale;
    let output = page.blocks.first()?.outputs.first()?;
    crate::render::tools::figure(output, page.figures == Figures::Amounts, locale)
}

fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        text.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// The picture as SVG text.
pub fn svg(page: &ReportPage) -> String {
    let owner = Owner::new();
    let svg = owner.with(|| drawing(page).to_html());
    owner.unset();
    // The renderer marks an empty optional part with `<!>`, which is not XML. Text
    // cannot contain it: every `<` of a text is escaped.
    svg.replace("<!>", "")
}

fn drawing(page: &ReportPage) -> impl IntoView {
    let locale = page.locale;
    let title = short(&page.title, 48);
    let summary = short(&page.summary, 68);
    let share = |minor: i64, total: i64| {
        agent::reports::share_bp(minor, total).map(|bp| agent::answer::share(bp, locale)).unwrap_or_default()
    };
    let chart = match groups(page) {
        Some((groups, total, false)) => {
            let max = groups.iter().map(|g| g.total.minor.max(0)).max().unwrap_or(0).max(1);
            let (left, top, row, area) = (330.0_f64, 250.0_f64, 56.0_f64, 560.0_f64);
            groups
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let y = top + row * i as f64;
                    let w = (area * g.total.minor.max(0) as f64 / max as f64).max(2.0);
                    let value = match page.figures {
                        Figures::Amounts => g.total.format(locale),
                        Figures::Shares => share(g.total.minor, total),
                    };
                    view! {
                        <text x=left - 20.0 y=y + 30.0 text-anchor="end" font-family=FONT font-size="26" fill="#3d4451">
                            {short(&g.label, 18)}
                        </text>
                        <rect x=left y=y + 6.0 width=w height=row - 16.0 rx="6" fill="#1f6f5c"></rect>
                        <text x=left + w + 14.0 y=y + 30.0 font-family=FONT font-size="24" fill="#1b1f27">{value}</text>
                    }
                })
                .collect_view()
                .into_any()
        }
        // Months, weeks or days: columns in date order, the first and last named.
        Some((groups, _, true)) => {
            let max = groups.iter().map(|g| g.total.minor.max(0)).max().unwrap_or(0).max(1);
            let (left, bottom, height, width) = (64.0_f64, 560.0_f64, 300.0_f64, 1072.0_f64);
            let step = width / groups.len() as f64;
            let first = groups.first().map(|g| g.label.clone()).unwrap_or_default();
            let last = groups.last().map(|g| g.label.clone()).unwrap_or_default();
            let columns = groups
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let h = (height * g.total.minor.max(0) as f64 / max as f64).max(2.0);
                    view! {
                        <rect x=left + step * i as f64 + step * 0.15 y=bottom - h width=step * 0.7 height=h rx="4" fill="#1f6f5c"></rect>
                    }
                })
                .collect_view();
            view! {
                {columns}
                <text x=left y=bottom + 40.0 font-family=FONT font-size="24" fill="#3d4451">{short(&first, 30)}</text>
                <text x=left + width y=bottom + 40.0 text-anchor="end" font-family=FONT font-size="24" fill="#3d4451">
                    {short(&last, 30)}
                </text>
            }
            .into_any()
        }
        None => match figure(page) {
            Some(f) => view! {
                <text x="64" y="420" font-family=FONT font-size="120" font-weight="bold" fill="#1b1f27">{f}</text>
            }
            .into_any(),
            None => ().into_any(),
        },
    };
    let brand = locale.pick("Sou · rapport partagé", "Sou · shared report");
    view! {
        <svg xmlns="http://www.w3.org/2000/svg" width=WIDTH height=HEIGHT viewBox=format!("0 0 {WIDTH} {HEIGHT}")>
            <rect x="0" y="0" width=WIDTH height=HEIGHT fill="#f6f7f9"></rect>
            <rect x="0" y="0" width="16" height=HEIGHT fill="#1f6f5c"></rect>
            <text x="64" y="84" font-family=FONT font-size="26" fill="#5b6270">{brand}</text>
            <text x="64" y="150" font-family=FONT font-size="50" font-weight="bold" fill="#1b1f27">{title}</text>
            <text x="64" y="205" font-family=FONT font-size="28" fill="#3d4451">{summary}</text>
            {chart}
        </svg>
    }
}

/// Whether the picture has a chart to draw (else it is the title and summary alone).
#[cfg(test)]
pub fn has_chart(page: &ReportPage) -> bool {
    groups(page).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_end_with_an_ellipsis() {
        assert_eq!(short("Alimentation", 5), "Alim…");
        assert_eq!(short("Loyer", 5), "Loyer");
    }
}
