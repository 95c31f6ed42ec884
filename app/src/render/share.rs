//! Sharing: the options every share form asks (snapshot or live, amounts or shares,
//! merchants or categories, how long the link works) and an answer's "Share" form.
//! Plain forms posted to `/reports`, with or without JavaScript.

use agent::Locale;
use leptos::prelude::*;

use crate::i18n::tr;
use crate::post;

/// A group of radio buttons: `(value, label)`, the first checked.
fn choice(
    name: &'static str,
    legend: &'static str,
    options: [(&'static str, &'static str); 2],
    prefix: &str,
) -> impl IntoView {
    let buttons = options
        .into_iter()
        .enumerate()
        .map(|(i, (value, label))| {
            let id = format!("{prefix}-{name}-{value}");
            view! {
                <span class="choice">
                    <input type="radio" id=id.clone() name=name value=value checked=i == 0/>
                    <label for=id>{label}</label>
                </span>
            }
        })
        .collect_view();
    view! {
        <fieldset class="share-choice">
            <legend>{legend}</legend>
            {buttons}
        </fieldset>
    }
}

/// The options of a share, their ids prefixed with `prefix` (one page may hold several).
pub fn share_options(locale: Locale, prefix: &str) -> impl IntoView {
    let title_id = format!("{prefix}-title");
    let days_id = format!("{prefix}-days");
    view! {
        <label for=title_id.clone()>{tr(locale, "Titre (facultatif)", "Title (optional)")}</label>
        <input id=title_id type="text" name="title" maxlength="120"
            placeholder=tr(locale, "Sou en propose un", "Sou suggests one")/>
        {choice("mode", tr(locale, "Chiffres", "Figures"), [
            ("snapshot", tr(locale, "figés à aujourd'hui", "frozen as of today")),
            ("live", tr(locale, "recalculés à chaque lecture", "recomputed on each view")),
        ], prefix)}
        {choice("figures", tr(locale, "Montrer", "Show"), [
            ("amounts", tr(locale, "les montants", "amounts")),
            ("shares", tr(locale, "des parts seulement (%)", "shares only (%)")),
        ], prefix)}
        {choice("names", tr(locale, "Noms", "Names"), [
            ("merchants", tr(locale, "commerçants et libellés", "merchants and labels")),
            ("categories", tr(locale, "catégories seulement", "categories only")),
        ], prefix)}
        <label for=days_id.clone()>{tr(locale, "Le lien marche", "The link works")}</label>
        <select id=days_id name="days">
            <option value="" selected>{tr(locale, "jusqu'à révocation", "until revoked")}</option>
            <option value="7">{tr(locale, "7 jours", "7 days")}</option>
            <option value="30">{tr(locale, "30 jours", "30 days")}</option>
            <option value="90">{tr(locale, "90 jours", "90 days")}</option>
            <option value="365">{tr(locale, "1 an", "1 year")}</option>
        </select>
    }
}

/// Under an answer with a result: "Share", which opens its form.
pub fn answer_share(message_id: String, locale: Locale) -> impl IntoView {
    let prefix = format!("share-{message_id}");
    view! {
        <details class="share" data-testid="share">
            <summary>{tr(locale, "Partager", "Share")}</summary>
            <form method="post" action=post::reports::CREATE.route() class="share-form" data-testid="share-form">
                <input type="hidden" name="kind" value="answer"/>
                <input type="hidden" name="message_id" value=message_id/>
                {share_options(locale, &prefix)}
                <p class="hint">{tr(locale,
                    "Quiconque a le lien pourra lire cette réponse, sans compte. Vous pourrez le révoquer dans Réglages.",
                    "Anyone with the link can read this answer, without an account. You can revoke it in Settings.")}</p>
                <button type="submit">{tr(locale, "Créer le lien", "Create the link")}</button>
            </form>
        </details>
    }
}
