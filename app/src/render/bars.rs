//! Bars and meters as small inline SVGs whose widths are attributes (percentages of
//! the box CSS gives them). A shared report's policy allows no inline style, so a
//! `style="--w:…"` bar would be empty there; drawn this way, the chat and the shared
//! page show the same thing from the same code.

use leptos::prelude::*;

/// A bar filled to `percent` (0–100) of its width; an empty one still shows a sliver.
pub fn bar(class: &'static str, percent: i64) -> impl IntoView {
    let width = if percent > 0 { format!("{}%", percent.min(100)) } else { "2".to_string() };
    let class = if class.is_empty() { "bar".to_string() } else { format!("bar {class}") };
    view! {
        <svg class=class aria-hidden="true" focusable="false">
            <rect class="bar-fill" x="0" y="0" width=width height="100%" rx="3"></rect>
        </svg>
    }
}

/// What assistive technology reads of a meter: its name, the whole percent, the text.
pub struct MeterText {
    pub label: String,
    pub percent: i64,
    pub text: String,
}

/// A budget meter: a track, filled to `percent` (capped at 100) in the colour of
/// `state`, marked at `mark` percent (how much of the period has gone by).
pub fn meter(state: &'static str, mark: Option<i64>, aria: MeterText) -> impl IntoView {
    let MeterText { label, percent, text } = aria;
    let fill = percent.clamp(0, 100);
    let mark = mark.map(|x| {
        let x = format!("{}%", x.clamp(0, 100));
        view! {
            <line class="meter-mark" x1=x.clone() x2=x y1="-30%" y2="130%"></line>
        }
    });
    view! {
        <svg class="meter" role="progressbar" aria-label=label aria-valuemin="0"
            aria-valuemax=percent.max(100) aria-valuenow=percent aria-valuetext=text focusable="false">
            <rect class="meter-track" x="0" y="0" width="100%" height="100%" rx="4"></rect>
            <rect class=format!("meter-fill state-{state}") data-testid="meter-fill" x="0" y="0"
                width=format!("{fill}%") height="100%" rx="4"></rect>
            {mark}
        </svg>
    }
}
