//! Charts drawn from a declarative [`ChartSpec`] as SVG — the same code on the server
//! (the page as sent) and in the browser. Accessible: the SVG is an image with a title
//! and a description that lists every value, and each mark has its own title.

use agent::chart::{ChartKind, ChartSpec, Point};
use agent::{Currency, Locale};
use leptos::prelude::*;

use crate::i18n::tr;

const ROW: f64 = 26.0;

/// A chart's drawing area. A chart is drawn twice, wide and narrow, and its figure
/// shows the one that fits its width (a container query in the style), so that on a
/// 360 px phone its 13 px labels stay about 13 px rather than shrinking with a wide
/// drawing to 6 px.
#[derive(Clone, Copy)]
struct Geometry {
    width: f64,
    /// Room left of the bars for their labels, and how many characters fit there.
    labels: f64,
    label_chars: usize,
    /// A pie's legend under it rather than beside it.
    legend_below: bool,
}

const WIDE: Geometry = Geometry { width: 640.0, labels: 150.0, label_chars: 22, legend_below: false };
const NARROW: Geometry = Geometry { width: 340.0, labels: 100.0, label_chars: 13, legend_below: true };

/// How the chart's values are written: plain numbers, or money in a currency.
#[derive(Clone, Copy)]
struct Values {
    locale: Locale,
    currency: Option<Currency>,
    percent: bool,
}

impl Values {
    /// "1500,75", or "1 500,75 €" for money.
    fn text(self, v: f64) -> String {
        if let Some(currency) = self.currency {
            return agent::chart::money(v, currency).format(self.locale);
        }
        let s = format!("{v:.2}");
        let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        match (self.locale, self.percent) {
            (Locale::Fr, false) => s.replace('.', ","),
            (Locale::Fr, true) => format!("{}\u{a0}%", s.replace('.', ",")),
            (Locale::En, false) => s,
            (Locale::En, true) => format!("{s}%"),
        }
    }
}

fn short(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_string()
    } else {
        label.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// "Nord : 1500,75 ; Sud : 800" — every value, for the description.
fn listing(points: &[Point], values: Values) -> String {
    let sep = if values.locale == Locale::Fr { " : " } else { ": " };
    points.iter().map(|p| format!("{}{sep}{}", p.label, values.text(p.value))).collect::<Vec<_>>().join("; ")
}

#[component]
pub fn Chart(spec: ChartSpec, locale: Locale) -> impl IntoView {
    let kind_name = match spec.kind {
        ChartKind::Bar => tr(locale, "Diagramme en barres", "Bar chart"),
        ChartKind::Line => tr(locale, "Courbe", "Line chart"),
        ChartKind::Pie => tr(locale, "Camembert", "Pie chart"),
    };
    let values = Values { locale, currency: spec.currency, percent: spec.percent };
    let desc = format!("{kind_name} — {} / {} — {}", spec.y, spec.x, listing(&spec.points, values));
    let drawing = move |g: Geometry, class: &'static str| {
        let (height, marks) = match spec.kind {
            ChartKind::Bar => bars(&spec.points, values, g),
            ChartKind::Line => line(&spec.points, values, g),
            ChartKind::Pie => pie(&spec.points, values, g),
        };
        view! {
            <svg class=class viewBox=format!("0 0 {} {height}", g.width) role="img"
                xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMinYMin meet">
                <title>{spec.title.clone()}</title>
                <desc>{desc.clone()}</desc>
                {marks}
            </svg>
        }
    };
    let kind = match spec.kind {
        ChartKind::Bar => "bar",
        ChartKind::Line => "line",
        ChartKind::Pie => "pie",
    };
    view! {
        <figure class="chart" data-testid="chart" data-kind=kind>
            {drawing(WIDE, "chart-wide")}
            {drawing(NARROW, "chart-narrow")}
        </figure>
    }
}

/// Horizontal bars from a zero line (negative values go left).
fn bars(points: &[Point], values: Values, g: Geometry) -> (f64, AnyView) {
    let max = points.iter().map(|p| p.value).fold(0.0_f64, f64::max);
    let min = points.iter().map(|p| p.value).fold(0.0_f64, f64::min);
    let span = (max - min).max(f64::EPSILON);
    // Room right of the bars for the longest value (12 px digits are about 7 px wide).
    let widest = points.iter().map(|p| values.text(p.value).chars().count()).max().unwrap_or(0) as f64;
    let area = (g.width - g.labels - (widest * 7.0 + 12.0).max(60.0)).max(40.0);
    let zero = g.labels + area * (-min / span);
    let height = ROW * points.len() as f64 + 8.0;
    let marks = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let y = 4.0 + ROW * i as f64;
            let w = area * p.value.abs() / span;
            let x = if p.value < 0.0 { zero - w } else { zero };
            let value = values.text(p.value);
            view! {
                <g class="mark">
                    <title>{format!("{} : {value}", p.label)}</title>
                    <text x=g.labels - 8.0 y=y + 16.0 text-anchor="end" class="chart-label">{short(&p.label, g.label_chars)}</text>
                    <rect x=x y=y + 4.0 width=w.max(1.0) height=ROW - 8.0 rx="3" class="chart-bar"></rect>
                    <text x=zero.max(x + w) + 6.0 y=y + 16.0 class="chart-value">{value}</text>
                </g>
            }
        })
        .collect_view();
    (height, view! { <line x1=zero x2=zero y1="0" y2=height class="chart-axis"></line> {marks} }.into_any())
}

/// A line through the points in order, with the first and last labels under it.
fn line(points: &[Point], values: Values, g: Geometry) -> (f64, AnyView) {
    let height = 240.0;
    let max = points.iter().map(|p| p.value).fold(f64::MIN, f64::max).max(0.0);
    let min = points.iter().map(|p| p.value).fold(f64::MAX, f64::min).min(0.0);
    let (max_text, min_text) = (values.text(max), values.text(min));
    // Room for the longer of the two axis values (12px digits are about 7px wide).
    let widest = max_text.chars().count().max(min_text.chars().count()) as f64;
    let (top, bottom, left, right) = (16.0, 200.0, (widest * 7.0 + 12.0).max(56.0), g.width - 16.0);
    let span = (max - min).max(f64::EPSILON);
    let step = if points.len() > 1 { (right - left) / (points.len() - 1) as f64 } else { 0.0 };
    let at = |i: usize, v: f64| (left + step * i as f64, bottom - (bottom - top) * (v - min) / span);
    let path = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (x, y) = at(i, p.value);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ");
    let dots = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (x, y) = at(i, p.value);
            view! {
                <circle cx=x cy=y r="3.5" class="chart-dot">
                    <title>{format!("{} : {}", p.label, values.text(p.value))}</title>
                </circle>
            }
        })
        .collect_view();
    let first = points.first().map(|p| p.label.clone()).unwrap_or_default();
    let last = points.last().map(|p| p.label.clone()).unwrap_or_default();
    let (_, zero_y) = at(0, 0.0);
    let marks = view! {
        <line x1=left x2=right y1=zero_y y2=zero_y class="chart-axis"></line>
        <text x=left - 6.0 y=top + 4.0 text-anchor="end" class="chart-value">{max_text}</text>
        <text x=left - 6.0 y=bottom text-anchor="end" class="chart-value">{min_text}</text>
        <polyline points=path class="chart-line" fill="none"></polyline>
        {dots}
        <text x=left y=height - 12.0 class="chart-label">{first}</text>
        <text x=right y=height - 12.0 text-anchor="end" class="chart-label">{last}</text>
    };
    (height, marks.into_any())
}

/// Slices of the total of the positive values.
fn pie(points: &[Point], values: Values, g: Geometry) -> (f64, AnyView) {
    let height: f64 = 240.0;
    let (cx, cy, r) = if g.legend_below { (g.width / 2.0, 110.0, 100.0) } else { (120.0, 120.0, 100.0) };
    // The legend: beside the pie, or under it.
    let (legend_x, legend_top) = if g.legend_below { (8.0, 240.0) } else { (260.0, 24.0) };
    let total: f64 = points.iter().map(|p| p.value.max(0.0)).sum::<f64>().max(f64::EPSILON);
    let mut angle = -std::f64::consts::FRAC_PI_2;
    let slices = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let share = p.value.max(0.0) / total;
            let start = angle;
            angle += share * std::f64::consts::TAU;
            let (x1, y1) = (cx + r * start.cos(), cy + r * start.sin());
            let (x2, y2) = (cx + r * angle.cos(), cy + r * angle.sin());
            let large = if share > 0.5 { 1 } else { 0 };
            let d = if share >= 0.9999 {
                format!("M {cx} {} A {r} {r} 0 1 1 {} {cy} A {r} {r} 0 1 1 {cx} {} Z", cy - r, cx + r - 0.01, cy - r)
            } else {
                format!("M {cx} {cy} L {x1:.2} {y1:.2} A {r} {r} 0 {large} 1 {x2:.2} {y2:.2} Z")
            };
            let legend_y = legend_top + 22.0 * i as f64;
            let percent = match values.locale {
                Locale::Fr => format!("{:.0}\u{a0}%", share * 100.0),
                Locale::En => format!("{:.0}%", share * 100.0),
            };
            view! {
                <g class="mark">
                    <title>{format!("{} : {} ({percent})", p.label, values.text(p.value))}</title>
                    <path d=d class=format!("chart-slice slice-{}", i % 6)></path>
                    <rect x=legend_x y=legend_y - 11.0 width="12" height="12" class=format!("chart-slice slice-{}", i % 6)></rect>
                    <text x=legend_x + 20.0 y=legend_y class="chart-label">
                        {format!("{} — {} ({percent})", short(&p.label, g.label_chars + 8), values.text(p.value))}
                    </text>
                </g>
            }
        })
        .collect_view();
    let legend_end = legend_top + 22.0 * points.len() as f64;
    (if g.legend_below { legend_end } else { height.max(legend_end) }, slices.into_any())
}
