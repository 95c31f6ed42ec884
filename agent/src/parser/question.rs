//! A new question on the ledger — neither a follow-up nor a comparison: the tool
//! that answers it, the period it means and the filters it names, with the reasons.

use super::build::{call_for, current_period, plan, push_unrecognized, Slots, LOOKBACK_MONTHS};
use super::clarify::Near;
use super::entities::{Entities, EntityMatch, Unplaced};
use super::intent::{Kind, DEFAULT_LARGEST, DEFAULT_LATEST};
use super::names::{apart, call_has, joined, pronoun_object, said_to_be};
use super::{Context, Parser, Reading};
use crate::amount;
use crate::period;
use crate::reason::{Reason, ReasonCode};
use crate::vocab::EntityKind;
use crate::{wording, ParseOutcome, Period, ToolCall, ToolCallPlan};

impl Parser {
    /// The plan for what the message asks, or a question when it asks nothing.
    // Over 120 lines; to split (issue 49).
    #[allow(clippy::too_many_lines)]
    pub(super) fn question(
        &self,
        reading: Reading<'_>,
        cx: &Context<'_>,
        previous: Option<(&ToolCallPlan, &Period)>,
    ) -> ParseOutcome {
        let Reading {
            message,
            locale,
            intent,
            entities,
            excluded,
            amounts,
            text,
            period,
            has_content,
            topic,
        } = reading;
        let Entities { categories, merchants, accounts, unrecognized } = entities;
        let currency = self.vocab.currency.unwrap_or(crate::Currency::EUR);
        let mut reasons = Vec::new();
        let income_category = categories
            .first()
            .and_then(|m| m.ids.first())
            .and_then(|id| self.vocab.term(*id))
            .is_some_and(|t| t.kind.as_deref() == Some("income"));
        let only_account = !accounts.is_empty()
            && categories.is_empty()
            && merchants.is_empty()
            && amounts.is_none()
            && text.is_none();
        let mut explicit = intent.explicit;
        let mut words = intent.words.clone();
        // "every expense over €500", "dépenses de plus de 100 €": the transactions the
        // amounts select, unless a total is asked.
        let tokens = crate::text::tokenize(message);
        // "tout ce que j'ai payé plus de 500 €", "everything over €100": the transactions.
        // (Not the transactions of a name left out: "leaving out the Decathlon purchases";
        // "les depense" typed for "les dépenses" is plural.)
        let left_out = |t: &crate::text::Token| super::entities::follows_a_name(&excluded, t, message);
        let items = tokens.iter().enumerate().any(|(k, t)| {
            let plural =
                t.norm == "depense" && k > 0 && matches!(tokens[k - 1].norm.as_str(), "les" | "mes" | "des");
            (super::lexicon::is_item_noun(&t.norm) || plural) && !left_out(t)
        });
        // "quelles dépenses ont été enregistrées", "which expenses": the lines.
        let which_items = tokens.windows(2).any(|w| {
            matches!(w[0].norm.as_str(), "quelles" | "quels" | "which")
                && super::lexicon::is_item_noun(&w[1].norm)
        });
        let bought =
            tokens.iter().any(|t| matches!(t.norm.as_str(), "buy" | "bought" | "achete" | "achetes"));
        // "where did I buy groceries, broken down by shop": money spent, by merchant — a
        // list has no breakdown.
        let spent_by = intent.group_by.is_some()
            && !intent.largest
            && !intent.latest
            && !intent.list_verb
            && intent.direction != Some(crate::Direction::Credit);
        let spend_word = tokens.iter().any(|t| super::lexicon::is_spend_word(&t.norm));
        // "what did I pay on Nov 11", "what have we paid this week": what was paid, item
        // by item, as "qu'est-ce que j'ai payé" — unless a name says to whom or for what
        // ("what did I pay Foncia in September": a total).
        let what_paid = tokens.windows(4).any(|w| {
            w[0].norm == "what"
                && matches!(w[1].norm.as_str(), "did" | "have" | "ve")
                && matches!(w[2].norm.as_str(), "i" | "we")
                && matches!(w[3].norm.as_str(), "pay" | "paid")
        }) && categories.is_empty()
            && merchants.is_empty()
            && !intent.asks_amount
            && intent.group_by.is_none();
        // "montant total des prélèvements MAIF": what one merchant's direct debits took.
        let debited_total = intent.asks_amount
            && merchants.len() == 1
            && tokens.iter().any(|t| matches!(t.norm.as_str(), "prelevements" | "prelevement"));
        let kind = match intent.kind {
            Some(Kind::Spending) if what_paid => Kind::List,
            Some(Kind::Recurring) if debited_total => Kind::Spending,
            // Label text is searched in transactions.
            _ if text.is_some() => Kind::List,
            // "salaire moyen par mois": the average of an income category is income.
            Some(Kind::Spending) if income_category && intent.average && !spend_word => Kind::Income,
            Some(Kind::List) if spent_by => Kind::Spending,
            // "show me my livret A": what the account holds, unless a period asks for
            // its transactions.
            Some(Kind::List) if intent.shown_names && only_account && period.is_none() => Kind::Balance,
            Some(Kind::Spending)
                if (amounts.is_some() && (items || intent.everything) || which_items)
                    && !intent.asks_amount
                    && intent.group_by.is_none() =>
            {
                Kind::List
            }
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
                let near = Near { kind: topic, ..Near::default() };
                return ParseOutcome::Clarification(self.clarify(locale, cx, reasons, near));
            }
        };
        // Only filters and nothing else: what the message asks follows from them.
        // "courses janvier 2026", "Carrefour last month" → that name's total over the
        // period; "plus de 2000 € en 2025", "« RETRAIT DAB » en mars" → the transactions
        // they select; "my livret a" → its balance.
        // Distinct names: "retraits d'espèces" names the cash category twice.
        let distinct = |ms: &[EntityMatch]| {
            let mut ids: Vec<_> = ms.iter().filter_map(|m| m.ids.first().copied()).collect();
            ids.sort_unstable();
            ids.dedup();
            ids.len()
        };
        let names = distinct(&categories) + distinct(&merchants);
        let filters_only = unrecognized.is_empty()
            && intent.group_by.is_none()
            && intent.direction.is_none()
            && match kind {
                // One category, one merchant, or one of each ("pharmacy at Pharmacie du
                // Centre in 2024").
                Kind::Spending | Kind::Income => {
                    period.is_some()
                        && names >= 1
                        && distinct(&categories) <= 1
                        && distinct(&merchants) <= 1
                        && accounts.is_empty()
                        && amounts.is_none()
                        && text.is_none()
                }
                Kind::List => {
                    period.is_some()
                        && (amounts.is_some() || text.is_some())
                        && names <= 1
                        && accounts.len() <= 1
                }
                Kind::Balance => only_account && accounts.len() == 1 && period.is_none(),
                _ => false,
            };
        if let Some(detail) = &intent.fuzzy {
            reasons.push(Reason::new(ReasonCode::FuzzyIntent, locale, detail));
            if !intent.words.is_empty() {
                reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
            }
        } else if explicit {
            reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
        } else if filters_only {
            reasons.push(Reason::new(ReasonCode::FiltersOnly, locale, wording::kind_label(kind, locale)));
        } else if kind == Kind::Spending && intent.asks_amount && names == 0 && accounts.is_empty() {
            // "combien ce week-end", "nov 2025 total", "how much in december": an amount
            // of a period, nothing else said — what went out.
            reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, wording::kind_label(kind, locale)));
        } else {
            reasons.push(Reason::new(ReasonCode::InferredIntent, locale, wording::kind_label(kind, locale)));
            // Nothing but a period ("show me everything from yesterday"): what to compute
            // is all guessed — asked, not run.
            if names == 0
                && accounts.is_empty()
                && amounts.is_none()
                && text.is_none()
                && intent.group_by.is_none()
            {
                reasons.push(Reason::new(ReasonCode::NoIntent, locale, ""));
            }
        }
        let period = match (period, previous) {
            (Some(p), _) => {
                // "subscriptions over the past 12 months": the payments, or their cost?
                if intent.bare_subscriptions && kind == Kind::Recurring {
                    reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
                }
                reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &p.label));
                p
            }
            // "my last 10 transactions": the newest, from the last 12 months.
            (None, _) if kind == Kind::List && intent.latest => {
                let p = period::last_months(cx.today, LOOKBACK_MONTHS, locale);
                reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                p
            }
            // A point-in-time question means now, conversation or not — unless it is
            // asked in the past ("quel était mon solde ?", "what was my balance?"): then
            // when? Asked.
            (None, _) if kind.is_current() => {
                let p = current_period(kind, cx.today, locale);
                reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                let past = tokens.iter().find(|t| {
                    matches!(
                        t.norm.as_str(),
                        "etait" | "etaient" | "avait" | "avais" | "was" | "were" | "had"
                    )
                });
                if let Some(t) = past.filter(|_| previous.is_none()) {
                    let said = message.get(t.start..t.end).unwrap_or(&t.norm);
                    reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {said} »")));
                }
                p
            }
            // A new question without a period, in a conversation that had one.
            (None, Some((_, prev_period))) => {
                let p = period::relabel(prev_period.clone(), locale);
                reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &p.label));
                p
            }
            (None, None) => {
                let p = period::default_period(cx.today, locale);
                reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &p.label));
                p
            }
        };
        // "ma facture EDF", "billets SNCF", "cinéma UGC": a category's word right beside
        // a merchant's name says what the merchant sells — the merchant alone.
        // ("les loyers payés à Foncia", "the rent paid to Foncia": with what joins them.)
        // ("combien de loyer j'ai payé à Foncia": the words between say who was paid.)
        let beside = |a: &str, b: &str| {
            let whole = crate::text::normalize(message);
            let (a, b) = (crate::text::normalize(a), crate::text::normalize(b));
            let joins = [
                "",
                "paye a ",
                "payes a ",
                "payee a ",
                "payees a ",
                "j ai paye a ",
                "on a paye a ",
                "chez ",
                "paid to ",
                "i paid to ",
                "at ",
                // "the train with Ouigo", "le train avec la SNCF".
                "with ",
                "avec ",
                "avec la ",
                "avec le ",
                // "the salary from ACME", "mon salaire de chez ACME".
                "from ",
                "de chez ",
            ];
            joins
                .iter()
                .any(|j| whole.contains(&format!("{a} {j}{b}")) || whole.contains(&format!("{b} {j}{a}")))
        };
        let transfer = |c: &EntityMatch| {
            c.ids
                .first()
                .and_then(|id| self.vocab.term(*id))
                .is_some_and(|t| t.kind.as_deref() == Some("transfer"))
        };
        // One merchant named twice ("sncf …, the ouigo trips"): read as once, by its
        // name nearest the category's word.
        let named = match merchants.split_first() {
            Some((m, rest)) if !rest.is_empty() && rest.iter().all(|o| o.ids == m.ids) => {
                let near =
                    categories.first().and_then(|c| merchants.iter().find(|o| beside(&c.words, &o.words)));
                std::slice::from_ref(near.unwrap_or(m))
            }
            _ => merchants.as_slice(),
        };
        let categories = match (categories.as_slice(), named) {
            // "the Paul transfers": no shop sells transfers — which is meant? Asked.
            ([c], [m]) if transfer(c) && beside(&c.words, &m.words) => {
                reasons.push(Reason::new(
                    ReasonCode::AmbiguousEntity,
                    locale,
                    &format!("« {} », « {} »", c.words, m.words),
                ));
                categories
            }
            // (A word only near a category's name — "virements" for "vêtements" — is no
            // such word: it is asked as any other.)
            ([c], [m]) if !c.fuzzy && beside(&c.words, &m.words) => {
                let detail = match locale {
                    crate::Locale::Fr => format!("« {} », dit de {}", c.words, m.words),
                    crate::Locale::En => format!("« {} », said of {}", c.words, m.words),
                };
                reasons.push(Reason::new(ReasonCode::ExactCategory, locale, &detail));
                Vec::new()
            }
            // "how much on uber this month, and on the metro": a category and a merchant
            // joined by "and" are two asks, not one filter inside the other.
            ([c], [m]) if joined(message, &c.words, &m.words) => {
                reasons.push(Reason::new(
                    ReasonCode::UnplacedMeaning,
                    locale,
                    &format!("« {} », « {} »", m.words, c.words),
                ));
                categories
            }
            // "how much on sncf since september, been doing heaps of trips": a category
            // named in another clause, not as a restriction, may be the merchant's own
            // (SNCF's are Transport): filtering on both is a guess. Asked.
            ([c], [m]) if apart(message, &c.words, &m.words) => {
                reasons.push(Reason::new(
                    ReasonCode::UnplacedMeaning,
                    locale,
                    &format!("« {} », « {} »", m.words, c.words),
                ));
                categories
            }
            _ => categories,
        };
        // A name read two ways ("chez metro", "les sorties sur le compte"): asked, on the
        // server.
        #[cfg(feature = "readings")]
        if let Some(detail) = Self::name_two_ways(&categories, message) {
            reasons.push(Reason::new(ReasonCode::AmbiguousEntity, locale, &detail));
        }
        let category = self.finder().pick(&categories, locale, &mut reasons, EntityKind::Category);
        let merchant = self.finder().pick(&merchants, locale, &mut reasons, EntityKind::Merchant);
        let account = self.finder().pick(&accounts, locale, &mut reasons, EntityKind::Account);
        let ledger = self.vocabulary().currency.unwrap_or(crate::Currency::EUR);
        reasons.extend(super::names::other_currency(&tokens, message, amounts.as_ref(), ledger, locale));
        reasons.extend(super::names::account_by_kind(&tokens, message, &accounts, locale));
        let (amount_min, amount_max) = amounts.as_ref().map_or((None, None), |a| (a.min, a.max));
        // "j'ai claqué plus de nonante euros chez Deliveroo ?", "did I spend over €200 on
        // food?": the total against an amount, or the payments above it? Asked.
        if let Some(a) = amounts.as_ref().filter(|_| matches!(kind, Kind::Spending | Kind::Income)) {
            let verb = a.first.checked_sub(1).and_then(|j| tokens.get(j)).is_some_and(|t| {
                super::lexicon::is_spend_word(&t.norm) || super::lexicon::is_income_word(&t.norm)
            });
            if verb {
                let said = amount::describe(a.min, a.max, locale);
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {said} »")));
            }
        }
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
        // "transferts internes : tout VIR LCL", "decathlon en loisirs depuis janvier":
        // show them, or file them there? Asked, on the server.
        #[cfg(feature = "readings")]
        {
            let only_filters = reasons.iter().any(|r| r.code == ReasonCode::FiltersOnly);
            let named = category.is_some() && (text.is_some() || merchant.is_some());
            if only_filters && named && Self::filed_or_shown(&categories, message, text.is_some()) {
                let detail =
                    categories.iter().map(|c| format!("« {} »", c.words)).collect::<Vec<_>>().join(", ");
                reasons.push(Reason::new(ReasonCode::AmbiguousEntity, locale, &detail));
            }
        }
        // With the calculation guessed from a name or a period alone, a word left over
        // may be what the message is about ("any meetings today?"): it stops the run.
        let mut unrecognized = unrecognized;
        // "rank my spending categories": the groups of the breakdown asked, named.
        if let Some(g) = intent.group_by {
            unrecognized.retain(|u| super::lexicon::group_word(&crate::text::normalize(&u.words)) != Some(g));
        }
        // "the biggest thing I bought": the largest transaction ("the thing last
        // Tuesday", with no superlative, is one Sou cannot tell).
        if intent.largest {
            unrecognized.retain(|u| !matches!(crate::text::normalize(&u.words).as_str(), "thing" | "truc"));
        }
        // "mes abonnements" with no such category: the word asked for the recurring
        // payments, and is read.
        if kind == Kind::Recurring {
            unrecognized.retain(|u| !super::lexicon::is_subscription_word(&crate::text::normalize(&u.words)));
        }
        // A balance over a period is its balance at the period's close: "fin octobre",
        // "at the end of last year" say just that.
        if kind == Kind::Balance {
            // "combien j'avais sur le livret fin juin": what the account held.
            unrecognized.retain(|u| {
                !matches!(
                    crate::text::normalize(&u.words).as_str(),
                    "fin" | "end" | "avais" | "avait" | "had"
                )
            });
        }
        // Budgets, balances and recurring payments take few filters: a word left over
        // is what the message is about ("wedding budget checklist").
        if !explicit || matches!(kind, Kind::Budget | Kind::Balance | Kind::Recurring) {
            // What one asks of a budget — "did I stay within", "am I over", "how's it
            // looking" — is what the tool answers: those words are read, not left over.
            let about_budget = |u: &Unplaced| {
                kind == Kind::Budget
                    && matches!(
                        crate::text::normalize(&u.words).as_str(),
                        "stay"
                            | "va"
                            | "vont"
                            | "anywhere"
                            | "somewhere"
                            | "stayed"
                            | "within"
                            | "over"
                            | "under"
                            | "exceed"
                            | "exceeded"
                            | "respecte"
                            | "depasse"
                            | "left"
                            | "remaining"
                            | "restant"
                            | "reste"
                            | "looking"
                            | "look"
                            | "going"
                            | "doing"
                            | "track"
                            | "respecter"
                            | "depasser"
                    )
            };
            unrecognized.retain(|u| !about_budget(u));
            // "il me reste combien sur le livret A", "what's left on my current account":
            // the balance. (With spending, "what's left" may be a budget's: not read.)
            unrecognized.retain(|u| {
                !(kind == Kind::Balance
                    && matches!(
                        crate::text::normalize(&u.words).as_str(),
                        "left" | "remaining" | "restant" | "reste"
                    ))
            });
            // "est-ce que je dépasse un budget quelque part": anywhere ("à part" is not).
            let somewhere = tokens.windows(2).any(|w| w[0].norm == "quelque" && w[1].norm == "part");
            if somewhere && kind == Kind::Budget {
                unrecognized
                    .retain(|u| !matches!(crate::text::normalize(&u.words).as_str(), "quelque" | "part"));
            }
            unrecognized.iter_mut().for_each(|u| u.changes_meaning = true);
        }
        push_unrecognized(&mut reasons, &unrecognized, locale);
        // "combien j'ai épargné cette année": the net kept back, or the transfers to
        // savings — asked.
        if let (Some(said), Kind::CashFlow) = (&intent.saved, kind) {
            let net = crate::wording::kind_label(Kind::CashFlow, locale);
            let savings = locale.pick("virements vers l'épargne", "transfers to savings");
            reasons.push(Reason::new(
                ReasonCode::AmbiguousEntity,
                locale,
                &format!("« {said} » → {net}, {savings}"),
            ));
        }
        if intent.second_ask {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(", ")));
        }
        // "les achats Decathlon de cet été, c'est des loisirs", "these were groceries": a
        // category said of transactions is a change to make, not a filter to read.
        if let Some(words) = said_to_be(self, &tokens, message).or_else(|| pronoun_object(&tokens, message)) {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words));
        }
        // "top 3 restos": the first merchants of the one category named.
        let mut top = intent.top;
        let mut group_by = intent.group_by.unwrap_or_default();
        if let Some(n) = intent.top_of_name {
            let one_category = category.is_some() && merchant.is_none() && distinct(&categories) == 1;
            if one_category && group_by == crate::GroupBy::None && matches!(kind, Kind::Spending) {
                group_by = crate::GroupBy::Merchant;
                top = Some(n);
            } else if group_by != crate::GroupBy::None
                && top.is_none()
                && matches!(kind, Kind::Spending | Kind::Income)
            {
                // "by category, top 5 only".
                top = Some(n);
            } else {
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, "« top »"));
            }
        }
        // "pas les courses, juste les restos": a category is already apart from every
        // other; leaving one out of another changes nothing. Leaving out the one asked
        // about cannot be meant: asked.
        // "on the current account, not the Livret A": another account than the one asked
        // about is apart from it already.
        let excluded = super::names::but_other_accounts(self, excluded, account.as_deref());
        let left_out_already;
        let exclude = {
            let (c, m) = self.exclusions(&excluded, locale, &mut reasons);
            let same = |x: &Option<String>, y: &Option<String>| x.is_some() && x == y;
            if same(&c, &category) || same(&m, &merchant) {
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
            }
            // (Another merchant than the one asked about is apart from it already: "pas
            // Carrefour, Monoprix !" is Monoprix.) Nor are moves between accounts ever
            // spending or income: "hors épargne", "the internal transfers not included"
            // leave out what a summary never holds.
            let never_summed = |k: &String| {
                matches!(kind, Kind::Spending | Kind::Income) && self.vocab.category_is(k, "transfer")
            };
            left_out_already = c.as_ref().is_some_and(never_summed) && m.is_none();
            (c.filter(|k| category.is_none() && !never_summed(k)), m.filter(|_| merchant.is_none()))
        };
        // "combien j'ai gagné avec mes courses": money earned with a spending category
        // — the user's name for it, or another meaning of the word? Asked.
        if matches!(kind, Kind::Income)
            && category.as_ref().is_some_and(|k| !self.vocab.category_is(k, "income"))
            && intent.direction.is_none()
        {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
        }
        let mut call = call_for(
            kind,
            Slots {
                period,
                category,
                merchant,
                account,
                amount_min,
                amount_max,
                group_by,
                top,
                direction: intent.direction,
                exclude,
                average: intent.average_per.filter(|_| intent.average),
            },
        );
        // An average without its unit, or a rate said in one word: the user picks, once
        // nothing else is unread (else the question would run without it).
        let mut unit = None;
        if intent.average {
            let summary = matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_));
            if !summary {
                // "solde moyen", "average budget": no tool averages these.
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
            } else if intent.average_per.is_none() {
                unit = Some(ReasonCode::AverageUnit);
            }
            // "average of my top 3 categories": an average and a ranking are two asks.
            if top.is_some() {
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
            }
        } else if intent.rate_word
            && matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_))
        {
            unit = Some(ReasonCode::RateOrBreakdown);
        }
        let (ex_category, ex_merchant) = call.excluded();
        if !excluded.is_empty() && ex_category.is_none() && ex_merchant.is_none() && !left_out_already {
            // "mes budgets hors loyer": the tool cannot leave anything out.
            let words: Vec<String> = excluded.iter().map(|m| format!("« {} »", m.words)).collect();
            reasons.retain(|r| r.code != ReasonCode::Excluded);
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(", ")));
        }
        // "combien j'ai mis de côté sur le livret A": what was put aside is the transfers
        // to it, which cash flow leaves out by definition — asked, not guessed.
        // So is money moved to or from an account ("did I transfer to my savings
        // account"): a summary filtered on the account counts what left it.
        let put_aside = words.iter().any(|w| {
            let w = crate::text::normalize(w);
            matches!(w.as_str(), "mis de cote" | "put aside" | "epargne" | "saved" | "save" | "economise")
        });
        // Money put aside or moved to or from an account ("mis de côté sur le livret A",
        // "did I transfer to my savings account") is transfers, which cash flow leaves out
        // and an account's credits or debits mix with other lines: asked, not guessed.
        let moved = (matches!(call, ToolCall::CashFlow(_)) && put_aside) || intent.moved;
        if moved && call.account().is_some() {
            let detail = accounts.iter().map(|m| format!("« {} »", m.words)).collect::<Vec<_>>().join(", ");
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // "combien j'ai viré à Paul": money sent to someone, who may not be the shop of
        // that name — asked.
        if intent.moved && call.merchant().is_some() {
            let detail = merchants.iter().map(|m| format!("« {} »", m.words)).collect::<Vec<_>>().join(", ");
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // A name the tool has no filter for ("budget Carrefour", "solde des courses")
        // would be dropped: it stops the run.
        let dropped: Vec<String> = [
            (call_has(&call, EntityKind::Category), &categories),
            (call_has(&call, EntityKind::Merchant), &merchants),
            (call_has(&call, EntityKind::Account), &accounts),
        ]
        .into_iter()
        .filter(|(kept, matches)| !kept && !matches.is_empty())
        .flat_map(|(_, matches)| matches.iter().map(|m| format!("« {} »", m.words)))
        .collect();
        if !dropped.is_empty() {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &dropped.join(", ")));
        }
        // Amounts the tool cannot bound on ("set my budget to 300 €", "solde de 500 €").
        if amounts.is_some() && call.amounts() == (None, None) {
            reasons.retain(|r| r.code != ReasonCode::ExplicitAmount);
            let detail = amount::describe(amount_min, amount_max, locale);
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &detail));
        }
        // A breakdown the tool cannot make ("mes transactions par catégorie", "solde par
        // mois") would be dropped: it stops the run.
        let grouped = match &call {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.group_by,
            ToolCall::CashFlow(a) => a.group_by,
            _ => crate::GroupBy::None,
        };
        // ("mes prélèvements mensuels", "budget mensuel": how often, not a breakdown.)
        let how_often =
            matches!(kind, Kind::Recurring | Kind::Budget) && intent.group_by.is_some_and(|g| g.is_time());
        if intent.group_by.is_some_and(|g| g != grouped) && !how_often {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(" ")));
        }
        fn w(t: &crate::text::Token) -> &str {
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
        let so_far_unread = so_far_said && call.period().is_none_or(|p| p.end != cx.today.add_days(1));
        // A request people read two ways is asked ("show me my spending": the total, or
        // the lines?) — on the server; the browser shows its first reading.
        #[cfg(feature = "readings")]
        let two_ways = self.read_two_ways(&tokens, (&call, &intent), amounts.is_some(), &reasons, cx);
        #[cfg(not(feature = "readings"))]
        let two_ways = false;
        if two_ways || ago_unread || so_far_unread {
            reasons.push(Reason::new(ReasonCode::AmbiguousEntity, locale, &words.join(", ")));
        }
        if let ToolCall::ListTransactions(a) = &mut call {
            a.text = text;
            // "my deliveroo orders", "what did I buy", "mes dépenses de plus de 100 €":
            // money that went out.
            // "my last Airbnb payment": paid, unless received ("the last payment from ACME").
            // "my incoming payments", "the payments I got": money in — credits.
            let incoming = |j: usize| {
                matches!(tokens[j].norm.as_str(), "incoming" | "entrants" | "entrantes")
                    || (tokens[j].norm == "got" && j > 0 && matches!(tokens[j - 1].norm.as_str(), "i" | "we"))
            };
            if a.direction.is_none() && (0..tokens.len()).any(incoming) {
                a.direction = Some(crate::Direction::Credit);
            }
            // ("the EDF payments from 2025": "from" a date is the period.)
            let received = tokens.iter().enumerate().any(|(j, t)| {
                let dated = tokens.get(j + 1).is_some_and(|n| {
                    n.kind == crate::text::TokenKind::Number
                        || crate::period::is_time_word(n)
                        || matches!(n.norm.as_str(), "last" | "this")
                });
                (t.norm == "from" && !dated)
                    || matches!(
                        t.norm.as_str(),
                        "recu" | "recus" | "received" | "verse" | "versement" | "versements"
                    )
                    || incoming(j)
            });
            let paid = !received
                && tokens.iter().any(|t| {
                    matches!(
                        t.norm.as_str(),
                        "payment"
                            | "paiement"
                            | "payments"
                            | "paiements"
                            | "paye"
                            | "pay"
                            | "paid"
                            | "spent"
                            | "spending"
                            | "expenses"
                            | "depenses"
                            | "depense"
                            | "charges"
                            | "charged"
                            | "debited"
                            | "preleve"
                            | "prelevee"
                            | "preleves"
                            | "prelevees"
                    )
                });
            // ("my salary payments": an income category's lines, received.)
            let income_category = a.category.as_ref().is_some_and(|k| self.vocab.category_is(k, "income"));
            if a.direction.is_none() && (items || bought || paid) && !income_category {
                a.direction = Some(crate::Direction::Debit);
            }
            if intent.largest {
                a.order = crate::ListOrder::Largest;
                a.limit = intent.limit.unwrap_or(DEFAULT_LARGEST);
            } else if intent.latest {
                a.limit = intent.limit.unwrap_or(DEFAULT_LATEST);
            }
        }
        match unit {
            Some(code) if crate::reason::confidence_of(&reasons) != crate::Confidence::Low => {
                ParseOutcome::Clarification(match code {
                    ReasonCode::AverageUnit => self.average_per(call, locale, cx),
                    _ => self.rate_or_breakdown(call, locale, cx),
                })
            }
            Some(code) => {
                reasons.push(Reason::new(code, locale, ""));
                ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
            }
            None => ParseOutcome::Plan(plan(call, reasons, locale, cx.today)),
        }
    }
}
