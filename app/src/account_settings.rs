//! Settings → Account (`/settings/account`): the password, changed with the current
//! one (which signs out every other session), and one's sessions — each browser
//! signed in, with its device, address and last use, this one marked — ended one by
//! one or all but this one. Plain forms posted to the server's `/account/…` handlers,
//! which redirect back here with what happened in the query (`changed`, `ended`,
//! `error`, `retry`): the page works the same with and without JavaScript.

use crate::post::key;
use agent::Locale;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::api::AccountView;
use crate::auth_text::error_text;
use crate::error::AppError;
use crate::i18n::tr;
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use crate::post;

/// One of the user's sessions as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionView {
    pub id: String,
    /// Names from a fixed list ("Chrome", "Linux"), never the client's own words.
    pub browser: Option<String>,
    pub os: Option<String>,
    pub address: Option<String>,
    /// When it was last used, in words, in the server's time zone.
    pub last_seen: String,
    pub current: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountData {
    pub account: AccountView,
    pub locale: Locale,
    /// A demo account has no password.
    pub demo: bool,
    pub sessions: Vec<SessionView>,
    /// A session's age and how long it may go unused, in days.
    pub session_days: u64,
    pub idle_days: u64,
}

#[server(endpoint = "account_settings")]
pub async fn load_account_settings() -> Result<AccountData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let account = ssr::account_view()?;
        let cookie = ssr::session_cookie();
        let sessions = sou
            .auth()
            .sessions(user, cookie.as_deref())
            .await?
            .into_iter()
            .map(|s| SessionView {
                last_seen: moment(backend::local_minute(&s.last_seen_at, sou.timezone()), locale),
                id: s.id,
                browser: s.browser.map(str::to_string),
                os: s.os.map(str::to_string),
                address: s.address,
                current: s.current,
            })
            .collect();
        let config = sou.auth().config();
        let days = |d: std::time::Duration| d.as_secs().div_ceil(86_400);
        Ok(AccountData {
            demo: account.demo_hours_left.is_some(),
            account,
            locale,
            sessions,
            session_days: days(config.session_ttl),
            idle_days: days(config.session_idle),
        })
    })
    .await
}

/// "29/11/2026 à 14:32", "29 Nov 2026, 14:32".
fn moment(at: Option<(agent::Date, u32, u32)>, locale: Locale) -> String {
    let Some((day, hour, minute)) = at else {
        return String::new();
    };
    let day = crate::i18n::date(day, locale);
    match locale {
        Locale::Fr => format!("{day} à {hour:02}:{minute:02}"),
        Locale::En => format!("{day}, {hour:02}:{minute:02}"),
    }
}

/// "Chrome sous Linux", "Firefox on Windows", "Unknown browser".
fn device(browser: Option<&str>, os: Option<&str>, locale: Locale) -> String {
    let browser = browser.unwrap_or(tr(locale, "Navigateur inconnu", "Unknown browser"));
    match (os, locale) {
        (Some(os), Locale::Fr) => format!("{browser} sous {os}"),
        (Some(os), Locale::En) => format!("{browser} on {os}"),
        (None, _) => browser.to_string(),
    }
}

/// What the last form did, from the page's query.
#[derive(Clone, Debug, Default)]
struct Outcome {
    changed: Option<u64>,
    ended: Option<u64>,
    error: Option<String>,
    retry: Option<u64>,
}

/// "1 autre session", "3 other sessions".
fn sessions_text(n: u64, locale: Locale) -> String {
    match (locale, n) {
        (Locale::Fr, 0 | 1) => format!("{n} session"),
        (Locale::Fr, _) => format!("{n} sessions"),
        (Locale::En, 1) => "1 session".to_string(),
        (Locale::En, _) => format!("{n} sessions"),
    }
}

fn changed_text(ended: u64, locale: Locale) -> String {
    let others = sessions_text(ended, locale);
    match (locale, ended) {
        (Locale::Fr, 0) => "Mot de passe changé.".to_string(),
        (Locale::En, 0) => "Password changed.".to_string(),
        (Locale::Fr, 1) => format!("Mot de passe changé. {others} ailleurs a été déconnectée."),
        (Locale::Fr, _) => format!("Mot de passe changé. {others} ailleurs ont été déconnectées."),
        (Locale::En, _) => format!("Password changed. {others} elsewhere signed out."),
    }
}

fn ended_text(ended: u64, locale: Locale) -> String {
    let n = sessions_text(ended, locale);
    match (locale, ended) {
        (Locale::Fr, 0) => "Aucune autre session n'était ouverte.".to_string(),
        (Locale::En, 0) => "No other session was open.".to_string(),
        (Locale::Fr, 1) => format!("{n} déconnectée."),
        (Locale::Fr, _) => format!("{n} déconnectées."),
        (Locale::En, _) => format!("{n} signed out."),
    }
}

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "account",
    title: ("Compte", "Account"),
    hint: (
        "Votre mot de passe, et les navigateurs où vous êtes connecté : voir où, et les déconnecter.",
        "Your password, and the browsers you are signed in on: see where, and sign them out.",
    ),
    links: &[CardLink {
        page: "account",
        id: "account",
        text: ("Mot de passe et sessions", "Password and sessions"),
    }],
};

#[component]
pub fn AccountPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let outcome = leptos_router::hooks::use_query_map().with_untracked(|q| {
        let number = |key: &str| q.get(key).and_then(|v| v.parse().ok());
        Outcome {
            changed: number(key::CHANGED),
            ended: number(key::ENDED),
            error: q.get(key::ERROR),
            retry: number(key::RETRY),
        }
    });
    let data = Resource::new_blocking(|| (), |_| load_account_settings());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Account data outcome=outcome.clone()/>
        </Loaded>
    }
}

#[component]
fn Account(data: AccountData, outcome: Outcome) -> impl IntoView {
    let locale = data.locale;
    let error = outcome.error.as_deref().map(|code| error_text(code, outcome.retry, locale));
    let status = outcome
        .changed
        .map(|n| changed_text(n, locale))
        .or_else(|| outcome.ended.map(|n| ended_text(n, locale)));
    let others = data.sessions.iter().filter(|s| !s.current).count();
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Compte", "Account") here=Here::Settings/>
            <main class="settings account-page" data-testid="account-page">
                <p><a href="/settings">{tr(locale, "← Réglages", "← Settings")}</a></p>
                {status.map(|text| view! { <p class="saved" role="status" data-testid="account-status">{text}</p> })}
                {error.map(|text| view! { <p class="error" role="alert" data-testid="account-error">{text}</p> })}
                <section class="card" data-testid="password-card">
                    <h2>{tr(locale, "Mot de passe", "Password")}</h2>
                    {if data.demo {
                        view! { <p class="hint">{tr(locale,
                            "Un compte de démonstration n'a pas de mot de passe : il est supprimé avec son contenu à son terme.",
                            "A demo account has no password: it is deleted with everything in it when it ends.")}</p> }.into_any()
                    } else {
                        view! {
                            <p class="hint">{tr(locale,
                                "Changer le mot de passe déconnecte toutes vos autres sessions ; celle-ci reste ouverte.",
                                "Changing the password signs out all your other sessions; this one stays signed in.")}</p>
                            <form method="post" action=post::account::PASSWORD.route() class="password-form">
                                <label for="current">{tr(locale, "Mot de passe actuel", "Current password")}</label>
                                <input id="current" name="current" type="password" required autocomplete="current-password"/>
                                <label for="new-password">{tr(locale, "Nouveau mot de passe (10 caractères au moins)", "New password (at least 10 characters)")}</label>
                                <input id="new-password" name="password" type="password" required minlength="10" maxlength="1024"
                                    autocomplete="new-password"/>
                                <label for="confirm">{tr(locale, "Le nouveau, encore", "The new one again")}</label>
                                <input id="confirm" name="confirm" type="password" required minlength="10" maxlength="1024"
                                    autocomplete="new-password"/>
                                <button type="submit">{tr(locale, "Changer le mot de passe", "Change the password")}</button>
                            </form>
                        }.into_any()
                    }}
                </section>
                <section class="card" data-testid="sessions">
                    <h2>{tr(locale, "Sessions", "Sessions")}</h2>
                    <p class="hint">{match locale {
                        Locale::Fr => format!("Les navigateurs où vous êtes connecté. Une session se ferme {} jours après la connexion, ou après {} jours sans servir. Déconnectez celles que vous ne reconnaissez pas.", data.session_days, data.idle_days),
                        Locale::En => format!("The browsers you are signed in on. A session ends {} days after signing in, or after {} days unused. Sign out those you do not recognise.", data.session_days, data.idle_days),
                    }}</p>
                    <ul class="token-list session-list">
                        {data.sessions.into_iter().map(|s| view! { <Session session=s locale/> }).collect_view()}
                    </ul>
                    {(others > 0).then(|| view! {
                        <form method="post" action=post::account::END_OTHERS.route()>
                            <button type="submit" class="secondary" data-testid="end-others">
                                {tr(locale, "Déconnecter toutes les autres sessions", "Sign out everywhere else")}
                            </button>
                        </form>
                    })}
                </section>
            </main>
        </div>
    }
}

#[component]
fn Session(session: SessionView, locale: Locale) -> impl IntoView {
    let device = device(session.browser.as_deref(), session.os.as_deref(), locale);
    let seen = if session.current {
        tr(locale, "active maintenant", "active now").to_string()
    } else {
        match locale {
            Locale::Fr => format!("vue le {}", session.last_seen),
            Locale::En => format!("last seen {}", session.last_seen),
        }
    };
    let address =
        session.address.unwrap_or_else(|| tr(locale, "adresse inconnue", "unknown address").to_string());
    let action = post::account::END_SESSION.to(&[&session.id.to_string()]);
    view! {
        <li class="token session" data-testid="session" data-current=session.current.to_string()>
            <div>
                <span>
                    <strong>{device}</strong>
                    {session.current.then(|| view! {
                        <span class="badge" data-testid="this-device">{tr(locale, "cet appareil", "this device")}</span>
                    })}
                </span>
                <span class="provider-meta">{address}" · "{seen}</span>
            </div>
            {if session.current {
                view! {
                    <form method="post" action=post::auth::LOG_OUT.route()>
                        <button type="submit" class="secondary">{tr(locale, "Se déconnecter", "Sign out")}</button>
                    </form>
                }.into_any()
            } else {
                view! {
                    <form method="post" action=action>
                        <button type="submit" class="secondary" data-testid="end-session">
                            {tr(locale, "Déconnecter", "Sign out")}
                        </button>
                    </form>
                }.into_any()
            }}
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_outcomes_are_said_in_both_languages() {
        let day = agent::Date::new(2026, 11, 29);
        assert_eq!(moment(day.map(|d| (d, 9, 5)), Locale::Fr), "29/11/2026 à 09:05");
        assert_eq!(moment(day.map(|d| (d, 14, 32)), Locale::En), "29 Nov 2026, 14:32");
        assert_eq!(device(Some("Chrome"), Some("Linux"), Locale::En), "Chrome on Linux");
        assert_eq!(device(Some("Firefox"), Some("Windows"), Locale::Fr), "Firefox sous Windows");
        assert_eq!(device(None, Some("iOS"), Locale::Fr), "Navigateur inconnu sous iOS");
        assert_eq!(device(Some("curl"), None, Locale::En), "curl");
        assert_eq!(changed_text(2, Locale::En), "Password changed. 2 sessions elsewhere signed out.");
        assert_eq!(changed_text(1, Locale::Fr), "Mot de passe changé. 1 session ailleurs a été déconnectée.");
        assert_eq!(ended_text(3, Locale::Fr), "3 sessions déconnectées.");
        assert_eq!(ended_text(0, Locale::En), "No other session was open.");
    }
}
