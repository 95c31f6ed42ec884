//! What people type short, read long: numbers written in words ("septante-cinq",
//! "one hundred and fifty", "the last thirty days") and the shorthand of texting and of
//! busy people ("cmb", "dep. oct", "mois der", "txns", "auj"). Each becomes the tokens
//! it stands for, quoting the words as typed. Off in the browser (feature `shorthand`):
//! there such a word shows unread, and the server, which parses every typed message
//! again, reads it.

use crate::token::{Token, TokenKind};

/// Tokens as read: shorthand spelled out, then numbers in words made numbers.
pub(crate) fn expand(tokens: Vec<Token>) -> Vec<Token> {
    spelled_numbers(shorthand(tokens))
}

/// What a short word stands for, given the word before it: "cmb" is "combien", "der"
/// after "mois" is "dernier". One word may stand for several ("auj": "aujourd hui").
fn long_form(w: &str, before: &str) -> Option<&'static [&'static str]> {
    let after_unit = matches!(before, "mois" | "semaine" | "annee" | "sem" | "an");
    Some(match w {
        "cmb" | "cbn" | "cmbien" => &["combien"],
        // "cb en resto ce mois", "et cb chez lidl": how much — not a card ("paiements cb").
        "cb" if matches!(before, "" | "et") => &["combien"],
        "dep" | "deps" | "dpns" => &["depenses"],
        "transac" | "transacs" | "txn" | "txns" | "trx" => &["transactions"],
        "mvts" | "mvt" => &["mouvements"],
        "moy" => &["moyenne"],
        "nb" => &["nombre"],
        "sem" | "sem." => &["semaine"],
        "auj" | "ajd" | "ajrd" | "aujd" => &["aujourd", "hui"],
        "pr" => &["pour"],
        "ds" => &["dans"],
        "tt" => &["tout"],
        // Québec's "pis": and then.
        "pis" => &["et"],
        "chui" | "jsuis" | "chuis" => &["je", "suis"],
        // "jveux pas la liste", "jdepense cmb": "je" run into its verb.
        "jveux" => &["je", "veux"],
        "jvoudrais" => &["je", "voudrais"],
        "jsais" => &["je", "sais"],
        "jpense" => &["je", "pense"],
        "jcrois" => &["je", "crois"],
        "jdepense" => &["je", "depense"],
        "jclaque" => &["je", "claque"],
        "cetait" => &["c", "etait"],
        "cest" => &["c", "est"],
        // The apostrophe left out: "lan dernier", "de lannee", "rentrées dargent".
        "lannee" => &["l", "annee"],
        "jen" => &["j", "en"],
        "doctobre" => &["d", "octobre"],
        "davril" => &["d", "avril"],
        "daout" => &["d", "aout"],
        "dargent" => &["d", "argent"],
        "lan" => &["l", "an"],
        "lete" => &["l", "ete"],
        "lhiver" => &["l", "hiver"],
        "lautomne" => &["l", "automne"],
        "lavenir" => &["l", "avenir"],
        "lelectricite" => &["l", "electricite"],
        // Dictated and typed fast: "quest ce qui", "quesque", "combien sa ma couter",
        // "je suis aller".
        "quest" => &["qu", "est"],
        "quesque" | "keske" | "kesk" => &["qu", "est", "ce", "que"],
        "couter" | "coutee" => &["coute"],
        "aller" if before == "suis" => &["alle"],
        // "me suis-je rendu à la pizzeria": went.
        "rendu" | "rendue" | "rendus" if matches!(before, "suis" | "je" | "sommes" | "nous") => &["alle"],
        // "cmb jai ramassé d'acme": earned.
        "ramasse" | "ramassee" => &["gagne"],
        // The formal and the bank's words: "acquitté auprès de", "mes règlements",
        // "salary credited".
        "acquitte" | "acquittee" | "acquittes" => &["paye"],
        // "j'ai réglé à EDF", "ai-je réglé" — not "une règle" (a rule).
        "regle" | "reglee" | "regles" | "reglees"
            if matches!(before, "ai" | "jai" | "a" | "avons" | "as" | "avez" | "je" | "g") =>
        {
            &["paye"]
        }
        "reglement" => &["paiement"],
        "recat" | "recateg" => &["recategorise"],
        "reglements" => &["paiements"],
        "credited" => &["received"],
        // "what am I subscribed to", "à quoi je suis abonnée": the subscriptions.
        "subscribed"
            if matches!(
                before,
                "i" | "im" | "m" | "we" | "re" | "are" | "am" | "actually" | "really" | "currently"
            ) =>
        {
            &["subscriptions"]
        }
        "abonne" | "abonnee" | "abonnes" | "abonnees"
            if matches!(before, "suis" | "sommes" | "es" | "est" | "jsuis" | "chui" | "chuis") =>
        {
            &["abonnements"]
        }
        "der" | "dern" if after_unit => &["dernier"],
        "pro" | "proch" if after_unit => &["prochain"],
        _ => return None,
    })
}

fn shorthand(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens.iter().enumerate().any(|(i, t)| {
        let before = i.checked_sub(1).map_or("", |j| tokens[j].norm.as_str());
        t.kind == TokenKind::Word && long_form(&t.norm, before).is_some()
    }) {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len() + 2);
    for (i, t) in tokens.iter().enumerate() {
        let before = i.checked_sub(1).map_or("", |j| tokens[j].norm.as_str());
        match long_form(&t.norm, before).filter(|_| t.kind == TokenKind::Word) {
            // The first word quotes what was typed; the others are empty at its end, so
            // that tokens stay in order and never overlap.
            Some(words) => out.extend(words.iter().enumerate().map(|(k, w)| Token {
                norm: (*w).to_string(),
                start: if k == 0 { t.start } else { t.end },
                ..t.clone()
            })),
            None => out.push(t.clone()),
        }
    }
    out
}

/// What a number word is worth, and how it may follow another.
#[derive(Clone, Copy, PartialEq)]
enum Numeral {
    /// 1–9; `weak` ones are other words alone ("one", "une", "sept" for September,
    /// "neuf" for new) and count only beside another number word.
    Unit(u32, bool),
    /// 10–19.
    Teen(u32),
    /// 20–90.
    Ten(u32),
    Hundred,
    Thousand,
}

fn numeral(w: &str) -> Option<Numeral> {
    use Numeral::*;
    Some(match w {
        "one" | "un" | "une" => Unit(1, true),
        "two" | "deux" => Unit(2, false),
        "three" | "trois" => Unit(3, false),
        "four" | "quatre" => Unit(4, false),
        "five" | "cinq" => Unit(5, false),
        "six" => Unit(6, false),
        "seven" => Unit(7, false),
        "sept" => Unit(7, true),
        "eight" | "huit" => Unit(8, false),
        "nine" => Unit(9, false),
        "neuf" => Unit(9, true),
        "ten" | "dix" => Teen(10),
        "eleven" | "onze" => Teen(11),
        "twelve" | "douze" => Teen(12),
        "thirteen" | "treize" => Teen(13),
        "fourteen" | "quatorze" => Teen(14),
        "fifteen" | "quinze" => Teen(15),
        "sixteen" | "seize" => Teen(16),
        "seventeen" => Teen(17),
        "eighteen" => Teen(18),
        "nineteen" => Teen(19),
        "twenty" | "vingt" | "vingts" => Ten(20),
        "thirty" | "trente" => Ten(30),
        "forty" | "quarante" => Ten(40),
        "fifty" | "cinquante" => Ten(50),
        "sixty" | "soixante" => Ten(60),
        "seventy" | "septante" => Ten(70),
        "eighty" | "huitante" | "octante" => Ten(80),
        "ninety" | "nonante" => Ten(90),
        "hundred" | "hundreds" | "cent" | "cents" => Hundred,
        "thousand" | "mille" => Thousand,
        _ => return None,
    })
}

/// Money words after which "cent", "mille" or "hundred" alone is a number ("cent euros",
/// "a hundred quid") — elsewhere "to the cent" and "mille mercis" are not.
fn money_word(w: &str) -> bool {
    matches!(w, "€" | "euro" | "euros" | "eur" | "balles" | "piasses" | "quid" | "bucks" | "dollars")
}

/// Numbers written in words become one number token: "septante-cinq" → 75, "one hundred
/// and fifty" → 150, "quatre-vingt-dix" → 90, "thirty" → 30. A chain stops where the next
/// word could not follow ("twenty twenty-six" is 20, then 26); "one", "une", "sept" and
/// "neuf" alone stay words.
fn spelled_numbers(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens.iter().any(|t| t.kind == TokenKind::Word && numeral(&t.norm).is_some()) {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match read_numeral(&tokens, i) {
            Some((value, last)) => {
                out.push(Token {
                    norm: value.to_string(),
                    start: tokens[i].start,
                    end: tokens[last].end,
                    kind: TokenKind::Number,
                });
                i = last + 1;
            }
            None => {
                out.push(tokens[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// The number spelled from `tokens[i]`, and the index of its last word.
fn read_numeral(tokens: &[Token], i: usize) -> Option<(u32, usize)> {
    use Numeral::*;
    let word = |j: usize| tokens.get(j).filter(|t| t.kind == TokenKind::Word).map(|t| t.norm.as_str());
    let (mut total, mut current) = (0u32, 0u32);
    let mut prev: Option<Numeral> = None;
    let mut last = i;
    let mut j = i;
    while let Some(w) = word(j) {
        // "vingt et un", "one hundred and fifty": a joining word between two numerals.
        let (n, at) = match numeral(w) {
            Some(n) => (n, j),
            None if matches!(w, "et" | "and") && prev.is_some() => match word(j + 1).and_then(numeral) {
                Some(n @ (Unit(..) | Teen(_) | Ten(_))) => (n, j + 1),
                _ => break,
            },
            None => break,
        };
        let follows = match (prev, n) {
            (None, _) => true,
            // "quatre-vingt(s)": four twenties.
            (Some(Unit(4, _)), Ten(20)) => true,
            (Some(Ten(_)), Unit(..)) => true,
            // "soixante-dix", "quatre-vingt-dix-sept".
            (Some(Ten(_)), Teen(_)) => matches!(current % 100, 60 | 80),
            (Some(Teen(10)), Unit(u, _)) => (7..=9).contains(&u),
            (Some(Unit(..) | Teen(_) | Ten(_)), Hundred) => current < 100,
            (Some(Unit(..) | Teen(_) | Ten(_) | Hundred), Thousand) => true,
            (Some(Hundred | Thousand), Unit(..) | Teen(_) | Ten(_)) => true,
            _ => false,
        };
        if !follows {
            break;
        }
        match n {
            Unit(v, _) if prev == Some(Teen(10)) => current += v,
            Ten(20) if prev == Some(Unit(4, false)) => current = current - 4 + 80,
            Unit(v, _) | Teen(v) | Ten(v) => current += v,
            Hundred => current = current.max(1) * 100,
            Thousand => {
                total += current.max(1) * 1000;
                current = 0;
            }
        }
        prev = Some(n);
        last = at;
        j = at + 1;
    }
    let first = numeral(word(i)?)?;
    let alone = last == i;
    let weak = match first {
        Unit(_, weak) => weak,
        Hundred | Thousand => {
            !word(i + 1).is_some_and(money_word)
                && !tokens.get(i + 1).is_some_and(|t| t.kind == TokenKind::Currency)
        }
        _ => false,
    };
    if alone && weak {
        return None;
    }
    Some((total + current, last))
}
