//! The interface's own words, in French and English.

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
    Interrupted,
    Warning,
    NotFound,
    NotFoundBody,
    BackHome,
    Examples,
    Breakdown,
    Net,
}

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
