//! The interface's own words, in French and English.

// The browser bundle (the composer) says a few of these; the server, all.
#![cfg_attr(not(feature = "ssr"), allow(dead_code))]

use agent::Locale;

#[derive(Clone, Copy)]
pub enum T {
    Tagline,
    Placeholder,
    Send,
    NewChat,
    Confidence,
    Transactions,
    Date,
    Label,
    Category,
    Amount,
    Empty,
    ShowingFirst,
    Thinking,
    Mentioned,
    TokensIn,
    TokensOut,
    FirstToken,
    Stop,
    Settings,
    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    Stopped,
    Interrupted,
    Warning,
    NotFound,
    NotFoundBody,
    BackHome,
    Examples,
    Breakdown,
    Net,
    Debits,
    Credits,
    Period,
    Income,
    Spending,
    SavingsRate,
    PerMonth,
    PerWeek,
    PerDay,
    Chart,
    CashFlowNote,
    BalancesOn,
    Accounts,
    Account,
    AccountType,
    Balance,
    Total,
    NoAccount,
    Checking,
    SavingsAccount,
    Card,
    OtherAccount,
    Budgets,
    Used,
    Spent,
    Budget,
    Remaining,
    State,
    StateOk,
    StateWarning,
    StateOver,
    NoBudget,
    Recurring,
    Name,
    Cadence,
    TypicalAmount,
    Last,
    Next,
    PerYear,
    TotalPerYear,
    PerMonthSuffix,
    PerYearSuffix,
    NoRecurring,
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
    WidgetOriginsNote,
    WidgetRateNote,
}

/// A string given in both languages where it is used (pages with few strings).
/// `n` and the word that goes with it: singular for 0 and 1 in French, for 1 in English.
pub fn count(locale: Locale, n: u64, fr: (&str, &str), en: (&str, &str)) -> String {
    let word = match locale {
        Locale::Fr if n <= 1 => fr.0,
        Locale::Fr => fr.1,
        Locale::En if n == 1 => en.0,
        Locale::En => en.1,
    };
    format!("{n} {word}")
}

/// A count with its thousands apart: "1 525" (a narrow no-break space), "1,525".
pub fn grouped(n: u64, locale: Locale) -> String {
    let digits = n.to_string();
    let sep = locale.pick('\u{202f}', ',');
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

pub fn tr(locale: Locale, fr: &'static str, en: &'static str) -> &'static str {
    locale.pick(fr, en)
}

// A table, over 120 lines on purpose: as one `match`, the browser build keeps only the
// words it says (a table of pairs made it 1.5 KB larger, brotli).
#[allow(clippy::too_many_lines)]
pub fn t(locale: Locale, key: T) -> &'static str {
    use Locale::{En, Fr};
    match (key, locale) {
        (T::Tagline, Fr) => "Posez une question sur votre argent. Réponse immédiate, sans IA.",
        (T::Tagline, En) => "Ask about your money. Instant answers, no AI needed.",
        (T::Placeholder, Fr) => "Combien j'ai dépensé en courses en janvier 2026 ?",
        (T::Placeholder, En) => "How much did I spend on groceries in January 2026?",
        (T::Send, Fr) => "Envoyer",
        (T::Send, En) => "Send",
        (T::NewChat, Fr) => "Nouvelle conversation",
        (T::NewChat, En) => "New chat",
        (T::Confidence, Fr) => "Confiance",
        (T::Confidence, En) => "Confidence",
        (T::Transactions, Fr) => "Opérations",
        (T::Transactions, En) => "Transactions",
        (T::Date, Fr) => "Date",
        (T::Date, En) => "Date",
        (T::Label, Fr) => "Libellé",
        (T::Label, En) => "Label",
        (T::Category, Fr) => "Catégorie",
        (T::Category, En) => "Category",
        (T::Amount, Fr) => "Montant",
        (T::Amount, En) => "Amount",
        (T::Empty, Fr) => "Aucune opération sur cette période.",
        (T::Empty, En) => "No transactions in this period.",
        (T::ShowingFirst, Fr) => "Les plus récentes sont affichées.",
        (T::ShowingFirst, En) => "Showing the most recent ones.",
        (T::Mentioned, Fr) => "Mentionnés dans la réponse :",
        (T::Mentioned, En) => "Mentioned in the answer:",
        (T::TokensIn, Fr) => "jetons lus",
        (T::TokensIn, En) => "tokens in",
        (T::TokensOut, Fr) => "écrits",
        (T::TokensOut, En) => "out",
        (T::FirstToken, Fr) => "premier mot en",
        (T::FirstToken, En) => "first token in",
        (T::Stop, Fr) => "Arrêter",
        (T::Stop, En) => "Stop",
        (T::Settings, Fr) => "Réglages",
        (T::Settings, En) => "Settings",
        (T::Stopped, Fr) => "Réponse arrêtée.",
        (T::Stopped, En) => "Answer stopped.",
        (T::Thinking, Fr) => "Calcul…",
        (T::Thinking, En) => "Working…",
        (T::Interrupted, Fr) => "La connexion a été interrompue avant la fin de la réponse. Réessayez.",
        (T::Interrupted, En) => "The connection was interrupted before the answer finished. Try again.",
        (T::Warning, Fr) => "À vérifier",
        (T::Warning, En) => "Check this",
        (T::NotFound, Fr) => "Page introuvable",
        (T::NotFound, En) => "Page not found",
        (T::NotFoundBody, Fr) => "Cette conversation n'existe pas ou n'est pas à vous.",
        (T::NotFoundBody, En) => "This conversation does not exist or is not yours.",
        (T::BackHome, Fr) => "Retour au chat",
        (T::BackHome, En) => "Back to the chat",
        (T::Examples, Fr) => "Par exemple",
        (T::Examples, En) => "For example",
        (T::Breakdown, Fr) => "Répartition",
        (T::Breakdown, En) => "Breakdown",
        (T::Net, Fr) => "Solde net",
        (T::Net, En) => "Net",
        (T::Debits, Fr) => "Débits",
        (T::Debits, En) => "Money out",
        (T::Credits, Fr) => "Crédits",
        (T::Credits, En) => "Money in",
        (T::Period, Fr) => "Période",
        (T::Period, En) => "Period",
        (T::Income, Fr) => "Entrées",
        (T::Income, En) => "Income",
        (T::Spending, Fr) => "Dépenses",
        (T::Spending, En) => "Spending",
        (T::SavingsRate, Fr) => "Taux d'épargne",
        (T::SavingsRate, En) => "Savings rate",
        (T::PerMonth, Fr) => "Par mois",
        (T::PerMonth, En) => "By month",
        (T::PerWeek, Fr) => "Par semaine",
        (T::PerWeek, En) => "By week",
        (T::PerDay, Fr) => "Par jour",
        (T::PerDay, En) => "By day",
        (T::Chart, Fr) => "Graphique",
        (T::Chart, En) => "Chart",
        (T::CashFlowNote, Fr) => {
            "Les virements entre vos comptes ne comptent ni en entrées ni en dépenses ; les remboursements réduisent les dépenses."
        }
        (T::CashFlowNote, En) => {
            "Transfers between your own accounts count as neither income nor spending; refunds reduce spending."
        }
        (T::BalancesOn, Fr) => "Soldes au",
        (T::BalancesOn, En) => "Balances on",
        (T::Accounts, Fr) => "Comptes",
        (T::Accounts, En) => "Accounts",
        (T::Account, Fr) => "Compte",
        (T::Account, En) => "Account",
        (T::AccountType, Fr) => "Type",
        (T::AccountType, En) => "Type",
        (T::Balance, Fr) => "Solde",
        (T::Balance, En) => "Balance",
        (T::Total, Fr) => "Total",
        (T::Total, En) => "Total",
        (T::NoAccount, Fr) => "Aucun compte ouvert à cette date.",
        (T::NoAccount, En) => "No account was open on that day.",
        (T::Checking, Fr) => "Courant",
        (T::Checking, En) => "Checking",
        (T::SavingsAccount, Fr) => "Épargne",
        (T::SavingsAccount, En) => "Savings",
        (T::Card, Fr) => "Carte",
        (T::Card, En) => "Card",
        (T::OtherAccount, Fr) => "Autre",
        (T::OtherAccount, En) => "Other",
        (T::Budgets, Fr) => "Budgets",
        (T::Budgets, En) => "Budgets",
        (T::Used, Fr) => "Consommé",
        (T::Used, En) => "Used",
        (T::Spent, Fr) => "Dépensé",
        (T::Spent, En) => "Spent",
        (T::Budget, Fr) => "Budget",
        (T::Budget, En) => "Budget",
        (T::Remaining, Fr) => "Reste",
        (T::Remaining, En) => "Left",
        (T::State, Fr) => "État",
        (T::State, En) => "Status",
        (T::StateOk, Fr) => "Dans le budget",
        (T::StateOk, En) => "On track",
        (T::StateWarning, Fr) => "Bientôt atteint",
        (T::StateWarning, En) => "Close to the limit",
        (T::StateOver, Fr) => "Dépassé",
        (T::StateOver, En) => "Over budget",
        (T::NoBudget, Fr) => "Aucun budget défini pour cette catégorie.",
        (T::NoBudget, En) => "No budget is set for this category.",
        (T::Recurring, Fr) => "Paiements récurrents",
        (T::Recurring, En) => "Recurring payments",
        (T::Name, Fr) => "Nom",
        (T::Name, En) => "Name",
        (T::Cadence, Fr) => "Fréquence",
        (T::Cadence, En) => "Every",
        (T::TypicalAmount, Fr) => "Montant habituel",
        (T::TypicalAmount, En) => "Usual amount",
        (T::Last, Fr) => "Dernier",
        (T::Last, En) => "Last",
        (T::Next, Fr) => "Prochain",
        (T::Next, En) => "Next",
        (T::PerYear, Fr) => "Par an",
        (T::PerYear, En) => "Per year",
        (T::TotalPerYear, Fr) => "Total par an",
        (T::TotalPerYear, En) => "Total per year",
        (T::PerMonthSuffix, Fr) => " par mois",
        (T::PerMonthSuffix, En) => " a month",
        (T::PerYearSuffix, Fr) => "par an",
        (T::PerYearSuffix, En) => "a year",
        (T::NoRecurring, Fr) => "Aucun paiement récurrent trouvé sur cette période.",
        (T::NoRecurring, En) => "No recurring payment found in this period.",
        (T::Weekly, Fr) => "Hebdomadaire",
        (T::Weekly, En) => "Weekly",
        (T::Monthly, Fr) => "Mensuel",
        (T::Monthly, En) => "Monthly",
        (T::Quarterly, Fr) => "Trimestriel",
        (T::Quarterly, En) => "Quarterly",
        (T::Yearly, Fr) => "Annuel",
        (T::Yearly, En) => "Yearly",
        (T::WidgetOriginsNote, Fr) => "La liste des origines limite les sites qui peuvent afficher le widget dans leurs pages, pas les scripts : tout programme peut poser les mêmes questions que le widget, dans la même limite par heure. N'y mettez que ce qui peut être public.",
        (T::WidgetOriginsNote, En) => "The origin list limits which sites may show the widget in their pages, not scripts: any program can ask what the widget asks, within the same hourly limit. Put in it only what may be public.",
        (T::WidgetRateNote, Fr) => "Un même visiteur n'en pose qu'une part (un cinquième par défaut), pour qu'il ne prive pas les autres ; une question refusée hors du périmètre ne compte pas.",
        (T::WidgetRateNote, En) => "One visitor may ask only a share of them (a fifth by default), so as not to leave none for the others; a question refused as outside the scope does not count.",
    }
}

pub fn examples(locale: Locale) -> [&'static str; 4] {
    match locale {
        Locale::Fr => [
            "Combien j'ai dépensé en courses en janvier 2026 ?",
            "Mes dépenses par catégorie le mois dernier",
            "Liste des opérations chez Monoprix en mars 2026",
            "Combien m'a coûté Netflix en 2025 ?",
        ],
        Locale::En => [
            "How much did I spend on groceries in January 2026?",
            "Spending by category last month",
            "Show my transactions at Lidl in January 2026",
            "How much did Netflix cost me in 2025?",
        ],
    }
}

/// "3 mois", "3 months".
pub fn months(n: u32, locale: Locale) -> String {
    match (locale, n) {
        (Locale::Fr, _) => format!("{n} mois"),
        (Locale::En, 1) => "1 month".to_string(),
        (Locale::En, _) => format!("{n} months"),
    }
}

/// "73,3 % de la période écoulée", given the share already formatted.
pub fn elapsed(share: &str, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("{share} de la période écoulée"),
        Locale::En => format!("{share} of the period elapsed"),
    }
}

/// 2026-01-12 as people write it: 12/01/2026, or 12 Jan 2026.
pub fn date(d: agent::Date, locale: Locale) -> String {
    const EN: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    match locale {
        Locale::Fr => format!("{:02}/{:02}/{}", d.day(), d.month(), d.year()),
        Locale::En => {
            let m = EN.get(d.month().saturating_sub(1) as usize).copied().unwrap_or("");
            format!("{} {m} {}", d.day(), d.year())
        }
    }
}

#[cfg(test)]
mod grouped_tests {
    #[test]
    fn thousands_apart() {
        use agent::Locale::{En, Fr};
        assert_eq!(super::grouped(7, Fr), "7");
        assert_eq!(super::grouped(1525, Fr), "1\u{202f}525");
        assert_eq!(super::grouped(1_234_567, En), "1,234,567");
        assert_eq!(super::grouped(100_000, En), "100,000");
    }
}
