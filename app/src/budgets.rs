//! `/settings/budgets`: the user's monthly budgets, set, changed and removed with plain
//! forms (the same `set_budget` write the chat proposes: the form is its approval, and
//! each save is a change one click can undo); and `/settings/changes`: every write Sou
//! made, newest first, each with Undo.

use crate::post::key;
use agent::{Change, Locale};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::api::AccountView;
use crate::error::AppError;
use crate::i18n::{self, tr};
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use crate::post;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetsData {
    pub account: AccountView,
    pub locale: Locale,
    pub budgets: Vec<agent::writes::BudgetView>,
    /// Categories a budget can be set on: (key, name).
    pub categories: Vec<(String, String)>,
    /// This month, `2026-11`: the form's default.
    pub this_month: String,
}

#[server(endpoint = "budgets")]
pub async fn load_budgets() -> Result<BudgetsData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let budgets = sou.budgets().list(user, locale).await?;
        let categories =
            sou.rules().categories(user, locale).await?.into_iter().map(|c| (c.key, c.name)).collect();
        let today = sou.today();
        Ok(BudgetsData {
            account: ssr::account_view()?,
            locale,
            budgets,
            categories,
            this_month: format!("{:04}-{:02}", today.year(), today.month()),
        })
    })
    .await
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChangesData {
    pub account: AccountView,
    pub locale: Locale,
    pub changes: Vec<Change>,
}

#[server(endpoint = "changes")]
pub async fn load_changes() -> Result<ChangesData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        Ok(ChangesData {
            account: ssr::account_view()?,
            locale: ssr::accept_language(),
            changes: sou.approvals().changes(user).await?,
        })
    })
    .await
}

/// A refusal code a form came back with, as a sentence.
pub fn refusal(code: &str, locale: Locale) -> String {
    if let Some(text) = agent::writes::refusal_text(code, locale) {
        return text.to_string();
    }
    match code {
        "amount" => tr(
            locale,
            "Le montant doit être un nombre plus grand que zéro, comme 250 ou 249,90.",
            "The amount must be a number more than zero, like 250 or 249.90.",
        ),
        "month" => tr(locale, "Le mois doit être de la forme 2026-12.", "The month must look like 2026-12."),
        "category" => tr(locale, "Cette catégorie n'existe pas.", "This category does not exist."),
        "not_found" => tr(locale, "Introuvable : rien n'a été modifié.", "Not found: nothing changed."),
        "run_state" => tr(
            locale,
            "Ce plan a changé d'état entre-temps : cette action ne s'y applique plus.",
            "This plan's state changed meanwhile: that action no longer applies.",
        ),
        "invalid_plan" | "not_a_plan" => tr(
            locale,
            "Ce plan n'a pas pu être enregistré : une étape n'est pas valable. Rien n'a changé.",
            "This plan could not be saved: a step is not valid. Nothing changed.",
        ),
        "period" => tr(
            locale,
            "Une période s'écrit 2026-10, 2026 ou 2026-01-01..2026-03-31.",
            "Write a period as 2026-10, 2026 or 2026-01-01..2026-03-31.",
        ),
        _ => tr(
            locale,
            "Cela n'a pas pu être fait ; rien n'a été modifié.",
            "That could not be done; nothing changed.",
        ),
    }
    .to_string()
}

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "budgets",
    title: ("Budgets", "Budgets"),
    hint: (
        "Un montant par mois et par catégorie, que « suivi des budgets » compare à vos dépenses. Et l'historique de tout ce que Sou a modifié, pour l'annuler.",
        "An amount a month per category, which budget status compares with your spending. And the history of everything Sou changed, to undo it.",
    ),
    links: &[
        CardLink { page: "budgets", id: "budgets", text: ("Gérer les budgets", "Manage budgets") },
        CardLink { page: "changes", id: "changes", text: ("Historique des modifications", "History of changes") },
    ],
};

#[component]
pub fn BudgetsPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (error, saved, category, amount, from) = leptos_router::hooks::use_query_map().with_untracked(|q| {
        (
            q.get(key::WRITE_ERROR),
            q.get(key::SAVED),
            q.get(key::CATEGORY),
            q.get(key::AMOUNT),
            q.get(key::FROM),
        )
    });
    let data = Resource::new_blocking(|| (), |_| load_budgets());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Budgets data error=error.clone() saved=saved.clone() category=category.clone() amount=amount.clone() from=from.clone()/>
        </Loaded>
    }
}

#[component]
fn Budgets(
    data: BudgetsData,
    error: Option<String>,
    saved: Option<String>,
    category: Option<String>,
    amount: Option<String>,
    from: Option<String>,
) -> impl IntoView {
    let locale = data.locale;
    let from = from.unwrap_or_else(|| data.this_month.clone());
    let notice = saved.map(|id| {
        view! {
            <div class="saved" role="status" data-testid="budget-saved">
                <span>{tr(locale, "Budget enregistré.", "Budget saved.")}</span>
                <form method="post" action=post::approvals::UNDO.to(&[&id.to_string()]) class="inline">
                    <input type="hidden" name="back" value="/settings/budgets"/>
                    <button type="submit" class="link" data-testid="undo">{tr(locale, "Annuler", "Undo")}</button>
                </form>
            </div>
        }
    });
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Budgets", "Budgets") here=Here::Settings/>
            <main class="settings budgets-page" data-testid="budgets-page">
                <p><a href="/settings">{tr(locale, "← Réglages", "← Settings")}</a></p>
                {notice}
                {error.map(|code| view! { <p class="error" role="alert" data-testid="budget-error">{refusal(&code, locale)}</p> })}
                <section class="card">
                    <h2>{tr(locale, "Fixer un budget", "Set a budget")}</h2>
                    <p class="hint">{tr(locale,
                        "Un montant par mois pour une catégorie, à partir d'un mois ; les mois d'avant gardent le leur. Laissez le montant vide pour supprimer le budget à partir de ce mois.",
                        "An amount a month for a category, from a month on; months before keep theirs. Leave the amount empty to remove the budget from that month.")}</p>
                    <form method="post" action=post::approvals::BUDGET.route() data-testid="budget-form">
                        <label for="budget-category">{tr(locale, "Catégorie", "Category")}</label>
                        <select id="budget-category" name="category" required>
                            {data.categories.iter().map(|(key, name)| {
                                let selected = category.as_deref() == Some(key.as_str());
                                view! { <option value=key.clone() selected=selected>{name.clone()}</option> }
                            }).collect_view()}
                        </select>
                        <label for="budget-amount">{tr(locale, "Montant par mois", "Amount a month")}</label>
                        <input id="budget-amount" name="amount" inputmode="decimal" autocomplete="off" value=amount.unwrap_or_default()
                            placeholder=tr(locale, "ex. : 300", "e.g. 300")/>
                        <label for="budget-from">{tr(locale, "À partir de", "From")}</label>
                        <input id="budget-from" name="from" type="month" required value=from/>
                        <button type="submit">{tr(locale, "Enregistrer", "Save")}</button>
                    </form>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Vos budgets", "Your budgets")}</h2>
                    {budget_list(data.budgets, locale)}
                </section>
                <p><a href="/settings/changes" data-testid="changes-link">{tr(locale, "Historique des modifications", "History of changes")}</a></p>
            </main>
        </div>
    }
}

fn budget_list(budgets: Vec<agent::writes::BudgetView>, locale: Locale) -> AnyView {
    if budgets.is_empty() {
        return view! {
            <p class="hint" data-testid="no-budgets">{tr(locale,
                "Aucun budget pour l'instant. Fixez-en un ci-dessus, ou demandez dans le chat : « mets un budget de 300 € pour les restaurants ».",
                "No budgets yet. Set one above, or ask in the chat: “set my restaurant budget to 300”.")}</p>
        }
        .into_any();
    }
    let month = |d: agent::Date| agent::wording::month_label(d, locale);
    view! {
        <div class="table-scroll">
        <table class="rows" data-testid="budget-list">
            <thead>
                <tr>
                    <th scope="col">{tr(locale, "Catégorie", "Category")}</th>
                    <th scope="col" class="num">{tr(locale, "Ce mois-ci", "This month")}</th>
                    <th scope="col"><span class="visually-hidden">{tr(locale, "Actions", "Actions")}</span></th>
                </tr>
            </thead>
            <tbody>
                {budgets.into_iter().map(|b| {
                    let now = b.now.map_or_else(|| "—".to_string(), |m| m.format(locale));
                    let since = b.since.map(|d| format!("{} {}", tr(locale, "depuis", "since"), month(d)));
                    let next = b.next.map(|(d, m)| match m {
                        Some(m) => format!("{} {} {}", tr(locale, "puis", "then"), m.format(locale), match locale {
                            Locale::Fr => format!("dès {}", month(d)),
                            Locale::En => format!("from {}", month(d)),
                        }),
                        None => format!("{} {}", tr(locale, "aucun dès", "none from"), month(d)),
                    });
                    let edit = format!(
                        "/settings/budgets?category={}&amount={}",
                        b.category.key,
                        b.now.map(|m| crate::render::approval::typed_amount(m, '.')).unwrap_or_default()
                    );
                    view! {
                        <tr data-category=b.category.key.clone()>
                            <td>{b.category.label.clone()}</td>
                            <td class="num">
                                {now}
                                <small class="since">{since}</small>
                                {next.map(|n| view! { <small class="since" data-testid="next">{n}</small> })}
                            </td>
                            <td class="actions">
                                <a href=edit>{tr(locale, "Modifier", "Edit")}</a>
                                {b.now.is_some().then(|| view! {
                                    <form method="post" action=post::approvals::BUDGET.route() class="inline">
                                        <input type="hidden" name="category" value=b.category.key.clone()/>
                                        <input type="hidden" name="amount" value=""/>
                                        <button type="submit" class="link">{tr(locale, "Supprimer", "Remove")}</button>
                                    </form>
                                })}
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        </div>
    }
    .into_any()
}

#[component]
pub fn ChangesPage() -> impl IntoView {
    let error = leptos_router::hooks::use_query_map().with_untracked(|q| q.get(key::WRITE_ERROR));
    let data = Resource::new_blocking(|| (), |_| load_changes());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Changes data error=error.clone()/>
        </Loaded>
    }
}

#[component]
fn Changes(data: ChangesData, error: Option<String>) -> impl IntoView {
    let locale = data.locale;
    let list = if data.changes.is_empty() {
        view! { <p class="hint" data-testid="no-changes">{tr(locale, "Sou n'a encore rien modifié.", "Sou has not changed anything yet.")}</p> }.into_any()
    } else {
        view! {
            <table class="rows" data-testid="change-list">
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Quand", "When")}</th>
                        <th scope="col">{tr(locale, "Modification", "Change")}</th>
                        <th scope="col"><span class="visually-hidden">{tr(locale, "Actions", "Actions")}</span></th>
                    </tr>
                </thead>
                <tbody>
                    {data.changes.into_iter().map(|c| {
                        let when = agent::Date::parse_iso(c.created_at.get(..10).unwrap_or_default())
                            .map(|d| i18n::date(d, locale))
                            .unwrap_or_default();
                        let state = match &c.undone_at {
                            Some(_) => view! { <span class="state undone">{tr(locale, "Annulée", "Undone")}</span> }.into_any(),
                            None => view! {
                                <form method="post" action=post::approvals::UNDO.to(&[&c.id.to_string()]) class="inline">
                                    <input type="hidden" name="back" value="/settings/changes"/>
                                    <button type="submit" class="link" data-testid="undo">{tr(locale, "Annuler", "Undo")}</button>
                                </form>
                            }
                            .into_any(),
                        };
                        view! {
                            <tr id=format!("change-{}", c.id) data-testid="change">
                                <td class="date">{when}</td>
                                <td>{c.summary}</td>
                                <td class="num">{state}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Historique des modifications", "History of changes") here=Here::Settings/>
            <main class="settings changes-page" data-testid="changes-page">
                <p><a href="/settings">{tr(locale, "← Réglages", "← Settings")}</a></p>
                {error.map(|code| view! { <p class="error" role="alert" data-testid="change-error">{refusal(&code, locale)}</p> })}
                <section class="card">
                    <p class="hint">{tr(locale,
                        "Chaque modification faite par Sou, avec votre accord. Annuler remet tout comme avant, si rien n'a changé depuis.",
                        "Every change Sou made, with your approval. Undo puts everything back as it was, if nothing changed since.")}</p>
                    {list}
                </section>
            </main>
        </div>
    }
}
