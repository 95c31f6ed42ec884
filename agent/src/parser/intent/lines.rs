//! Whether the transactions themselves are asked for ("show me what came in", "j'ai payé
//! quoi ?", "les prélèvements Netflix"), or their total, or both — two asks.

use super::count::{how_many, paid};
use super::{Asked, Intent};
use crate::args::Direction;
use crate::text::Token;

/// Whether "received" asks for the credits listed; and whether all the transactions are
/// asked ("tout ce que…").
pub(super) fn received(tokens: &[Token], intent: &mut Intent, a: &mut Asked) {
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
}

/// Whether "j'ai payé quoi ?" asks for what was paid, item by item.
pub(super) fn what_paid(tokens: &[Token], intent: &mut Intent, a: &mut Asked) {
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
}

/// Whether a count or a total asks for an amount rather than the list, and whether the
/// list and a total are two asks.
pub(super) fn total_or_list(
    tokens: &[Token],
    count: bool,
    how_often: Option<usize>,
    intent: &mut Intent,
    a: &mut Asked,
) {
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
}

/// Whether a verb asks to be shown or given something: "show", "list", "give", "voir"…
pub(super) fn shown(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| {
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
    })
}

/// Whether "show me everything" asks for the transactions: when nothing is computed of them.
pub(super) fn everything_shown(shown: bool, intent: &Intent, a: &mut Asked) {
    // "show me everything": the transactions; "everything except travel this summer",
    // with no verb, may be their total as well: not read.
    if a.everything
        && shown
        && !(a.spend || a.income || a.balance || a.budget || a.recurring || a.cash || intent.average)
    {
        a.list = true;
    }
}

/// Whether "show me what came in" asks for the credits themselves.
pub(super) fn what_came_in(tokens: &[Token], shown: bool, intent: &mut Intent, a: &mut Asked) {
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
}

/// Whether a verb asks to see something (not to list it): "show", "voir", "consulter"…
pub(super) fn show_verb(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "show" | "see" | "display" | "montre" | "montrez" | "affiche" | "voir" | "consulter"
        )
    })
}

/// Whether direct debits counted, shown or listed are those transactions, not the
/// recurring payments.
pub(super) fn direct_debits(tokens: &[Token], show_verb: bool, intent: &mut Intent, a: &mut Asked) {
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
        let counted = j >= 2 && how_many(tokens, j - 2);
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
}

/// Whether only names were shown ("montre le compte courant"): the transactions.
pub(super) fn names_shown(show_verb: bool, intent: &mut Intent, a: &mut Asked) {
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
}
