//! Message -> plan. Deterministic: the same message, vocabulary, `today` and previous
//! plan always give the same outcome. Never panics, never fails: a plan or a question.

use crate::amount;
use crate::analyst;
use crate::period::{self, Found};
use crate::protocol::DetectedEntity;
use crate::reason::{confidence_of, Reason, ReasonCode};
use crate::text::{edit_distance, singular, tokenize, Token, TokenKind, MAX_MESSAGE_CHARS};
use crate::vocab::{EntityId, EntityKind, Index, Vocabulary};
use crate::{
    BalancesArgs, BudgetArgs, CashFlowArgs, Clarification, Date, Direction, GroupBy, ListTransactionsArgs,
    Locale, ParseOutcome, Period, PlanMeta, RecurringArgs, Suggestion, SummaryArgs, ToolCall, ToolCallPlan,
    DEFAULT_LIST_LIMIT,
};

/// What the parser knows besides the message.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Today in the user's time zone; relative words resolve against it.
    pub today: Date,
    /// The interface language, used when the message itself does not tell.
    pub locale: Option<Locale>,
    /// The previous plan of the conversation, for follow-ups.
    pub previous: Option<&'a ToolCallPlan>,
}

pub struct Parser {
    vocab: Vocabulary,
    index: Index,
    /// The datasets' and their columns' names, for analyst questions.
    dataset_names: analyst::Names,
}

pub(crate) const STOPWORDS: &[&str] = &[
    // French
    "a",
    "ai",
    "alors",
    "argent",
    "as",
    "au",
    "aux",
    "avez",
    "avons",
    "bien",
    "bonjour",
    "c",
    "ce",
    "ces",
    "cet",
    "cette",
    "chez",
    "d",
    "dans",
    "de",
    "depuis",
    "des",
    "dis",
    "donne",
    "du",
    "durant",
    "elle",
    "en",
    "entre",
    "environ",
    "est",
    "et",
    "eu",
    "eur",
    "euro",
    "euros",
    "exactement",
    "fait",
    "faire",
    "il",
    "j",
    "je",
    "l",
    "la",
    "le",
    "les",
    "m",
    "ma",
    "me",
    "merci",
    "mes",
    "moi",
    "mon",
    "montre",
    "montrer",
    "affiche",
    "afficher",
    "ne",
    "niveau",
    "nos",
    "notre",
    "nous",
    "on",
    "ou",
    "pendant",
    "peux",
    "pour",
    "pourrais",
    "qu",
    "que",
    "quel",
    "quelle",
    "quelles",
    "quels",
    "quoi",
    "sa",
    "salut",
    "savoir",
    "ses",
    "son",
    "stp",
    "sur",
    "svp",
    "t",
    "ta",
    "te",
    "tes",
    "ton",
    "tous",
    "tout",
    "toute",
    "toutes",
    "tu",
    "un",
    "une",
    "veux",
    "voir",
    "vos",
    "votre",
    "voudrais",
    "vous",
    "y",
    "somme",
    "montant",
    "mois",
    "jai",
    "annee",
    "periode",
    // English
    "about",
    "all",
    "am",
    "amount",
    "an",
    "and",
    "any",
    "are",
    "at",
    "be",
    "been",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "dollars",
    "exactly",
    "far",
    "for",
    "from",
    "get",
    "give",
    "had",
    "has",
    "have",
    "hello",
    "hey",
    "hi",
    "how",
    "i",
    "in",
    "is",
    "it",
    "its",
    "just",
    "know",
    "let",
    "ll",
    "many",
    "money",
    "month",
    "much",
    "my",
    "of",
    "or",
    "our",
    "overall",
    "please",
    "re",
    "s",
    "see",
    "show",
    "so",
    "sum",
    "tell",
    "thanks",
    "that",
    "the",
    "there",
    "this",
    "to",
    "up",
    "us",
    "ve",
    "was",
    "we",
    "were",
    "what",
    "whats",
    "which",
    "with",
    "would",
    "year",
    "you",
    "your",
    "period",
    "total",
    "totale",
    "combien",
    // Neutral words: they say nothing about which transactions.
    "only",
    "seulement",
    "uniquement",
    "juste",
    "achats",
    "achat",
    "purchases",
    "purchase",
    "things",
    "stuff",
    "trucs",
    "choses",
    "sont",
    "etait",
    "etaient",
    "ete",
    "plus",
    "most",
    "where",
    "when",
    "quand",
    "avec",
    // Accounts and budgets in general, and how people ask about them.
    "compte",
    "comptes",
    "account",
    "accounts",
    "bancaire",
    "bancaires",
    "bank",
    "fin",
    "end",
    "reste",
    "restant",
    "rester",
    "dispo",
    "disponible",
    "available",
    "left",
    "got",
    "depasse",
    "depasses",
    "depassee",
    "over",
    "exceeded",
    "etat",
    "status",
    "statut",
    "point",
    "situation",
    "suivi",
    "doing",
    "going",
    "track",
    "automatiques",
    "automatique",
    "automatic",
    "paying",
    "actuel",
    "actuellement",
    "current",
    "currently",
    "right",
    "now",
    "maintenant",
    "every",
    "each",
    "chaque",
    "thx",
    "pls",
    "plz",
    "voici",
    "ca",
    "cela",
    "ceci",
    "same",
    "pareil",
    "idem",
    "meme",
    "sou",
    "ok",
    "okay",
    "hmm",
    "bon",
    "bref",
    "euh",
    "ben",
    "bah",
    "comme",
    "qui",
    "suis",
    "sommes",
    "es",
    "fois",
];

/// Words that say "money going out".
fn is_spend_word(w: &str) -> bool {
    w.starts_with("depens")
        || matches!(
            w,
            "spend"
                | "spent"
                | "spending"
                | "spends"
                | "expense"
                | "expenses"
                | "expenditure"
                | "expenditures"
                | "cost"
                | "costs"
                | "coute"
                | "coutent"
                | "paye"
                | "payes"
                | "payee"
                | "payer"
                | "paid"
                | "pay"
                | "claque"
                | "claquer"
                | "claques"
                | "withdraw"
                | "withdrew"
                | "withdrawn"
                | "retire"
                | "retires"
        )
}

/// Words that say "money coming in".
fn is_income_word(w: &str) -> bool {
    matches!(
        w,
        "gagne"
            | "gagnee"
            | "gagner"
            | "revenus"
            | "revenu"
            | "rentrees"
            | "recu"
            | "recus"
            | "percu"
            | "percus"
            | "touche"
            | "earn"
            | "earned"
            | "earnings"
            | "income"
            | "received"
            | "receive"
            | "incoming"
    )
}

fn is_list_word(w: &str) -> bool {
    matches!(
        w,
        "transactions"
            | "transaction"
            | "operations"
            | "operation"
            | "liste"
            | "lister"
            | "list"
            | "listing"
            | "paiements"
            | "paiement"
            | "payments"
            | "payment"
            | "mouvements"
            | "releve"
            | "cherche"
            | "chercher"
            | "recherche"
            | "search"
            | "find"
            | "buy"
            | "bought"
            | "achete"
            | "achetes"
            | "achetee"
    )
}

/// The words that say what to compute, for one-letter typos ("budjet", "depnses").
const INTENT_KEYWORDS: &[(&str, Kind)] = &[
    ("solde", Kind::Balance),
    ("soldes", Kind::Balance),
    ("balance", Kind::Balance),
    ("budget", Kind::Budget),
    ("budgets", Kind::Budget),
    ("prelevements", Kind::Recurring),
    ("recurrents", Kind::Recurring),
    ("recurring", Kind::Recurring),
    ("tresorerie", Kind::CashFlow),
    ("depenses", Kind::Spending),
    ("depense", Kind::Spending),
    ("spending", Kind::Spending),
    ("expenses", Kind::Spending),
    ("revenus", Kind::Income),
    ("income", Kind::Income),
    ("transactions", Kind::List),
    ("operations", Kind::List),
];

/// A word one typo away from an intent keyword (same first letter, five letters or more).
fn fuzzy_intent_word(w: &str) -> Option<(Kind, &'static str)> {
    if w.chars().count() < 5 || STOPWORDS.contains(&w) {
        return None;
    }
    INTENT_KEYWORDS
        .iter()
        .find(|(k, _)| k.chars().next() == w.chars().next() && edit_distance(w, k, 1) <= 1)
        .map(|(k, kind)| (*kind, *k))
}

/// "plus gros", "plus grosse", "biggest", "largest", "most expensive": the tokens used.
fn largest_marker(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    let free = |j: usize| j < tokens.len() && !used[j];
    let w = tokens.get(i).filter(|_| free(i))?.norm.as_str();
    let next = tokens.get(i + 1).filter(|_| free(i + 1)).map_or("", |t| t.norm.as_str());
    match (w, next) {
        ("plus", n) if is_largest_word(n) => Some(2),
        ("most", "expensive") => Some(2),
        (w, _) if is_largest_word(w) && matches!(w, "biggest" | "largest" | "highest") => Some(1),
        _ => None,
    }
}

fn is_largest_word(w: &str) -> bool {
    matches!(
        w,
        "gros"
            | "grosse"
            | "grosses"
            | "grand"
            | "grande"
            | "grandes"
            | "grands"
            | "importante"
            | "importantes"
            | "cher"
            | "chere"
            | "cheres"
            | "chers"
            | "biggest"
            | "largest"
            | "highest"
    )
}

/// "dernières opérations", "latest transactions", "recent payments".
fn is_latest_word(w: &str) -> bool {
    matches!(w, "dernieres" | "derniers" | "derniere" | "last" | "latest" | "recent" | "recentes" | "recents")
}

/// "solde", "balance": what an account holds.
fn is_balance_word(w: &str) -> bool {
    matches!(w, "solde" | "soldes" | "balance" | "balances")
}

fn is_budget_word(w: &str) -> bool {
    matches!(
        w,
        "budget"
            | "budgets"
            | "budgete"
            | "budgetes"
            | "budgeted"
            | "enveloppe"
            | "enveloppes"
            | "budgetaire"
    )
}

/// Payments that repeat: "prélèvements", "récurrents", "recurring".
fn is_recurring_word(w: &str) -> bool {
    matches!(
        w,
        "recurrent"
            | "recurrents"
            | "recurrente"
            | "recurrentes"
            | "recurring"
            | "recurrence"
            | "recurrences"
            | "prelevements"
            | "prelevement"
            | "mensualites"
            | "reguliers"
            | "regulieres"
            | "regular"
            | "repeating"
    )
}

fn is_subscription_word(w: &str) -> bool {
    matches!(w, "abonnements" | "abonnement" | "abos" | "abo" | "subscriptions" | "subscription" | "subs")
}

/// Money in against money out, in one word.
fn is_cash_flow_word(w: &str) -> bool {
    matches!(
        w,
        "tresorerie"
            | "cashflow"
            | "bilan"
            | "surplus"
            | "deficit"
            | "economise"
            | "economises"
            | "economisee"
            | "economiser"
            | "economies"
            | "saved"
            | "save"
            | "epargnes"
            | "epargnee"
            | "epargner"
    )
}

/// "épargné" folds to "epargne", the savings category's name: after "ai", "as",
/// "avons", "taux d'" it is the verb (or the rate), a cash-flow question.
fn saves_before(tokens: &[Token], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j)).map_or("", |t| t.norm.as_str());
    matches!(before(1), "ai" | "as" | "avons" | "avez" | "jai" | "capacite" | "j" | "je" | "on" | "nous")
        || (before(1) == "d" && matches!(before(2), "taux" | "capacite"))
}

/// "cash flow", "taux d'épargne", "savings rate", "entrées et sorties", "in and out":
/// the number of tokens the phrase uses.
fn cash_flow_phrase(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    const PHRASES: &[&[&str]] = &[
        &["cash", "flow"],
        &["taux", "d", "epargne"],
        &["savings", "rate"],
        &["saving", "rate"],
        &["net", "savings"],
        &["entrees", "et", "sorties"],
        &["entrees", "sorties"],
        &["in", "and", "out"],
        &["money", "in", "and", "out"],
        &["inflows", "and", "outflows"],
        &["solde", "net"],
        &["net", "income"],
        &["revenus", "et", "depenses"],
        &["revenus", "depenses"],
        &["income", "and", "expenses"],
        &["income", "vs", "expenses"],
        &["mis", "de", "cote"],
        &["put", "aside"],
    ];
    PHRASES.iter().find_map(|p| {
        let fits = p.iter().enumerate().all(|(k, w)| {
            tokens.get(i + k).is_some_and(|t| t.norm == *w) && !used.get(i + k).copied().unwrap_or(true)
        });
        fits.then_some(p.len())
    })
}

/// "remboursements", "refunds", "crédits", "débits", "virements reçus", "money in".
fn direction_words(tokens: &[Token], used: &[bool], i: usize) -> Option<(Direction, usize)> {
    let free = |j: usize| !used.get(j).copied().unwrap_or(true);
    let w = tokens.get(i).filter(|_| free(i))?.norm.as_str();
    let next = tokens.get(i + 1).filter(|_| free(i + 1)).map_or("", |t| t.norm.as_str());
    match (w, next) {
        ("virements" | "virement" | "transfers" | "transfer", "recus" | "recu" | "received" | "entrants") => {
            Some((Direction::Credit, 2))
        }
        ("money", "in") => Some((Direction::Credit, 2)),
        ("money", "out") => Some((Direction::Debit, 2)),
        (
            "remboursements" | "remboursement" | "rembourse" | "remboursee" | "rembourses" | "refunds"
            | "refund" | "refunded" | "credits" | "credit" | "crediteurs" | "entrees",
            _,
        ) => Some((Direction::Credit, 1)),
        ("debits" | "debit" | "sorties" | "outgoings", _) => Some((Direction::Debit, 1)),
        _ => None,
    }
}

/// Advice or an opinion: "should I", "devrais-je", "est-ce que je peux me permettre",
/// "conseil", "why", "pourquoi". No tool answers these; a model may.
fn is_advice(tokens: &[Token], i: usize) -> bool {
    let w = tokens[i].norm.as_str();
    let next = tokens.get(i + 1).map_or("", |t| t.norm.as_str());
    matches!(
        w,
        "should"
            | "shall"
            | "devrais"
            | "devrait"
            | "devrions"
            | "faudrait"
            | "conseil"
            | "conseils"
            | "conseille"
            | "conseiller"
            | "conseilles"
            | "advice"
            | "advise"
            | "recommend"
            | "recommande"
            | "recommandes"
            | "suggere"
            | "suggest"
            | "afford"
            | "permettre"
            | "why"
            | "pourquoi"
            | "astuces"
            | "tips"
            | "idees"
            | "ideas"
            | "optimiser"
            | "optimize"
            | "invest"
            | "investir"
            | "investment"
            | "investments"
            | "investissement"
            | "investissements"
            | "placement"
            | "placements"
            | "placer"
            | "cancel"
            | "resilier"
            | "arreter"
            | "cook"
            | "cuisiner"
            | "recette"
            | "recipe"
            | "weather"
            | "meteo"
    ) || matches!((w, next), ("dois", "je") | ("how", "do") | ("how", "can") | ("comment", "faire"))
        || matches!((w, next), ("worth", _) | ("vaut", "le"))
}

/// "top 5 marchands", "mes 3 principales catégories", "biggest merchants": the group,
/// how many, and the tokens used.
fn top_groups(tokens: &[Token], used: &[bool], i: usize) -> Option<(GroupBy, u32, usize, usize)> {
    let free = |j: usize| j < tokens.len() && !used[j];
    let word = |j: usize| free(j).then(|| tokens[j].norm.as_str());
    let number = |j: usize| {
        word(j)
            .filter(|_| tokens[j].kind == TokenKind::Number)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=50).contains(n))
    };
    let w = word(i)?;
    // The word after the marker: "top [5] merchants", "plus gros marchands".
    let mut j = i + 1;
    if w == "plus" {
        if !matches!(word(j), Some("gros" | "grosses" | "grands" | "grandes" | "importants" | "importantes"))
        {
            return None;
        }
        j += 1;
    } else if !matches!(w, "top" | "principaux" | "principales" | "main" | "biggest" | "largest" | "major") {
        return None;
    }
    let mut first = i;
    let mut n = None;
    if let Some(k) = number(j) {
        n = Some(k);
        j += 1;
    } else if i > 0 {
        // "mes 3 principaux marchands"
        if let Some(k) = number(i - 1) {
            n = Some(k);
            first = i - 1;
        }
    }
    if matches!(word(j), Some("des" | "de" | "d" | "of")) {
        j += 1;
    }
    let g = group_word(word(j)?)?;
    if g.is_time() {
        return None;
    }
    Some((g, n.unwrap_or(DEFAULT_TOP), first, j))
}

/// "monthly", "hebdomadaire", "daily"…: a breakdown over time in one word.
fn time_group_word(w: &str) -> Option<GroupBy> {
    match w {
        "monthly" | "mensuel" | "mensuelle" | "mensuelles" | "mensuels" => Some(GroupBy::Month),
        "weekly" | "hebdomadaire" | "hebdomadaires" | "hebdo" => Some(GroupBy::Week),
        "daily" | "quotidien" | "quotidienne" | "quotidiennes" | "quotidiens" | "journalier" => {
            Some(GroupBy::Day)
        }
        _ => None,
    }
}

fn is_breakdown_word(w: &str) -> bool {
    matches!(w, "repartition" | "breakdown" | "ventilation" | "split" | "reparti" | "repartis")
}

fn group_word(w: &str) -> Option<GroupBy> {
    match w {
        "categorie" | "categories" | "category" | "categories_" | "cat" | "poste" | "postes" => {
            Some(GroupBy::Category)
        }
        "marchand" | "marchands" | "commercant" | "commercants" | "enseigne" | "enseignes" | "magasin"
        | "magasins" | "merchant" | "merchants" | "store" | "stores" | "shop" | "shops" | "vendor"
        | "vendors" | "boutique" | "boutiques" => Some(GroupBy::Merchant),
        "compte" | "comptes" | "account" | "accounts" => Some(GroupBy::Account),
        "mois" | "month" | "months" => Some(GroupBy::Month),
        "semaine" | "semaines" | "week" | "weeks" => Some(GroupBy::Week),
        "jour" | "jours" | "day" | "days" => Some(GroupBy::Day),
        _ => None,
    }
}

const FR_MARKERS: &[&str] = &[
    "combien",
    "j",
    "ai",
    "en",
    "le",
    "la",
    "les",
    "des",
    "mes",
    "mon",
    "ma",
    "du",
    "chez",
    "par",
    "pour",
    "et",
    "mois",
    "annee",
    "quel",
    "quelle",
    "est",
    "ce",
    "cette",
    "dernier",
    "derniere",
    "depuis",
    "au",
    "aux",
    "dans",
    "sur",
    "une",
    "un",
    "de",
    "je",
    "depense",
    "depenses",
    "liste",
    "operations",
    "hier",
    "aujourd",
    "jai",
    "janvier",
    "fevrier",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
    "semaine",
    "courses",
    "mars",
    "solde",
    "soldes",
    "livret",
    "cheque",
    "courant",
    "stp",
    "loisirs",
    "prelevements",
    "prelevement",
    "factures",
    "recurrents",
    "recurrentes",
    "taux",
    "epargne",
    "bilan",
    "mensuel",
    "remboursements",
    "abonnements",
    "revenus",
    "compte",
    "comptes",
    "categorie",
    "marchand",
    "marchands",
    "entre",
    "quels",
    "quelles",
    "moi",
    "ou",
    "sante",
    "voyages",
    "transports",
    "logement",
    "retraits",
    "entrees",
    "sorties",
];
const EN_MARKERS: &[&str] = &[
    "how",
    "much",
    "did",
    "i",
    "spend",
    "spent",
    "on",
    "in",
    "the",
    "my",
    "at",
    "by",
    "for",
    "and",
    "month",
    "year",
    "last",
    "this",
    "what",
    "was",
    "show",
    "me",
    "of",
    "from",
    "with",
    "to",
    "is",
    "spending",
    "list",
    "yesterday",
    "today",
    "about",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "week",
    "groceries",
    "balance",
    "balances",
    "subscriptions",
    "bills",
    "recurring",
    "savings",
    "rate",
    "refunds",
    "credits",
    "income",
    "account",
    "checking",
    "monthly",
    "weekly",
    "transactions",
    "payments",
    "merchants",
    "category",
    "categories",
    "since",
    "between",
    "which",
    "do",
    "have",
    "travel",
    "health",
    "leisure",
    "rent",
];

fn detect_locale(tokens: &[Token]) -> Option<Locale> {
    let fr = tokens.iter().filter(|t| FR_MARKERS.contains(&t.norm.as_str())).count();
    let en = tokens.iter().filter(|t| EN_MARKERS.contains(&t.norm.as_str())).count();
    match fr.cmp(&en) {
        std::cmp::Ordering::Greater => Some(Locale::Fr),
        std::cmp::Ordering::Less => Some(Locale::En),
        std::cmp::Ordering::Equal => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Spending,
    Income,
    List,
    CashFlow,
    Balance,
    Budget,
    Recurring,
}

/// What the message asks for, before the period and filters.
struct Intent {
    kind: Option<Kind>,
    explicit: bool,
    group_by: Option<GroupBy>,
    /// The user's words that carried the intent.
    words: Vec<String>,
    /// "combien", "how much", "total": a quantity is asked, but of what is unsaid.
    asks_amount: bool,
    /// "top 5 merchants": keep the N largest groups.
    top: Option<u32>,
    /// "remboursements", "credits", "débits": one side of the ledger.
    direction: Option<Direction>,
    /// "should I", "devrais-je", "conseil": advice, which no tool gives.
    advice: bool,
    /// Only a breakdown was asked ("by month"): in a follow-up, the tool stays.
    group_only: bool,
    /// The intent word was misspelt: "« budjet » → budget".
    fuzzy: Option<String>,
    /// "my biggest expenses", "ma plus grosse dépense": largest amounts first.
    largest: bool,
    /// "my last 10 transactions": the newest ones, whatever the period.
    latest: bool,
    /// How many transactions: "les 5 dernières opérations", "my 3 biggest expenses".
    limit: Option<u32>,
}

/// Groups shown for "top merchants" when the message gives no number.
pub const DEFAULT_TOP: u32 = 5;
/// Transactions shown for "my biggest expenses" when the message gives no number.
pub const DEFAULT_LARGEST: u32 = 5;
/// Transactions shown for "my latest transactions" when the message gives no number.
pub const DEFAULT_LATEST: u32 = 10;

struct EntityMatch {
    ids: Vec<EntityId>,
    fuzzy: bool,
    words: String,
}

/// What the vocabulary recognised in a message, and the content words it did not.
#[derive(Default)]
struct Entities {
    categories: Vec<EntityMatch>,
    merchants: Vec<EntityMatch>,
    accounts: Vec<EntityMatch>,
    unrecognized: Vec<String>,
}

impl Parser {
    pub fn new(vocab: Vocabulary) -> Parser {
        let index = Index::build(&vocab);
        let dataset_names = analyst::Names::build(&vocab.datasets);
        Parser { vocab, index, dataset_names }
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocab
    }

    pub fn parse(&self, message: &str, cx: &Context<'_>) -> ParseOutcome {
        let char_count = message.chars().count();
        if char_count > MAX_MESSAGE_CHARS {
            let locale = cx.locale.unwrap_or(Locale::En);
            return ParseOutcome::Clarification(self.clarify(
                locale,
                cx,
                vec![Reason::new(ReasonCode::TooLong, locale, &char_count.to_string())],
                None,
                None,
            ));
        }
        let tokens = tokenize(message);
        let locale =
            detect_locale(&tokens).or(cx.previous.map(|p| p.meta.locale)).or(cx.locale).unwrap_or(Locale::En);
        if let Some(outcome) = self.dataset_question(&tokens, message, locale, cx) {
            return outcome;
        }
        let mut used = vec![false; tokens.len()];

        // "compared to my budget" asks for the budget, not two periods.
        let about_budget = tokens.iter().any(|t| is_budget_word(&t.norm));
        if let Some(words) = compare_words(&tokens, &mut used, message).filter(|_| !about_budget) {
            return self.comparison(message, &tokens, &mut used, locale, cx, &words);
        }
        // Text to find in bank labels: quoted, or after "contenant"/"containing".
        let text = label_text(message, &tokens, &mut used);
        // Amounts first: "plus de 2000 €" is not the year 2000.
        let currency = self.vocab.currency.unwrap_or(crate::Currency::EUR);
        let amounts = amount::find(&tokens, &used, locale, currency);
        if let Some(a) = &amounts {
            used[a.first..=a.last].iter_mut().for_each(|u| *u = true);
        }
        let found = period::find(&tokens, &used, message, cx.today, locale);
        if let Some(Found { first, last, .. }) = &found {
            used[*first..=*last].iter_mut().for_each(|u| *u = true);
        }
        let intent = self.intent(&tokens, &mut used, message);
        let Entities { categories, merchants, accounts, unrecognized } =
            self.entities(&tokens, &mut used, message);
        let period = found.map(|f| f.period);

        if intent.advice {
            let reasons = vec![Reason::new(ReasonCode::OutOfScope, locale, "")];
            let entity = merchants.first().or(categories.first());
            return ParseOutcome::Clarification(self.clarify(locale, cx, reasons, period, entity));
        }

        let has_content = intent.kind.is_some()
            || intent.group_by.is_some()
            || amounts.is_some()
            || text.is_some()
            || period.is_some()
            || !categories.is_empty()
            || !merchants.is_empty()
            || !accounts.is_empty();
        let followup_marker = is_followup(&tokens);

        // A previous question about a dataset has no period or filters to carry over.
        let previous = ledger_previous(cx);
        let mut reasons = Vec::new();

        // A follow-up: something to change in the last plan ("et en février ?").
        let followup = has_content
            && match previous {
                Some(_) => followup_marker || !intent.explicit || intent.group_only,
                None => followup_marker && !intent.explicit,
            };
        if followup {
            let Some((prev, prev_period)) = previous else {
                let detail = quote(message);
                let reasons = vec![Reason::new(ReasonCode::MissingContext, locale, &detail)];
                return ParseOutcome::Clarification(self.clarify(
                    locale,
                    cx,
                    reasons,
                    period,
                    categories.first().or(merchants.first()),
                ));
            };
            let mut call = prev.call.clone();
            let mut changed = Vec::new();
            let period = match period {
                Some(p) => {
                    // "le mois précédent" after a question on January is December.
                    let p = match context_step(&p.words) {
                        Some((unit, n)) => period::step(prev_period, unit, n, locale),
                        None => p,
                    };
                    changed.push(p.label.clone());
                    p
                }
                // Keep the previous period, relabelled in this message's language.
                None => relabel(prev_period.clone(), locale),
            };
            if let Some(slot) = call.period_mut() {
                *slot = period.clone();
            }
            let category = self.pick(&categories, locale, &mut reasons, EntityKind::Category);
            let merchant = self.pick(&merchants, locale, &mut reasons, EntityKind::Merchant);
            let account = self.pick(&accounts, locale, &mut reasons, EntityKind::Account);
            if category.is_some() || merchant.is_some() {
                changed.extend(category.iter().chain(merchant.iter()).map(|k| self.label_of(k, locale)));
                call.set_filters(category, merchant);
            }
            if account.is_some() {
                changed.extend(account.iter().map(|k| self.label_of(k, locale)));
                call.set_account(account);
            }
            if let Some(kind) = intent.kind.filter(|_| !intent.group_only) {
                call = convert(call, kind, intent.group_by, period);
            }
            if let Some(g) = intent.group_by {
                let applied = match &mut call {
                    ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                        a.group_by = g;
                        a.top = intent.top;
                        true
                    }
                    ToolCall::CashFlow(a) if g.is_time() => {
                        a.group_by = g;
                        true
                    }
                    _ => false,
                };
                if applied {
                    changed.push(group_label(g, locale).to_string());
                }
            }
            if let Some(a) = &amounts {
                call.set_amounts(a.min, a.max);
                changed.push(amount::describe(a.min, a.max, locale));
            }
            if let (ToolCall::ListTransactions(a), Some(d)) = (&mut call, intent.direction) {
                a.direction = Some(d);
            }
            if changed.is_empty() {
                changed.push(quote(message));
            }
            reasons.insert(0, Reason::new(ReasonCode::FollowupUsesContext, locale, &changed.join(", ")));
            push_unrecognized(&mut reasons, &unrecognized, locale);
            return ParseOutcome::Plan(plan(call, reasons, locale, cx.today));
        }

        let income_category = categories
            .first()
            .and_then(|m| m.ids.first())
            .and_then(|id| self.term(*id))
            .is_some_and(|t| t.kind.as_deref() == Some("income"));
        let only_account = !accounts.is_empty()
            && categories.is_empty()
            && merchants.is_empty()
            && amounts.is_none()
            && text.is_none();
        let mut explicit = intent.explicit;
        let mut words = intent.words.clone();
        let kind = match intent.kind {
            // Label text is searched in transactions.
            _ if text.is_some() => Kind::List,
            Some(k) => k,
            None if income_category => Kind::Income,
            // "combien sur mon Livret A ?": what the account holds.
            None if only_account && intent.asks_amount => {
                explicit = true;
                words.push(accounts.first().map_or_else(String::new, |a| a.words.clone()));
                Kind::Balance
            }
            None if only_account => Kind::Balance,
            // "plus de 100 € chez Carrefour": a search for transactions.
            None if amounts.is_some() && !intent.asks_amount => Kind::List,
            None if has_content || intent.asks_amount => Kind::Spending,
            None => {
                let reasons = vec![Reason::new(ReasonCode::NoIntent, locale, "")];
                return ParseOutcome::Clarification(self.clarify(locale, cx, reasons, None, None));
            }
        };
        if let Some(detail) = &intent.fuzzy {
            reasons.push(Reason::new(ReasonCode::FuzzyIntent, locale, detail));
            if !intent.words.is_empty() {
                reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
            }
        } else if explicit {
            reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
        } else {
            reasons.push(Reason::new(ReasonCode::InferredIntent, locale, kind_label(kind, locale)));
        }
        let period = match (period, previous) {
            (Some(p), _) => {
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &p.label));
                p
            }
            // "my last 10 transactions": the newest, from the last 12 months.
            (None, _) if kind == Kind::List && intent.latest => {
                let p = period::last_months(cx.today, LOOKBACK_MONTHS, locale);
                reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                p
            }
            // A point-in-time question means now, conversation or not.
            (None, _) if kind.is_current() => {
                let p = current_period(kind, cx.today, locale);
                reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                p
            }
            // A new question without a period, in a conversation that had one.
            (None, Some((_, prev_period))) => {
                let p = relabel(prev_period.clone(), locale);
                reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &p.label));
                p
            }
            (None, None) => {
                let p = period::default_period(cx.today, locale);
                reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &p.label));
                p
            }
        };
        let category = self.pick(&categories, locale, &mut reasons, EntityKind::Category);
        let merchant = self.pick(&merchants, locale, &mut reasons, EntityKind::Merchant);
        let account = self.pick(&accounts, locale, &mut reasons, EntityKind::Account);
        let (amount_min, amount_max) = amounts.as_ref().map_or((None, None), |a| (a.min, a.max));
        if amounts.is_some() {
            reasons.push(Reason::new(
                ReasonCode::ExplicitAmount,
                locale,
                &amount::describe(amount_min, amount_max, locale),
            ));
            let foreign = [amount_min, amount_max].into_iter().flatten().find(|m| m.currency != currency);
            if let Some(m) = foreign {
                let detail = format!("{} ≠ {}", m.currency.as_str(), currency.as_str());
                reasons.push(Reason::new(ReasonCode::ForeignCurrency, locale, &detail));
            }
        }
        if let Some(t) = &text {
            reasons.push(Reason::new(ReasonCode::ExplicitText, locale, &format!("« {t} »")));
        }
        push_unrecognized(&mut reasons, &unrecognized, locale);
        let mut call = call_for(
            kind,
            Slots {
                period,
                category,
                merchant,
                account,
                amount_min,
                amount_max,
                group_by: intent.group_by.unwrap_or_default(),
                top: intent.top,
                direction: intent.direction,
            },
        );
        if let ToolCall::ListTransactions(a) = &mut call {
            a.text = text;
            if intent.largest {
                a.order = crate::ListOrder::Largest;
                a.limit = intent.limit.unwrap_or(DEFAULT_LARGEST);
            } else if intent.latest {
                a.limit = intent.limit.unwrap_or(DEFAULT_LATEST);
            }
        }
        ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
    }

    /// "mars 2026 vs mars 2025", "courses en janvier par rapport à l'an dernier",
    /// "compare with 2024" (a follow-up): the same total over two periods.
    fn comparison(
        &self,
        message: &str,
        tokens: &[Token],
        used: &mut [bool],
        locale: Locale,
        cx: &Context<'_>,
        words: &str,
    ) -> ParseOutcome {
        let found = period::find_all(tokens, used, message, cx.today, locale);
        for f in &found {
            used[f.first..=f.last].iter_mut().for_each(|u| *u = true);
        }
        let intent = self.intent(tokens, used, message);
        let Entities { categories, merchants, accounts, unrecognized } = self.entities(tokens, used, message);
        let previous = ledger_previous(cx);
        let mut reasons = vec![Reason::new(ReasonCode::ExplicitIntent, locale, words)];
        let mut borrowed = Vec::new();

        let flow = match (intent.kind, previous.map(|(p, _)| &p.call)) {
            (Some(Kind::Income), _) | (None, Some(ToolCall::IncomeSummary(_))) => crate::Flow::Income,
            _ => crate::Flow::Spending,
        };
        let (category, merchant) = if categories.is_empty() && merchants.is_empty() {
            match previous {
                Some((p, _)) if p.call.category().is_some() || p.call.merchant().is_some() => {
                    let keys = (p.call.category().map(str::to_string), p.call.merchant().map(str::to_string));
                    borrowed.extend(keys.0.iter().chain(keys.1.iter()).map(|k| self.label_of(k, locale)));
                    keys
                }
                _ => (None, None),
            }
        } else {
            (
                self.pick(&categories, locale, &mut reasons, EntityKind::Category),
                self.pick(&merchants, locale, &mut reasons, EntityKind::Merchant),
            )
        };
        let (current, reference) = match (found.as_slice(), previous) {
            ([a, b, ..], _) => {
                let reference = period::against(&a.period, &b.period, locale);
                reasons.push(Reason::new(
                    ReasonCode::ExplicitPeriod,
                    locale,
                    &format!("{} / {}", a.period.label, reference.label),
                ));
                (a.period.clone(), reference)
            }
            ([b], Some((_, prev_period))) => {
                let current = relabel(prev_period.clone(), locale);
                borrowed.push(current.label.clone());
                // "par rapport au mois précédent": the month before the one asked about.
                let reference = match context_step(&b.period.words) {
                    Some((unit, n)) => period::step(&current, unit, n, locale),
                    None => period::against(&current, &b.period, locale),
                };
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &reference.label));
                (current, reference)
            }
            ([a], None) => {
                let reference = period::preceding(&a.period, locale);
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &a.period.label));
                (a.period.clone(), reference)
            }
            ([], Some((_, prev_period))) => {
                let current = relabel(prev_period.clone(), locale);
                borrowed.push(current.label.clone());
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
            ([], None) => {
                let current = period::default_period(cx.today, locale);
                reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &current.label));
                let reference = period::preceding(&current, locale);
                (current, reference)
            }
        };
        if !borrowed.is_empty() {
            reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &borrowed.join(", ")));
        }
        push_unrecognized(&mut reasons, &unrecognized, locale);
        let account = match self.pick(&accounts, locale, &mut reasons, EntityKind::Account) {
            Some(a) => Some(a),
            None => previous.and_then(|(p, _)| p.call.account()).map(str::to_string),
        };
        let call = ToolCall::ComparePeriods(crate::CompareArgs {
            flow,
            current,
            reference,
            category,
            merchant,
            account,
        });
        ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
    }

    fn intent(&self, tokens: &[Token], used: &mut [bool], message: &str) -> Intent {
        let mut intent = Intent {
            kind: None,
            explicit: false,
            group_by: None,
            words: Vec::new(),
            asks_amount: false,
            top: None,
            direction: None,
            advice: false,
            group_only: false,
            fuzzy: None,
            largest: false,
            latest: false,
            limit: None,
        };
        let (mut spend, mut income, mut list, mut breakdown) = (false, false, false, false);
        let (mut balance, mut budget, mut recurring, mut cash) = (false, false, false, false);
        // "abonnements" asks for the subscriptions themselves unless an amount is asked.
        let mut subscription_words = Vec::new();
        let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
        for i in 0..tokens.len() {
            if used[i] {
                continue;
            }
            let w = tokens[i].norm.as_str();
            let span =
                |a: usize, b: usize| message.get(tokens[a].start..tokens[b].end).unwrap_or(w).to_string();
            if is_advice(tokens, i) {
                intent.advice = true;
                continue;
            }
            // Two-word markers first: "cash flow", "taux d'épargne", "savings rate".
            if let Some(n) = cash_flow_phrase(tokens, used, i) {
                cash = true;
                intent.words.push(span(i, i + n - 1));
                used[i..i + n].iter_mut().for_each(|u| *u = true);
                continue;
            }
            if w == "direct" && matches!(norm(i + 1), "debit" | "debits") && !used[i + 1] {
                recurring = true;
                intent.words.push(span(i, i + 1));
                used[i] = true;
                used[i + 1] = true;
                continue;
            }
            if let Some((dir, n)) = direction_words(tokens, used, i) {
                intent.direction = Some(dir);
                intent.words.push(span(i, i + n - 1));
                used[i..i + n].iter_mut().for_each(|u| *u = true);
                continue;
            }
            let mark = |flag: &mut bool, intent: &mut Intent, used: &mut [bool]| {
                *flag = true;
                intent.words.push(span(i, i));
                used[i] = true;
            };
            if is_balance_word(w) && !matches!(norm(i + 1), "net" | "nette") {
                mark(&mut balance, &mut intent, used);
            } else if is_budget_word(w) {
                mark(&mut budget, &mut intent, used);
            } else if is_recurring_word(w) {
                mark(&mut recurring, &mut intent, used);
            } else if is_subscription_word(w) {
                subscription_words.push(i);
            } else if is_cash_flow_word(w) || (w == "epargne" && saves_before(tokens, i)) {
                mark(&mut cash, &mut intent, used);
            } else if is_spend_word(w) {
                mark(&mut spend, &mut intent, used);
            } else if is_income_word(w) {
                mark(&mut income, &mut intent, used);
            } else if is_list_word(w) {
                mark(&mut list, &mut intent, used);
            } else if is_breakdown_word(w) {
                mark(&mut breakdown, &mut intent, used);
            } else if matches!(w, "combien" | "total" | "totale" | "montant" | "somme")
                || (w == "much" && i > 0 && tokens[i - 1].norm == "how")
            {
                intent.asks_amount = true;
            } else if matches!(w, "par" | "by" | "per") {
                if let Some(g) = tokens
                    .get(i + 1)
                    .filter(|_| !used.get(i + 1).copied().unwrap_or(true))
                    .and_then(|t| group_word(&t.norm))
                {
                    intent.group_by = Some(g);
                    intent.words.push(span(i, i + 1));
                    used[i] = true;
                    used[i + 1] = true;
                }
            } else if let Some((g, n, first, last)) = top_groups(tokens, used, i) {
                intent.group_by = Some(g);
                intent.top = Some(n);
                intent.words.push(span(first, last));
                used[first..=last].iter_mut().for_each(|u| *u = true);
            } else if let Some(g) = time_group_word(w) {
                intent.group_by = Some(g);
                intent.words.push(span(i, i));
                used[i] = true;
            } else if let Some(n) = largest_marker(tokens, used, i) {
                intent.largest = true;
                intent.words.push(span(i, i + n - 1));
                used[i..i + n].iter_mut().for_each(|u| *u = true);
            } else if is_latest_word(w) && !used[i] {
                intent.latest = true;
                intent.words.push(span(i, i));
                used[i] = true;
            } else if let Some((kind, word)) = fuzzy_intent_word(w) {
                let flag = match kind {
                    Kind::Balance => &mut balance,
                    Kind::Budget => &mut budget,
                    Kind::Recurring => &mut recurring,
                    Kind::CashFlow => &mut cash,
                    Kind::Income => &mut income,
                    Kind::List => &mut list,
                    Kind::Spending => &mut spend,
                };
                *flag = true;
                intent.fuzzy = Some(format!("« {} » → {word}", span(i, i)));
                used[i] = true;
            }
        }
        if !subscription_words.is_empty() && !spend && !income && !intent.asks_amount && !cash {
            recurring = true;
            for i in subscription_words {
                intent
                    .words
                    .push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
                used[i] = true;
            }
        }
        // "where did my money go", "où passe mon argent": a breakdown by category.
        let asks_where = tokens.iter().any(|t| matches!(t.norm.as_str(), "where" | "ou"));
        if asks_where {
            if let Some(i) = (0..tokens.len()).find(|&i| {
                !used[i]
                    && matches!(
                        norm(i),
                        "go" | "goes" | "went" | "gone" | "passe" | "part" | "partent" | "file"
                    )
            }) {
                breakdown = true;
                intent
                    .words
                    .push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
                used[i] = true;
            }
        }
        if breakdown && intent.group_by.is_none() {
            intent.group_by = Some(GroupBy::Category);
        }
        // "les 5 dernières opérations", "my 3 biggest expenses": a number next to the
        // marker says how many.
        if intent.largest || intent.latest {
            intent.limit = (0..tokens.len()).find_map(|j| {
                let t = &tokens[j];
                let near_marker = (j + 1..(j + 3).min(tokens.len())).any(|k| {
                    used[k] && (is_latest_word(&tokens[k].norm) || is_largest_word(&tokens[k].norm))
                }) || (j > 0 && used[j - 1] && is_latest_word(&tokens[j - 1].norm));
                let n = (t.kind == TokenKind::Number && !used[j] && near_marker)
                    .then(|| t.norm.parse::<u32>().ok())
                    .flatten()
                    .filter(|n| (1..=crate::MAX_LIST_LIMIT).contains(n))?;
                used[j] = true;
                Some(n)
            });
            if intent.group_by.is_none() && (intent.largest || list) {
                // "biggest expenses" are debits; "largest transactions" are either.
                if intent.largest && spend {
                    intent.direction = Some(Direction::Debit);
                }
                spend = false;
                list = true;
            } else {
                intent.largest = false;
                intent.latest = false;
                intent.limit = None;
            }
        }
        intent.kind = if balance {
            Some(Kind::Balance)
        } else if budget {
            Some(Kind::Budget)
        } else if recurring {
            Some(Kind::Recurring)
        } else if cash || (spend && income) {
            Some(Kind::CashFlow)
        } else if list || intent.direction.is_some() {
            Some(Kind::List)
        } else if income {
            Some(Kind::Income)
        } else if spend || intent.group_by.is_some() {
            intent.group_only = !spend;
            Some(Kind::Spending)
        } else {
            None
        };
        intent.explicit = intent.kind.is_some();
        intent
    }

    /// A question about the user's datasets ("total montant par région"), or `None`
    /// when the message is about the ledger.
    fn dataset_question(
        &self,
        tokens: &[Token],
        message: &str,
        locale: Locale,
        cx: &Context<'_>,
    ) -> Option<ParseOutcome> {
        let previous = cx.previous.and_then(|p| match &p.call {
            ToolCall::QueryDataset(a) => Some(a),
            _ => None,
        });
        let q = analyst::Question {
            datasets: &self.vocab.datasets,
            names: &self.dataset_names,
            tokens,
            message,
            locale,
            today: cx.today,
            previous,
            marked_followup: is_followup(tokens),
            stopwords: STOPWORDS,
            ledger_group: |w| group_word(w).is_some() || time_group_word(w).is_some(),
            advice: is_advice,
        };
        // The ledger's words: a period, what to compute, a category, merchant or account.
        let ledger = |used: &[bool]| {
            let mut used = used.to_vec();
            period::find(tokens, &used, message, cx.today, locale).is_some()
                || self.intent(tokens, &mut used, message).kind.is_some()
                || !self.exact_matches(tokens, &mut used, message).is_empty()
        };
        match analyst::read(&q, ledger) {
            analyst::Read::NotDataset => None,
            analyst::Read::Plan { args, reasons } => {
                Some(ParseOutcome::Plan(plan(ToolCall::QueryDataset(args), reasons, locale, cx.today)))
            }
            analyst::Read::Choose { reasons, options } => {
                let several_sets = options.iter().any(|a| a.dataset != options[0].dataset);
                let question = match (locale, several_sets) {
                    (Locale::Fr, true) => "Plusieurs jeux de données ont ces colonnes. Lequel voulez-vous ?",
                    (Locale::En, true) => "Several datasets have these columns. Which one do you mean?",
                    (Locale::Fr, false) => "Quelle colonne voulez-vous calculer ?",
                    (Locale::En, false) => "Which column do you want worked out?",
                };
                let suggestions = options
                    .into_iter()
                    .map(|a| {
                        let label = analyst::title(&a, locale);
                        let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
                        Suggestion { label, plan: plan(ToolCall::QueryDataset(a), picked, locale, cx.today) }
                    })
                    .collect();
                Some(ParseOutcome::Clarification(Clarification {
                    question: question.to_string(),
                    reasons,
                    suggestions,
                    locale,
                }))
            }
        }
    }

    /// Category and merchant matches, and the content words nothing matched.
    fn entities(&self, tokens: &[Token], used: &mut [bool], message: &str) -> Entities {
        let mut found = self.exact_matches(tokens, used, message);
        // Then approximate single words: typos, plurals, abbreviations.
        let mut unrecognized = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            if used[i] || STOPWORDS.contains(&t.norm.as_str()) || t.kind == TokenKind::Currency {
                continue;
            }
            let words = message.get(t.start..t.end).unwrap_or_default().to_string();
            let ids = if t.kind == TokenKind::Word { self.fuzzy(&t.norm) } else { Vec::new() };
            if ids.is_empty() {
                unrecognized.push(words);
            } else {
                found.push(EntityMatch { ids, fuzzy: true, words });
                used[i] = true;
            }
        }
        let mut out = Entities { unrecognized, ..Entities::default() };
        for m in found {
            let of = |kind| m.ids.iter().copied().filter(|id| id.kind == kind).collect::<Vec<EntityId>>();
            let (cats, mers, accts) =
                (of(EntityKind::Category), of(EntityKind::Merchant), of(EntityKind::Account));
            // A word that is both a merchant and a category alias ("uber") reads as
            // the merchant: the narrower filter is the one the user can see in labels.
            if !mers.is_empty() {
                out.merchants.push(EntityMatch { ids: mers, ..m });
            } else if !accts.is_empty() {
                out.accounts.push(EntityMatch { ids: accts, ..m });
            } else if !cats.is_empty() {
                out.categories.push(EntityMatch { ids: cats, ..m });
            }
        }
        out
    }

    /// Longest exact phrases naming an entity, marked as used.
    fn exact_matches(&self, tokens: &[Token], used: &mut [bool], message: &str) -> Vec<EntityMatch> {
        let mut found: Vec<EntityMatch> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let mut matched = false;
            let longest = self.index.max_words.min(tokens.len() - i);
            for n in (1..=longest).rev() {
                if (i..i + n).any(|j| used[j]) || tokens[i].kind != TokenKind::Word {
                    continue;
                }
                let phrase = tokens[i..i + n].iter().map(|t| t.norm.as_str()).collect::<Vec<_>>().join(" ");
                if n == 1 && STOPWORDS.contains(&phrase.as_str()) {
                    continue;
                }
                if let Some(ids) = self.index.exact(&phrase) {
                    let words = message.get(tokens[i].start..tokens[i + n - 1].end).unwrap_or_default();
                    found.push(EntityMatch {
                        ids: self.prefer_names(ids, &phrase),
                        fuzzy: false,
                        words: words.to_string(),
                    });
                    used[i..i + n].iter_mut().for_each(|u| *u = true);
                    i += n;
                    matched = true;
                    break;
                }
            }
            if !matched {
                i += 1;
            }
        }
        found
    }

    /// The user's categories, merchants and accounts a text names exactly (a model's
    /// answer), in order of first mention, at most `max`, each with a one-click plan:
    /// the spending on it over the default period, or an account's balance today.
    pub fn mentions(&self, text: &str, cx: &Context<'_>, max: usize) -> Vec<DetectedEntity> {
        let text: String = text.chars().take(MAX_MESSAGE_CHARS * 4).collect();
        let tokens = tokenize(&text);
        let mut used = vec![false; tokens.len()];
        let locale = cx.locale.unwrap_or(Locale::Fr);
        let mut out: Vec<DetectedEntity> = Vec::new();
        for m in self.exact_matches(&tokens, &mut used, &text) {
            let Some(id) = m.ids.first().copied().filter(|_| m.ids.len() == 1) else { continue };
            let Some(term) = self.term(id) else { continue };
            if out.iter().any(|e| e.key == term.key) {
                continue;
            }
            let period = period::default_period(cx.today, locale);
            let slots = |category: Option<String>, merchant: Option<String>| Slots {
                category,
                merchant,
                ..Slots::over(period.clone())
            };
            let (kind, call) = match id.kind {
                EntityKind::Category => {
                    ("category", call_for(Kind::Spending, slots(Some(term.key.clone()), None)))
                }
                EntityKind::Merchant => {
                    ("merchant", call_for(Kind::Spending, slots(None, Some(term.key.clone()))))
                }
                EntityKind::Account => (
                    "account",
                    call_for(
                        Kind::Balance,
                        Slots {
                            period: period::today(cx.today, locale),
                            account: Some(term.key.clone()),
                            ..slots(None, None)
                        },
                    ),
                ),
            };
            let label = self.describe(&call, locale);
            let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
            out.push(DetectedEntity {
                kind: kind.to_string(),
                key: term.key.clone(),
                name: term.label(locale).to_string(),
                confidence: 1.0,
                suggestion: Suggestion { label, plan: plan(call, picked, locale, cx.today) },
            });
            if out.len() == max {
                break;
            }
        }
        out
    }

    /// Of several entities sharing a surface, those whose own name it is.
    fn prefer_names(&self, ids: &[EntityId], phrase: &str) -> Vec<EntityId> {
        let named: Vec<EntityId> = ids
            .iter()
            .copied()
            .filter(|id| {
                self.term(*id).is_some_and(|t| {
                    [&t.key, &t.name_fr, &t.name_en].iter().any(|n| {
                        let n = crate::text::normalize(n);
                        n == phrase || singular(&n) == singular(phrase)
                    })
                })
            })
            .collect();
        if named.len() == 1 {
            named
        } else {
            ids.to_vec()
        }
    }

    fn fuzzy(&self, word: &str) -> Vec<EntityId> {
        let len = word.chars().count();
        if len < 4 {
            return Vec::new();
        }
        let limit = if len >= 8 { 2 } else { 1 };
        let mut ids: Vec<EntityId> = Vec::new();
        for (surface, id) in &self.index.words {
            let same_start = surface.chars().next() == word.chars().next();
            // Four-letter words only match as abbreviations: "suis" is not "subs".
            let close = same_start
                && len >= 5
                && (edit_distance(word, surface, limit) <= limit
                    || edit_distance(singular(word), singular(surface), limit) <= limit);
            let abbreviation = len >= 4 && surface.starts_with(word);
            if (close || abbreviation) && !ids.contains(id) {
                ids.push(*id);
            }
        }
        ids.sort();
        ids
    }

    fn term(&self, id: EntityId) -> Option<&crate::Term> {
        match id.kind {
            EntityKind::Category => self.vocab.categories.get(id.index),
            EntityKind::Merchant => self.vocab.merchants.get(id.index),
            EntityKind::Account => self.vocab.accounts.get(id.index),
        }
    }

    fn label_of(&self, key: &str, locale: Locale) -> String {
        self.vocab
            .categories
            .iter()
            .chain(&self.vocab.merchants)
            .chain(&self.vocab.accounts)
            .find(|t| t.key == key)
            .map_or_else(|| key.to_string(), |t| t.label(locale).to_string())
    }

    /// The key to filter on for one kind of entity, with the reasons it was chosen.
    fn pick(
        &self,
        matches: &[EntityMatch],
        locale: Locale,
        reasons: &mut Vec<Reason>,
        kind: EntityKind,
    ) -> Option<String> {
        let first = matches.first()?;
        let id = *first.ids.first()?;
        let term = self.term(id)?;
        let label = term.label(locale);
        let candidates: Vec<&str> = matches
            .iter()
            .flat_map(|m| m.ids.iter())
            .filter_map(|i| self.term(*i))
            .map(|t| t.label(locale))
            .collect();
        if candidates.len() > 1 {
            let mut unique = candidates.clone();
            unique.dedup();
            if unique.len() > 1 {
                let words = matches.iter().map(|m| m.words.as_str()).collect::<Vec<_>>().join(", ");
                reasons.push(Reason::new(
                    ReasonCode::AmbiguousEntity,
                    locale,
                    &format!("« {words} » → {}", unique.join(", ")),
                ));
                return Some(term.key.clone());
            }
        }
        let code = match (kind, first.fuzzy) {
            (EntityKind::Category, false) => ReasonCode::ExactCategory,
            (EntityKind::Category, true) => ReasonCode::FuzzyCategory,
            (EntityKind::Merchant, false) => ReasonCode::ExactMerchant,
            (EntityKind::Merchant, true) => ReasonCode::FuzzyMerchant,
            (EntityKind::Account, false) => ReasonCode::ExactAccount,
            (EntityKind::Account, true) => ReasonCode::FuzzyAccount,
        };
        let detail =
            if first.fuzzy { format!("« {} » → {label}", first.words) } else { label.to_string() };
        reasons.push(Reason::new(code, locale, &detail));
        Some(term.key.clone())
    }

    fn clarify(
        &self,
        locale: Locale,
        cx: &Context<'_>,
        reasons: Vec<Reason>,
        period: Option<Period>,
        entity: Option<&EntityMatch>,
    ) -> Clarification {
        let stated = period.is_some();
        let period = period.unwrap_or_else(|| period::default_period(cx.today, locale));
        let (category, merchant) = match entity.and_then(|e| e.ids.first().copied()) {
            Some(id) => {
                let key = self.term(id).map(|t| t.key.clone());
                match id.kind {
                    EntityKind::Category => (key, None),
                    EntityKind::Merchant => (None, key),
                    EntityKind::Account => (None, None),
                }
            }
            None => (None, None),
        };
        let slots = |group_by: GroupBy| Slots {
            category: category.clone(),
            merchant: merchant.clone(),
            group_by,
            ..Slots::over(period.clone())
        };
        // The nearest plans: about what the message named, else the usual overview.
        let calls = if category.is_some() || merchant.is_some() {
            let recurring_period =
                if stated { period.clone() } else { current_period(Kind::Recurring, cx.today, locale) };
            vec![
                call_for(Kind::Spending, slots(GroupBy::None)),
                // Its trend: month by month over the last year.
                call_for(Kind::Spending, Slots { period: recurring_period.clone(), ..slots(GroupBy::Month) }),
                call_for(Kind::List, slots(GroupBy::None)),
                call_for(Kind::Recurring, Slots { period: recurring_period, ..slots(GroupBy::None) }),
            ]
        } else {
            vec![
                call_for(Kind::Spending, slots(GroupBy::Category)),
                call_for(Kind::CashFlow, slots(GroupBy::None)),
                call_for(
                    Kind::Balance,
                    Slots { period: period::today(cx.today, locale), ..slots(GroupBy::None) },
                ),
                call_for(Kind::List, slots(GroupBy::None)),
            ]
        };
        let suggestions = calls
            .into_iter()
            .map(|call| {
                let label = call.period().map(|p| p.label.as_str()).unwrap_or_default();
                let picked = vec![Reason::new(ReasonCode::UserSelected, locale, label)];
                Suggestion { label: self.describe(&call, locale), plan: plan(call, picked, locale, cx.today) }
            })
            .collect();
        let question = match (locale, reasons.first().map(|r| r.code)) {
            (Locale::Fr, Some(ReasonCode::MissingContext)) => {
                "Je n'ai pas de question précédente à compléter. Que voulez-vous savoir ?"
            }
            (Locale::En, Some(ReasonCode::MissingContext)) => {
                "There is no previous question to continue. What would you like to know?"
            }
            (Locale::Fr, Some(ReasonCode::OutOfScope)) => {
                "Je ne donne pas de conseil sans modèle de langage, mais je peux calculer avec vos comptes :"
            }
            (Locale::En, Some(ReasonCode::OutOfScope)) => {
                "I don't give advice without a language model, but I can work out from your accounts:"
            }
            (Locale::Fr, _) => "Je n'ai pas compris la demande. Voulez-vous plutôt :",
            (Locale::En, _) => "I did not understand the request. Did you mean:",
        };
        Clarification { question: question.to_string(), reasons, suggestions, locale }
    }

    /// One line saying what a call computes: "Dépenses en Courses — janvier 2026".
    pub fn describe(&self, call: &ToolCall, locale: Locale) -> String {
        let period = call.period().map_or("", |p| p.label.as_str());
        let (min, max) = call.amounts();
        let amounts = amount::describe(min, max, locale);
        let names: Vec<String> = [call.merchant().or(call.category()), call.account()]
            .into_iter()
            .flatten()
            .map(|k| self.label_of(k, locale))
            .collect();
        let name = (!names.is_empty()).then(|| names.join(", "));
        let filter = match (name, amounts.is_empty()) {
            (Some(n), false) => Some(format!("{n}, {amounts}")),
            (Some(n), true) => Some(n),
            (None, false) => Some(amounts),
            (None, true) => None,
        };
        let with = |what: &str| match &filter {
            Some(f) => format!("{what} : {f} — {period}"),
            None => format!("{what} — {period}"),
        };
        let with_en = |what: &str| match &filter {
            Some(f) => format!("{what}: {f} — {period}"),
            None => format!("{what} — {period}"),
        };
        match (call, locale) {
            (ToolCall::QueryDataset(a), _) => analyst::title(a, locale),
            (ToolCall::RunSql(_), Locale::Fr) => "Requête SQL sur vos jeux de données".to_string(),
            (ToolCall::RunSql(_), Locale::En) => "SQL query over your datasets".to_string(),
            (ToolCall::DatasetInfo(_), Locale::Fr) => "Vos jeux de données".to_string(),
            (ToolCall::DatasetInfo(_), Locale::En) => "Your datasets".to_string(),
            (ToolCall::CashFlow(a), _) => {
                let base = match locale {
                    Locale::Fr => with("Entrées et sorties"),
                    Locale::En => with_en("Cash flow"),
                };
                if a.group_by.is_time() {
                    format!("{base} ({})", group_label(a.group_by, locale))
                } else {
                    base
                }
            }
            (ToolCall::Balances(_), Locale::Fr) => with("Solde des comptes"),
            (ToolCall::Balances(_), Locale::En) => with_en("Account balances"),
            (ToolCall::BudgetStatus(_), Locale::Fr) => with("Suivi des budgets"),
            (ToolCall::BudgetStatus(_), Locale::En) => with_en("Budget status"),
            (ToolCall::RecurringPayments(_), Locale::Fr) => with("Paiements récurrents"),
            (ToolCall::RecurringPayments(_), Locale::En) => with_en("Recurring payments"),
            (ToolCall::ListTransactions(a), _) if a.direction.is_some() => match (locale, a.direction) {
                (Locale::Fr, Some(Direction::Credit)) => with("Crédits et remboursements"),
                (Locale::Fr, _) => with("Débits"),
                (Locale::En, Some(Direction::Credit)) => with_en("Credits and refunds"),
                (Locale::En, _) => with_en("Debits"),
            },
            (ToolCall::SpendingSummary(a), _) if a.group_by != GroupBy::None && a.top.is_some() => {
                let n = a.top.unwrap_or(DEFAULT_TOP);
                let what = match (locale, a.group_by) {
                    (Locale::Fr, GroupBy::Merchant) => format!("Top {n} des marchands"),
                    (Locale::Fr, _) => format!("Top {n} des catégories"),
                    (Locale::En, GroupBy::Merchant) => format!("Top {n} merchants"),
                    (Locale::En, _) => format!("Top {n} categories"),
                };
                match filter {
                    Some(f) => format!("{what} ({f}) — {period}"),
                    None => format!("{what} — {period}"),
                }
            }
            (ToolCall::SpendingSummary(a), _) if a.group_by != GroupBy::None => {
                let base = match (locale, &filter) {
                    (Locale::Fr, Some(f)) => format!("Dépenses {f}"),
                    (Locale::En, Some(f)) => format!("{f} spending"),
                    (Locale::Fr, None) => "Dépenses".to_string(),
                    (Locale::En, None) => "Spending".to_string(),
                };
                format!("{base} {} — {period}", group_label(a.group_by, locale))
            }
            (ToolCall::SpendingSummary(_), Locale::Fr) => match filter {
                Some(f) => format!("Dépenses : {f} — {period}"),
                None => format!("Total des dépenses — {period}"),
            },
            (ToolCall::SpendingSummary(_), Locale::En) => match filter {
                Some(f) => format!("Spending: {f} — {period}"),
                None => format!("Total spending — {period}"),
            },
            (ToolCall::ComparePeriods(a), _) => {
                let what = match (locale, a.flow) {
                    (Locale::Fr, crate::Flow::Spending) => "Dépenses",
                    (Locale::Fr, crate::Flow::Income) => "Revenus",
                    (Locale::En, crate::Flow::Spending) => "Spending",
                    (Locale::En, crate::Flow::Income) => "Income",
                };
                let vs = match locale {
                    Locale::Fr => "comparé à",
                    Locale::En => "compared with",
                };
                match filter {
                    Some(f) => format!("{what} : {f} — {period} {vs} {}", a.reference.label),
                    None => format!("{what} — {period} {vs} {}", a.reference.label),
                }
            }
            (ToolCall::IncomeSummary(_), Locale::Fr) => match filter {
                Some(f) => format!("Revenus : {f} — {period}"),
                None => format!("Revenus — {period}"),
            },
            (ToolCall::IncomeSummary(_), Locale::En) => match filter {
                Some(f) => format!("Income: {f} — {period}"),
                None => format!("Income — {period}"),
            },
            (ToolCall::ListTransactions(_), Locale::Fr) => match filter {
                Some(f) => format!("Opérations : {f} — {period}"),
                None => format!("Toutes les opérations — {period}"),
            },
            (ToolCall::ListTransactions(_), Locale::En) => match filter {
                Some(f) => format!("Transactions: {f} — {period}"),
                None => format!("All transactions — {period}"),
            },
        }
    }
}

pub fn group_label(g: GroupBy, locale: Locale) -> &'static str {
    match (g, locale) {
        (GroupBy::None, _) => "",
        (GroupBy::Category, Locale::Fr) => "par catégorie",
        (GroupBy::Category, Locale::En) => "by category",
        (GroupBy::Merchant, Locale::Fr) => "par marchand",
        (GroupBy::Merchant, Locale::En) => "by merchant",
        (GroupBy::Account, Locale::Fr) => "par compte",
        (GroupBy::Account, Locale::En) => "by account",
        (GroupBy::Month, Locale::Fr) => "par mois",
        (GroupBy::Month, Locale::En) => "by month",
        (GroupBy::Week, Locale::Fr) => "par semaine",
        (GroupBy::Week, Locale::En) => "by week",
        (GroupBy::Day, Locale::Fr) => "par jour",
        (GroupBy::Day, Locale::En) => "by day",
    }
}

fn plan(call: ToolCall, reasons: Vec<Reason>, locale: Locale, today: Date) -> ToolCallPlan {
    let confidence = confidence_of(&reasons);
    ToolCallPlan { call, meta: PlanMeta { confidence, confidence_reasons: reasons, locale, today } }
}

/// The slots a plan fills, whatever its tool.
struct Slots {
    period: Period,
    category: Option<String>,
    merchant: Option<String>,
    account: Option<String>,
    amount_min: Option<crate::Money>,
    amount_max: Option<crate::Money>,
    group_by: GroupBy,
    top: Option<u32>,
    direction: Option<Direction>,
}

impl Slots {
    /// A whole period, no filter, no grouping.
    fn over(period: Period) -> Slots {
        Slots {
            period,
            category: None,
            merchant: None,
            account: None,
            amount_min: None,
            amount_max: None,
            group_by: GroupBy::None,
            top: None,
            direction: None,
        }
    }
}

impl Kind {
    /// Questions about now (a balance, a budget, what repeats): no period means the
    /// current one, not a guess.
    fn is_current(self) -> bool {
        matches!(self, Kind::Balance | Kind::Budget | Kind::Recurring)
    }
}

/// The period a point-in-time question means when it names none.
fn current_period(kind: Kind, today: Date, locale: Locale) -> Period {
    match kind {
        Kind::Balance => period::today(today, locale),
        Kind::Recurring => period::last_months(today, LOOKBACK_MONTHS, locale),
        _ => period::month(today, locale),
    }
}

/// How far back recurring payments and "my latest transactions" look when the message
/// does not say.
pub const LOOKBACK_MONTHS: u32 = 12;

fn kind_label(kind: Kind, locale: Locale) -> &'static str {
    match (locale, kind) {
        (Locale::Fr, Kind::Income) => "total des revenus",
        (Locale::En, Kind::Income) => "total income",
        (Locale::Fr, Kind::List) => "liste des opérations",
        (Locale::En, Kind::List) => "list of transactions",
        (Locale::Fr, Kind::Spending) => "total des dépenses",
        (Locale::En, Kind::Spending) => "total spending",
        (Locale::Fr, Kind::CashFlow) => "entrées et sorties",
        (Locale::En, Kind::CashFlow) => "cash flow",
        (Locale::Fr, Kind::Balance) => "solde des comptes",
        (Locale::En, Kind::Balance) => "account balances",
        (Locale::Fr, Kind::Budget) => "suivi des budgets",
        (Locale::En, Kind::Budget) => "budget status",
        (Locale::Fr, Kind::Recurring) => "paiements récurrents",
        (Locale::En, Kind::Recurring) => "recurring payments",
    }
}

/// The call of the tool that answers `kind`, with these slots. Slots a tool has no
/// place for are dropped.
fn call_for(kind: Kind, s: Slots) -> ToolCall {
    let summary = || SummaryArgs {
        period: s.period.clone(),
        category: s.category.clone(),
        merchant: s.merchant.clone(),
        account: s.account.clone(),
        amount_min: s.amount_min,
        amount_max: s.amount_max,
        group_by: s.group_by,
        top: s.top,
    };
    match kind {
        Kind::Spending => ToolCall::SpendingSummary(summary()),
        Kind::Income => ToolCall::IncomeSummary(summary()),
        Kind::List => ToolCall::ListTransactions(ListTransactionsArgs {
            period: s.period,
            category: s.category,
            merchant: s.merchant,
            account: s.account,
            direction: s.direction,
            amount_min: s.amount_min,
            amount_max: s.amount_max,
            text: None,
            order: crate::ListOrder::Newest,
            limit: DEFAULT_LIST_LIMIT,
        }),
        Kind::CashFlow => ToolCall::CashFlow(CashFlowArgs {
            period: s.period,
            account: s.account,
            group_by: if s.group_by.is_time() { s.group_by } else { GroupBy::None },
        }),
        Kind::Balance => ToolCall::Balances(BalancesArgs { period: s.period, account: s.account }),
        Kind::Budget => ToolCall::BudgetStatus(BudgetArgs { period: s.period, category: s.category }),
        Kind::Recurring => ToolCall::RecurringPayments(RecurringArgs {
            period: s.period,
            category: s.category,
            merchant: s.merchant,
        }),
    }
}

/// The previous plan when it has a period to carry over (a question on the ledger).
fn ledger_previous<'a>(cx: &Context<'a>) -> Option<(&'a ToolCallPlan, &'a Period)> {
    cx.previous.and_then(|p| Some((p, p.call.period()?)))
}

/// The previous call, answered by another tool ("et les transactions ?") over `period`.
fn convert(call: ToolCall, kind: Kind, group_by: Option<GroupBy>, period: Period) -> ToolCall {
    let same = matches!(
        (kind, &call),
        (Kind::Spending, ToolCall::SpendingSummary(_))
            | (Kind::Income, ToolCall::IncomeSummary(_))
            | (Kind::List, ToolCall::ListTransactions(_))
            | (Kind::CashFlow, ToolCall::CashFlow(_))
            | (Kind::Balance, ToolCall::Balances(_))
            | (Kind::Budget, ToolCall::BudgetStatus(_))
            | (Kind::Recurring, ToolCall::RecurringPayments(_))
    );
    if same {
        return call;
    }
    let (amount_min, amount_max) = call.amounts();
    call_for(
        kind,
        Slots {
            period,
            category: call.category().map(str::to_string),
            merchant: call.merchant().map(str::to_string),
            account: call.account().map(str::to_string),
            amount_min,
            amount_max,
            group_by: group_by.unwrap_or_default(),
            top: None,
            direction: None,
        },
    )
}

/// "le mois précédent", "the year after": in a follow-up, a step from the previous
/// plan's period rather than from today.
fn context_step(words: &str) -> Option<(period::Unit, i32)> {
    let words = crate::text::normalize(words);
    let has = |w: &str| words.split(' ').any(|x| x == w);
    let n = if has("precedent") || has("precedente") || has("previous") || has("avant") || has("before") {
        -1
    } else if has("suivant") || has("suivante") || has("following") || has("apres") || has("after") {
        1
    } else {
        return None;
    };
    let unit = if has("mois") || has("month") {
        period::Unit::Month
    } else if has("annee") || has("year") || has("an") {
        period::Unit::Year
    } else if has("semaine") || has("week") {
        period::Unit::Week
    } else if has("trimestre") || has("quarter") {
        period::Unit::Quarter
    } else if has("jour") || has("day") || has("veille") {
        period::Unit::Day
    } else {
        return None;
    };
    Some((unit, n))
}

/// The same period named in another language (its words stay the user's).
fn relabel(p: Period, locale: Locale) -> Period {
    let is_month = p.start.day() == 1 && p.start.add_months(1) == p.end;
    let is_year = p.start.day() == 1 && p.start.month() == 1 && p.start.add_months(12) == p.end;
    let label = if is_month {
        period::month_label(p.start, locale)
    } else if is_year {
        period::year(p.start.year(), locale).map(|y| y.label).unwrap_or(p.label.clone())
    } else {
        p.label.clone()
    };
    Period { label, ..p }
}

/// Words that ask for a comparison, consumed; the user's words for the badge.
fn compare_words(tokens: &[Token], used: &mut [bool], message: &str) -> Option<String> {
    let mut words = Vec::new();
    for i in 0..tokens.len() {
        let w = tokens[i].norm.as_str();
        let single = matches!(
            w,
            "vs" | "versus"
                | "contre"
                | "compare"
                | "compared"
                | "comparer"
                | "comparez"
                | "comparee"
                | "comparees"
                | "compares"
                | "comparaison"
                | "comparing"
                | "comparison"
                | "against"
        );
        let pair = matches!(
            (w, tokens.get(i + 1).map(|t| t.norm.as_str())),
            ("par", Some("rapport")) | ("relative", Some("to"))
        );
        if single {
            used[i] = true;
            words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or(w).to_string());
        } else if pair && !used[i] {
            used[i] = true;
            used[i + 1] = true;
            words.push(message.get(tokens[i].start..tokens[i + 1].end).unwrap_or(w).to_string());
        }
    }
    // "more in October than in September", "plus en octobre qu'en septembre".
    let find = |pred: &dyn Fn(usize) -> bool| (0..tokens.len()).find(|&j| !used[j] && pred(j));
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let not_amount = |j: usize| {
        tokens.get(j + 1).is_some_and(|t| t.kind == TokenKind::Word && !matches!(t.norm.as_str(), "de" | "d"))
    };
    let more = find(&|j| matches!(norm(j), "more" | "less" | "plus" | "moins") && not_amount(j));
    if let Some(m) = more {
        let than = find(&|j| {
            j > m
                && (norm(j) == "than"
                    || (matches!(norm(j), "qu" | "que")
                        && matches!(norm(j + 1), "en" | "au" | "l" | "le" | "la" | "pendant" | "durant")))
                && tokens.get(j + 1).is_some_and(|t| t.kind == TokenKind::Word)
        });
        if let Some(t) = than {
            used[m] = true;
            used[t] = true;
            words.push(format!("{} … {}", norm(m), norm(t)));
        }
    }
    (!words.is_empty()).then(|| words.join(" "))
}

/// Text the user wants found in bank labels: between quotes ("NAVIGO", « PAUL »,
/// “SNCF”), or the word after "contenant", "containing", "libellé"… Its tokens are used.
fn is_text_marker(w: &str) -> bool {
    matches!(
        w,
        "contenant"
            | "containing"
            | "contains"
            | "contient"
            | "libelle"
            | "label"
            | "labelled"
            | "mentioning"
    )
}

fn label_text(message: &str, tokens: &[Token], used: &mut [bool]) -> Option<String> {
    const QUOTES: [(char, char); 3] = [('"', '"'), ('«', '»'), ('“', '”')];
    for (open, close) in QUOTES {
        let Some(start) = message.find(open) else { continue };
        let inner_start = start + open.len_utf8();
        let Some(len) = message[inner_start..].find(close) else { continue };
        let inner = message[inner_start..inner_start + len].trim();
        if inner.is_empty() || inner.chars().count() > 60 {
            continue;
        }
        for (i, t) in tokens.iter().enumerate() {
            if (t.start >= inner_start && t.end <= inner_start + len) || is_text_marker(&t.norm) {
                used[i] = true;
            }
        }
        return Some(inner.to_string());
    }
    for i in 0..tokens.len() {
        if is_text_marker(&tokens[i].norm) && !used[i] {
            let next = tokens.get(i + 1).filter(|_| !used.get(i + 1).copied().unwrap_or(true))?;
            let word = message.get(next.start..next.end)?.to_string();
            used[i] = true;
            used[i + 1] = true;
            return Some(word);
        }
    }
    None
}

fn is_followup(tokens: &[Token]) -> bool {
    let first = tokens.first().map(|t| t.norm.as_str());
    let second = tokens.get(1).map(|t| t.norm.as_str());
    matches!(
        first,
        Some(
            "et" | "and"
                | "pareil"
                | "idem"
                | "same"
                | "meme"
                | "aussi"
                | "also"
                | "puis"
                | "then"
                | "only"
                | "seulement"
                | "uniquement"
                | "juste"
                | "just"
        )
    ) || matches!((first, second), (Some("what" | "how"), Some("about")) | (Some("and"), _))
}

fn push_unrecognized(reasons: &mut Vec<Reason>, words: &[String], locale: Locale) {
    if !words.is_empty() {
        let quoted = words.iter().map(|w| format!("« {w} »")).collect::<Vec<_>>().join(", ");
        reasons.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &quoted));
    }
}

fn quote(message: &str) -> String {
    let trimmed: String = message.trim().chars().take(60).collect();
    format!("« {trimmed} »")
}
