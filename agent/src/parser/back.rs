//! Words that point back to something said before: "how much was it in october?",
//! "compare that to last year", "j'y ai dépensé combien", "show me the same for
//! october", "montre-les pour octobre". With no previous question they point at
//! nothing, and a plan would answer about everything instead: the run waits for the
//! person (on the server, `readings`).

use crate::token::Token;

/// The words that point back, as typed, if any. `named`: the message names a
/// category, merchant or account, which "them", "ça" or "c'est combien" may stand for.
pub(crate) fn pointing_back(tokens: &[Token], message: &str, named: bool) -> Option<String> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let before = |j: usize| j.checked_sub(1).map_or("", w);
    let period_noun = |j: usize| {
        matches!(
            w(j),
            "month" | "year" | "week" | "weekend" | "quarter" | "morning" | "time" | "one" | "mois" | "annee"
        )
    };
    let at = (0..tokens.len()).find(|&j| {
        let (prev, next) = (before(j), w(j + 1));
        match w(j) {
            // "show me the same for october", "pareil pour les revenus", "idem par
            // semaine" — not "the same month last year": whatever else is named, the
            // rest is the question before.
            "same" => {
                matches!(next, "for" | "but" | "without" | "excluding" | "in" | "by" | "") && prev != "are"
            }
            "pareil" | "idem" => !matches!(next, "que" | "qu"),
            _ if named => false,
            // "how much was it", "is that more than", "compare this with", "it was how
            // much" — not "this month", "is it possible", "everything that was".
            "it" | "that" | "this" => {
                !period_noun(j + 1)
                    && (matches!(prev, "compare" | "compared" | "was" | "did" | "does")
                        || (matches!(prev, "is" | "")
                            && matches!(
                                next,
                                "more" | "less" | "higher" | "lower" | "recurring" | "was" | "cost" | "costs"
                            ))
                        || (j == 0 && next == "was"))
            }
            // "how much did I spend there", "go there" — not "is there".
            "there" => matches!(
                prev,
                "spend"
                    | "spent"
                    | "go"
                    | "went"
                    | "gone"
                    | "been"
                    | "pay"
                    | "paid"
                    | "buy"
                    | "bought"
                    | "shop"
            ),
            // "j'y ai dépensé", "j'y suis allé" — not "il y a".
            "y" => {
                prev != "il"
                    && matches!(
                        next,
                        "ai" | "suis" | "vais" | "sommes" | "avons" | "allee" | "alle" | "depense"
                    )
            }
            // "ça fait combien", "combien ça m'a coûté" — not "comme ça".
            // (Within the first words: "les restos, ça fait combien" says what ça is;
            // "combien de CA" is a turnover.)
            "ca" | "cela" | "ceci" => {
                j <= 1 && message.get(tokens[j].start..tokens[j].end).is_some_and(|t| t != "CA")
            }
            // "c'était combien", "c'est plus que le mois dernier".
            "est" | "etait" => {
                j == 1 && prev == "c" && matches!(next, "combien" | "plus" | "moins" | "recurrent")
            }
            // "show them", "montre-les pour octobre", "list those".
            "them" | "those" | "these" => matches!(prev, "show" | "list" | "see" | "me"),
            "les" => {
                !named
                    && matches!(prev, "montre" | "liste" | "affiche" | "donne")
                    && matches!(next, "" | "pour" | "de" | "du" | "sur" | "en" | "moi")
            }
            _ => false,
        }
    })?;
    let token = &tokens[at];
    message.get(token.start..token.end).map(str::to_string)
}

/// A comparison with no subject said: "compare with last year", "vs last month?",
/// "less than last year?", "by comparison with october?".
pub(crate) fn comparison_without_subject(tokens: &[Token]) -> bool {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    match w(0) {
        "compare" | "comparer" | "compared" => {
            matches!(w(1), "with" | "to" | "against" | "avec" | "a" | "au" | "aux")
        }
        "vs" | "versus" | "less" | "more" | "moins" | "plus" | "higher" | "lower" => true,
        "by" => w(1) == "comparison",
        _ => false,
    }
}
