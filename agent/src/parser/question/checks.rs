//! What the call made for a new question cannot do: an average or a rate it cannot
//! compute as said, names and amounts it cannot filter on, a breakdown it cannot make,
//! time words no period read — each a reason.

use super::{Filters, LeftOut, Question};
use crate::amount;
use crate::parser::intent::Kind;
use crate::parser::names::call_has;
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::tool::ToolCall;
use crate::vocab::EntityKind;

impl Question<'_> {
    /// What the user picks before the run, if anything: the unit of an average, or
    /// whether a rate is a breakdown.
    pub(super) fn average_or_rate_unit(&mut self, call: &ToolCall, top: Option<u32>) -> Option<ReasonCode> {
        let (intent, locale) = (self.intent, self.locale);
        // An average without its unit, or a rate said in one word: the user picks, once
        // nothing else is unread (else the question would run without it).
        let mut unit = None;
        if intent.average {
            let summary = matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_));
            if !summary {
                // "solde moyen", "average budget": no tool averages these.
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(" ")));
            } else if intent.average_per.is_none() {
                unit = Some(ReasonCode::AverageUnit);
            }
            // "average of my top 3 categories": an average and a ranking are two asks.
            if top.is_some() {
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(" ")));
            }
        } else if intent.rate_word
            && matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_))
        {
            unit = Some(ReasonCode::RateOrBreakdown);
        }
        unit
    }

    /// What the call cannot leave out or tell apart: names left out, money put aside or
    /// moved, money sent to someone.
    pub(super) fn left_out_by_call(&mut self, call: &ToolCall, f: &Filters, left_out: &LeftOut) {
        let (intent, locale) = (self.intent, self.locale);
        let reasons = &mut self.reasons;
        let excluded = &left_out.names;
        let (ex_category, ex_merchant) = call.excluded();
        if !excluded.is_empty() && ex_category.is_none() && ex_merchant.is_none() && !left_out.already {
            // "mes budgets hors loyer": the tool cannot leave anything out.
            let words: Vec<String> = excluded.iter().map(|m| format!("« {} »", m.words)).collect();
            reasons.retain(|r| r.code != ReasonCode::Excluded);
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(", ")));
        }
        // "combien j'ai mis de côté sur le livret A": what was put aside is the transfers
        // to it, which cash flow leaves out by definition — asked, not guessed.
        // So is money moved to or from an account ("did I transfer to my savings
        // account"): a summary filtered on the account counts what left it.
        let put_aside = self.words.iter().any(|w| {
            let w = crate::text::normalize(w);
            matches!(w.as_str(), "mis de cote" | "put aside" | "epargne" | "saved" | "save" | "economise")
        });
        // Money put aside or moved to or from an account ("mis de côté sur le livret A",
        // "did I transfer to my savings account") is transfers, which cash flow leaves out
        // and an account's credits or debits mix with other lines: asked, not guessed.
        let moved = (matches!(call, ToolCall::CashFlow(_)) && put_aside) || intent.moved;
        if moved && call.account().is_some() {
            let detail = f.accounts.iter().map(|m| format!("« {} »", m.words)).collect::<Vec<_>>().join(", ");
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // "combien j'ai viré à Paul": money sent to someone, who may not be the shop of
        // that name — asked.
        if intent.moved && call.merchant().is_some() {
            let detail =
                f.merchants.iter().map(|m| format!("« {} »", m.words)).collect::<Vec<_>>().join(", ");
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
    }

    /// What the call would drop: names it has no filter for, amounts it cannot bound
    /// on, a breakdown it cannot make.
    pub(super) fn dropped_by_call(&mut self, call: &ToolCall, f: &Filters) {
        let (intent, kind, locale) = (self.intent, self.kind, self.locale);
        // A name the tool has no filter for ("budget Carrefour", "solde des courses")
        // would be dropped: it stops the run.
        let dropped: Vec<String> = [
            (call_has(call, EntityKind::Category), &f.categories),
            (call_has(call, EntityKind::Merchant), &f.merchants),
            (call_has(call, EntityKind::Account), &f.accounts),
        ]
        .into_iter()
        .filter(|(kept, matches)| !kept && !matches.is_empty())
        .flat_map(|(_, matches)| matches.iter().map(|m| format!("« {} »", m.words)))
        .collect();
        if !dropped.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &dropped.join(", ")));
        }
        // Amounts the tool cannot bound on ("set my budget to 300 €", "solde de 500 €").
        if f.amounts.is_some() && call.amounts() == (None, None) {
            let (amount_min, amount_max) = f.bounds();
            self.reasons.retain(|r| r.code != ReasonCode::ExplicitAmount);
            let detail = amount::describe(amount_min, amount_max, locale);
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // "when did I last pay it?", "c'était quand la dernière fois ?": of what? Asked.
        if let ToolCall::Activity(a) = call {
            if a.category.is_none() && a.merchant.is_none() && a.account.is_none() && a.direction.is_none() {
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(" ")));
            }
        }
        // A breakdown the tool cannot make ("mes transactions par catégorie", "solde par
        // mois") would be dropped: it stops the run.
        let grouped = match call {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.group_by,
            ToolCall::CashFlow(a) => a.group_by,
            _ => crate::args::GroupBy::None,
        };
        // ("mes prélèvements mensuels", "budget mensuel": how often, not a breakdown.)
        let how_often =
            matches!(kind, Kind::Recurring | Kind::Budget) && intent.group_by.is_some_and(|g| g.is_time());
        if intent.group_by.is_some_and(|g| g != grouped) && !how_often {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(" ")));
        }
    }

    /// Words of time no period read ("il y a un an", "so far"), or a request read two
    /// ways (`two_ways`): ambiguous.
    pub(super) fn time_words_unread(&mut self, call: &ToolCall, two_ways: bool) {
        let tokens = self.tokens;
        fn w(t: &Token) -> &str {
            t.norm.as_str()
        }
        // "il y a un an", "il y a une semaine": a time ago that no period read — its words
        // ("un", "an") would otherwise pass for nothing.
        let ago_read = call.period().is_some_and(|p| crate::text::normalize(&p.words).contains("il y a"));
        let ago_unread = !ago_read
            && (0..tokens.len()).any(|k| {
                let at = |j: usize| tokens.get(j).map_or("", w);
                at(k) == "il"
                    && at(k + 1) == "y"
                    && at(k + 2) == "a"
                    && (k + 3..k + 6).any(|j| {
                        matches!(
                            at(j),
                            "an" | "ans" | "annee" | "mois" | "semaine" | "semaines" | "jour" | "jours"
                        )
                    })
            });
        // "so far", "to date", "jusqu'ici" said of no period that ends today ("Q4 spend so
        // far", "2025 so far"): its words would otherwise pass for nothing.
        let so_far_said = tokens
            .windows(2)
            .any(|p| matches!((w(&p[0]), w(&p[1])), ("so", "far") | ("to", "date") | ("jusqu", "ici")));
        let so_far_unread = so_far_said && call.period().is_none_or(|p| p.end != self.cx.today.add_days(1));
        if two_ways || ago_unread || so_far_unread {
            self.reasons.push(Reason::new(ReasonCode::AmbiguousEntity, self.locale, &self.words.join(", ")));
        }
    }
}
