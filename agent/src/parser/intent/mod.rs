//! What a message asks to compute — spending, income, a list, cash flow, balances,
//! budgets, recurring payments — and how: a breakdown, the top N, the largest or the
//! latest, one side of the ledger. Read from the words, before periods and filters.

use super::lexicon::{
    asks_where_most, group_word, is_largest_word, is_latest_word, is_purchase_word, is_stopword,
    is_transaction_word,
};
use crate::text::{Token, TokenKind};
use crate::{AveragePer, Direction, GroupBy};

mod count;
mod rank;
mod scan;
mod words;
use rank::singular_item;
pub(crate) use words::topic;
use words::{CREDIT_SIDE, DEBIT_SIDE};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Spending,
    Income,
    List,
    CashFlow,
    Balance,
    Budget,
    Recurring,
}

/// What the message asks for, before the period and filters.
#[derive(Clone)]
pub(crate) struct Intent {
    pub(crate) kind: Option<Kind>,
    pub(crate) explicit: bool,
    pub(crate) group_by: Option<GroupBy>,
    /// The user's words that carried the intent.
    pub(crate) words: Vec<String>,
    /// "combien", "how much", "total": a quantity is asked, but of what is unsaid.
    pub(crate) asks_amount: bool,
    /// "top 5 merchants": keep the N largest groups.
    pub(crate) top: Option<u32>,
    /// "remboursements", "credits", "débits": one side of the ledger.
    pub(crate) direction: Option<Direction>,
    /// "should I", "devrais-je", "conseil": advice, which no tool gives.
    pub(crate) advice: bool,
    /// Only a breakdown was asked ("by month"): in a follow-up, the tool stays.
    pub(crate) group_only: bool,
    /// The intent word was misspelt: "« budjet » → budget".
    pub(crate) fuzzy: Option<String>,
    /// "my biggest expenses", "ma plus grosse dépense": largest amounts first.
    pub(crate) largest: bool,
    /// "my last 10 transactions": the newest ones, whatever the period.
    pub(crate) latest: bool,
    /// How many transactions: "les 5 dernières opérations", "my 3 biggest expenses".
    pub(crate) limit: Option<u32>,
    /// "moyenne", "average", "panier moyen": an average is asked…
    pub(crate) average: bool,
    /// …per month, week, day or transaction, when the message says.
    pub(crate) average_per: Option<AveragePer>,
    /// "did I transfer", "j'ai viré": money moved between accounts, asked in the past.
    pub(crate) moved: bool,
    /// Words asking for two things no one tool answers ("mon solde et mes revenus",
    /// "budgets and income"): the plan would drop one of them.
    pub(crate) second_ask: bool,
    /// "top 3 restos": the first N of what the message names, which the question reads
    /// once it knows the name.
    pub(crate) top_of_name: Option<u32>,
    /// "liste", "list": the transactions themselves are asked for.
    pub(crate) list_verb: bool,
    /// "everything", "tout ce que…": all the transactions the rest selects.
    pub(crate) everything: bool,
    /// Recurring payments read from "subscriptions" alone, with no word asking which
    /// ("subscriptions over the past 12 months": those payments, or what they cost?).
    pub(crate) bare_subscriptions: bool,
    /// Only names were shown ("montre le compte courant"): the transactions, or an
    /// account alone, its balance.
    pub(crate) shown_names: bool,
    /// "combien j'ai épargné", "how much did I save", "mis de côté": money kept back or
    /// moved to savings — the words, when said.
    pub(crate) saved: Option<String>,
    /// The breakdown over time was one word ("daily spend", "dépenses mensuelles"),
    /// which people use for a rate as much as for a breakdown.
    pub(crate) rate_word: bool,
}

/// What the words ask for, before one kind is chosen: several may be said at once.
#[derive(Default)]
pub(super) struct Asked {
    pub(super) spend: bool,
    pub(super) income: bool,
    pub(super) list: bool,
    pub(super) breakdown: bool,
    pub(super) balance: bool,
    pub(super) budget: bool,
    pub(super) recurring: bool,
    pub(super) cash: bool,
    /// "everything", "tout ce que…".
    pub(super) everything: bool,
}

/// Groups shown for "top merchants" when the message gives no number.
pub const DEFAULT_TOP: u32 = 5;
/// Transactions shown for "my biggest expenses" when the message gives no number.
pub const DEFAULT_LARGEST: u32 = 5;
/// Transactions shown for "my latest transactions" when the message gives no number.
pub const DEFAULT_LATEST: u32 = 10;

// Over 120 lines; to split (issue 49).
#[allow(clippy::too_many_lines)]
pub(crate) fn read(tokens: &[Token], used: &mut [bool], message: &str) -> Intent {
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
        average: false,
        average_per: None,
        moved: false,
        second_ask: false,
        everything: false,
        top_of_name: None,
        list_verb: false,
        rate_word: false,
        bare_subscriptions: false,
        saved: None,
        shown_names: false,
    };
    let mut a = Asked::default();
    // "abonnements" asks for the subscriptions themselves unless an amount is asked.
    let mut subscription_words = Vec::new();
    // "…, pas les remboursements", "not the refunds": one side of the ledger turned
    // down — the other side, if the message asks for it too (read at the end).
    let mut turned_down: Option<(Direction, usize, usize)> = None;
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    scan::words(tokens, used, message, &mut intent, &mut a, (&mut subscription_words, &mut turned_down));
    // "mes abonnements": the recurring payments; "paiements récurrents dans les
    // abonnements": the word is then the category, read as a name.
    // "my subscription payments": the payments, in the category.
    let payments_named = tokens
        .iter()
        .any(|t| matches!(t.norm.as_str(), "payments" | "paiements" | "prelevements" | "debits"));
    if !subscription_words.is_empty()
        && !a.spend
        && !a.income
        && !intent.asks_amount
        && !a.cash
        && !a.recurring
        && !payments_named
    {
        a.recurring = true;
        intent.bare_subscriptions = !tokens.iter().any(|t| {
            matches!(
                t.norm.as_str(),
                "quels"
                    | "quelles"
                    | "quel"
                    | "which"
                    | "what"
                    | "whats"
                    | "quoi"
                    | "list"
                    | "liste"
                    | "show"
                    | "montre"
                    | "affiche"
                    | "rank"
                    | "current"
                    | "cours"
                    | "actuels"
                    | "recurrents"
                    | "recurring"
            )
        });
        // The word is also the category's name: left for the names, it filters the
        // recurring payments on it ("which subscriptions do I pay").
        for i in subscription_words {
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        }
    }
    // "where did my money go", "où passe mon argent": a breakdown by category.
    let asks_where = tokens.iter().any(|t| matches!(t.norm.as_str(), "where" | "ou"));
    if asks_where {
        if let Some(i) = (0..tokens.len()).find(|&i| {
            !used[i]
                && matches!(norm(i), "go" | "goes" | "went" | "gone" | "passe" | "part" | "partent" | "file")
        }) {
            a.breakdown = true;
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
        }
    }
    // "quelles catégories m'ont coûté le plus", "which merchants cost me most": the
    // groups ranked, though no "par"/"by" says so.
    let ranks = tokens.iter().any(|t| matches!(t.norm.as_str(), "most" | "quelles" | "quels" | "which"))
        || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus");
    if intent.group_by.is_none() && ranks {
        if let Some(i) = (0..tokens.len()).find(|&i| {
            !used[i]
                && matches!(
                    norm(i),
                    "categories"
                        | "marchands"
                        | "commercants"
                        | "merchants"
                        | "comptes"
                        | "accounts"
                        | "magasins"
                        | "stores"
                        | "shops"
                )
        }) {
            intent.group_by = group_word(norm(i));
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
            // "les 10 marchands où je dépense le plus": the first ten.
            let n = (i > 0 && !used[i - 1] && tokens[i - 1].kind == TokenKind::Number)
                .then(|| norm(i - 1).parse::<u32>().ok())
                .flatten()
                .filter(|n| (1..=50).contains(n));
            if let Some(n) = n {
                intent.top = Some(n);
                used[i - 1] = true;
            } else if tokens.iter().any(|t| t.norm == "most")
                || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus")
            {
                // "les magasins où je dépense le plus": the first five, as "top merchants".
                intent.top = Some(DEFAULT_TOP);
            }
        } else if let Some(i) = (0..tokens.len()).find(|&i| {
            // "quel marchand me coûte le plus", "what day did I spend the most": the one
            // group that ranks first.
            !used[i]
                && matches!(
                    norm(i),
                    "categorie"
                        | "category"
                        | "marchand"
                        | "commercant"
                        | "merchant"
                        | "magasin"
                        | "store"
                        | "shop"
                        | "compte"
                        | "account"
                        | "jour"
                        | "day"
                        | "mois"
                        | "month"
                        | "semaine"
                        | "week"
                )
                // ("my biggest category", "ma plus grosse catégorie": the one too.)
                && (i == 0
                    || matches!(
                        norm(i - 1),
                        "quel" | "quelle" | "which" | "what" | "le" | "la" | "the" | "biggest" | "largest" | "grosse" | "gros"
                    ))
        }) {
            intent.group_by = group_word(norm(i));
            intent.top = Some(1);
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
            a.spend = a.spend || !a.income;
        } else if let Some(i) = (0..tokens.len()).find(|&i| {
            // "which restaurant did I spend the most at": the first merchant of the
            // category named next (read once the name is, as "top 3 restos").
            let most = tokens.iter().any(|t| t.norm == "most")
                || tokens.windows(2).any(|w| w[0].norm == "le" && w[1].norm == "plus");
            let named = i + 1 < tokens.len() && !used[i + 1] && !is_stopword(norm(i + 1));
            let grouped = tokens.iter().any(|t| group_word(&t.norm).is_some());
            most && named && !grouped && !used[i] && matches!(norm(i), "which" | "quel" | "quelle")
        }) {
            if intent.top_of_name.is_none() && intent.top.is_none() {
                intent.top_of_name = Some(1);
                used[i] = true;
                a.spend = a.spend || !a.income;
            }
        }
    }
    // "the most", "le plus" of a ranking read above ("quelles catégories m'ont coûté
    // le plus": the groups ranked).
    if intent.top.is_some() || intent.top_of_name.is_some() || (ranks && intent.group_by.is_some()) {
        for (j, u) in used.iter_mut().enumerate() {
            *u |= norm(j) == "most" || (norm(j) == "plus" && j > 0 && norm(j - 1) == "le");
        }
    }
    // "l'évolution de mes dépenses", "my spending trend": month by month, unless a
    // breakdown is said.
    if let Some(i) = (0..tokens.len())
        .find(|&i| !used[i] && matches!(norm(i), "evolution" | "trend" | "trends" | "tendance" | "tendances"))
    {
        used[i] = true;
        intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        if intent.group_by.is_none() {
            intent.group_by = Some(GroupBy::Month);
        }
    }
    // "where did I shop most for groceries": the spending by merchant.
    if intent.group_by.is_none() && !a.income && asks_where_most(tokens) {
        rank::where_most(tokens, used, message, &mut intent);
        a.spend = true;
    }
    if a.breakdown && intent.group_by.is_none() {
        intent.group_by = Some(GroupBy::Category);
    }
    // "mon mois le plus cher", "my 3 most expensive months": the groups ranked, not
    // transactions. One, unless a number or a plural says how many.
    if intent.largest && intent.group_by.is_none() {
        // "my biggest grocery shop" is one trip to the shops, not a merchant.
        let group = (0..tokens.len()).find_map(|i| {
            let g = group_word(norm(i)).filter(|_| !used[i] && !matches!(norm(i), "shop" | "store"))?;
            Some((i, g))
        });
        if let Some((i, g)) = group {
            let plural = norm(i).ends_with('s') && norm(i) != "mois";
            // "mes 3 mois les plus chers", "my 3 most expensive months": a number just before.
            let before = (i.saturating_sub(3)..i)
                .rev()
                .find(|&j| !used[j] && tokens[j].kind == TokenKind::Number && tokens[j].norm.len() <= 2);
            let n = before.and_then(|j| tokens[j].norm.parse::<u32>().ok()).filter(|n| (1..=50).contains(n));
            let plural =
                plural || n.is_some_and(|n| n > 1) || matches!(norm(i.wrapping_sub(1)), "mes" | "my");
            intent.group_by = Some(g);
            intent.top = Some(n.unwrap_or(if plural { DEFAULT_TOP } else { 1 }));
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
            used[i] = true;
            if let Some(j) = before {
                used[j] = true;
            }
            intent.largest = false;
            a.spend = a.spend || !a.income;
        }
    }
    // "where I spent the most", once a ranking is read; "every transaction", "chaque
    // achat": all of them, which a list is.
    let ranked = intent.top.is_some() || intent.largest || intent.group_by.is_some();
    for (i, u) in used.iter_mut().enumerate() {
        let all = matches!(norm(i), "every" | "each" | "chaque")
            && (is_transaction_word(norm(i + 1))
                || matches!(norm(i + 1), "expense" | "depense" | "order" | "commande" | "single"));
        if (norm(i) == "most" && ranked) || all {
            *u = true;
        }
    }
    // "les 5 dernières opérations", "my 3 biggest expenses": a number next to the
    // marker says how many.
    if intent.largest || intent.latest {
        intent.limit = intent.limit.or_else(|| {
            (0..tokens.len()).find_map(|j| {
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
            })
        });
        // "my biggest purchase", "ma plus grosse dépense", "my last Uber ride": one.
        if intent.limit.is_none() && (intent.largest || intent.latest) && singular_item(tokens) {
            intent.limit = Some(1);
        }
        if intent.group_by.is_none() && (intent.largest || a.list) {
            // "biggest expenses" are debits; "largest transactions" are either.
            // "le resto le plus cher": what cost, so paid.
            let purchase = tokens.iter().any(|t| {
                is_purchase_word(&t.norm)
                    || matches!(
                        t.norm.as_str(),
                        "cher"
                            | "chere"
                            | "chers"
                            | "cheres"
                            | "expensive"
                            | "couteux"
                            | "couteuse"
                            | "bill"
                            | "bills"
                            | "facture"
                            | "factures"
                    )
            });
            // "the five largest incoming payments": received.
            let incoming = tokens.iter().any(|t| {
                matches!(
                    t.norm.as_str(),
                    "incoming" | "received" | "recus" | "recues" | "entrants" | "entrantes" | "rentrees"
                )
            }) || tokens
                .windows(2)
                .any(|w| matches!(w[0].norm.as_str(), "i" | "we") && w[1].norm == "got")
                || tokens
                    .windows(2)
                    .any(|w| matches!(w[0].norm.as_str(), "came" | "come" | "coming") && w[1].norm == "in");
            // "mes trois plus gros revenus": the largest credits.
            if intent.largest && (incoming || (a.income && !a.spend && !purchase)) {
                intent.direction = Some(Direction::Credit);
            } else if intent.largest && (a.spend || purchase) {
                intent.direction = Some(Direction::Debit);
            }
            a.spend = false;
            a.list = true;
        } else {
            // "la moyenne par semaine, et la semaine la plus chère": an average and the
            // largest of its units are two asks.
            if intent.largest && intent.average {
                intent.second_ask = true;
            }
            intent.largest = false;
            intent.latest = false;
            intent.limit = None;
        }
    }
    // "average monthly spend", "moyenne par semaine": the breakdown's unit is the
    // average's. Without "average", "par opération" asked nothing.
    if intent.average && intent.average_per.is_none() {
        intent.average_per = match intent.group_by {
            Some(GroupBy::Month) => Some(AveragePer::Month),
            Some(GroupBy::Week) => Some(AveragePer::Week),
            Some(GroupBy::Day) => Some(AveragePer::Day),
            _ => None,
        };
    }
    // "weekly spending breakdown": the breakdown, said twice.
    intent.rate_word &= !a.breakdown;
    if intent.average && !a.balance && !a.budget && !a.recurring && !a.cash && !a.income && !a.list {
        a.spend = true;
    }
    let (count, how_often) = count::read(tokens, used, &mut a, &mut intent);
    let (paid, how_many) = (count::paid, |j: usize| count::how_many(tokens, j));
    // "liste de l'argent reçu", "tout ce que j'ai reçu", "everything I received": the
    // credits, whatever they are (income is only the income categories).
    let received =
        tokens.iter().any(|t| matches!(t.norm.as_str(), "recu" | "recus" | "recue" | "recues" | "received"));
    // ("tout ce que j'ai reçu": everything; "en tout ce mois": in all, this month.)
    intent.everything = a.everything
        || (0..tokens.len().saturating_sub(1)).any(|k| {
            tokens[k].norm == "tout"
                && tokens[k + 1].norm == "ce"
                && !(k > 0 && tokens[k - 1].norm == "en")
                && !tokens.get(k + 2).is_some_and(|t| {
                    matches!(t.norm.as_str(), "mois" | "trimestre" | "semestre" | "weekend" | "week")
                })
        });
    // "l'argent reçu", "the money received": what came in, every credit.
    let money_received = tokens.windows(2).any(|w| {
        matches!(w[0].norm.as_str(), "argent" | "money")
            && matches!(w[1].norm.as_str(), "recu" | "recus" | "recue" | "received")
    });
    if received
        && (a.list || intent.everything || money_received)
        && intent.direction.is_none()
        && !a.balance
        && !a.budget
        && !a.recurring
    {
        intent.direction = Some(Direction::Credit);
        a.list = true;
        a.income = false;
        a.spend = false;
    }
    // "mardi dernier j'ai payé quoi ?": what was paid, item by item.
    // ("qu'est-ce que j'ai payé hier ?", "qu'est-ce que j'ai acheté": the same.)
    let what_paid =
        tokens.windows(4).any(|w| {
            w[0].norm == "qu"
                && w[1].norm == "est"
                && w[2].norm == "ce"
                && matches!(w[3].norm.as_str(), "que" | "qu")
        }) && tokens.iter().any(|t| matches!(t.norm.as_str(), "paye" | "payes" | "achete" | "achetes"));
    if !intent.asks_amount
        && (what_paid
            || tokens.windows(2).enumerate().any(|(k, w)| {
                // ("jai payer quoi": the infinitive typed for the past, after "ai".)
                let typed = w[0].norm == "payer"
                    && k > 0
                    && matches!(tokens[k - 1].norm.as_str(), "ai" | "jai" | "g" | "a" | "avons");
                (matches!(w[0].norm.as_str(), "paye" | "payee" | "payes") || typed) && w[1].norm == "quoi"
            }))
    {
        a.list = true;
        a.spend = false;
        intent.direction = intent.direction.or(Some(Direction::Debit));
    }
    // "le total de nos paiements à EDF": a total, not the list.
    let total = intent.asks_amount && tokens.iter().any(|t| paid(&t.norm));
    intent.list_verb =
        tokens.iter().any(|t| matches!(t.norm.as_str(), "liste" | "lister" | "list" | "listing"));
    let list_verb = intent.list_verb;
    // "montre mes retraits du mois et le total", "…et m'en donner le total": the lines,
    // and their total — two asks.
    let shown = tokens.iter().any(|t| {
        matches!(t.norm.as_str(), "montre" | "montrez" | "montrer" | "affiche" | "afficher" | "show")
    }) || list_verb;
    intent.second_ask |= shown
        && tokens.iter().enumerate().any(|(i, t)| {
            matches!(t.norm.as_str(), "et" | "and" | "puis" | "then")
                && tokens[i + 1..]
                    .iter()
                    .take(5)
                    .position(|t| matches!(t.norm.as_str(), "total" | "montant" | "sum" | "somme"))
                    .is_some_and(|k| {
                        tokens[i + 1..i + 1 + k].iter().all(|t| {
                            matches!(
                                t.norm.as_str(),
                                "le" | "the"
                                    | "m"
                                    | "en"
                                    | "me"
                                    | "moi"
                                    | "donner"
                                    | "donne"
                                    | "donnez"
                                    | "give"
                                    | "tell"
                                    | "dis"
                                    | "dites"
                                    | "also"
                                    | "aussi"
                                    | "their"
                                    | "leur"
                                    | "its"
                            )
                        })
                    })
        });
    if (count || total)
        && a.list
        && !list_verb
        && !intent.largest
        && !intent.latest
        && intent.direction.is_none()
    {
        a.list = false;
        a.spend = a.spend || !a.income;
        intent.asks_amount = true;
    }
    // "list my uber rides and give me the total": the list and a total, two asks (a
    // count is the list's own).
    // So are "my 5 biggest purchases and the total".
    let listed = list_verb || intent.largest || intent.latest;
    if listed && a.list && intent.asks_amount && !count && how_often.is_none() {
        intent.second_ask = true;
    }
    // "show me everything": the transactions; "everything except travel this summer",
    // with no verb, may be their total as well: not read.
    let shown = tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "show"
                | "list"
                | "see"
                | "display"
                | "give"
                | "montre"
                | "montrez"
                | "affiche"
                | "liste"
                | "voir"
                | "donne"
        )
    });
    if a.everything
        && shown
        && !(a.spend || a.income || a.balance || a.budget || a.recurring || a.cash || intent.average)
    {
        a.list = true;
    }
    // "show me what came in this month": the credits themselves ("how much came in" is
    // the income).
    let came_in = tokens.windows(2).any(|w| {
        matches!(w[0].norm.as_str(), "came" | "come" | "comes" | "coming")
            && matches!(w[1].norm.as_str(), "in" | "into")
    }) || tokens.iter().any(|t| matches!(t.norm.as_str(), "rentrees" | "entrees"));
    if came_in
        && shown
        && !intent.asks_amount
        && intent.direction.is_none()
        && !a.balance
        && !a.budget
        && !a.cash
    {
        intent.direction = Some(Direction::Credit);
        a.list = true;
        a.income = false;
    }
    let show_verb = tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "show" | "see" | "display" | "montre" | "montrez" | "affiche" | "voir" | "consulter"
        )
    });
    // "combien de prélèvements Basic-Fit", "montre moi les prélèvements Netflix": direct
    // debits counted, shown or listed are those transactions; "mes prélèvements qui reviennent"
    // are the recurring payments.
    let debits_at = tokens.iter().position(|t| matches!(t.norm.as_str(), "prelevements" | "prelevement"));
    let repeats = tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "recurrents"
                | "recurrent"
                | "reviennent"
                | "reguliers"
                | "mensuels"
                | "tous"
                | "chaque"
                | "recurring"
        )
    });
    if let (Some(j), true, false) = (debits_at, a.recurring, repeats) {
        let counted = j >= 2 && how_many(j - 2);
        // "le plus gros prélèvement de l'année": the largest such debit.
        if intent.largest {
            a.recurring = false;
            a.list = true;
            intent.direction = Some(Direction::Debit);
        } else if counted || show_verb || tokens.iter().any(|t| matches!(t.norm.as_str(), "liste" | "list")) {
            a.recurring = false;
            if counted {
                a.spend = true;
                intent.asks_amount = true;
            } else {
                a.list = true;
                intent.direction = intent.direction.or(Some(Direction::Debit));
            }
        }
    }
    // "montre les virements internes du mois dernier", "show me restaurants in
    // October": names shown, nothing to compute — the transactions.
    if show_verb
        && !(a.spend
            || a.income
            || a.balance
            || a.budget
            || a.recurring
            || a.cash
            || a.list
            || intent.average
            || intent.asks_amount)
        && intent.group_by.is_none()
        && intent.top.is_none()
        && intent.top_of_name.is_none()
        && !intent.largest
        && !intent.latest
        && !a.breakdown
    {
        a.list = true;
        intent.shown_names = true;
    }
    // "what's left on my current account", "il reste combien sur le compte joint": the
    // balance — or the budget's, when one is named. Left of spending is neither, nor
    // "how much is left" with no account or bank said (a budget's, or the balance?):
    // the word stays unread.
    if let Some(i) =
        (0..tokens.len()).find(|&i| !used[i] && matches!(norm(i), "left" | "reste" | "restant" | "remaining"))
    {
        let somewhere = (0..tokens.len()).any(|k| {
            matches!(
                norm(k),
                "sur"
                    | "on"
                    | "in"
                    | "en"
                    | "dans"
                    | "dessus"
                    | "account"
                    | "accounts"
                    | "compte"
                    | "comptes"
                    | "bank"
                    | "banque"
                    | "livret"
            )
        });
        if a.budget
            || (somewhere && !a.spend && !a.income && !a.list && !a.recurring && !a.cash && !intent.average)
        {
            a.balance |= !a.budget;
            used[i] = true;
            intent.words.push(message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        }
    }
    // Asks that no one tool answers together: a balance with anything else, a budget
    // with income or cash flow, … (spending with income is cash flow; a list, a budget
    // or recurring payments show what was spent).
    intent.second_ask |= (a.balance && (a.budget || a.recurring || a.cash || a.spend || a.income || a.list))
        || (a.budget && (a.income || a.cash || a.recurring || a.list))
        || (a.recurring && (a.income || a.cash))
        || (a.cash && a.list);
    intent.kind = if a.balance {
        Some(Kind::Balance)
    } else if a.budget {
        Some(Kind::Budget)
    } else if a.recurring {
        Some(Kind::Recurring)
    } else if a.cash || (a.spend && a.income) {
        Some(Kind::CashFlow)
    } else if a.list || intent.direction.is_some() {
        Some(Kind::List)
    } else if a.income {
        Some(Kind::Income)
    } else if a.spend || intent.group_by.is_some() {
        intent.group_only = !a.spend;
        Some(Kind::Spending)
    } else {
        None
    };
    // The side turned down is read only when the other is asked for in so many words
    // ("debits only, not the refunds", "les virements reçus, pas les dépenses"); else
    // the negation stays unread.
    if let Some((other, a, b)) = turned_down {
        let outside =
            |f: &dyn Fn(&str) -> bool| (0..tokens.len()).any(|j| !(a..=b).contains(&j) && f(norm(j)));
        let asked = match other {
            Direction::Debit => outside(&|w| DEBIT_SIDE.contains(&w) || matches!(w, "commandes" | "orders")),
            Direction::Credit => outside(&|w| {
                CREDIT_SIDE.contains(&w)
                    || matches!(w, "recu" | "recus" | "received" | "came" | "revenus" | "income")
            }),
        };
        let agrees = intent.direction.is_none_or(|d| d == other);
        // Spending is the debits, income credits: turning the other side down says the
        // same. A list, or money in and out, keeps the side asked for.
        let same = matches!(
            (intent.kind, other),
            (Some(Kind::Spending), Direction::Debit) | (Some(Kind::Income), Direction::Credit)
        );
        let listed = matches!(intent.kind, Some(Kind::List | Kind::CashFlow));
        if asked && agrees && (same || listed) {
            if listed {
                intent.direction = Some(other);
                intent.kind = Some(Kind::List);
            }
            intent.words.push(message.get(tokens[a].start..tokens[b].end).unwrap_or_default().to_string());
        } else {
            used[a..=b].iter_mut().for_each(|u| *u = false);
        }
    }
    intent.explicit = intent.kind.is_some();
    intent
}

/// Saving said as a verb.
const SAVED: &[&str] = &[
    "saving",
    "economise",
    "economises",
    "economisee",
    "economiser",
    "saved",
    "save",
    "epargnes",
    "epargnee",
    "epargner",
];
