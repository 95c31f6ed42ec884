//! Words that pass for nothing elsewhere (or read as something smaller) but ask for more
//! than the call made gives, read on the server (`readings`): each stops the run, and
//! the person picks. The browser's badge shows the call.

mod money;
mod when;

use super::{Filters, Question};
use crate::args::{Direction, GroupBy};
use crate::parser::intent::Kind;
use crate::parser::lexicon::is_spend_word;
use crate::reason::{Reason, ReasonCode};
use crate::tool::ToolCall;

impl Question<'_> {
    /// The words said that ask for more than `call` gives, each quoted: one reason.
    pub(super) fn said_more_than_call(&mut self, call: &ToolCall, f: &Filters) {
        let said = [
            self.part_of_the_whole(f),
            self.someone_named(f),
            self.total_and_lines(call),
            self.last_or_each(call),
            self.trend_or_count(call),
            self.detail_or_exceeded(call),
            self.automatic().filter(|_| !matches!(call, ToolCall::RecurringPayments(_))),
            self.credit_said_of_spending(call),
            self.not_the_past(call),
            self.had(call),
            self.moved_with_savings(call),
            self.someone(),
            self.where_or_each(call),
            self.checking_as_a_verb(call),
            self.withdrawn(call),
            self.on_track(),
            self.recurring_too_short(call),
            self.two_rankings(),
            self.period_said_around(),
            self.in_the_future(call),
            self.total_against_amount(call),
            self.year_or_amount(call),
            self.one_or_several(call),
            self.received_or_moved(call),
            self.times_of_year(call),
        ];
        let words: Vec<String> = said.into_iter().flatten().map(|w| format!("« {w} »")).collect();
        if !words.is_empty() {
            self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, self.locale, &words.join(", ")));
        }
    }

    fn w(&self, j: usize) -> &str {
        self.tokens.get(j).map_or("", |t| t.norm.as_str())
    }

    /// The first token among `words`.
    fn find(&self, words: &[&str]) -> Option<usize> {
        self.tokens.iter().position(|t| words.contains(&t.norm.as_str()))
    }

    /// The words of tokens `a..=b`, as typed.
    fn span(&self, a: usize, b: usize) -> String {
        let (Some(first), Some(last)) = (self.tokens.get(a), self.tokens.get(b)) else {
            return String::new();
        };
        self.message.get(first.start..last.end).unwrap_or_default().to_string()
    }

    /// Whether the text between tokens `j - 1` and `j` holds one of `marks`.
    fn gap_holds(&self, j: usize, marks: &[char]) -> bool {
        let (Some(a), Some(b)) = (j.checked_sub(1).and_then(|h| self.tokens.get(h)), self.tokens.get(j))
        else {
            return false;
        };
        self.message.get(a.end..b.start).is_some_and(|g| g.contains(marks))
    }

    fn summary_total(call: &ToolCall) -> bool {
        matches!(call, ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) if a.group_by == GroupBy::None)
    }

    /// "le détail de mes dépenses" (the lines, or a breakdown — not a total); "j'ai
    /// dépassé en courses ?" (over what: a budget?); "which categories exceeded €500"
    /// and "have I exceeded 300 on restaurants" (a total against it, not the payments
    /// above it).
    fn detail_or_exceeded(&self, call: &ToolCall) -> Option<String> {
        const DETAIL: [&str; 7] =
            ["detail", "details", "detailed", "detaille", "detaillee", "detailles", "detaillees"];
        const EXCEEDED: [&str; 7] =
            ["depasse", "depassee", "depasses", "depassent", "exceeded", "exceed", "exceeds"];
        if let Some(j) = self.find(&DETAIL).filter(|_| Self::summary_total(call)) {
            return Some(self.span(j, j));
        }
        // ("tout ce qui dépasse 1 000 €", "transactions that exceeded €500": the lines
        // above it. "have I exceeded 300", "j'ai dépassé 300": a total against it.)
        let j = self.find(&EXCEEDED).filter(|_| self.kind != Kind::Budget)?;
        let by_me = (j.saturating_sub(3)..j).any(|k| matches!(self.w(k), "i" | "we" | "j" | "je" | "ai"));
        let listed = self.kind == Kind::List && self.intent.group_by.is_none() && !by_me;
        let no_amount = call.amounts() == (None, None);
        (no_amount || !listed).then(|| self.span(j, j))
    }

    /// "mes paiements automatiques" (the direct debits, not every payment) — not
    /// "prélèvements automatiques", which say it.
    fn automatic(&self) -> Option<String> {
        (0..self.tokens.len()).find_map(|i| {
            let before = i.checked_sub(1).map_or("", |j| self.w(j));
            let debit =
                before.starts_with("prelevement") || before.starts_with("virement") || before == "debit";
            let next = self.w(i + 1);
            let named = ["debit", "prelevement", "virement", "transfer", "payment"]
                .iter()
                .any(|d| next.starts_with(d));
            (self.w(i).starts_with("automati") && !debit && !named).then(|| self.span(i, i))
        })
    }

    /// Money in read from a word that also says money out: "payé par carte de crédit",
    /// "remboursement du crédit", "j'ai remboursé Paul", "pay for the deposit", "entrées
    /// de cinéma".
    fn credit_said_of_spending(&self, call: &ToolCall) -> Option<String> {
        let direction = match call {
            ToolCall::ListTransactions(a) => a.direction,
            ToolCall::Activity(a) => a.direction,
            _ => None,
        };
        if direction != Some(Direction::Credit) {
            return None;
        }
        // (Money in said with a verb — "paid me", "me paye" — is no such word.)
        let money_in = |w: &str| {
            w.starts_with("rembours")
                || w.starts_with("refund")
                || w.starts_with("credit")
                || w.starts_with("deposit")
                || w.starts_with("depot")
                || w == "entrees"
        };
        let j = (0..self.tokens.len()).find(|&i| money_in(self.w(i)))?;
        // A word of spending, not left out ("les virements reçus, pas les dépenses").
        let negated =
            |i: usize| (i.saturating_sub(2)..i).any(|k| crate::parser::lexicon::is_negation_word(self.w(k)));
        if let Some(k) = (0..self.tokens.len()).find(|&i| is_spend_word(self.w(i)) && !negated(i)) {
            return Some(self.span(k, k));
        }
        let refund = self.w(j).starts_with("rembours") || self.w(j).starts_with("refund");
        let card = matches!(
            (self.w(j.saturating_sub(2)), self.w(j.saturating_sub(1))),
            ("carte", "de") | (_, "card")
        ) || self.w(j + 1) == "card";
        let loan = matches!(self.w(j + 1), "du" | "de" | "d" | "of")
            && matches!(self.w(j + 2), "credit" | "pret" | "emprunt" | "loan" | "mortgage" | "immo");
        // ("j'ai remboursé Paul", "I refunded him": the user paid back.)
        let by_me = (self.w(j.saturating_sub(1)) == "ai" && self.w(j.saturating_sub(2)) == "j")
            || self.w(j.saturating_sub(1)) == "i";
        let owed = matches!(self.w(j + 1), "immo" | "immobilier" | "auto" | "conso")
            || (refund && (matches!(self.w(j + 1), "a" | "to") || by_me));
        (card || loan || owed).then(|| self.span(j, j))
    }

    /// A future or a possibility ("combien je dépenserai en décembre", "how much am I
    /// going to spend", "how much can I spend on restaurants"): no past to sum — and a
    /// month named is read as the last one.
    fn not_the_past(&self, call: &ToolCall) -> Option<String> {
        if matches!(call, ToolCall::BudgetStatus(_)) {
            return None;
        }
        let verb = |w: &str| {
            w.len() > 3
                && (w.ends_with("er") || w.ends_with("ir") || w.ends_with("re"))
                && !w.ends_with("ere")
        };
        (0..self.tokens.len()).find_map(|i| {
            let (w, next, after) = (self.w(i), self.w(i + 1), self.w(i + 2));
            let future = match w {
                "will" | "ll" | "shall" => next != "you",
                "gonna" | "afford" => true,
                // ("am I going to spend" — not "have I been going to Basic-Fit".)
                "going" => {
                    next == "to"
                        && (is_spend_word(after)
                            || matches!(after, "be" | "earn" | "get" | "make" | "need" | "have" | "receive"))
                }
                "vais" | "va" | "vont" | "allons" | "allez" => verb(next),
                "can" | "could" | "peux" | "peut" | "pourrai" | "pourrais" => {
                    [next, after].iter().any(|v| is_spend_word(v) || v.starts_with("afford"))
                }
                _ => {
                    const STEMS: [&str; 8] =
                        ["depenser", "payer", "paier", "toucher", "gagner", "couter", "economiser", "recevr"];
                    const ENDS: [&str; 6] = ["ai", "as", "a", "ons", "ez", "ont"];
                    STEMS.iter().any(|s| w.strip_prefix(s).is_some_and(|rest| ENDS.contains(&rest)))
                }
            };
            future.then(|| self.span(i, i))
        })
    }

    /// "combien j'avais le 1er octobre", "how much money did I have": what one had is a
    /// balance, not what was spent.
    fn had(&self, call: &ToolCall) -> Option<String> {
        let summary = matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_));
        if !summary || self.explicit {
            return None;
        }
        // ("how much was in my account": which account, and at what date?)
        let account =
            call.account().is_none().then(|| self.find(&["account", "compte", "acct", "acc"])).flatten();
        // ("how much do I need for December": a plan, not a past.)
        let need = (2..self.tokens.len()).find(|&i| {
            self.w(i) == "need"
                && matches!(self.w(i - 1), "i" | "we")
                && matches!(self.w(i - 2), "do" | "will" | "would")
        });
        self.find(&["had", "have", "avais", "avait", "avions", "aviez", "possede", "possedais"])
            .or(account)
            .or(need)
            .map(|j| self.span(j, j))
    }

    /// Money moved to or from a savings account ("how much went to the livret", "combien
    /// j'ai retiré de mon livret A", "combien est allé sur le livret"): transfers, which a
    /// summary leaves out and a balance does not show.
    fn moved_with_savings(&self, call: &ToolCall) -> Option<String> {
        let savings = call.account().is_some_and(|k| {
            self.parser.vocab.accounts.iter().any(|t| t.key == k && t.kind.as_deref() == Some("savings"))
        });
        let summary = matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_));
        const MOVED: [&str; 24] = [
            "received",
            "recu",
            "recus",
            "recue",
            "alle",
            "allee",
            "went",
            "gone",
            "came",
            "put",
            "mis",
            "verse",
            "vire",
            "transferred",
            "moved",
            "sent",
            "envoye",
            "retire",
            "withdrew",
            "withdraw",
            "took",
            "taken",
            "credited",
            "touche",
        ];
        let balance = matches!(call, ToolCall::Balances(_));
        let moved = self.find(&MOVED);
        match moved {
            Some(j) if savings && (summary || balance) => Some(self.span(j, j)),
            _ => None,
        }
    }

    /// Someone, not the user nor a shop: "how much did my son spend", "mon frero",
    /// "the lads", "in the US".
    fn someone(&self) -> Option<String> {
        const PEOPLE: [&str; 13] = [
            "son", "bro", "frero", "mate", "mates", "lads", "kid", "kids", "gamin", "gamins", "gosse",
            "gosses", "fils",
        ];
        let owner =
            |w: &str| matches!(w, "my" | "mon" | "ma" | "our" | "notre" | "his" | "her" | "your" | "the");
        let person = (1..self.tokens.len()).find(|&i| PEOPLE.contains(&self.w(i)) && owner(self.w(i - 1)));
        if let Some(i) = person {
            return Some(self.span(i - 1, i));
        }
        if let Some(i) = (1..self.tokens.len()).find(|&i| self.w(i) == "us" && self.w(i - 1) == "the") {
            return Some(self.span(i - 1, i));
        }
        None
    }

    /// A breakdown or the lines asked of a total: "where did I spend", "sur quoi",
    /// "chez qui", "qui m'a payé", "what did my money go on", "une par une", "one by one".
    fn where_or_each(&self, call: &ToolCall) -> Option<String> {
        if !Self::summary_total(call) {
            return None;
        }
        if let Some(j) = self.find(&["where"]) {
            return Some(self.span(j, j));
        }
        if self.message.contains("où") || self.message.contains("Où") {
            return Some("où".to_string());
        }
        (0..self.tokens.len()).find_map(|i| {
            let (w, next, after) = (self.w(i), self.w(i + 1), self.w(i + 2));
            let pair = match (w, next) {
                ("sur" | "en" | "on", "quoi" | "what") => true,
                ("chez" | "a" | "to", "qui" | "whom") => true,
                // ("qui m'a payé" asked — not "les abonnements qui m'ont été prélevés".)
                ("qui", "m" | "nous" | "ma") => {
                    i == 0 || matches!(self.w(i - 1), "et" | "and" | "but" | "mais")
                }
                ("who", "paid" | "pays" | "sent" | "gave") => true,
                // ("what did my money go on" — not "how much went on bills".)
                ("go" | "went" | "gone", "on") => call.category().is_none() && call.merchant().is_none(),
                ("une" | "un" | "one" | "ligne" | "line", "par" | "by") => {
                    matches!(after, "une" | "un" | "one" | "ligne" | "line")
                }
                _ => false,
            };
            pair.then(|| self.span(i, i + 1))
        })
    }

    /// "just checking how much I spent", "checking my restaurant spending": the verb,
    /// not the checking account.
    fn checking_as_a_verb(&self, call: &ToolCall) -> Option<String> {
        call.account()?;
        (0..self.tokens.len()).find_map(|i| {
            let (before, next) = (i.checked_sub(1).map_or("", |j| self.w(j)), self.w(i + 1));
            let verb = matches!(
                next,
                "my" | "how"
                    | "what"
                    | "if"
                    | "whether"
                    | "the"
                    | "on"
                    | "in"
                    | "for"
                    | "out"
                    | "up"
                    | "that"
            ) || matches!(
                before,
                "just" | "im" | "am" | "was" | "been" | "m" | "still" | "currently" | "keep"
            );
            // ("in my checking on Sept 1st", "on checking": the account.)
            let account = matches!(before, "my" | "the" | "your" | "on" | "in" | "from" | "to" | "our");
            (self.w(i) == "checking" && verb && !account).then(|| self.span(i, i))
        })
    }

    /// "combien j'ai retiré en octobre", "how much did I withdraw": cash taken out, or
    /// money moved — not all spending.
    fn withdrawn(&self, call: &ToolCall) -> Option<String> {
        let cash = call.category().is_some_and(|k| k == "cash" || self.parser.vocab.category_is(k, "cash"));
        // ("how much did the MAIF take out": its direct debits.)
        if cash
            || call.merchant().is_some()
            || !matches!(call, ToolCall::SpendingSummary(_) | ToolCall::ListTransactions(_))
        {
            return None;
        }
        let j = self.find(&["retire", "retiree", "retires", "withdrew", "withdrawn", "withdraw"]).or_else(
            || {
                (0..self.tokens.len())
                    .find(|&i| matches!((self.w(i), self.w(i + 1)), ("took" | "taken" | "take", "out")))
            },
        )?;
        Some(self.span(j, j))
    }

    /// "am I on track this month": against a budget, or a pace?
    fn on_track(&self) -> Option<String> {
        if self.kind == Kind::Budget {
            return None;
        }
        (0..self.tokens.len())
            .find(|&i| self.w(i) == "on" && self.w(i + 1) == "track")
            .map(|i| self.span(i, i + 1))
    }

    /// "mes prélèvements ce mois", "direct debits in October": payments that repeat
    /// are found over months — over one, next to none would show. The debits of that
    /// month, or the recurring payments seen over a year? Asked.
    fn recurring_too_short(&self, call: &ToolCall) -> Option<String> {
        let ToolCall::RecurringPayments(a) = call else { return None };
        let days = a.period.end.to_days() - a.period.start.to_days();
        (days < 85).then(|| {
            if a.period.words.is_empty() {
                a.period.label.clone()
            } else {
                a.period.words.clone()
            }
        })
    }

    /// Two rankings asked apart ("top 3 categories and top 3 merchants", "my biggest
    /// purchase, and the month I spent the most", "mes 3 plus grosses catégories et mes 3
    /// plus gros marchands"): one plan answers one. The second, quoted.
    fn two_rankings(&self) -> Option<String> {
        const HEADS: [&str; 10] = [
            "top", "biggest", "largest", "highest", "lowest", "smallest", "least", "cheapest", "priciest",
            "most",
        ];
        const FR: [&str; 18] = [
            "gros",
            "grosse",
            "grosses",
            "cher",
            "chers",
            "chere",
            "cheres",
            "petit",
            "petits",
            "petite",
            "petites",
            "eleve",
            "elevee",
            "eleves",
            "elevees",
            "important",
            "importants",
            "importantes",
        ];
        let head = |i: usize| {
            let (w, before, next) = (self.w(i), i.checked_sub(1).map_or("", |j| self.w(j)), self.w(i + 1));
            match w {
                // ("at most 50", "the most recent", "most of it": no ranking.)
                "most" => before != "at" && !matches!(next, "recent" | "of" | "likely" | "probably"),
                "least" => before != "at",
                "plus" | "moins" => FR.contains(&next) || matches!(before, "le" | "la" | "les"),
                w => HEADS.contains(&w),
            }
        };
        let heads: Vec<usize> = (0..self.tokens.len()).filter(|&i| head(i)).collect();
        // (Heads close together are one ranking: "top 5 biggest", "the top 3 most"; and
        // one said again is the same — "top 5 des magasins où je dépense le plus", "la
        // plus grosse dépense ? La plus grosse": only "and", "et", "also"… join two.)
        let (first, last) = (*heads.first()?, *heads.last()?);
        let joined = (first + 1..last)
            .any(|j| matches!(self.w(j), "and" | "et" | "also" | "aussi" | "puis" | "then" | "ainsi"));
        (last > first + 3 && joined).then(|| self.span(last, last))
    }

    /// A name said after the whole was asked ("how much did I spend in October and on
    /// restaurants", "combien en octobre ? et pour les restos ?", "spending october.
    /// restaurants?"): the whole and the part, two figures — one plan filtered on the
    /// name drops the whole. And "par resto", "by supermarket", "by payee": a breakdown
    /// by merchant said with the category's own word, which would filter again. Asked.
    fn part_of_the_whole(&self, f: &Filters) -> Option<String> {
        let whole = format!(" {} ", crate::text::normalize(self.message));
        const JOIN: [&str; 6] = ["and", "et", "also", "aussi", "of which", "dont"];
        const PREP: [&str; 11] =
            ["", "on ", "en ", "chez ", "at ", "from ", "pour ", "for ", "in ", "sur ", "de "];
        const DET: [&str; 9] = ["", "le ", "la ", "les ", "l ", "the ", "my ", "mes ", "mon "];
        let names: Vec<&crate::parser::entities::EntityMatch> =
            f.categories.iter().chain(&f.merchants).collect();
        let first = |c: &&crate::parser::entities::EntityMatch| {
            let at = whole.find(&crate::text::normalize(&c.words));
            names.iter().all(|o| o.words == c.words || whole.find(&crate::text::normalize(&o.words)) > at)
        };
        // (The whole asked before the join: not "et EDF, ça me coûte combien".)
        let asked_before = |at: usize| {
            let head = whole.get(..at).unwrap_or("");
            [" how much ", " combien ", " cb ", " cmb ", " spent ", " spend ", " depense ", " total "]
                .iter()
                .any(|h| head.contains(h))
        };
        for c in names.iter().filter(|c| first(c)) {
            let said = crate::text::normalize(&c.words);
            let joined = JOIN.iter().any(|j| {
                PREP.iter().any(|p| {
                    DET.iter().any(|d| whole.find(&format!(" {j} {p}{d}{said} ")).is_some_and(asked_before))
                })
            });
            // ("par resto", "by restaurant": a category's word; "paid by Acme" is a name.)
            let category = f.categories.iter().any(|o| o.words == c.words);
            let by =
                category && ["par", "by", "per"].iter().any(|b| whole.contains(&format!(" {b} {said} ")));
            if joined || by {
                return Some(c.words.clone());
            }
        }
        (0..self.tokens.len())
            .find(|&i| matches!(self.w(i), "by" | "per") && matches!(self.w(i + 1), "payee" | "payees"))
            .map(|i| self.span(i, i + 1))
    }

    /// A total and the lines or the names asked together ("how much on Amazon in
    /// October and show me the purchases", "combien en resto en octobre, et lesquels ?"):
    /// the total alone drops the rest. (Not "show me how much": one ask.)
    fn total_and_lines(&self, call: &ToolCall) -> Option<String> {
        if !Self::summary_total(call) {
            return None;
        }
        const LINES: [&str; 10] = [
            "show",
            "montre",
            "montrez",
            "montrer",
            "list",
            "liste",
            "lister",
            "lesquels",
            "lesquelles",
            "ones",
        ];
        let total = (0..self.tokens.len()).find(|&i| {
            matches!((self.w(i), self.w(i + 1)), ("how", "much") | ("combien", _) | ("cb" | "cmb", _))
        })?;
        let lines =
            (0..self.tokens.len()).find(|&i| LINES.contains(&self.w(i)) && (i > total || i + 3 < total))?;
        Some(self.span(lines, lines))
    }

    /// The latest lines asked as a total ("my last expenses this month", "mes dernières
    /// dépenses", "mon dernier prélèvement"), or each line ("show each purchase at Lidl",
    /// "chaque achat chez Lidl") as an average or a total.
    fn last_or_each(&self, call: &ToolCall) -> Option<String> {
        let spend_noun = |w: &str| {
            matches!(
                w,
                "expense"
                    | "expenses"
                    | "depense"
                    | "depenses"
                    | "spending"
                    | "prelevement"
                    | "prelevements"
                    | "debit"
            )
        };
        let item = |w: &str| {
            matches!(
                w,
                "purchase"
                    | "purchases"
                    | "achat"
                    | "achats"
                    | "transaction"
                    | "transactions"
                    | "payment"
                    | "paiement"
                    | "depense"
                    | "expense"
            )
        };
        let total_or_recurring = Self::summary_total(call) || matches!(call, ToolCall::RecurringPayments(_));
        let averaged = matches!(call, ToolCall::SpendingSummary(a) if a.average.is_some());
        let averages =
            self.find(&["average", "moyenne", "moyen", "typical", "avg", "usually", "normally"]).is_some();
        (0..self.tokens.len()).find_map(|i| {
            let (w, next) = (self.w(i), self.w(i + 1));
            let last = matches!(
                w,
                "last" | "latest" | "recent" | "derniere" | "dernieres" | "dernier" | "derniers" | "recentes"
            ) && spend_noun(next)
                && total_or_recurring;
            let each = matches!(w, "each" | "chaque" | "chacun" | "chacune")
                && item(next)
                && (Self::summary_total(call) || averaged)
                && !averages;
            (last || each).then(|| self.span(i, i + 1))
        })
    }

    /// A trend asked of a total ("is my spending going up", "mes factures augmentent"),
    /// or a count of something no plan counts ("average number of transactions per
    /// month", "how many times did I go over budget").
    fn trend_or_count(&self, call: &ToolCall) -> Option<String> {
        let trend = (0..self.tokens.len()).find(|&i| {
            matches!((self.w(i), self.w(i + 1)), ("going", "up" | "down") | ("en", "hausse" | "baisse"))
                || matches!(
                    self.w(i),
                    "augmente"
                        | "augmentent"
                        | "increasing"
                        | "rising"
                        | "climbing"
                        | "baissent"
                        | "decreasing"
                )
        });
        if let Some(i) =
            trend.filter(|_| Self::summary_total(call) || matches!(call, ToolCall::RecurringPayments(_)))
        {
            return Some(self.span(i, i));
        }
        let number = self.find(&["number", "nombre"]);
        let averaged =
            matches!(call, ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) if a.average.is_some());
        if let Some(i) = number.filter(|_| averaged) {
            return Some(self.span(i, i));
        }
        let times = (0..self.tokens.len()).find_map(|i| match (self.w(i), self.w(i + 1)) {
            ("many", "times") | ("de", "fois") => Some(self.span(i, i + 1)),
            ("often", _) => Some(self.span(i, i)),
            _ => None,
        });
        times.filter(|_| matches!(call, ToolCall::BudgetStatus(_)))
    }

    /// A shop or category whose other name is a first name, said as a person ("combien
    /// ai-je versé à Paul", "Paul m'a donné", "Bill pays me"): the person, or the name?
    /// Asked.
    fn someone_named(&self, f: &Filters) -> Option<String> {
        const FIRST_NAMES: [&str; 41] = [
            "paul", "pierre", "jean", "louis", "marie", "julie", "sophie", "lea", "emma", "hugo", "lucas",
            "thomas", "nicolas", "camille", "manon", "chloe", "sarah", "laura", "marc", "michel", "eric",
            "david", "daniel", "martin", "anne", "claire", "alice", "lucie", "leo", "jules", "adam", "nina",
            "tom", "max", "sam", "ben", "jack", "john", "mike", "luigi", "bill",
        ];
        const LEADS: [&str; 14] = [
            "a", "to", "pour", "for", "avec", "with", "give", "gave", "paid", "sent", "lent", "owe", "de",
            "d",
        ];
        // ("Paul m'a donné", "Bill pays me", "Zara sends me money".)
        const FOLLOWS: [&str; 13] = [
            "m",
            "me",
            "gave",
            "give",
            "pay",
            "pays",
            "paie",
            "send",
            "sent",
            "sends",
            "owes",
            "lent",
            "rembourse",
        ];
        let whole = format!(" {} ", crate::text::normalize(self.message));
        f.merchants.iter().chain(f.categories.iter()).find_map(|m| {
            let said = crate::text::normalize(&m.words);
            let person = FIRST_NAMES.contains(&said.as_str())
                && (LEADS.iter().any(|l| whole.contains(&format!(" {l} {said} ")))
                    || FOLLOWS.iter().any(|l| whole.contains(&format!(" {said} {l} "))));
            person.then(|| m.words.clone())
        })
    }
}
