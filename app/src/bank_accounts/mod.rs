//! `/settings/accounts`: the user's bank accounts — each one's balance today (the
//! figure the chat gives for "solde"), what it was opened with, how many transactions
//! it holds and over which days, the other names it answers to — and renaming one, with
//! a plain form (no JavaScript needed): the old name stays understood.
//!
//! A page is a folder: this view, its data and changes (`data.rs`); its route is one
//! line in `lib.rs`, its link a card in Settings; the backend's `BankAccounts` does
//! the work.

mod data;

use agent::wording::day_label;
use agent::Locale;
use leptos::form::ActionForm;
use leptos::prelude::*;

use crate::i18n::{grouped, tr};
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use data::{load_bank_accounts, AccountRow, BankAccountsData, RenameAccount};

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "accounts",
    title: ("Comptes bancaires", "Bank accounts"),
    hint: (
        "Le solde de chaque compte aujourd'hui, ses opérations, et son nom : renommez un compte importé sous le nom du fichier.",
        "Each account's balance today, its transactions, and its name: rename an account an import named after its file.",
    ),
    links: &[CardLink { page: "accounts", id: "accounts", text: ("Voir les comptes", "See the accounts") }],
};

#[component]
pub fn BankAccountsPage() -> impl IntoView {
    let rename = ServerAction::<RenameAccount>::new();
    let data = Resource::new_blocking(|| (), |_| load_bank_accounts());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <BankAccounts data rename/>
        </Loaded>
    }
}

fn kind_label(kind: &str, locale: Locale) -> &'static str {
    match kind {
        "checking" => tr(locale, "Compte courant", "Current account"),
        "savings" => tr(locale, "Épargne", "Savings"),
        "card" => tr(locale, "Carte", "Card"),
        _ => tr(locale, "Autre", "Other"),
    }
}

#[component]
fn BankAccounts(data: BankAccountsData, rename: ServerAction<RenameAccount>) -> impl IntoView {
    let locale = data.locale;
    // A refused name comes back in the page's URL (a plain form post); a rename that
    // worked shows as the new name, with the old one among the names understood.
    let refused = move || {
        rename.value().get().and_then(Result::err).map(|e| {
            view! { <p class="error" role="alert" data-testid="rename-error">{e.to_string()}</p> }
        })
    };
    let today = day_label(data.today, locale);
    let total = data.total.map(|t| {
        view! {
            <section class="card" data-testid="accounts-total">
                <h2>{tr(locale, "Total des comptes", "All accounts")}</h2>
                <p class="total">{t.format(locale)}</p>
                <p class="hint">{match locale {
                    Locale::Fr => format!("Au {today}, les comptes en {} additionnés ; les autres devises restent à part.", t.currency.as_str()),
                    Locale::En => format!("On {today}, the accounts in {} added up; other currencies stay apart.", t.currency.as_str()),
                }}</p>
            </section>
        }
    });
    let empty = data.accounts.is_empty().then(|| {
        view! {
            <p class="hint" data-testid="no-accounts">{tr(locale,
                "Aucun compte pour l'instant : importez un relevé, Sou crée le compte.",
                "No accounts yet: import a statement and Sou makes the account.")}</p>
        }
    });
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Comptes", "Accounts") here=Here::Settings/>
            <main class="settings accounts-page" data-testid="accounts-page">
                <p><a href="/settings">{tr(locale, "← Réglages", "← Settings")}</a></p>
                {refused}
                {total}
                {empty}
                {data.accounts.into_iter().map(|a| view! { <Account a locale rename/> }).collect_view()}
            </main>
        </div>
    }
}

#[component]
fn Account(a: AccountRow, locale: Locale, rename: ServerAction<RenameAccount>) -> impl IntoView {
    let input = format!("account-name-{}", a.key);
    let key = a.key.clone();
    let balance = match a.balance {
        Some(b) => b.format(locale),
        None => tr(locale, "pas encore ouvert", "not open yet").to_string(),
    };
    // Its kind, unless its name says it already ("Compte courant").
    let kind = kind_label(&a.kind, locale);
    let kind =
        (!a.name.eq_ignore_ascii_case(kind)).then(|| view! { " " <span class="total-of">{kind}</span> });
    let lines = match (locale, a.transactions) {
        (Locale::Fr, n) if n <= 1 => format!("{n} opération"),
        (Locale::Fr, n) => format!("{} opérations", grouped(n, locale)),
        (Locale::En, 1) => "1 transaction".to_string(),
        (Locale::En, n) => format!("{} transactions", grouped(n, locale)),
    };
    let activity = match a.span {
        Some((first, last)) => match locale {
            Locale::Fr => format!("{lines}, du {} au {}.", day_label(first, locale), day_label(last, locale)),
            Locale::En => {
                format!("{lines}, from {} to {}.", day_label(first, locale), day_label(last, locale))
            }
        },
        None => format!("{lines}."),
    };
    let opening = a.opening.map(|(day, m)| match locale {
        Locale::Fr => format!("Solde d'ouverture : {} au {}.", m.format(locale), day_label(day, locale)),
        Locale::En => format!("Opening balance: {} on {}.", m.format(locale), day_label(day, locale)),
    });
    let aliases = (!a.aliases.is_empty()).then(|| {
        let names = a.aliases.join(", ");
        view! { <p class="hint" data-testid="aliases">{tr(locale, "Aussi compris : ", "Also understood: ")}{names}</p> }
    });
    view! {
        <section class="card" data-testid="bank-account" data-key=a.key>
            <h2>{a.name.clone()} {kind}</h2>
            <p class="total" data-testid="balance">{balance}</p>
            <p class="hint" data-testid="activity">{activity} " " {opening}</p>
            {aliases}
            <ActionForm action=rename attr:data-testid="rename-form">
                <input type="hidden" name="key" value=key/>
                <label for=input.clone()>{tr(locale, "Nom", "Name")}</label>
                <input id=input type="text" name="name" required maxlength="60" autocomplete="off" value=a.name/>
                <button type="submit" class="secondary-action">{tr(locale, "Renommer", "Rename")}</button>
            </ActionForm>
        </section>
    }
}
