//! Settings: which provider and model answer free-form questions, and the provider
//! keys. A key is checked by the provider before it is saved, stored encrypted, and
//! never sent back: the page shows its last four characters and where it came from.
//! Every form works without JavaScript.

use agent::Locale;
use leptos::form::ActionForm;
use leptos::prelude::*;

use crate::account::AccountMenu;
use crate::api::{load_settings, ChooseModel, DeleteKey, ProviderInfo, SaveKey, SettingsData};
use crate::i18n::tr;
use crate::AppError;

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
    // The provider whose key form was used last, so its outcome shows in its row (it
    // outlives the list, which is rebuilt after each action). After a form post
    // without JavaScript it is unknown and the outcome shows above the list.
    let last = RwSignal::new(None::<(String, Used)>);
    let data = Resource::new_blocking(
        move || (save.version().get(), delete.version().get(), choose.version().get()),
        |_| load_settings(),
    );
    view! {
        <Suspense fallback=|| view! { <main class="settings"><p class="thinking">"…"</p></main> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! { <Settings data=d save delete choose last/> }.into_any(),
                    Err(crate::AppError::Unauthorized) => view! { <crate::chat::SignInAgain/> }.into_any(),
                    Err(e) => view! { <main class="settings"><p class="error" role="alert">{e.to_string()}</p></main> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Settings(
    data: SettingsData,
    save: ServerAction<SaveKey>,
    delete: ServerAction<DeleteKey>,
    choose: ServerAction<ChooseModel>,
    last: RwSignal<Option<(String, Used)>>,
) -> impl IntoView {
    let locale = data.locale;
    let chosen = data.choice_provider.clone().unwrap_or_default();
    let usable: Vec<ProviderInfo> = data.providers.iter().filter(|p| p.usable).cloned().collect();
    let none_usable = usable.is_empty();
    let here =
        move |id: &str, used: Used| last.with(|l| l.as_ref().is_some_and(|(i, u)| i == id && *u == used));
    view! {
        <div class="app">
            <header class="top">
                <a class="brand" href="/" rel="external">"Sou"</a>
                <span class="tagline">{tr(locale, "Réglages", "Settings")}</span>
                <a class="new-chat" href="/" rel="external">{tr(locale, "Retour au chat", "Back to chat")}</a>
                <AccountMenu account=data.account.clone() locale/>
            </header>
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
                        <button type="submit" disabled=none_usable>{tr(locale, "Enregistrer", "Save")}</button>
                    </ActionForm>
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
            </main>
        </div>
    }
}
