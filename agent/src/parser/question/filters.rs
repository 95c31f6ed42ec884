//! The names, amounts and text a new question filters on: a category said of a
//! merchant, the one name of each kind picked, the amounts and the text read, and what
//! is left out.

use super::{Filters, LeftOut, Picked, Question};
use crate::amount;
use crate::parser::entities::EntityMatch;
use crate::parser::intent::Kind;
use crate::parser::names::{account_by_kind, apart, but_other_accounts, joined, other_currency};
use crate::parser::Parser;
use crate::reason::{Reason, ReasonCode};
use crate::vocab::EntityKind;

/// Whether the message says `a` and `b` side by side, or joined by words that say who
/// was paid or where ("les loyers payés à Foncia", "cinéma UGC").
fn said_beside(message: &str, a: &str, b: &str) -> bool {
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
        // "EDF for electricity", "EDF pour l'électricité".
        "for ",
        "pour ",
        "pour l ",
    ];
    joins.iter().any(|j| whole.contains(&format!("{a} {j}{b}")) || whole.contains(&format!("{b} {j}{a}")))
}

/// Whether the category matched is one of moves between accounts.
fn is_transfer(p: &Parser, c: &EntityMatch) -> bool {
    c.ids.first().and_then(|id| p.vocab.term(*id)).is_some_and(|t| t.kind.as_deref() == Some("transfer"))
}

impl Question<'_> {
    /// A category named with a merchant: what the merchant sells (the merchant alone),
    /// another ask, or a guess — the categories kept to filter on.
    pub(super) fn category_beside_merchant(&mut self, f: &mut Filters) {
        let (parser, message, locale) = (self.parser, self.message, self.locale);
        // "ma facture EDF", "billets SNCF", "cinéma UGC": a category's word right beside
        // a merchant's name says what the merchant sells — the merchant alone.
        // ("les loyers payés à Foncia", "the rent paid to Foncia": with what joins them.)
        // ("combien de loyer j'ai payé à Foncia": the words between say who was paid.)
        // ("resto + uber ce mois": side by side once "+" is gone, but joined.)
        let beside =
            |a: &str, b: &str| said_beside(message, a, b) && !crate::parser::names::signed(message, a, b);
        let transfer = |c: &EntityMatch| is_transfer(parser, c);
        let categories = std::mem::take(&mut f.categories);
        let merchants = &f.merchants;
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
        let reasons = &mut self.reasons;
        f.categories = match (categories.as_slice(), named) {
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
                    crate::locale::Locale::Fr => format!("« {} », dit de {}", c.words, m.words),
                    crate::locale::Locale::En => format!("« {} », said of {}", c.words, m.words),
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
    }

    /// The category, merchant and account to filter on, with the reasons their names
    /// give (read two ways, in another currency, an account by its kind).
    pub(super) fn pick_names(&mut self, f: &Filters) -> Picked {
        let (message, locale, tokens) = (self.message, self.locale, self.tokens);
        // A name read two ways ("chez metro", "les sorties sur le compte"): asked, on the
        // server.
        #[cfg(feature = "readings")]
        if let Some(detail) = Parser::name_two_ways(&f.categories, message) {
            self.reasons.push(Reason::new(ReasonCode::AmbiguousEntity, locale, &detail));
        }
        let category =
            self.parser.finder().pick(&f.categories, locale, &mut self.reasons, EntityKind::Category);
        let merchant =
            self.parser.finder().pick(&f.merchants, locale, &mut self.reasons, EntityKind::Merchant);
        let account = self.parser.finder().pick(&f.accounts, locale, &mut self.reasons, EntityKind::Account);
        let ledger = self.parser.vocabulary().currency.unwrap_or(crate::money::Currency::EUR);
        self.reasons.extend(other_currency(tokens, message, f.amounts.as_ref(), ledger, locale));
        self.reasons.extend(account_by_kind(tokens, message, &f.accounts, locale));
        Picked { category, merchant, account }
    }

    /// The reasons the amounts and the label text give: said of a verb (a total, or the
    /// payments above it?), the bounds, a currency not the ledger's, the text searched.
    pub(super) fn amount_and_text_reasons(&mut self, f: &Filters) {
        let (kind, locale, tokens) = (self.kind, self.locale, self.tokens);
        let currency = self.parser.vocab.currency.unwrap_or(crate::money::Currency::EUR);
        let (amount_min, amount_max) = f.bounds();
        // "j'ai claqué plus de nonante euros chez Deliveroo ?", "did I spend over €200 on
        // food?": the total against an amount, or the payments above it? Asked.
        if let Some(a) = f.amounts.as_ref().filter(|_| matches!(kind, Kind::Spending | Kind::Income)) {
            let verb = a.first.checked_sub(1).and_then(|j| tokens.get(j)).is_some_and(|t| {
                crate::parser::lexicon::is_spend_word(&t.norm)
                    || crate::parser::lexicon::is_income_word(&t.norm)
            });
            if verb {
                let said = amount::describe(a.min, a.max, locale);
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &format!("« {said} »")));
            }
        }
        if f.amounts.is_some() {
            self.reasons.push(Reason::new(
                ReasonCode::ExplicitAmount,
                locale,
                &amount::describe(amount_min, amount_max, locale),
            ));
            let foreign = [amount_min, amount_max].into_iter().flatten().find(|m| m.currency != currency);
            if let Some(m) = foreign {
                let detail = format!("{} ≠ {}", m.currency.as_str(), currency.as_str());
                self.reasons.push(Reason::new(ReasonCode::ForeignCurrency, locale, &detail));
            }
        }
        if let Some(t) = &f.text {
            self.reasons.push(Reason::new(ReasonCode::ExplicitText, locale, &format!("« {t} »")));
        }
    }

    /// A category's name said of the bank ("bank charges", "frais bancaires" are its fees,
    /// not a home's charges): another thing than the category — asked.
    pub(super) fn said_of_the_bank(&mut self, f: &Filters) {
        let whole = crate::text::normalize(self.message);
        let of_bank = f.categories.iter().filter(|c| {
            let words = crate::text::normalize(&c.words);
            ["bank ", "banking ", "banque "].iter().any(|b| whole.contains(&format!("{b}{words}")))
                || ["bancaire", "bancaires"].iter().any(|b| whole.contains(&format!("{words} {b}")))
        });
        let detail = of_bank.map(|c| format!("« {} »", c.words)).collect::<Vec<_>>().join(", ");
        if !detail.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::AmbiguousEntity, self.locale, &detail));
        }
    }

    /// Everyday words the vocabulary also names a category by, said in their everyday
    /// sense, or in both: "mes charges", "total charges this month" (a home's charges, or
    /// all one's costs?) unless the home is said ("charges locatives", "loyer et
    /// charges", "service charges"); "I'm home now", "back home" (a place, not Housing);
    /// "the summer holidays" (a time of year, not only Travel).
    /// Asked, on the server (`readings`): the browser's badge shows the vocabulary's.
    #[cfg(feature = "readings")]
    pub(super) fn everyday_words(&mut self, f: &Filters) {
        let whole = crate::text::normalize(self.message);
        let said = |c: &EntityMatch| crate::text::normalize(&c.words);
        let charges = |c: &EntityMatch| matches!(said(c).as_str(), "charges" | "charge");
        let of_home =
            ["locatives", "de copro", "de la copro", "du logement", "de l appartement", "comprises"]
                .iter()
                .any(|q| whole.contains(&format!("charges {q}")));
        // ("bank charges" are asked already, as the bank's.)
        let of_something = ["service", "housing", "building", "bank", "banking"]
            .iter()
            .any(|q| whole.contains(&format!("{q} charges")));
        // ("loyer et charges": the home's, said with its other name.)
        let with_home = |c: &EntityMatch| f.categories.iter().any(|o| o.ids == c.ids && !charges(o));
        let a_place = |c: &EntityMatch| {
            said(c) == "home"
                && [
                    "im home",
                    "i m home",
                    "am home",
                    "at home",
                    "back home",
                    "got home",
                    "get home",
                    "go home",
                    "going home",
                    "went home",
                    "come home",
                    "came home",
                    "coming home",
                    "from home",
                    "work from home",
                ]
                .iter()
                .any(|p| whole.contains(p))
        };
        // "over the summer holidays", "pendant les vacances de Noël": a time of year (which
        // dates?) as much as travel.
        let a_time = |c: &EntityMatch| {
            matches!(said(c).as_str(), "holidays" | "holiday" | "vacances" | "vacation" | "vacations")
                && [
                    "summer",
                    "christmas",
                    "easter",
                    "school",
                    "winter",
                    "d ete",
                    "de noel",
                    "de paques",
                    "scolaires",
                    "de la toussaint",
                    "d hiver",
                    "de fevrier",
                    "de printemps",
                ]
                .iter()
                .any(|t| {
                    whole.contains(&format!("{t} {}", said(c))) || whole.contains(&format!("{} {t}", said(c)))
                })
        };
        let everyday = f.categories.iter().filter(|c| {
            // ("total des sorties": outings, or money out?)
            let outings = matches!(said(c).as_str(), "sorties" | "sortie")
                && ["total des sorties", "total sorties", "sorties totales"]
                    .iter()
                    .any(|p| whole.contains(p));
            (charges(c) && !of_home && !of_something && !with_home(c)) || a_place(c) || a_time(c) || outings
        });
        let detail = everyday.map(|c| format!("« {} »", c.words)).collect::<Vec<_>>().join(", ");
        if !detail.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::AmbiguousEntity, self.locale, &detail));
        }
    }

    /// A name given as an example ("clothes (Zara and the like)", "stores like Zara",
    /// "genre Deliveroo", "Uber etc."): the kind of thing meant, not that name alone —
    /// filtering on it answers something else. Asked, on the server (`readings`).
    #[cfg(feature = "readings")]
    pub(super) fn named_as_example(&mut self, f: &Filters) {
        let whole = format!(" {} ", crate::text::normalize(self.message));
        let example = |c: &EntityMatch| {
            crate::parser::examples::said_as_example(self.tokens, &crate::text::normalize(&c.words))
        };
        // "combien en octobre avec le loyer", "même le loyer", "on top of rent": the rest
        // with it, or it alone? (A shop "with" a category may be where, or one of them.)
        const WITH: [&str; 8] =
            ["with", "avec", "meme", "even", "on top of", "en plus de", "en plus du", "en plus des"];
        const DET: [&str; 12] =
            ["", "le ", "la ", "les ", "l ", "the ", "my ", "mon ", "ma ", "mes ", "du ", "des "];
        let with = |c: &EntityMatch| {
            let said = crate::text::normalize(&c.words);
            let beside = f
                .categories
                .iter()
                .any(|o| f.merchants.iter().any(|m| m.words == c.words) && o.words != c.words);
            let category = f.categories.iter().any(|o| o.words == c.words);
            // ("how much I spent with restaurants": where. "Where am I with the grocery
            // budget": a budget's.)
            let at = |b: &str| {
                let spent = ["spent", "spend", "depense", "paid", "paye"]
                    .iter()
                    .any(|v| DET.iter().any(|d| whole.contains(&format!(" {v} {b} {d}{said} "))));
                matches!(b, "with" | "avec") && (spent || self.kind == Kind::Budget)
            };
            (category || beside)
                && WITH
                    .iter()
                    .any(|b| !at(b) && DET.iter().any(|d| whole.contains(&format!(" {b} {d}{said} "))))
        };
        let named = f.merchants.iter().chain(&f.categories).filter(|c| example(c) || with(c));
        let detail = named.map(|c| format!("« {} »", c.words)).collect::<Vec<_>>().join(", ");
        if !detail.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, self.locale, &detail));
        }
    }

    /// A name left out in one sentence and another named in the next ("Combien cette
    /// année sans le loyer. Et les paiements à EDF ?"): two asks, or one filter inside the
    /// other? Asked (on the server: `asides`).
    #[cfg(feature = "asides")]
    pub(super) fn left_out_in_another_sentence(&mut self, excluded: &[EntityMatch], f: &Filters) {
        let message = self.message;
        // (The name left out first, the other in a later sentence — not "excl. amazon".)
        let sentence_between = |left_out: &str, named: &str| {
            message.find(left_out) < message.find(named)
                && crate::parser::names::between(message, left_out, named)
                    .is_some_and(|gap| gap.contains(['.', '?', '!', ';']))
        };
        let named = f.categories.iter().chain(&f.merchants);
        let apart: Vec<String> = named
            .filter(|n| excluded.iter().any(|e| sentence_between(&e.words, &n.words)))
            .map(|n| format!("« {} »", n.words))
            .collect();
        if !apart.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, self.locale, &apart.join(", ")));
        }
    }

    /// Names that may say where to file transactions rather than which to show: asked.
    #[cfg(feature = "readings")]
    pub(super) fn filed_or_shown(&mut self, f: &Filters, picked: &Picked) {
        // "transferts internes : tout VIR LCL", "decathlon en loisirs depuis janvier":
        // show them, or file them there? Asked, on the server.
        let only_filters = self.reasons.iter().any(|r| r.code == ReasonCode::FiltersOnly);
        let named = picked.category.is_some() && (f.text.is_some() || picked.merchant.is_some());
        if only_filters && named && Parser::filed_or_shown(&f.categories, self.message, f.text.is_some()) {
            let detail =
                f.categories.iter().map(|c| format!("« {} »", c.words)).collect::<Vec<_>>().join(", ");
            self.reasons.push(Reason::new(ReasonCode::AmbiguousEntity, self.locale, &detail));
        }
    }

    /// What the message leaves out that the call can leave out too, and the category
    /// and the merchant it leaves out.
    pub(super) fn leave_out(
        &mut self,
        excluded: Vec<EntityMatch>,
        picked: &Picked,
    ) -> (LeftOut, (Option<String>, Option<String>)) {
        let (parser, kind, locale) = (self.parser, self.kind, self.locale);
        let Picked { category, merchant, account } = picked;
        // "pas les courses, juste les restos": a category is already apart from every
        // other; leaving one out of another changes nothing. Leaving out the one asked
        // about cannot be meant: asked.
        // "on the current account, not the Livret A": another account than the one asked
        // about is apart from it already.
        let excluded = but_other_accounts(parser, excluded, account.as_deref());
        let left_out_already;
        let exclude = {
            let (c, m) = parser.exclusions(&excluded, locale, &mut self.reasons);
            let same = |x: &Option<String>, y: &Option<String>| x.is_some() && x == y;
            if same(&c, category) || same(&m, merchant) {
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &self.words.join(" ")));
            }
            // (Another merchant than the one asked about is apart from it already: "pas
            // Carrefour, Monoprix !" is Monoprix.) Nor are moves between accounts ever
            // spending or income: "hors épargne", "the internal transfers not included"
            // leave out what a summary never holds.
            let never_summed = |k: &String| {
                matches!(kind, Kind::Spending | Kind::Income) && parser.vocab.category_is(k, "transfer")
            };
            left_out_already = c.as_ref().is_some_and(never_summed) && m.is_none();
            (c.filter(|k| category.is_none() && !never_summed(k)), m.filter(|_| merchant.is_none()))
        };
        (LeftOut { names: excluded, already: left_out_already }, exclude)
    }

    /// Income asked of a category that is not an income's: unplaced.
    pub(super) fn earned_with_spending_category(&mut self, picked: &Picked) {
        // "combien j'ai gagné avec mes courses": money earned with a spending category
        // — the user's name for it, or another meaning of the word? Asked.
        if matches!(self.kind, Kind::Income)
            && picked.category.as_ref().is_some_and(|k| !self.parser.vocab.category_is(k, "income"))
            && self.intent.direction.is_none()
        {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, self.locale, &self.words.join(" ")));
        }
    }
}
