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

pub fn t(locale: Locale, key: T) -> &'static str {
    let (fr, en) = match key {
        T::Tagline => ("Posez une question sur votre argent. Réponse immédiate, sans IA.", "Ask about your money. Instant answers, no AI needed."),
        T::Placeholder => ("Combien j'ai dépensé en courses en janvier 2026 ?", "How much did I spend on groceries in January 2026?"),
        T::Send => ("Envoyer", "Send"),
        T::NewChat => ("Nouvelle conversation", "New chat"),
        T::Confidence => ("Confiance", "Confidence"),
        T::Transactions => ("Opérations", "Transactions"),
        T::Date => ("Date", "Date"),
        T::Label => ("Libellé", "Label"),
        T::Category => ("Catégorie", "Category"),
        T::Amount => ("Montant", "Amount"),
        T::Empty => ("Aucune opération sur cette période.", "No transactions in this period."),
        T::ShowingFirst => ("Les plus récentes sont affichées.", "Showing the most recent ones."),
        T::Mentioned => ("Mentionnés dans la réponse :", "Mentioned in the answer:"),
        T::TokensIn => ("jetons lus", "tokens in"),
        T::TokensOut => ("écrits", "out"),
        T::FirstToken => ("premier mot en", "first token in"),
        T::Stop => ("Arrêter", "Stop"),
        T::Settings => ("Réglages", "Settings"),
        T::Stopped => ("Réponse arrêtée.", "Answer stopped."),
        T::Thinking => ("Calcul…", "Working…"),
        T::Interrupted => ("La connexion a été interrompue avant la fin de la réponse. Réessayez.", "The connection was interrupted before the answer finished. Try again."),
        T::Warning => ("À vérifier", "Check this"),
        T::NotFound => ("Page introuvable", "Page not found"),
        T::NotFoundBody => ("Cette conversation n'existe pas ou n'est pas à vous.", "This conversation does not exist or is not yours."),
        T::BackHome => ("Retour au chat", "Back to the chat"),
        T::Examples => ("Par exemple", "For example"),
        T::Breakdown => ("Répartition", "Breakdown"),
        T::Net => ("Solde net", "Net"),
        T::Debits => ("Débits", "Money out"),
        T::Credits => ("Crédits", "Money in"),
        T::Period => ("Période", "Period"),
        T::Income => ("Entrées", "Income"),
        T::Spending => ("Dépenses", "Spending"),
        T::SavingsRate => ("Taux d'épargne", "Savings rate"),
        T::PerMonth => ("Par mois", "By month"),
        T::PerWeek => ("Par semaine", "By week"),
        T::PerDay => ("Par jour", "By day"),
        T::Chart => ("Graphique", "Chart"),
        T::CashFlowNote => ("Les virements entre vos comptes ne comptent ni en entrées ni en dépenses ; les remboursements réduisent les dépenses.", "Transfers between your own accounts count as neither income nor spending; refunds reduce spending."),
        T::BalancesOn => ("Soldes au", "Balances on"),
        T::Accounts => ("Comptes", "Accounts"),
        T::Account => ("Compte", "Account"),
        T::AccountType => ("Type", "Type"),
        T::Balance => ("Solde", "Balance"),
        T::Total => ("Total", "Total"),
        T::NoAccount => ("Aucun compte ouvert à cette date.", "No account was open on that day."),
        T::Checking => ("Courant", "Checking"),
        T::SavingsAccount => ("Épargne", "Savings"),
        T::Card => ("Carte", "Card"),
        T::OtherAccount => ("Autre", "Other"),
        T::Budgets => ("Budgets", "Budgets"),
        T::Used => ("Consommé", "Used"),
        T::Spent => ("Dépensé", "Spent"),
        T::Budget => ("Budget", "Budget"),
        T::Remaining => ("Reste", "Left"),
        T::State => ("État", "Status"),
        T::StateOk => ("Dans le budget", "On track"),
        T::StateWarning => ("Bientôt atteint", "Close to the limit"),
        T::StateOver => ("Dépassé", "Over budget"),
        T::NoBudget => ("Aucun budget défini pour cette catégorie.", "No budget is set for this category."),
        T::Recurring => ("Paiements récurrents", "Recurring payments"),
        T::Name => ("Nom", "Name"),
        T::Cadence => ("Fréquence", "Every"),
        T::TypicalAmount => ("Montant habituel", "Usual amount"),
        T::Last => ("Dernier", "Last"),
        T::Next => ("Prochain", "Next"),
        T::PerYear => ("Par an", "Per year"),
        T::TotalPerYear => ("Total par an", "Total per year"),
        T::PerMonthSuffix => (" par mois", " a month"),
        T::PerYearSuffix => ("par an", "a year"),
        T::NoRecurring => ("Aucun paiement récurrent trouvé sur cette période.", "No recurring payment found in this period."),
        T::Weekly => ("Hebdomadaire", "Weekly"),
        T::Monthly => ("Mensuel", "Monthly"),
        T::Quarterly => ("Trimestriel", "Quarterly"),
        T::Yearly => ("Annuel", "Yearly"),
        T::WidgetOriginsNote => ("La liste des origines limite les sites qui peuvent afficher le widget dans leurs pages, pas les scripts : tout programme peut poser les mêmes questions que le widget, dans la même limite par heure. N'y mettez que ce qui peut être public.", "The origin list limits which sites may show the widget in their pages, not scripts: any program can ask what the widget asks, within the same hourly limit. Put in it only what may be public."),
        T::WidgetRateNote => ("Un même visiteur n'en pose qu'une part (un cinquième par défaut), pour qu'il ne prive pas les autres ; une question refusée hors du périmètre ne compte pas.", "One visitor may ask only a share of them (a fifth by default), so as not to leave none for the others; a question refused as outside the scope does not count."),
    };
    locale.pick(fr, en)
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
