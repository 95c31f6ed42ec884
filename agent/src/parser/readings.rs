//! Requests people read two ways, asked rather than read one way: "show me my spending
//! this month" (the total, or the lines?), "what came in last month?" (the income, or the
//! credits?), "est-ce que j'ai reçu mon salaire ?", "toutes mes dépenses", "total des
//! débits Foncia", the internal transfers alone, two balances at once. Blind writers
//! split on each. On the server only (feature `readings`): the browser's badge shows the
//! first reading, and the server, which parses every typed message again, asks.

use super::entities::EntityMatch;
use super::intent::Intent;
use super::Parser;
use crate::parser::Context;
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::tool::ToolCall;

fn w(t: &Token) -> &str {
    t.norm.as_str()
}

impl Parser {
    /// Whether `call`, read from `tokens` (with `intent`), is one of two readings writers
    /// give such a request.
    pub(super) fn read_two_ways(
        &self,
        tokens: &[Token],
        (call, intent): (&ToolCall, &Intent),
        amounts: bool,
        reasons: &[Reason],
        cx: &Context<'_>,
    ) -> bool {
        // "montre-moi les dépenses de la semaine", "show me my spending this month": the
        // total, or the lines? Writers read both. "What came in on the current account",
        // "entrées d'argent du mois dernier ?": the income, or the credits? Asked, unless
        // "how much", a total, a breakdown or a list says which.
        // ("toutes mes dépenses de la semaine", "all my expenses": every one, or their sum?)
        let every = tokens.windows(3).any(|p| {
            matches!(w(&p[0]), "toutes" | "tous" | "all")
                && matches!(w(&p[1]), "mes" | "my" | "les" | "the")
                && matches!(
                    w(&p[2]),
                    "depenses" | "expenses" | "achats" | "purchases" | "paiements" | "payments"
                )
        });
        let shown = every
            || tokens.iter().any(|t| {
                matches!(
                    w(t),
                    "show" | "montre" | "montrez" | "affiche" | "affichez" | "display" | "voir" | "see"
                )
            });
        let how_much = intent.asks_amount
            || tokens.windows(2).any(|p| w(&p[0]) == "how" && w(&p[1]) == "much")
            || tokens.iter().any(|t| matches!(w(t), "combien" | "total" | "montant" | "somme" | "sum"));
        let side_phrase = tokens.windows(2).any(|p| {
            matches!(
                (w(&p[0]), w(&p[1])),
                ("came" | "come" | "comes" | "coming" | "went" | "goes" | "going", "in" | "out" | "into")
            )
        }) || tokens.windows(3).any(|p| {
            matches!(w(&p[0]), "entrees" | "rentrees" | "sorties")
                && matches!(w(&p[1]), "d" | "de")
                && w(&p[2]) == "argent"
        });
        let plain_total = match call {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                a.group_by == crate::args::GroupBy::None && a.average.is_none() && a.top.is_none()
            }
            _ => false,
        };
        let unlisted = matches!(call, ToolCall::ListTransactions(a) if a.direction.is_some() && a.limit == crate::args::DEFAULT_LIST_LIMIT && !intent.largest && !intent.latest);
        // "Est-ce que j'ai reçu mon salaire ce mois-ci ?", "did I pay Foncia in
        // November?": yes or no — the lines, or their total? Writers read both.
        let first = |k: usize| tokens.get(k).map_or("", w);
        let yes_no = (first(0) == "est" && first(1) == "ce" && first(2) == "que")
            || matches!(first(0), "did" | "have" | "has" | "didn" | "haven" | "hasn")
            // "paid EDF this month?", "reçu mon salaire ?": the same, its verb first.
            || matches!(first(0), "paid" | "paye" | "payee" | "received" | "recu" | "recue");
        // "j'ai dépensé quoi vendredi ?": the total, or what was bought? Writers split.
        let spent_what = tokens.windows(2).any(|p| w(&p[0]) == "depense" && w(&p[1]) == "quoi");
        let total_or_lines = (shown && plain_total && !how_much && !amounts)
            || (spent_what && plain_total && !how_much)
            || (yes_no && plain_total && !how_much)
            || (side_phrase && !shown && !how_much && !intent.list_verb && (plain_total || unlisted));
        // "les virements internes du mois dernier": moves between the user's accounts are
        // no spending; their lines, or their total? Asked.
        let transfers_only = matches!(call, ToolCall::SpendingSummary(_))
            && reasons.iter().any(|r| r.code == ReasonCode::FiltersOnly)
            && call.category().is_some_and(|k| self.vocab.category_is(k, "transfer"));
        // "…, we know about the rent": a clause about what the person knows names
        // something that is not a filter.
        let known_of = tokens.windows(2).any(|p| matches!(w(&p[0]), "know" | "knew") && w(&p[1]) == "about");
        // "solde maintenant et fin du mois dernier": two dates, two balances.
        let now_too = matches!(call, ToolCall::Balances(_))
            && call.period().is_some_and(|p| p.end <= cx.today)
            && tokens.iter().any(|t| {
                matches!(
                    w(t),
                    "maintenant" | "now" | "actuellement" | "today" | "actuel" | "actuelle" | "aujourd"
                )
            });
        // "total des débits Foncia", "montant des crédits d'ACME", "sorties d'argent total":
        // the sum of one side's lines, or the spending (or income) they make?
        let side_total = match call {
            ToolCall::ListTransactions(a) => {
                let total = tokens.iter().any(|t| matches!(w(t), "total" | "montant" | "somme" | "sum"));
                // (Refunds are only ever their lines: "total refunds in October" is the list.)
                let refunds = tokens
                    .iter()
                    .any(|t| matches!(w(t), "refunds" | "refund" | "remboursements" | "remboursement"));
                total && a.direction.is_some() && !refunds && !intent.largest && !intent.latest
            }
            _ => false,
        };
        total_or_lines || transfers_only || known_of || now_too || side_total
    }

    /// "chez metro": "chez" and a name with no article is a shop's name, the category of
    /// that name a guess ("chez le médecin" is the category); "les sorties sur le compte":
    /// money out, or the outings the user calls so? The words to quote, if so.
    pub(super) fn name_two_ways(categories: &[EntityMatch], message: &str) -> Option<String> {
        let whole = crate::text::normalize(message);
        let shop =
            categories.iter().find(|c| whole.contains(&format!("chez {}", crate::text::normalize(&c.words))));
        if let Some(c) = shop {
            return Some(format!("« chez {} »", c.words));
        }
        // "what did I pay Metro": a payee's name in capitals — the shop, or the category
        // (not "did I pay rent").
        let payee = categories.iter().find(|c| {
            let named = c.words.chars().next().is_some_and(char::is_uppercase);
            let said = crate::text::normalize(&c.words);
            named
                && ["pay ", "paid ", "paye ", "payer ", "paye a ", "payer a "]
                    .iter()
                    .any(|p| whole.contains(&format!("{p}{said}")))
        });
        if let Some(c) = payee {
            return Some(format!("« {} »", c.words));
        }
        // "achats sur internet", "things I bought on the internet": shopping done online,
        // or the internet bill?
        let online = categories.iter().find(|c| {
            let c = crate::text::normalize(&c.words);
            ["sur ", "on the ", "on ", "via ", "par "].iter().any(|p| whole.contains(&format!("{p}{c}")))
                && matches!(c.as_str(), "internet" | "phone" | "telephone" | "mobile")
        });
        if let Some(c) = online {
            return Some(format!("« {} »", c.words));
        }
        let outings = categories.iter().find(|c| {
            crate::text::normalize(&c.words) == "sorties"
                && whole.split(' ').any(|w| w == "compte" || w == "comptes")
        });
        outings.map(|c| format!("« {} »", c.words))
    }

    /// A category and a label ("transferts internes : tout VIR LCL"), or a merchant said
    /// to be "en" a category ("decathlon en loisirs"), with nothing asked.
    pub(super) fn filed_or_shown(categories: &[EntityMatch], message: &str, label: bool) -> bool {
        let whole = crate::text::normalize(message);
        label
            || categories.iter().any(|c| {
                let c = crate::text::normalize(&c.words);
                ["en", "dans", "into"].iter().any(|w| whole.contains(&format!("{w} {c}")))
            })
    }
}
