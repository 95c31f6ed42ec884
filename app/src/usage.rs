//! `/settings/usage`: what the models cost this month and before — per day (with a
//! chart), month, provider and model —, the monthly limits and where they stand (told
//! at 80 %, models stopped at 100 %), and the user's own limit, a plain form.

use crate::post::key;
use agent::runs::{eur_micros, LimitState, UsageReport, UsageRow};
use agent::Locale;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::api::AccountView;
use crate::error::AppError;
use crate::i18n::tr;
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use crate::post;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsageData {
    pub account: AccountView,
    pub locale: Locale,
    pub report: UsageReport,
}

#[server(endpoint = "usage")]
pub async fn load_usage() -> Result<UsageData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        Ok(UsageData {
            account: ssr::account_view()?,
            locale: ssr::accept_language(),
            report: sou.runs().usage(user).await?,
        })
    })
    .await
}

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "usage",
    title: ("Consommation", "Usage"),
    hint: (
        "Ce que les modèles ont coûté, par jour, mois, fournisseur et modèle, et votre limite mensuelle.",
        "What the models cost, per day, month, provider and model, and your monthly limit.",
    ),
    links: &[CardLink { page: "usage", id: "usage", text: ("Voir la consommation", "See usage") }],
};

#[component]
pub fn UsagePage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (error, typed, saved) = leptos_router::hooks::use_query_map()
        .with_untracked(|q| (q.get(key::LIMIT_ERROR), q.get(key::TYPED), q.get(key::SAVED).is_some()));
    let data = Resource::new_blocking(|| (), |_| load_usage());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Usage data error=error.clone() typed=typed.clone() saved/>
        </Loaded>
    }
}

fn table(rows: Vec<UsageRow>, first: &'static str, locale: Locale, testid: &'static str) -> AnyView {
    if rows.is_empty() {
        return view! { <p class="hint">{tr(locale, "Aucun appel.", "No calls.")}</p> }.into_any();
    }
    view! {
        <table class="rows usage-table" data-testid=testid>
            <thead>
                <tr>
                    <th scope="col">{first}</th>
                    <th scope="col" class="num">{tr(locale, "Appels", "Calls")}</th>
                    <th scope="col" class="num">{tr(locale, "Jetons envoyés", "Tokens in")}</th>
                    <th scope="col" class="num">{tr(locale, "Jetons reçus", "Tokens out")}</th>
                    <th scope="col" class="num">{tr(locale, "Coût", "Cost")}</th>
                </tr>
            </thead>
            <tbody>
                {rows.into_iter().map(|r| {
                    let floor = if r.unpriced { "≥ " } else { "" };
                    view! {
                        <tr>
                            <th scope="row">{r.key}</th>
                            <td class="num">{r.calls}</td>
                            <td class="num">{r.input_tokens}</td>
                            <td class="num">{r.output_tokens}</td>
                            <td class="num">{format!("{floor}{}", eur_micros(r.cost_eur_micros, locale))}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn Usage(data: UsageData, error: Option<String>, typed: Option<String>, saved: bool) -> impl IntoView {
    let locale = data.locale;
    let r = data.report;
    let limits = r
        .limits
        .iter()
        .map(|l| {
            let whose = match (l.scope.as_str(), locale) {
                ("instance", Locale::Fr) => "Limite du serveur (tous les utilisateurs)",
                ("instance", Locale::En) => "This server's limit (all users)",
                (_, Locale::Fr) => "Votre limite",
                (_, Locale::En) => "Your limit",
            };
            let state = match l.state {
                LimitState::Ok => "ok",
                LimitState::Warning => "warning",
                LimitState::Reached => "reached",
            };
            let pct = l.used_basis_points / 100;
            // A limit is whole cents; what was spent may be a fraction of one.
            let limit = i64::try_from(l.limit_eur_micros / 10_000)
                .ok()
                .zip(agent::Currency::new("EUR"))
                .map(|(cents, eur)| agent::Money::new(cents, eur).format(locale))
                .unwrap_or_default();
            let text = match locale {
                Locale::Fr => format!("{} sur {limit} ({pct} %)", eur_micros(l.spent_eur_micros, locale)),
                Locale::En => format!("{} of {limit} ({pct} %)", eur_micros(l.spent_eur_micros, locale)),
            };
            view! {
                <li data-state=state data-testid="limit">
                    <span class="limit-name">{whose}</span>
                    <meter min="0" max="100" low="80" high="99" optimum="0" value=pct.min(100).to_string()>{format!("{pct} %")}</meter>
                    <span>{text}</span>
                </li>
            }
        })
        .collect_view();
    let alert = match r.state {
        LimitState::Ok => None,
        LimitState::Warning => Some(tr(
            locale,
            "Vous avez utilisé 80 % ou plus d'une limite de ce mois.",
            "You have used 80 % or more of a limit this month.",
        )),
        LimitState::Reached => Some(tr(
            locale,
            "Une limite de ce mois est atteinte : Sou répond avec son analyseur seul, sans modèle, jusqu'au mois prochain.",
            "A limit is reached this month: Sou answers with its parser alone, without a model, until next month.",
        )),
    }
    .map(|text| view! { <p class="warning" role="status" data-testid="limit-alert">{text}</p> });
    let chart = (!r.days.is_empty()).then(|| {
        let points = r
            .days
            .iter()
            .map(|d| agent::chart::Point { label: d.key.clone(), value: d.cost_eur_micros as f64 / 10_000.0 })
            .collect();
        let spec = agent::chart::ChartSpec {
            kind: agent::chart::ChartKind::Bar,
            title: tr(locale, "Coût par jour (centimes d'euro)", "Cost per day (euro cents)").to_string(),
            x: tr(locale, "Jour", "Day").to_string(),
            y: tr(locale, "Centimes", "Cents").to_string(),
            points,
            currency: None,
            percent: false,
        };
        view! { <crate::chart::Chart spec locale/> }
    });
    let own = typed.unwrap_or_else(|| {
        r.own_limit_eur_micros
            .map(|v| {
                let cents = v / 10_000;
                format!("{}{}{:02}", cents / 100, locale.pick(",", "."), cents % 100)
            })
            .unwrap_or_default()
    });
    let refused = error.map(|_| {
        view! { <p class="error" role="alert" data-testid="limit-error">{tr(locale,
        "La limite doit être un montant en euros, comme 20 ou 12,50 (vide : aucune).",
        "The limit must be an amount of euros, like 20 or 12.50 (empty: none).")}</p> }
    });
    let saved = saved.then(
        || view! { <p class="notice" role="status">{tr(locale, "Limite enregistrée.", "Limit saved.")}</p> },
    );
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Consommation et limites", "Usage and limits") here=Here::Settings/>
            <main class="settings usage-page" data-testid="usage-page">
                <p><a href="/settings">{tr(locale, "← Réglages", "← Settings")}</a></p>
                {alert}
                <section class="card">
                    <h2>{tr(locale, "Ce mois-ci", "This month")}</h2>
                    <p class="big" data-testid="spent">{eur_micros(r.spent_eur_micros, locale)}</p>
                    <ul class="limits">{limits}</ul>
                    <form method="post" action=post::runs::LIMIT.route() class="limit-form">
                        {refused}
                        {saved}
                        <label for="limit">{tr(locale, "Votre limite par mois, en euros (vide : aucune)", "Your limit per month, in euros (empty: none)")}</label>
                        <input id="limit" name="limit" inputmode="decimal" value=own autocomplete="off"/>
                        <button type="submit" data-testid="save-limit">{tr(locale, "Enregistrer", "Save")}</button>
                    </form>
                    <p class="hint">{tr(locale,
                        "À 80 % d'une limite, Sou vous le dit ; à 100 %, il ne fait plus appel aux modèles jusqu'au mois suivant et répond avec son analyseur.",
                        "At 80 % of a limit Sou tells you; at 100 % it calls no model until the next month and answers with its parser.")}</p>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Par jour", "Per day")}</h2>
                    {chart}
                    {table(r.days, tr(locale, "Jour", "Day"), locale, "usage-days")}
                </section>
                <section class="card">
                    <h2>{tr(locale, "Par mois", "Per month")}</h2>
                    {table(r.months, tr(locale, "Mois", "Month"), locale, "usage-months")}
                </section>
                <section class="card">
                    <h2>{tr(locale, "Ce mois-ci, par fournisseur et par modèle", "This month, per provider and per model")}</h2>
                    {table(r.providers, tr(locale, "Fournisseur", "Provider"), locale, "usage-providers")}
                    {table(r.models, tr(locale, "Modèle", "Model"), locale, "usage-models")}
                </section>
            </main>
        </div>
    }
}
