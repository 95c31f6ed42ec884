//! Money in and out said in several words: "came in", "m'a versé", "what went out",
//! "virements reçus" — the phrases that say a flow or a direction, and how many tokens
//! each uses.

use super::is_payment_method;
use crate::args::Direction;
use crate::text::Token;

/// Money coming in said with a verb: "came in", "paid me", "m'a versé", "paid by my
/// employer", "payé par la CAF" — but "paid by card" is spending. The number of tokens
/// the phrase uses.
pub(crate) fn income_phrase(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    let word = |j: usize| {
        tokens.get(j).filter(|_| !used.get(j).copied().unwrap_or(true)).map_or("", |t| t.norm.as_str())
    };
    let paid = |w: &str| {
        matches!(
            w,
            "pay"
                | "pays"
                | "paid"
                | "payed"
                | "paying"
                | "paye"
                | "payee"
                | "payes"
                | "verse"
                | "versee"
                | "verses"
        )
    };
    let (w, next) = (word(i), word(i + 1));
    if matches!(w, "came" | "come" | "comes" | "coming") && matches!(next, "in" | "into") {
        return Some(2);
    }
    // "combien il est rentré", "combien est entré sur le livret": the money that came
    // in. ("qu'est-ce qui est rentré" may want the lines: not read here.)
    if matches!(w, "est" | "sont")
        && matches!(
            next,
            "rentre" | "rentree" | "rentres" | "rentrees" | "entre" | "entree" | "entres" | "entrees"
        )
        && tokens[..i].iter().any(|t| t.norm == "combien")
    {
        return Some(2);
    }
    if paid(w) && matches!(next, "me" | "us") {
        return Some(2);
    }
    // "did I get paid", "I got paid", "have I been paid" — not "have my bills been paid".
    let subject = i > 0 && matches!(tokens[i - 1].norm.as_str(), "i" | "we" | "je" | "j" | "on");
    if matches!(w, "get" | "got" | "been" | "getting") && paid(next) && next != "paying" && subject {
        return Some(2);
    }
    // "what I get from Acme", "what did we get from the CAF": money received from it.
    if matches!(w, "get" | "got" | "gotten" | "getting") && next == "from" && subject {
        return Some(2);
    }
    // "m'a payé", "m'ont versé", "m'a viré", and "ma versé" typed without the apostrophe
    // or "ma payer" as it sounds.
    let paid_me = |w: &str| paid(w) || matches!(w, "payer" | "vire" | "viree" | "vires" | "virer");
    if w == "m" && matches!(next, "a" | "ont") && paid_me(word(i + 2)) {
        return Some(3);
    }
    if w == "ma" && paid_me(next) {
        return Some(2);
    }
    if paid(w) && matches!(next, "by" | "par") {
        let mut j = i + 2;
        while matches!(word(j), "my" | "mon" | "ma" | "mes" | "le" | "la" | "l" | "the" | "a" | "une" | "un")
        {
            j += 1;
        }
        // "payé par le compte joint" is paid from an account: spending.
        let account = matches!(word(j), "compte" | "account" | "livret" | "checking" | "savings");
        return (!is_payment_method(word(j)) && !account && !word(j).is_empty()).then_some(2);
    }
    passive_income_phrase(tokens, used, i)
}

/// Money coming in said in the passive or as a noun, read on the server (`asides`): "was
/// I paid", "j'ai été payé", "je me suis fait payer", "m'a été versé", "given to me",
/// "did Acme give me", "my pay", "la paie d'octobre" — but "the rent was paid", "je la
/// paie" are spending. The number of tokens the phrase uses.
#[cfg(feature = "asides")]
fn passive_income_phrase(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    let word = |j: usize| {
        tokens.get(j).filter(|_| !used.get(j).copied().unwrap_or(true)).map_or("", |t| t.norm.as_str())
    };
    let before = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j)).map_or("", |t| t.norm.as_str());
    let paid =
        |w: &str| matches!(w, "paid" | "payed" | "paye" | "payee" | "payes" | "payees" | "verse" | "versee");
    let given = |w: &str| {
        matches!(w, "gave" | "given" | "sent" | "donne" | "donnee" | "envoye" | "offert" | "verse" | "versee")
    };
    let (w, next, third) = (word(i), word(i + 1), word(i + 2));
    // "was I paid", "were we paid".
    if matches!(w, "was" | "were") && matches!(next, "i" | "we") && paid(third) {
        return Some(3);
    }
    // "I was paid", "we were paid".
    if matches!(w, "was" | "were") && matches!(before(1), "i" | "we") && paid(next) {
        return Some(2);
    }
    // "j'ai été payé", "on a été payés", "nous avons été payés" — not "le loyer a été payé".
    if w == "ete"
        && paid(next)
        && matches!((before(2), before(1)), ("j" | "on", "ai" | "a") | ("nous", "avons"))
    {
        return Some(2);
    }
    // "je me suis fait payer", "on s'est fait payer".
    if w == "fait" && next == "payer" && matches!(before(1), "suis" | "est" | "sommes") {
        return Some(2);
    }
    // "m'a été versé", "m'ont été versés".
    if w == "m" && matches!(next, "a" | "ont") && third == "ete" && paid(word(i + 3)) {
        return Some(4);
    }
    // "m'a donné", "on m'a envoyé", "gave me", "given to me", "sent us".
    if w == "m" && matches!(next, "a" | "ont") && given(third) {
        return Some(3);
    }
    if given(w) && matches!(next, "me" | "us") {
        return Some(2);
    }
    if given(w) && next == "to" && matches!(third, "me" | "us") {
        return Some(3);
    }
    // "have I been given", "was I given", "we were given".
    let passive = matches!(
        (before(2), before(1)),
        ("i" | "we", "been" | "was" | "were") | ("was" | "were" | "been", "i" | "we")
    );
    if given(w) && passive {
        return Some(1);
    }
    // "did Acme give me", "what does the CAF send us" — not "give me my balance".
    let asked = (1..=4).any(|k| matches!(before(k), "did" | "does" | "do" | "has" | "have"));
    if matches!(w, "give" | "send") && matches!(next, "me" | "us") && asked {
        return Some(2);
    }
    // "my pay", "ma paie", "la paye d'octobre", "fiche de paie" — not "je la paie".
    let pronoun = matches!(
        before(1),
        "je" | "j" | "on" | "tu" | "il" | "elle" | "nous" | "vous" | "ils" | "elles" | "i" | "we" | "you"
    );
    if matches!(w, "my" | "our" | "the" | "ma" | "la" | "notre" | "de")
        && matches!(next, "pay" | "paye" | "paie")
        && !pronoun
    {
        return Some(2);
    }
    None
}

#[cfg(not(feature = "asides"))]
fn passive_income_phrase(_: &[Token], _: &[bool], _: usize) -> Option<usize> {
    None
}

/// "cash flow", "taux d'épargne", "savings rate", "entrées et sorties", "in and out":
/// the number of tokens the phrase uses.
pub(crate) fn cash_flow_phrase(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    const PHRASES: &[&[&str]] = &[
        &["money", "in", "vs", "money", "out"],
        &["money", "in", "versus", "money", "out"],
        &["money", "in", "and", "money", "out"],
        &["money", "in", "money", "out"],
        &["money", "in", "vs", "out"],
        &["in", "and", "out", "money"],
        &["net", "cash", "flow"],
        &["cash", "flow"],
        &["taux", "d", "epargne"],
        &["savings", "rate"],
        &["saving", "rate"],
        &["net", "savings"],
        &["flux", "de", "tresorerie", "net"],
        &["flux", "de", "tresorerie"],
        &["entrees", "et", "sorties"],
        &["entrees", "vs", "sorties"],
        &["entrees", "contre", "sorties"],
        &["in", "vs", "out"],
        &["income", "versus", "expenses"],
        &["revenus", "vs", "depenses"],
        &["entrees", "sorties"],
        &["in", "and", "out"],
        &["money", "in", "and", "out"],
        &["inflows", "and", "outflows"],
        &["inflows", "vs", "outflows"],
        &["solde", "net"],
        &["net", "income"],
        &["revenus", "et", "depenses"],
        &["revenus", "depenses"],
        &["income", "and", "expenses"],
        &["income", "vs", "expenses"],
        &["earn", "vs", "spend"],
        &["earned", "vs", "spent"],
        &["earn", "versus", "spend"],
        &["earned", "versus", "spent"],
        &["gagne", "vs", "depense"],
        &["gagne", "contre", "depense"],
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
pub(crate) fn direction_words(tokens: &[Token], used: &[bool], i: usize) -> Option<(Direction, usize)> {
    let free = |j: usize| !used.get(j).copied().unwrap_or(true);
    let w = tokens.get(i).filter(|_| free(i))?.norm.as_str();
    let next = tokens.get(i + 1).filter(|_| free(i + 1)).map_or("", |t| t.norm.as_str());
    match (w, next) {
        ("virements" | "virement" | "transfers" | "transfer", "recus" | "recu" | "received" | "entrants") => {
            Some((Direction::Credit, 2))
        }
        ("money", "in") => Some((Direction::Credit, 2)),
        ("money", "out") => Some((Direction::Debit, 2)),
        // "the money that came into my Livret A", "what came in".
        ("came" | "come" | "comes" | "coming", "in" | "into") => Some((Direction::Credit, 2)),
        ("deposits" | "deposit" | "depots" | "depot", _) => Some((Direction::Credit, 1)),
        (
            "remboursements" | "remboursement" | "rembourse" | "remboursee" | "rembourses" | "refunds"
            | "refund" | "refunded" | "credits" | "credit" | "crediteurs" | "entrees",
            _,
        ) => Some((Direction::Credit, 1)),
        ("debits" | "debit" | "outgoings" | "outflows" | "outflow", _) => Some((Direction::Debit, 1)),
        ("inflows" | "inflow", _) => Some((Direction::Credit, 1)),
        // "sorties d'argent" is money out; "sorties" alone may be outings (leisure).
        // "la plus grosse rentrée d'argent": money in ("la rentrée" alone is September).
        // ("combien de rentrée d'argent": how much came in, as "rentrées".)
        ("rentree", "d" | "de")
            if tokens.get(i + 2).is_some_and(|t| matches!(t.norm.as_str(), "argent" | "cash"))
                && !(i >= 2
                    && matches!(tokens[i - 1].norm.as_str(), "de" | "d")
                    && matches!(tokens[i - 2].norm.as_str(), "combien" | "cb" | "cmb")) =>
        {
            Some((Direction::Credit, 3))
        }
        ("sorties", "d" | "de")
            if tokens.get(i + 2).is_some_and(|t| matches!(t.norm.as_str(), "argent" | "cash")) =>
        {
            Some((Direction::Debit, 3))
        }
        _ => None,
    }
}
