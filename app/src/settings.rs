//! Settings: which provider and model answer free-form questions, and the provider
//! keys. A key is checked by the provider before it is saved, stored encrypted, and
//! never sent back: the page shows its last four characters and where it came from.
//! Every form works without JavaScript.

use crate::post::key;
use agent::Locale;
use leptos::form::ActionForm;
use leptos::prelude::*;

use crate::api::{
    load_settings, ChooseModel, CreateToken, DeleteKey, NewToken, ProviderInfo, RevokeToken, SaveKey,
    SettingsData,
};
use crate::error::AppError;
use crate::i18n::tr;
use crate::layout::{Frame, Here, Loaded, TopBar};

fn key_text(p: &ProviderInfo, locale: Locale) -> String {
    let last4 = p.last4.clone().map(|l| format!(" ••••{l}")).unwrap_or_default();
    match p.key_source.as_str() {
        "saved" => format!("{}{last4}", tr(locale, "Clé enregistrée (chiffrée)", "Key saved (encrypted)")),
        "environment" => format!(
            "{}{last4}",
            tr(locale, "Clé de l'environnement du serveur", "Key from the server's environment")
        ),
        "not_needed" => tr(locale, "Aucune clé nécessaire", "No key needed").to_string(),
        _ => tr(locale, "Aucune clé", "No key").to_string(),
    }
}

/// An action's outcome as a line under its form.
fn outcome(
    value: impl Get<Value = Option<Result<(), AppError>>> + Send + Sync + 'static,
    ok: &'static str,
) -> impl IntoView {
    move || match value.get() {
        Some(Ok(_)) => Some(view! { <p class="saved" role="status">{ok}</p> }.into_any()),
        Some(Err(e)) => Some(view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any()),
        None => None,
    }
}

/// Which of a provider's forms was used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Used {
    Save,
    Delete,
}

#[component]
pub fn SettingsPage() -> impl IntoView {
    let save = ServerAction::<SaveKey>::new();
    let delete = ServerAction::<DeleteKey>::new();
    let choose = ServerAction::<ChooseModel>::new();
    let create = ServerAction::<CreateToken>::new();
    let revoke = ServerAction::<RevokeToken>::new();
    // After a token was created by a form post, Settings is loaded with its id.
    let query = leptos_router::hooks::use_query_map();
    let reveal = move || query.with(|q| q.get(key::TOKEN)).and_then(|t| t.parse::<i64>().ok());
    // The provider whose key form was used last, so its outcome shows in its row (it
    // outlives the list, which is rebuilt after each action). After a form post
    // without JavaScript it is unknown and the outcome shows above the list.
    let last = RwSignal::new(None::<(String, Used)>);
    let data = Resource::new_blocking(
        move || {
            let versions = [
                save.version().get(),
                delete.version().get(),
                choose.version().get(),
                create.version().get(),
                revoke.version().get(),
            ];
            (versions, reveal())
        },
        |(_, reveal)| load_settings(reveal),
    );
    view! {
        <Loaded data frame=Frame::Inline("settings") let:data>
            <Settings data save delete choose last create revoke/>
        </Loaded>
    }
}

#[component]
fn Settings(
    data: SettingsData,
    save: ServerAction<SaveKey>,
    delete: ServerAction<DeleteKey>,
    choose: ServerAction<ChooseModel>,
    last: RwSignal<Option<(String, Used)>>,
    create: ServerAction<CreateToken>,
    revoke: ServerAction<RevokeToken>,
) -> impl IntoView {
    let locale = data.locale;
    let chosen = data.choice_provider.clone().unwrap_or_default();
    let usable: Vec<ProviderInfo> = data.providers.iter().filter(|p| p.usable).cloned().collect();
    let none_usable = usable.is_empty();
    let here =
        move |id: &str, used: Used| last.with(|l| l.as_ref().is_some_and(|(i, u)| i == id && *u == used));
    view! {
        <div class="app">
            <TopBar account=data.account.clone() locale title=tr(locale, "Réglages", "Settings") here=Here::Settings/>
            <main class="settings" data-testid="settings">
                <section class="card">
                    <h2>{tr(locale, "Modèle de langage", "Language model")}</h2>
                    <p class="hint">{tr(locale,
                        "Sou répond sans modèle aux questions qu'il sait planifier. Le modèle vérifie les plans incertains et répond aux autres questions.",
                        "Sou answers the questions it can plan without any model. The model checks uncertain plans and answers the other questions.")}</p>
                    {none_usable.then(|| view! {
                        <p class="hint" data-testid="no-provider">{tr(locale,
                            "Aucun fournisseur n'a de clé : ajoutez-en une ci-dessous.",
                            "No provider has a key yet: add one below.")}</p>
                    })}
                    // With no provider to choose from, no form: the hint above says what to do.
                    {(!none_usable).then(|| view! {
                        <ActionForm action=choose attr:data-testid="choose-form">
                            <label for="choice-provider">{tr(locale, "Fournisseur", "Provider")}</label>
                            <select id="choice-provider" name="provider" required>
                                {usable.into_iter().map(|p| {
                                    let selected = p.id == chosen;
                                    view! { <option value=p.id.clone() selected=selected>{p.name.clone()}</option> }
                                }).collect_view()}
                            </select>
                            <label for="choice-model">{tr(locale, "Modèle (vide : automatique)", "Model (empty: automatic)")}</label>
                            <input id="choice-model" name="model" type="text" maxlength="100"
                                value=data.choice_model.clone().unwrap_or_default()
                                placeholder=tr(locale, "automatique", "automatic")
                                title=tr(locale, "Vide : le modèle simple ou complexe selon la question", "Empty: the simple or complex model, per question")/>
                            <button type="submit">{tr(locale, "Enregistrer", "Save")}</button>
                        </ActionForm>
                    })}
                    {outcome(choose.value(), tr(locale, "Choix enregistré.", "Choice saved."))}
                </section>
                <section class="card">
                    <h2>{tr(locale, "Fournisseurs et clés", "Providers and keys")}</h2>
                    <p class="hint">{tr(locale,
                        "Chaque clé est vérifiée auprès du fournisseur avant d'être enregistrée, puis chiffrée. Elle n'est jamais renvoyée au navigateur.",
                        "Each key is checked with the provider before it is saved, then encrypted. It is never sent back to the browser.")}</p>
                    <Show when=move || last.with(Option::is_none)>
                        {outcome(save.value(), tr(locale, "Clé vérifiée et enregistrée.", "Key checked and saved."))}
                        {outcome(delete.value(), tr(locale, "Clé supprimée.", "Key removed."))}
                    </Show>
                    <ul class="providers">
                        {data.providers.into_iter().map(|p| {
                            let status = key_text(&p, locale);
                            let saved = p.key_source == "saved";
                            let id = p.id.clone();
                            let delete_id = p.id.clone();
                            let (mark_save, mark_delete) = (p.id.clone(), p.id.clone());
                            let (saved_here, deleted_here) = (p.id.clone(), p.id.clone());
                            let input_id = format!("key-{}", p.id);
                            view! {
                                <li class="provider" data-provider=p.id.clone() data-key-source=p.key_source.clone()>
                                    <div class="provider-head">
                                        <strong>{p.name.clone()}</strong>
                                        <span class="key-state" data-testid="key-state">{status}</span>
                                    </div>
                                    <p class="provider-meta">
                                        <code>{p.base_url.clone()}</code>
                                        " · " {p.simple_model.clone()} " / " {p.complex_model.clone()}
                                    </p>
                                    <ActionForm action=save>
                                        <input type="hidden" name="provider" value=id.clone()/>
                                        <label class="visually-hidden" for=input_id.clone()>{tr(locale, "Clé d'API", "API key")}</label>
                                        // Emptied once a check has finished, whatever its outcome.
                                        <input id=input_id type="password" name="key" autocomplete="off" required
                                            prop:value=move || { save.version().get(); String::new() }
                                            maxlength="500" placeholder=tr(locale, "Nouvelle clé d'API", "New API key")/>
                                        <button type="submit" on:click=move |_| last.set(Some((mark_save.clone(), Used::Save)))>
                                            {tr(locale, "Vérifier et enregistrer", "Check and save")}
                                        </button>
                                    </ActionForm>
                                    {saved.then(|| view! {
                                        <ActionForm action=delete>
                                            <input type="hidden" name="provider" value=delete_id.clone()/>
                                            <button type="submit" class="secondary"
                                                on:click=move |_| last.set(Some((mark_delete.clone(), Used::Delete)))>
                                                {tr(locale, "Supprimer la clé", "Remove key")}
                                            </button>
                                        </ActionForm>
                                    })}
                                    <Show when=move || here(&saved_here, Used::Save)>
                                        {outcome(save.value(), tr(locale, "Clé vérifiée et enregistrée.", "Key checked and saved."))}
                                    </Show>
                                    <Show when=move || here(&deleted_here, Used::Delete)>
                                        {outcome(delete.value(), tr(locale, "Clé supprimée.", "Key removed."))}
                                    </Show>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
                <Tokens tokens=data.tokens revealed=data.revealed create revoke locale/>
                {cards(locale)}
            </main>
        </div>
    }
}

/// Personal API tokens: listed by name and first characters, created (and shown
/// once), revoked.
#[component]
fn Tokens(
    tokens: Vec<crate::api::TokenView>,
    revealed: Option<NewToken>,
    create: ServerAction<CreateToken>,
    revoke: ServerAction<RevokeToken>,
    locale: Locale,
) -> impl IntoView {
    let new_token = move || {
        let fresh = create.value().get().and_then(Result::ok).flatten();
        fresh.or_else(|| revealed.clone()).map(|t| view! {
            <div class="new-token" role="status" data-testid="new-token">
                <p>{match locale {
                    Locale::Fr => format!("Jeton « {} » créé. Copiez-le maintenant : il ne sera plus affiché.", t.label),
                    Locale::En => format!("Token “{}” created. Copy it now: it will not be shown again.", t.label),
                }}</p>
                <code>{t.token}</code>
            </div>
        })
    };
    let failure = move || {
        let e =
            create.value().get().and_then(Result::err).or_else(|| revoke.value().get().and_then(Result::err));
        e.map(|e| view! { <p class="error" role="alert">{e.to_string()}</p> })
    };
    view! {
        <section class="card" id="tokens" data-testid="tokens">
            <h2>{tr(locale, "Jetons d'API", "API tokens")}</h2>
            <p class="hint">{tr(locale,
                "Pour interroger Sou depuis un script : en-tête « Authorization: Bearer <jeton> » sur /api/v1. Un jeton donne accès à toutes vos données ; révoquez ceux qui ne servent plus.",
                "To ask Sou from a script: send \"Authorization: Bearer <token>\" to /api/v1. A token gives access to all your data; revoke those you no longer use.")}</p>
            {new_token}
            {failure}
            {(!tokens.is_empty()).then(|| view! {
                <ul class="token-list">
                    {tokens.into_iter().map(|t| {
                        let used = match (t.last_used, locale) {
                            (Some(d), Locale::Fr) => format!("dernier usage le {d}"),
                            (Some(d), Locale::En) => format!("last used {d}"),
                            (None, _) => tr(locale, "jamais utilisé", "never used").to_string(),
                        };
                        let created = match locale {
                            Locale::Fr => format!("créé le {}", t.created),
                            Locale::En => format!("created {}", t.created),
                        };
                        view! {
                            <li class="token" data-testid="token">
                                <div>
                                    <strong>{t.label}</strong>
                                    <span class="provider-meta"><code>{format!("{}…", t.prefix)}</code>" · "{created}" · "{used}</span>
                                </div>
                                <ActionForm action=revoke>
                                    <input type="hidden" name="id" value=t.id/>
                                    <button type="submit" class="secondary">{tr(locale, "Révoquer", "Revoke")}</button>
                                </ActionForm>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            })}
            <ActionForm action=create attr:class="token-form">
                <label for="token-label">{tr(locale, "Nom du jeton", "Token name")}</label>
                <input id="token-label" name="label" type="text" required maxlength="100"
                    placeholder=tr(locale, "ex. : script de sauvegarde", "e.g. backup script")
                    prop:value=move || { create.version().get(); String::new() }/>
                <button type="submit">{tr(locale, "Créer un jeton", "Create a token")}</button>
            </ActionForm>
        </section>
    }
}

/// Settings' pages, each listed once: its module (which has the [`Card`] that links
/// to it, as `CARD`), and each page's name in `/settings/{name}` with its view.
macro_rules! pages {
    ($($module:ident { $($name:literal => $view:ident),+ })+) => {
        /// The cards, in the list's order (a tuple: drawn without a list's markers).
        fn cards(locale: Locale) -> impl IntoView {
            ($(crate::$module::CARD.view(locale),)+)
        }

        /// The view of `/settings/{name}`, if Settings has such a page.
        fn page(name: &str) -> Option<AnyView> {
            match name {
                $($($name => Some(view! { <crate::$module::$view/> }.into_any()),)+)+
                _ => None,
            }
        }
    };
}

pages! {
    account_settings { "account" => AccountPage }
    bank_accounts { "accounts" => BankAccountsPage }
    budgets { "budgets" => BudgetsPage, "changes" => ChangesPage }
    usage { "usage" => UsagePage }
    reports { "reports" => ReportsPage }
    widgets { "widgets" => WidgetsPage }
}

/// `/settings/{name}`: one of Settings' pages, or "not found".
#[component]
pub fn SettingsSubPage() -> impl IntoView {
    let name = leptos_router::hooks::use_params_map().read_untracked().get("page").unwrap_or_default();
    page(&name).unwrap_or_else(|| view! { <crate::layout::NotFound/> }.into_any())
}
