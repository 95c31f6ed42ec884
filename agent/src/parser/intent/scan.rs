//! The words of a message, one by one: which ask for what (spending, income, a list, a
//! balance…), how (a breakdown, a ranking, an average), and which side of the ledger.
//! What they say together is read after, in `read`.

use super::words::side_turned_down;
use super::{Asked, Intent};
use crate::args::{AveragePer, Direction};
use crate::parser::lexicon::{
    cash_flow_phrase, direction_words, income_phrase, is_advice, is_average_word, is_card,
    is_transaction_word,
};
use crate::text::Token;

mod single;
use single::{
    add_up, amount_word, ask_word, day_by_day, largest, latest, misspelt, per_unit, tax_or_sales, time_group,
    top, top_groups_named,
};

/// A message read word by word, and what its words have said so far.
struct Scan<'a> {
    tokens: &'a [Token],
    message: &'a str,
    /// Where the word being read is.
    i: usize,
    /// The word being read.
    w: &'a str,
    used: &'a mut [bool],
    intent: &'a mut Intent,
    a: &'a mut Asked,
    /// "abonnements", kept for `read` to decide.
    subscription_words: &'a mut Vec<usize>,
    /// A side of the ledger turned down, kept for `read` to decide.
    turned_down: &'a mut Option<(Direction, usize, usize)>,
}

impl<'a> Scan<'a> {
    /// The word at `j`, or "" past the end.
    fn norm(&self, j: usize) -> &'a str {
        self.tokens.get(j).map_or("", |t| t.norm.as_str())
    }

    /// The user's own words from token `a` to token `b`, or the word being read.
    fn span(&self, a: usize, b: usize) -> String {
        self.message.get(self.tokens[a].start..self.tokens[b].end).unwrap_or(self.w).to_string()
    }

    /// Uses the word being read as one of the intent's words.
    fn take(&mut self) {
        let i = self.i;
        self.intent.words.push(self.span(i, i));
        self.used[i] = true;
    }
}

/// Reads each word not yet used into `intent` and `a`; "abonnements" and a side of the
/// ledger turned down are kept for `read` to decide.
pub(super) fn words(
    tokens: &[Token],
    used: &mut [bool],
    message: &str,
    intent: &mut Intent,
    a: &mut Asked,
    (subscription_words, turned_down): (&mut Vec<usize>, &mut Option<(Direction, usize, usize)>),
) {
    let mut s = Scan { tokens, message, i: 0, w: "", used, intent, a, subscription_words, turned_down };
    for (i, token) in tokens.iter().enumerate() {
        if s.used[i] {
            continue;
        }
        s.i = i;
        s.w = token.norm.as_str();
        read_word(&mut s);
    }
}

/// Reads the word with the first reader that takes it, in the order they are tried:
/// the first that answers true has read it (or, for a tax or the sales, left it unread
/// on purpose); the rest are not tried. Each reader is called here only, so the
/// browser build inlines them as one function (a table of them cost 1.4 KB, brotli).
fn read_word(s: &mut Scan<'_>) -> bool {
    advice(s)
        || cash_flow_words(s)
        || everything(s)
        || broken_down(s)
        || break_down(s)
        || average(s)
        || per_transaction(s)
        || went_to(s)
        || taken_out(s)
        || net(s)
        || came_through(s)
        || group_wise(s)
        || come_to(s)
        || went_out(s)
        || put_somewhere(s)
        || moved(s)
        || income_words(s)
        || by_card(s)
        || send_me(s)
        || direct_debit(s)
        || side_refused(s)
        || side_named(s)
        || tax_or_sales(s)
        || ask_word(s)
        || amount_word(s)
        || day_by_day(s)
        || add_up(s)
        || per_unit(s)
        || top_groups_named(s)
        || top(s)
        || time_group(s)
        || largest(s)
        || latest(s)
        || misspelt(s)
}

/// Whether the word asks for advice, which no tool gives.
fn advice(s: &mut Scan<'_>) -> bool {
    if is_advice(s.tokens, s.i) {
        s.intent.advice = true;
        return true;
    }
    false
}

/// Whether the word starts a two-word cash flow marker.
fn cash_flow_words(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // Two-word markers first: "cash flow", "taux d'épargne", "savings rate".
    if let Some(n) = cash_flow_phrase(s.tokens, s.used, i) {
        s.a.cash = true;
        // "mis de côté", "put aside": kept back, or moved to savings?
        if matches!(w, "mis" | "put") {
            s.intent.saved = Some(s.span(i, i + n - 1));
        }
        s.intent.words.push(s.span(i, i + n - 1));
        s.used[i..i + n].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word is "everything": all the transactions the rest selects.
fn everything(s: &mut Scan<'_>) -> bool {
    // "show me everything from yesterday": the transactions, unless the message says
    // what to compute of them ("everything I spent").
    if s.w == "everything" {
        s.a.everything = true;
        s.used[s.i] = true;
        return true;
    }
    false
}

/// Whether the word starts "broken down", "split by": a breakdown still to be named.
fn broken_down(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "broken down by week", "split by merchant": the breakdown "by" names.
    if matches!((w, s.norm(i + 1)), ("broken", "down") | ("split", "by") | ("split", "per")) {
        s.used[i] = true;
        if w == "broken" {
            s.used[i + 1] = true;
        }
        return true;
    }
    false
}

/// Whether the word is "break", with "down" soon after: a breakdown.
fn break_down(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "break my spending down by merchant".
    if w == "break" && (i + 1..(i + 4).min(s.tokens.len())).any(|j| s.norm(j) == "down" && !s.used[j]) {
        s.a.breakdown = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        if let Some(j) = (i + 1..(i + 4).min(s.tokens.len())).find(|&j| s.norm(j) == "down") {
            s.used[j] = true;
        }
        return true;
    }
    false
}

/// Whether the word asks for an average, and per what when it says.
fn average(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if is_average_word(w) {
        s.intent.average = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        // "panier moyen": per purchase.
        if i > 0 && s.norm(i - 1) == "panier" && !s.used[i - 1] {
            s.intent.average_per = Some(AveragePer::Transaction);
            s.used[i - 1] = true;
        }
        // "the average Uber ride", "average purchase at Fnac": per one of them.
        let one =
            |w: &str| matches!(w, "ride" | "purchase" | "order" | "trip" | "ticket" | "payment" | "basket");
        if let Some(j) = (i + 1..(i + 3).min(s.tokens.len())).find(|&j| one(s.norm(j)) && !s.used[j]) {
            s.intent.average_per = Some(AveragePer::Transaction);
            s.used[j] = true;
        }
        return true;
    }
    false
}

/// Whether the word starts "per transaction", "each purchase": an average per transaction.
fn per_transaction(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "par opération", "per visit", "each purchase", "per trip": an average, per
    // transaction.
    let one_of = |w: &str| {
        is_transaction_word(w) || matches!(w, "trip" | "ride" | "order" | "ticket" | "trajet" | "commande")
    };
    // ("on a commandé" is French "has ordered": "a" is English here.)
    let per_one = matches!(w, "par" | "per" | "each")
        || (w == "a"
            && matches!(s.norm(i + 1), "trip" | "ride" | "order" | "ticket" | "transaction" | "purchase"));
    if per_one && one_of(s.norm(i + 1)) && !s.used[i + 1] {
        s.intent.average = true;
        s.intent.average_per = Some(AveragePer::Transaction);
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word starts "went to", "goes on": spending.
fn went_to(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "how much went to rent": money going out.
    if matches!(w, "went" | "goes" | "go") && matches!(s.norm(i + 1), "to" | "on") && !s.used[i + 1] {
        s.a.spend = true;
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word starts "take out", "pulled out": withdrawals, spending.
fn taken_out(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "how much cash did I take out": withdrawals, money out.
    if matches!(w, "take" | "took" | "taken" | "taking" | "pull" | "pulled" | "pulling")
        && s.norm(i + 1) == "out"
        && !s.used[i + 1]
    {
        s.a.spend = true;
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word is "my net", "le net": cash flow.
fn net(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "what's my net for October": money in less money out.
    if w == "net" && i > 0 && matches!(s.norm(i - 1), "my" | "mon" | "the" | "le") {
        s.a.cash = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word starts "est tombé", "est passée" with no amount asked: the lines.
fn came_through(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "mon salaire est tombé ?", "la facture est passée ?", "tout ce qui est passé
    // sur le livret": whether, and what, went through — the lines.
    if w == "est"
        && matches!(s.norm(i + 1), "tombe" | "tombee" | "passe" | "passee" | "arrive" | "arrivee")
        && !s.used[i + 1]
        && !s.tokens.iter().any(|t| matches!(t.norm.as_str(), "combien" | "cb" | "cmb" | "total" | "montant"))
    {
        s.a.list = true;
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word starts "month-wise", "category-wise": a breakdown.
fn group_wise(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "month-wise cash flow", "category-wise spending": by month, by category.
    if s.norm(i + 1) == "wise" && !s.used[i + 1] {
        if let Some(g) = crate::parser::lexicon::group_word(w) {
            s.intent.second_ask |= s.intent.group_by.is_some_and(|h| h != g);
            s.intent.group_by = Some(g);
            s.intent.words.push(s.span(i, i + 1));
            s.used[i] = true;
            s.used[i + 1] = true;
            return true;
        }
    }
    false
}

/// Whether the word starts "come to", a total already asked.
fn come_to(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "how much has the rent come to this year": a total, which is asked already.
    if matches!(w, "come" | "came" | "comes")
        && s.norm(i + 1) == "to"
        && !s.used[i + 1]
        && (i + 2 >= s.tokens.len()
            || matches!(s.norm(i + 2), "this" | "last" | "in" | "so" | "for" | "over"))
    {
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word starts "went out", "came out": spending.
fn went_out(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "what went out of the current account", "how much went out": spending.
    if matches!(w, "went" | "goes" | "gone" | "going" | "came" | "come" | "comes")
        && s.norm(i + 1) == "out"
        && !s.used[i + 1]
    {
        s.a.spend = true;
        // ("list what went out": the debits.)
        if s.tokens.iter().any(|t| matches!(t.norm.as_str(), "list" | "liste" | "lister")) {
            s.intent.direction = s.intent.direction.or(Some(Direction::Debit));
        }
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        if s.norm(i + 2) == "of" && !s.used[i + 2] {
            s.used[i + 2] = true;
        }
        return true;
    }
    false
}

/// Whether the word is money put somewhere in the past ("j'ai mis en restos"): spent.
fn put_somewhere(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "combien j'ai mis en restos", "on a filé combien à Foncia", "ai-je versé à la
    // MAIF": money put somewhere, in the past — spent (not "mis de côté", read above;
    // not onto one's own accounts, which stays unread).
    // ("le montant versé à la MAIF": what was paid, too.)
    let aux = (1..=3).any(|k| i >= k && matches!(s.norm(i - k), "ai" | "jai" | "a" | "avons" | "g" | "as"))
        || (i >= 1 && matches!(s.norm(i - 1), "montant" | "somme" | "total"));
    let own = (i + 1..(i + 4).min(s.tokens.len()))
        .any(|k| matches!(s.norm(k), "livret" | "compte" | "epargne" | "cote" | "pel" | "ldds"));
    if aux
        && !own
        && matches!(w, "mis" | "file" | "verse")
        && (i + 1..(i + 3).min(s.tokens.len()))
            .any(|k| matches!(s.norm(k), "en" | "chez" | "dans" | "pour" | "a" | "au" | "aux"))
    {
        s.a.spend = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word is money moved, asked in the past ("did I transfer"): what went out.
fn moved(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "how much did I transfer to savings", "combien j'ai viré": money moved, in the
    // past — a read of what went out, not a request to move it.
    let past = (i >= 2
        && matches!((s.norm(i - 2), s.norm(i - 1)), ("did" | "have", "i") | ("j", "ai") | ("i", "ve")))
        || (i >= 1 && s.norm(i - 1) == "jai");
    if past
        && matches!(
            w,
            "transfer" | "transferred" | "moved" | "move" | "vire" | "transfere" | "sent" | "verse"
        )
    {
        s.a.spend = true;
        s.intent.moved = true;
        s.intent.words.push(s.span(i, i));
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word starts a phrase for income.
fn income_words(s: &mut Scan<'_>) -> bool {
    let i = s.i;
    if let Some(n) = income_phrase(s.tokens, s.used, i) {
        s.a.income = true;
        s.intent.words.push(s.span(i, i + n - 1));
        s.used[i..i + n].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word starts "by card", "par carte": the usual way to pay, which changes nothing.
fn by_card(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "paid by card", "payé par carte": the usual way, which changes nothing. Other
    // ways (cheque, transfer, cash) are filters no tool has: left unread.
    if matches!(w, "by" | "par") && !s.used.get(i + 1).copied().unwrap_or(true) && is_card(s.norm(i + 1)) {
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word starts "send me", which asks nothing more than the answer.
fn send_me(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    // "send me my spending": the answer is the message.
    if w == "send" && matches!(s.norm(i + 1), "me" | "us") {
        s.used[i] = true;
        return true;
    }
    false
}

/// Whether the word starts "direct debits": recurring payments.
fn direct_debit(s: &mut Scan<'_>) -> bool {
    let (i, w) = (s.i, s.w);
    if w == "direct" && matches!(s.norm(i + 1), "debit" | "debits") && !s.used[i + 1] {
        s.a.recurring = true;
        s.intent.words.push(s.span(i, i + 1));
        s.used[i] = true;
        s.used[i + 1] = true;
        return true;
    }
    false
}

/// Whether the word turns one side of the ledger down ("not the refunds"), the first time.
fn side_refused(s: &mut Scan<'_>) -> bool {
    let i = s.i;
    if let Some((other, last)) = side_turned_down(s.tokens, s.used, i).filter(|_| s.turned_down.is_none()) {
        *s.turned_down = Some((other, i, last));
        s.used[i..=last].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}

/// Whether the word names one side of the ledger.
fn side_named(s: &mut Scan<'_>) -> bool {
    let i = s.i;
    if let Some((dir, n)) = direction_words(s.tokens, s.used, i) {
        s.intent.direction = Some(dir);
        s.intent.words.push(s.span(i, i + n - 1));
        s.used[i..i + n].iter_mut().for_each(|u| *u = true);
        return true;
    }
    false
}
