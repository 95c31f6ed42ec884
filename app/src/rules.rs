//! `/rules`: categorisation rules. A new rule is saved at once and applies to the next
//! imports; the page then says which past transactions it matches and how many would
//! change category, and applies it to them only when the user approves.

use crate::post::key;
use agent::imports::{CategoryOption, RuleProposal, RuleView};
use agent::Locale;
use leptos::prelude::*;

use crate::api::{load_rules, RulesData};
use crate::i18n::{self, count, tr};
use crate::layout::{Frame, Here, Loaded, TopBar};
use crate::post;
use crate::table::column_heads;

#[component]
pub fn RulesPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (rule, error, applied, pattern, category) =
        leptos_router::hooks::use_query_map().with_untracked(|q| {
            (
                q.get(key::RULE).and_then(|r| r.parse::<i64>().ok()),
                q.get(key::ERROR),
                q.get(key::APPLIED).and_then(|a| a.parse::<u64>().ok()),
                q.get(key::PATTERN).unwrap_or_default(),
                q.get(key::CATEGORY),
            )
        });
    let data = Resource::new_blocking(|| (), move |_| load_rules(rule, error.clone()));
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Rules data applied pattern=pattern.clone() category=category.clone()/>
        </Loaded>
    }
}

#[component]
fn Rules(data: RulesData, applied: Option<u64>, pattern: String, category: Option<String>) -> impl IntoView {
    let locale = data.locale;
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Règles", "Rules") here=Here::Rules/>
            <main class="settings rules" data-testid="rules">
                {applied.map(|n| view! {
                    <p class="saved" role="status" data-testid="applied">{match locale {
                        Locale::Fr => format!("{}.", count(locale, n, ("opération passée recatégorisée", "opérations passées recatégorisées"), ("", ""))),
                        Locale::En => format!("{}.", count(locale, n, ("", ""), ("past transaction recategorised", "past transactions recategorised"))),
                    }}</p>
                })}
                {data.proposal.map(|p| proposal_view(p, locale))}
                <section class="card">
                    <h2>{tr(locale, "Nouvelle règle", "New rule")}</h2>
                    <p class="hint">{tr(locale,
                        "Une opération dont le libellé ou le marchand contient ces mots (sans tenir compte des majuscules ni des accents) reçoit la catégorie choisie.",
                        "A transaction whose label or merchant contains these words (case and accents ignored) gets the chosen category.")}</p>
                    {data.error.map(|e| view! { <p class="error" role="alert" data-testid="rule-error">{e}</p> })}
                    <form method="post" action=post::rules::CREATE.route() data-testid="rule-form">
                        <label for="rule-pattern">{tr(locale, "Le libellé contient", "The label contains")}</label>
                        <input id="rule-pattern" type="text" name="pattern" required maxlength="100" value=pattern
                            placeholder=tr(locale, "ex. : librairie", "e.g. bookshop")/>
                        <label for="rule-category">{tr(locale, "Catégorie", "Category")}</label>
                        {category_select(&data.categories, category.as_deref())}
                        <button type="submit">{tr(locale, "Enregistrer la règle", "Save the rule")}</button>
                    </form>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Vos règles", "Your rules")}</h2>
                    {rules_list(data.rules, locale)}
                </section>
            </main>
        </div>
    }
}

fn category_select(categories: &[CategoryOption], chosen: Option<&str>) -> impl IntoView {
    view! {
        <select id="rule-category" name="category" required>
            {categories.iter().map(|c| {
                let selected = chosen == Some(c.key.as_str());
                view! { <option value=c.key.clone() selected=selected>{c.name.clone()}</option> }
            }).collect_view()}
        </select>
    }
}

fn proposal_view(p: RuleProposal, locale: Locale) -> AnyView {
    let saved = match locale {
        Locale::Fr => format!(
            "Règle enregistrée : « {} » → {}. Elle s'appliquera aux prochains imports.",
            p.rule.pattern, p.rule.category
        ),
        Locale::En => format!(
            "Rule saved: “{}” → {}. It will apply to the next imports.",
            p.rule.pattern, p.rule.category
        ),
    };
    let past = match locale {
        Locale::Fr => format!(
            "Elle correspond à {}, dont {} de catégorie.",
            count(locale, p.matching, ("opération passée", "opérations passées"), ("", "")),
            count(locale, p.changing, ("changerait", "changeraient"), ("", ""))
        ),
        Locale::En => format!(
            "It matches {}, {} of which would change category.",
            count(locale, p.matching, ("", ""), ("past transaction", "past transactions")),
            p.changing
        ),
    };
    let apply = match locale {
        Locale::Fr => format!(
            "Appliquer à {}",
            count(locale, p.changing, ("opération passée", "opérations passées"), ("", ""))
        ),
        Locale::En => format!(
            "Apply to {}",
            count(locale, p.changing, ("", ""), ("past transaction", "past transactions"))
        ),
    };
    let id = p.rule.id;
    view! {
        <section class="card proposal" data-testid="proposal">
            <p class="saved" role="status">{saved}</p>
            <p data-testid="matching">{past}</p>
            {(!p.sample.is_empty()).then(|| view! {
                <table class="rows">
                    <thead>
                        <tr>
                            {column_heads([
                                (tr(locale, "Date", "Date"), ""), (tr(locale, "Libellé", "Label"), ""),
                                (tr(locale, "Catégorie actuelle", "Category now"), ""),
                                (tr(locale, "Montant", "Amount"), "num"),
                            ])}
                        </tr>
                    </thead>
                    <tbody>
                        {p.sample.into_iter().map(|(date, label, amount, category)| view! {
                            <tr>
                                <td class="date">{i18n::date(date, locale)}</td>
                                <td>{label}</td>
                                <td>{category.unwrap_or_else(|| tr(locale, "Sans catégorie", "Uncategorised").to_string())}</td>
                                <td class="num">{amount.format(locale)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            {(p.changing > 0).then(|| view! {
                <form method="post" action=post::rules::APPLY.to(&[&id.to_string()]) data-testid="apply-form">
                    <button type="submit">{apply}</button>
                    <a href="/rules" rel="external">{tr(locale, "Pas maintenant", "Not now")}</a>
                </form>
            })}
        </section>
    }
    .into_any()
}

fn rules_list(rules: Vec<RuleView>, locale: Locale) -> AnyView {
    if rules.is_empty() {
        return view! { <p class="hint">{tr(locale, "Aucune règle pour l'instant.", "No rules yet.")}</p> }
            .into_any();
    }
    view! {
        <table class="rows" data-testid="rule-list">
            <thead>
                <tr>
                    <th scope="col">{tr(locale, "Le libellé contient", "The label contains")}</th>
                    <th scope="col">{tr(locale, "Catégorie", "Category")}</th>
                    <th scope="col"><span class="visually-hidden">{tr(locale, "Actions", "Actions")}</span></th>
                </tr>
            </thead>
            <tbody>
                {rules.into_iter().map(|r| view! {
                    <tr>
                        <td>{r.pattern.clone()}</td>
                        <td>{r.category.clone()}</td>
                        <td class="num">
                            <form method="post" action=post::rules::DELETE.to(&[&r.id.to_string()])>
                                <button type="submit" class="link">{tr(locale, "Supprimer", "Delete")}</button>
                            </form>
                        </td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
