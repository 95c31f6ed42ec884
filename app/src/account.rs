//! Signing in: the log-in and sign-up pages, and "Try the demo". The forms post to the server's `/auth/…` handlers, which answer with a
//! redirect: they work the same with and without JavaScript. A failed attempt comes
//! back here with a code in the URL (and the name typed, never the password).

use crate::post::key;
use agent::Locale;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::{load_auth_page, AuthPage};
use crate::auth_text::error_text;
use crate::fields::PageTitle;
use crate::i18n::tr;
use crate::layout::{Frame, Loaded};
use crate::post;

/// `/login` and `/signup`.
#[component]
pub fn SignInPage(signup: bool) -> impl IntoView {
    // What the failed attempt sent back, read here, outside the suspended part.
    let query = use_query_map().get_untracked();
    let param = move |key: &str| query.get(key).unwrap_or_default();
    let back = Back {
        error: param(key::ERROR),
        retry: param(key::RETRY).parse().ok(),
        name: param(key::NAME),
        next: param(key::NEXT),
    };
    let page = Resource::new_blocking(|| (), |_| load_auth_page());
    view! {
        <Loaded data=page frame=Frame::Inline("auth") let:page>
            <SignIn page signup back=back.clone()/>
        </Loaded>
    }
}

/// The query of a sign-in page a failed attempt came back to.
#[derive(Clone, Debug, Default)]
struct Back {
    error: String,
    retry: Option<u64>,
    name: String,
    next: String,
}

#[component]
fn SignIn(page: AuthPage, signup: bool, back: Back) -> impl IntoView {
    let locale = page.locale;
    let error = (!back.error.is_empty()).then(|| error_text(&back.error, back.retry, locale));
    let Back { name, next, .. } = back;
    let signup = signup && page.signup;
    let title = if signup {
        tr(locale, "Créer un compte", "Create an account")
    } else {
        tr(locale, "Se connecter", "Sign in")
    };
    view! {
        <PageTitle text=title.to_string()/>
        <main class="auth" data-testid="sign-in">
            <header class="auth-brand">
                <h1>"Sou"</h1>
                <p>{tr(locale,
                    "Vos comptes, vos questions, vos réponses — sur votre serveur.",
                    "Your accounts, your questions, your answers — on your server.")}</p>
            </header>
            <section class="card">
                <h2>{title}</h2>
                {error.map(|e| view! { <p class="error" role="alert" data-testid="auth-error">{e}</p> })}
                {if signup {
                    view! {
                        <form method="post" action=post::auth::SIGN_UP.route() class="stack">
                            <label for="name">{tr(locale, "Nom d'utilisateur", "User name")}</label>
                            <input id="name" name="name" type="text" required minlength="3" maxlength="64"
                                autocomplete="username" autocapitalize="none" spellcheck="false" value=name autofocus/>
                            <label for="password">{tr(locale, "Mot de passe (10 caractères au moins)", "Password (at least 10 characters)")}</label>
                            <input id="password" name="password" type="password" required minlength="10"
                                autocomplete="new-password"/>
                            <label for="confirm">{tr(locale, "Le même, encore", "The same again")}</label>
                            <input id="confirm" name="confirm" type="password" required minlength="10"
                                autocomplete="new-password"/>
                            <button type="submit">{tr(locale, "Créer le compte", "Create the account")}</button>
                        </form>
                        <p class="switch">{tr(locale, "Déjà un compte ?", "Already have an account?")} " "
                            <a href="/login" rel="external">{tr(locale, "Se connecter", "Sign in")}</a></p>
                    }.into_any()
                } else {
                    view! {
                        <form method="post" action=post::auth::LOG_IN.route() class="stack">
                            <input type="hidden" name="next" value=next/>
                            <label for="name">{tr(locale, "Nom d'utilisateur", "User name")}</label>
                            <input id="name" name="name" type="text" required maxlength="64"
                                autocomplete="username" autocapitalize="none" spellcheck="false" value=name autofocus/>
                            <label for="password">{tr(locale, "Mot de passe", "Password")}</label>
                            <input id="password" name="password" type="password" required autocomplete="current-password"/>
                            <button type="submit">{tr(locale, "Se connecter", "Sign in")}</button>
                        </form>
                        {page.signup.then(|| view! {
                            <p class="switch">{tr(locale, "Pas encore de compte ?", "No account yet?")} " "
                                <a href="/signup" rel="external">{tr(locale, "Créer un compte", "Create one")}</a></p>
                        })}
                    }.into_any()
                }}
            </section>
            {page.demo.then(|| view! {
                <section class="card demo">
                    <h2>{tr(locale, "Essayer la démo", "Try the demo")}</h2>
                    <p class="hint">{match locale {
                        Locale::Fr => format!("Un compte jetable avec deux ans d'opérations d'un ménage fictif, supprimé avec tout son contenu au bout de {} h.", page.demo_hours),
                        Locale::En => format!("A throwaway account with two years of a made-up household's transactions, deleted with everything in it after {} h.", page.demo_hours),
                    }}</p>
                    <form method="post" action=post::auth::DEMO.route()>
                        <button type="submit" data-testid="try-demo">{tr(locale, "Essayer la démo", "Try the demo")}</button>
                    </form>
                </section>
            })}
        </main>
    }
}
