//! The words of an answer and what answering cost. The one place a view is written
//! as HTML: a model's Markdown, sanitised by `markdown.rs`.

use agent::protocol::{TextFormat, Usage};
use agent::Locale;
use leptos::prelude::*;

use crate::i18n::{t, T};

/// Consecutive text pieces of one format, rendered as one block.
pub fn answer_text(text: String, format: TextFormat) -> AnyView {
    match format {
        // A model wrote the whole answer: its Markdown, sanitised by `markdown.rs`.
        TextFormat::Markdown => {
            let html = crate::markdown::to_html(&text);
            view! { <div class="answer" data-testid="answer" inner_html=html></div> }.into_any()
        }
        // Sou's own sentence quotes labels from a bank and cells from files: a text
        // child, escaped like every other, never read as Markdown.
        TextFormat::Text => view! { <div class="answer" data-testid="answer"><p>{text}</p></div> }.into_any(),
    }
}

/// What answering cost, under a model's answer.
pub fn usage_line(usage: &Usage, locale: Locale) -> Option<AnyView> {
    let model = usage.model.clone()?;
    let mut parts = vec![
        model,
        format!(
            "{} {} / {} {}",
            usage.input_tokens,
            t(locale, T::TokensIn),
            usage.output_tokens,
            t(locale, T::TokensOut)
        ),
    ];
    let cost = agent::runs::eur_micros(usage.cost_eur_micros, locale);
    parts.push(format!("{}{cost}", if usage.unpriced { "≥ " } else { "≈ " }));
    if let Some(ms) = usage.first_token_ms {
        parts.push(format!("{} {ms} ms", t(locale, T::FirstToken)));
    }
    Some(
        view! {
            <p class="usage" data-testid="usage" data-route=usage.route.clone()
                data-cost-micros=usage.cost_eur_micros>
                {parts.join(" · ")}
            </p>
        }
        .into_any(),
    )
}
