//! Questions of when and how often — "la dernière fois chez Lidl", "since when am I
//! paid by Acme", "how often do I go to Picard", "tous les combien chez Picard": the
//! activity of what the message names. Read before the other words, which these
//! phrases would otherwise pass for ("last" a list's newest, "combien de fois par
//! semaine" a count by week). Read only with the `activity` feature (the server's); the
//! browser's parser recognises such a question and leaves it to the server.

#[cfg(feature = "activity")]
use super::Intent;
#[cfg(feature = "activity")]
use crate::text::Token;

/// What an activity question asks, which decides the period it means when it names none.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(not(feature = "activity"), allow(dead_code))]
pub(crate) enum When {
    /// The first or last time, since when: the whole history.
    Ever,
    /// How often: a rate, over the last 12 months.
    Often,
}

/// Units a frequency is said per, and which a period word is made of ("le mois dernier").
#[cfg(feature = "activity")]
fn unit(w: &str) -> bool {
    matches!(
        w,
        "semaine"
            | "semaines"
            | "mois"
            | "an"
            | "ans"
            | "annee"
            | "jour"
            | "jours"
            | "trimestre"
            | "week"
            | "weeks"
            | "month"
            | "months"
            | "year"
            | "years"
            | "day"
            | "days"
            | "quarter"
            | "weekend"
    )
}

/// Where a question of when or how often is said, among the words not yet used: which
/// it is, and its first and last words.
#[cfg(feature = "activity")]
pub(crate) fn find(tokens: &[Token], used: &[bool]) -> Option<(When, usize, usize)> {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let free = |j: usize| j < tokens.len() && !used[j];
    let edge = |w: &str| matches!(w, "dernier" | "derniere" | "premier" | "premiere" | "last" | "first");
    let asks_when = (0..tokens.len()).any(|j| matches!(norm(j), "when" | "quand" | "date"));
    (0..tokens.len()).filter(|&i| free(i)).find_map(|i| {
        let (w, next) = (norm(i), norm(i + 1));
        let before = if i > 0 { norm(i - 1) } else { "" };
        match (w, next) {
            // "la dernière fois que…", "the first time I…" — not "comme la dernière fois",
            // "than last time", "since the last time I checked".
            (_, "fois" | "time")
                if edge(w)
                    && free(i + 1)
                    && !(0..i).any(|k| {
                        matches!(norm(k), "comme" | "like" | "as" | "about" | "than" | "since" | "depuis")
                    })
                    && !matches!(before, "que" | "qu") =>
            {
                Some((When::Ever, i, i + 1))
            }
            // "dernier paiement maif ?", "last payment to netflix?": when, over the whole
            // history (not the amount: "combien", "how much" ask it).
            (_, "paiement" | "prelevement" | "payment" | "debit")
                if edge(w)
                    && matches!(w, "dernier" | "last")
                    && tokens.len() <= 5
                    && !(0..tokens.len())
                        .any(|k| matches!(norm(k), "combien" | "montant" | "much" | "amount")) =>
            {
                Some((When::Ever, i, i + 1))
            }
            // "depuis quand", "since when".
            ("depuis" | "since", "quand" | "when") => Some((When::Ever, i, i + 1)),
            // "ça fait combien de temps que", "how long since".
            ("combien" | "cmb", "de") if norm(i + 2) == "temps" => Some((When::Ever, i, i + 2)),
            // ("how long is it since", "how long has it been since".)
            ("how", "long") if (i + 2..i + 6).any(|k| norm(k) == "since") => {
                let since = (i + 2..i + 6).find(|&k| norm(k) == "since").unwrap_or(i + 1);
                Some((When::Ever, i, since))
            }
            // "when did I last pay", "c'était quand mon dernier retrait", "à quelle date…
            // mon dernier salaire" — not a period ("le mois dernier", "last week"), which
            // is read already.
            _ if edge(w) && asks_when && !unit(next) && !unit(before) => Some((When::Ever, i, i)),
            // "when did I start paying Netflix", "quand ai-je commencé".
            ("start" | "started" | "begin" | "began" | "commence", _) if asks_when => {
                Some((When::Ever, i, i))
            }
            // "c'est quand que j'ai été chez Carrefour", "quand est-ce que…", "when did I
            // go to Lidl": when, asked of a name.
            ("c" | "cest" | "cetait" | "etait", "quand") => Some((When::Ever, i, i + 1)),
            ("quand", "est") if norm(i + 2) == "ce" => Some((When::Ever, i, i + 2)),
            ("when", "did" | "was" | "were")
                if (i + 2..i + 5).any(|k| super::count::went(norm(k)) || acted(norm(k))) =>
            {
                Some((When::Ever, i, i + 1))
            }
            // "j'ai retiré du cash quand cette semaine ?": "quand" asked last, before a
            // period at most.
            ("quand", _) if i > 0 && (i + 1..tokens.len()).all(|k| used[k]) => Some((When::Ever, i, i)),
            // "est-ce que je suis allée chez Franprix cette semaine", "did I go to Lidl
            // since Tuesday": whether, and when — not "did I go over budget".
            ("est", "ce") | ("did", "i" | "we")
                if (i + 2..i + 6)
                    .any(|k| matches!(norm(k), "go" | "went" | "been" | "alle" | "allee" | "alles"))
                    && !(0..tokens.len()).any(|k| {
                        matches!(
                            norm(k),
                            "budget"
                                | "over"
                                | "more"
                                | "less"
                                | "plus"
                                | "moins"
                                | "trop"
                                | "too"
                                | "many"
                                | "times"
                                | "fois"
                        )
                    }) =>
            {
                Some((When::Ever, i, i + 1))
            }
            // "jsuis allé chez Lidl depuis mardi ou pas": whether one went.
            ("ou", "pas") | ("or", "not")
                if i + 2 >= tokens.len() && (0..i).any(|k| super::count::went(norm(k))) =>
            {
                Some((When::Ever, i, i + 1))
            }
            // "how often", "how regularly", "how frequently".
            ("how", "often" | "regularly" | "frequently") => Some((When::Often, i, i + 1)),
            // "à quelle fréquence", "at what frequency".
            ("quelle" | "what", "frequence" | "frequency") => Some((When::Often, i, i + 1)),
            ("freq" | "frequency" | "frequence", _) => Some((When::Often, i, i)),
            // "tous les combien".
            ("tous", "les") if norm(i + 2) == "combien" => Some((When::Often, i, i + 2)),
            // "combien de fois par semaine", "how many times a month": a rate.
            ("combien", "de") if norm(i + 2) == "fois" && matches!(norm(i + 3), "par" | "a" | "per") => {
                Some((When::Often, i, i + 3))
            }
            ("how", "many")
                if norm(i + 2) == "times" && matches!(norm(i + 3), "a" | "per" | "each" | "every") =>
            {
                Some((When::Often, i, i + 3))
            }
            _ => None,
        }
    })
}

/// Reads a question of when or how often: its words used and said, and which it is.
#[cfg(feature = "activity")]
pub(super) fn read(tokens: &[Token], used: &mut [bool], message: &str, intent: &mut Intent) {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    // "je vais souvent au resto ?", "do I go to Lidl often", asked — not "le plus
    // souvent", "most often" (a ranking), nor "j'y vais trop souvent" said beside
    // another question.
    let often = || {
        (0..tokens.len()).find(|&i| {
            !used[i]
                && matches!(norm(i), "souvent" | "often")
                && asked_often(tokens, message, if i > 0 { norm(i - 1) } else { "" })
        })
    };
    let found = find(tokens, used).or_else(|| often().map(|i| (When::Often, i, i)));
    let Some((when, a, b)) = found else { return };
    // "la MAIF c'est prélevé tous les combien": a direct debit's cadence, which
    // recurring payments say.
    let debited = |w: &str| {
        matches!(
            w,
            "preleve" | "prelevee" | "prelevement" | "prelevements" | "debited" | "charged" | "billed"
        )
    };
    if when == When::Often && (0..tokens.len()).any(|j| debited(norm(j))) {
        return;
    }
    // "la dernière fois que j'ai touché à mon épargne": took from it, or put in? Not read.
    if (0..tokens.len()).any(|j| matches!((norm(j), norm(j + 1)), ("touche" | "touchee", "a" | "au" | "aux")))
    {
        return;
    }
    used[a..=b].iter_mut().for_each(|u| *u = true);
    // "depuis quand j'ai pas commandé", "how long since I haven't been": since when not
    // is when last — the negation is the question's own.
    let since = matches!(norm(a), "depuis" | "since" | "combien" | "cmb" | "how");
    for j in 0..tokens.len() {
        if since && matches!(norm(j), "pas" | "plus" | "not" | "haven" | "havent" | "t" | "ne" | "n") {
            used[j] = true;
        }
        // "not how much, how often…", "pas combien, quand": the amount turned down.
        if matches!(norm(j), "not" | "pas") {
            let n = match (norm(j + 1), norm(j + 2)) {
                ("how", "much") | ("the", "amount") | ("le", "montant") => 2,
                ("combien", _) => 1,
                _ => 0,
            };
            if n > 0 {
                used[j..=j + n].iter_mut().for_each(|u| *u = true);
            }
        }
        // "when" and "quand" said with it are the same ask; so are, for a rate, the unit
        // it is said per ("par mois", "a week") and "en moyenne", "on average".
        let per = matches!(norm(j), "par" | "per" | "a" | "each" | "every") && unit(norm(j + 1));
        let edge = matches!(norm(j), "dernier" | "derniere" | "premier" | "premiere" | "last" | "first")
            && !unit(norm(j + 1))
            && !(j > 0 && unit(norm(j - 1)));
        let same = matches!(norm(j), "when" | "quand")
            || (when == When::Ever && edge)
            || super::count::went(norm(j))
            || acted(norm(j))
            || (when == When::Often && (matches!(norm(j), "moyenne" | "average") || per));
        if same {
            used[j] = true;
            if per {
                used[j + 1] = true;
            }
        }
        // "when did I last get paid", "got money from Acme", "acme m'a payée", "paid
        // me": money in.
        let pay = matches!(
            norm(j),
            "paye" | "payee" | "paie" | "paid" | "pay" | "pays" | "payed" | "paying" | "verse"
        );
        let me = matches!(norm(j + 1), "me" | "us")
            || (j >= 1 && matches!(norm(j - 1), "me" | "m"))
            || (j >= 2 && matches!(norm(j - 2), "m" | "me") && matches!(norm(j - 1), "a" | "as" | "avait"));
        let by = matches!(norm(j + 1), "by" | "par") && !matches!(norm(j + 2), "carte" | "card" | "cb");
        let received = matches!(norm(j), "receive" | "received" | "recu" | "recue" | "recus");
        if received {
            used[j] = true;
        }
        let got = matches!((norm(j), norm(j + 1)), ("got" | "get" | "gotten" | "getting", "paid" | "money"));
        if got {
            used[j] = true;
        }
        if received || (pay && (me || by)) || got {
            intent.direction = Some(crate::args::Direction::Credit);
        }
    }
    intent.words.push(message.get(tokens[a].start..tokens[b].end).unwrap_or_default().to_string());
    intent.when = Some(when);
}

/// Whether "souvent", "often" asks how often: in a question that asks nothing else
/// ("combien chez Lidl, j'y vais trop souvent" asks a total), not after "plus", "most",
/// "trop", "too".
#[cfg(feature = "activity")]
fn asked_often(tokens: &[Token], message: &str, before: &str) -> bool {
    let norm = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let question = message.contains('?')
        || matches!(norm(0), "do" | "does" | "did" | "am" | "est" | "is" | "have")
        || (0..tokens.len()).any(|j| norm(j) == "est" && norm(j + 1) == "ce");
    let other_ask = (0..tokens.len()).any(|j| {
        matches!(norm(j), "combien" | "cost" | "total" | "spent" | "depense" | "depenses")
            || (norm(j) == "how" && norm(j + 1) == "much")
    });
    question && !other_ask && !matches!(before, "plus" | "most" | "trop" | "too" | "assez" | "tellement")
}

/// How the money went, in a question of when or how often: "when did I last pay,
/// buy, withdraw", "depuis quand jpaye", "à quand remonte".
#[cfg(feature = "activity")]
fn acted(w: &str) -> bool {
    matches!(
        w,
        "pay"
            | "paid"
            | "paying"
            | "payed"
            | "paye"
            | "payee"
            | "paie"
            | "jpaye"
            | "jpaie"
            | "buy"
            | "bought"
            | "achete"
            | "achetee"
            | "jachete"
            | "jcommande"
            | "order"
            | "ordering"
            | "ordered"
            | "fais"
            | "commandee"
            | "withdraw"
            | "withdrew"
            | "retire"
            | "retiree"
            | "book"
            | "booked"
            | "fly"
            | "flew"
            | "recharge"
            | "rechargee"
            | "shop"
            | "shopped"
            | "jvais"
            | "jsuis"
            | "chu"
            | "remonte"
            | "something"
            | "anything"
    )
}
