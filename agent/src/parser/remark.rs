//! A remark beside the question: "combien pour le loyer cette année, ça fait mal",
//! "how much have I paid Foncia this year, the agency keeps adding fees ngl", "am I over
//! budget on eating out? be honest lol". The world stays closed: such words are not
//! dropped as unknown; a remark is a sentence or clause of its own that says something
//! about the person (a verb of being, thinking or feeling, an interjection) and names
//! nothing Sou reads — no name, period, amount, number, calculation, negation or
//! restriction. Only then, and only if the question without it is read surely, does the
//! plan run, the remark shown as not used.
//!
//! Likewise a form turned down before the question ("I don't want the list, just the
//! total at Monoprix", "never mind the chart, …"): the question after it runs if it is
//! read surely and is not what was turned down.

use super::{intent, lexicon, steps, Context, Parser};
use crate::period;
use crate::text::{tokenize, TokenKind};

/// Words that make a clause a remark about the person rather than a request: being,
/// thinking, feeling, keeping on; interjections. Wanting, needing or meaning are not
/// here ("…, I want the food ones" restricts the question), nor "c'est" ("…, c'est les
/// livres" may name what is meant).
fn is_remark_marker(w: &str) -> bool {
    REMARK_MARKERS.contains(&w)
}

const REMARK_MARKERS: &[&str] = &[
    "is",
    "its",
    "thats",
    "was",
    "were",
    "are",
    "am",
    "been",
    "keeps",
    "keep",
    "kept",
    "think",
    "thought",
    "guess",
    "feel",
    "felt",
    "hope",
    "hate",
    "love",
    "wonder",
    "lol",
    "ngl",
    "tbh",
    "omg",
    "haha",
    "lmao",
    "ugh",
    "sigh",
    "sorry",
    "stressed",
    "worried",
    "broke",
    "stresse",
    "angoisse",
    "flippe",
    "honestly",
    "etait",
    "etaient",
    "suis",
    "etais",
    "fait",
    "pense",
    "crois",
    "trouve",
    "espere",
    "deteste",
    "adore",
    "mdr",
    "ptdr",
    "jpp",
    "pfff",
    "pff",
    "ouf",
    "dsl",
    "desole",
    "desolee",
    "franchement",
    "helas",
    "oups",
    "oops",
    "feck",
    "grand",
    "reckon",
    "abuse",
];

/// "i had the flu twice", "we're saving for the wedding", "j'y passe ma vie": a clause
/// whose subject is the person (or someone of theirs) and that asks nothing of Sou — no
/// request, wish, correction or comparison word.
fn speaks_of_self(tokens: &[crate::text::Token]) -> bool {
    let words: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    // "the wife's asking", "my son plays rugby": someone of theirs doing something —
    // not "for the kids", "pour ma fille", "the kids' ones", "the wife's stuff", which may
    // say whose spending is meant.
    let acts = words.iter().any(|w| PEOPLE_VERBS.contains(w) || is_remark_marker(w));
    let someone = |k: usize| {
        PEOPLE.contains(&words[k])
            && acts
            && !(k > 0 && matches!(words[k - 1], "for" | "pour" | "to" | "a" | "with" | "avec" | "de" | "of"))
    };
    let subject = words.iter().any(|w| SUBJECTS.contains(w)) || (0..words.len()).any(someone);
    subject && !words.iter().any(|w| ASKS_SOU.contains(w))
}

/// Subjects of a sentence about the person's life.
const SUBJECTS: &[&str] =
    &["i", "im", "ive", "we", "je", "j", "on", "nous", "he", "she", "they", "il", "elle", "ils", "elles"];

/// The person's people, who a remark may be about.
const PEOPLE: &[&str] = &[
    "wife", "husband", "missus", "partner", "kids", "kid", "son", "daughter", "herself", "himself",
    "teenager", "mum", "mom", "dad", "femme", "mari", "enfants", "gamins", "gosses", "fils", "fille",
    "copine", "copines", "copain", "copains", "lads",
];

/// What the person's people do, in a remark about them ("the wife's asking", "ma fille
/// adore", "my son plays rugby").
const PEOPLE_VERBS: &[&str] = &[
    "asking", "asks", "asked", "says", "said", "plays", "played", "eats", "eat", "loves", "went", "goes",
    "has", "had", "needed", "wanted", "bought", "adore", "adorent", "dit", "demande", "joue", "mange",
    "mangent",
];

/// Words that ask something of Sou, correct or widen the question: a clause holding one
/// is never a remark.
const ASKS_SOU: &[&str] = &[
    "want",
    "wanna",
    "need",
    "like",
    "show",
    "see",
    "sort",
    "sorted",
    "trie",
    "trier",
    "give",
    "donne",
    "add",
    "ajoute",
    "put",
    "mets",
    "mettre",
    "compare",
    "check",
    "verifie",
    "list",
    "liste",
    "tell",
    "dis",
    "display",
    "affiche",
    "can",
    "could",
    "would",
    "please",
    "pls",
    "stp",
    "svp",
    "peux",
    "pourrais",
    "pouvez",
    "voudrais",
    "veux",
    "aimerais",
    "mean",
    "meant",
    "wait",
    "actually",
    "instead",
    "rather",
    "plutot",
    "pardon",
    "non",
    "no",
    "other",
    "autre",
    "autres",
    "either",
    "neither",
    "ni",
    "include",
    "inclus",
    "count",
    "compte",
    "comptes",
    "exclude",
    "same",
    "meme",
    "again",
    "encore",
    "more",
    "less",
    "moins",
    "too",
    "then",
    "puis",
    "ensuite",
    "before",
    "after",
    "avant",
    "apres",
    "since",
    "depuis",
    "until",
    "jusqu",
    "between",
    "entre",
    "else",
    "separately",
    "each",
    "chaque",
    "if",
    "si",
    "whether",
    "know",
    "savoir",
    "sais",
    "combien",
    "how",
    "what",
    "which",
    "when",
    "where",
    "why",
    "quand",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "pourquoi",
    "ou",
    "or",
    "forgot",
    "oublie",
    "missing",
    "manque",
    "wrong",
    "faux",
    "erreur",
    "error",
    "mistake",
    "fix",
    "corrige",
];

/// "je crois que…", "I think that…": the "que" of a thought, not of "only".
fn after_thinking(tokens: &[crate::text::Token], k: usize) -> bool {
    matches!(tokens[k].norm.as_str(), "que" | "qu" | "that")
        && k > 0
        && matches!(
            tokens[k - 1].norm.as_str(),
            "crois" | "pense" | "trouve" | "sais" | "espere" | "think" | "guess" | "feel"
        )
}

/// "Merci d'avance.", "thanks a lot", "bonne journée", "hey quick one", "Bien
/// cordialement, Mme Lefèvre": thanks, wishes, openers and closings, nothing else.
pub(super) fn is_thanks(tokens: &[crate::text::Token]) -> bool {
    let words: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    let said = words.join(" ");
    // A closing may be signed: up to three words after it.
    let closing = CLOSINGS.iter().any(|c| {
        said.strip_prefix(c)
            .is_some_and(|rest| rest.is_empty() || (rest.starts_with(' ') && rest.split(' ').count() <= 4))
    });
    closing || THANKS.contains(&said.as_str())
}

/// Thanks, wishes and openers, as whole clauses (normalised words).
const THANKS: &[&str] = &[
    "je vous remercie",
    "je vous remercie par avance",
    "je vous remercie d avance",
    "merci",
    "merci beaucoup",
    "merci bien",
    "merci encore",
    "merci d avance",
    "merci par avance",
    "thanks",
    "thx",
    "ty",
    "cheers",
    "many thanks",
    "thanks a lot",
    "thanks in advance",
    "thank you",
    "thank you kindly",
    "thank you so much",
    "thank you very much",
    "dear sou",
    "dear sir",
    "dear sirs",
    "dear madam",
    "dear sir or madam",
    "dear sir madam",
    "to whom it may concern",
    "monsieur",
    "madame",
    "madame monsieur",
    "monsieur madame",
    "cher monsieur",
    "chere madame",
    "bonjour monsieur",
    "bonjour madame",
    "hello sou",
    "hi sou",
    "bonjour sou",
    "salut sou",
    "cher sou",
    "good morning",
    "good afternoon",
    "good evening",
    "bonjour",
    "bonsoir",
    "hello",
    "hi",
    "hey",
    "salut",
    "coucou",
    "bonne journee",
    "bonne soiree",
    "have a nice day",
    "have a good day",
    "hey quick one",
    "hey quick question",
    "hi quick one",
    "hi quick question",
    "ok quick one",
    "ok quick question",
    "so quick one",
    "so quick question",
    "quick one",
    "quick question",
    "petite question",
    "question rapide",
    "if you please",
    "if you would",
    "if you could",
    "si possible",
    "if possible",
    "if you can tell me",
    "if you could tell me",
    "go on",
    "si c est possible",
    "si ce n est pas trop demander",
    "if it s not too much trouble",
    "if its not too much trouble",
    "si vous le voulez bien",
    "si tu veux bien",
];

/// Closings, which a name may follow.
const CLOSINGS: &[&str] = &[
    "je vous prie d agreer l expression de mes salutations distinguees",
    "je vous prie d agreer l expression de mes sentiments distingues",
    "je vous prie d agreer mes salutations distinguees",
    "je vous prie d agreer mes sinceres salutations",
    "veuillez agreer l expression de mes salutations distinguees",
    "veuillez agreer l expression de mes sentiments distingues",
    "veuillez agreer mes salutations distinguees",
    "veuillez agreer mes sinceres salutations",
    "recevez mes salutations distinguees",
    "salutations distinguees",
    "sinceres salutations",
    "mes salutations",
    "respectueusement",
    "bien a vous",
    "avec mes remerciements",
    "avec tous mes remerciements",
    "with my thanks",
    "bien cordialement",
    "tres cordialement",
    "cordialement",
    "yours sincerely",
    "yours faithfully",
    "yours truly",
    "sincerely",
    "with thanks",
    "with many thanks",
    "many thanks",
    "thanks",
    "thank you",
    "merci",
    "merci beaucoup",
    "best wishes",
    "bises",
    "bisous",
    "best regards",
    "kind regards",
    "warm regards",
    "regards",
];

/// Words that narrow what is asked, however they are placed ("…, only the food ones",
/// "…, surtout la bouffe"): a clause holding one is never a remark.
fn restricts(w: &str) -> bool {
    RESTRICTING_WORDS.contains(&w)
}

const RESTRICTING_WORDS: &[&str] = &[
    "only",
    "just",
    "juste",
    "seulement",
    "uniquement",
    "que",
    "qu",
    "mostly",
    "mainly",
    "surtout",
    "especially",
    "notamment",
    "but",
    "mais",
    "except",
    "sauf",
    "also",
    "aussi",
    "plus",
    "per",
    "par",
    "each",
    "chaque",
];

/// Interjections that open a remark even with no comma before them.
const INTERJECTIONS: &[&str] = &["lol", "ngl", "tbh", "haha", "lmao", "omg", "ugh", "mdr", "ptdr", "jpp"];

/// Where the message may hold a remark: (the question, the remark, whether the remark is
/// a sentence of its own) with the remark after the last break (`,` `.` `?` `!` `;` `…`,
/// a dash) or before the first one, or between two breaks ("Je voudrais savoir,
/// puisque …, quels prélèvements …").
fn splits(message: &str) -> Vec<(String, &str, bool)> {
    fn trim(s: &str) -> &str {
        s.trim_matches(|c: char| c.is_whitespace() || ",.?!;…—–-()".contains(c))
    }
    let tokens = tokenize(message);
    let gap = |i: usize| &message[tokens[i - 1].end..tokens[i].start];
    // ("…this year lol its probably bad": an interjection opens a clause of its own —
    // one that ends the message stays with the clause it closes.)
    let breaks: Vec<usize> = (1..tokens.len())
        .filter(|&i| {
            gap(i).contains([',', '.', '?', '!', ';', '…', '—', '–', '('])
                || gap(i).contains(" - ")
                || (INTERJECTIONS.contains(&tokens[i].norm.as_str()) && i + 1 < tokens.len())
        })
        .collect();
    let full = |i: usize| gap(i).contains(['.', '?', '!']);
    let mut out = Vec::new();
    if let Some(&last) = breaks.last() {
        let cut = tokens[last].start;
        out.push((trim(&message[..cut]).to_string(), trim(&message[cut..]), full(last)));
    }
    // "…. Bien cordialement, Mme Lefèvre": a closing of two clauses.
    if breaks.len() >= 2 {
        let at = breaks[breaks.len() - 2];
        let cut = tokens[at].start;
        out.push((trim(&message[..cut]).to_string(), trim(&message[cut..]), full(at)));
    }
    if let Some(&first) = breaks.first() {
        let cut = tokens[first].start;
        out.push((trim(&message[cut..]).to_string(), trim(&message[..cut]), full(first)));
    }
    // A clause between two breaks: the question is what is around it.
    for pair in breaks.windows(2) {
        let (a, b) = (tokens[pair[0]].start, tokens[pair[1]].start);
        let before = message[..a].trim_end_matches(|c: char| c.is_whitespace() || ",;—–-(".contains(c));
        let sentence = full(pair[0]) && full(pair[1]);
        out.push((format!("{before} {}", trim(&message[b..])), trim(&message[a..b]), sentence));
    }
    out
}

/// "because …", "puisque …", "afin que …", "given that …": a clause that says why the
/// person asks — how many words open it. It may be long, and its "que" is a
/// conjunction's, not "only".
fn justifies(tokens: &[crate::text::Token]) -> Option<usize> {
    let w = |k: usize| tokens.get(k).map_or("", |t| t.norm.as_str());
    if matches!(w(0), "because" | "cause" | "cuz" | "coz" | "puisque" | "puisqu" | "car") {
        return Some(1);
    }
    let two =
        matches!(
            (w(0), w(1)),
            ("parce", "que" | "qu") | ("vu", "que" | "qu") | ("afin", _) | ("given", "that")
        ) || matches!((w(0), w(1)), ("considering", _) | ("seeing", "as" | "that") | ("pour", "que" | "qu"))
            || matches!((w(0), w(1)), ("so", "that") | ("in", "order"))
            || matches!((w(0), w(1), w(2)), ("etant", "donne", "que" | "qu") | ("dans", "la", "mesure"));
    two.then_some(2)
}

/// "je ne suis pas sûr", "je n'arrive pas à …", "I can't remember", "no me acuerdo": the
/// person saying what they do not know or remember — how many words open the clause. A
/// negation of their own state, never of what is asked.
fn doubts(tokens: &[crate::text::Token]) -> Option<usize> {
    const OPENERS: &[&[&str]] = &[
        &["je", "ne", "suis", "pas"],
        &["je", "suis", "pas"],
        &["jsuis", "pas"],
        &["chu", "pas"],
        &["je", "n", "arrive", "pas"],
        &["j", "arrive", "pas"],
        &["jarrive", "pas"],
        &["je", "ne", "m", "en", "souviens", "plus"],
        &["je", "ne", "m", "en", "souviens", "pas"],
        &["je", "m", "en", "souviens", "plus"],
        &["je", "m", "en", "souviens", "pas"],
        &["je", "ne", "sais", "plus"],
        &["je", "sais", "plus"],
        &["jsais", "plus"],
        &["j", "ai", "pas", "suivi"],
        &["jai", "pas", "suivi"],
        &["i", "m", "not", "sure"],
        &["im", "not", "sure"],
        &["i", "am", "not", "sure"],
        &["not", "sure"],
        &["i", "can", "t", "remember"],
        &["i", "cant", "remember"],
        &["can", "t", "remember"],
        &["cant", "remember"],
        &["i", "don", "t", "remember"],
        &["i", "dont", "remember"],
        &["i", "do", "not", "remember"],
        &["i", "cannot", "remember"],
        &["i", "cannot", "recall"],
        &["no", "me", "acuerdo"],
        &["no", "recuerdo"],
    ];
    lexicon::phrase_at(tokens, 0, OPENERS)
}

/// "I want to check them", "je veux faire du tri", "need to cut some", "pour voir ce
/// qu'on contrôle", "so I can plan": a clause that says what the answer is for — how
/// many words open it, its verb included. A verb that asks Sou for another form
/// ("I want to compare", "pour trier") opens none.
fn purpose(tokens: &[crate::text::Token]) -> Option<usize> {
    let w = |k: usize| tokens.get(k).map_or("", |t| t.norm.as_str());
    const OPENERS: &[&[&str]] = &[
        &["i", "want", "to"],
        &["i", "wanna"],
        &["i", "need", "to"],
        &["need", "to"],
        &["want", "to"],
        &["im", "trying", "to"],
        &["i", "m", "trying", "to"],
        &["trying", "to"],
        &["so", "i", "can"],
        &["so", "we", "can"],
        &["je", "veux"],
        &["je", "voudrais"],
        &["on", "veut"],
        &["j", "ai", "besoin", "de"],
        &["jai", "besoin", "de"],
        &["c", "est", "pour"],
        &["pour"],
    ];
    let n = lexicon::phrase_at(tokens, 0, OPENERS)?;
    let verb = w(n);
    let french = !matches!(w(0), "i" | "need" | "want" | "im" | "trying" | "so");
    let infinitive = ["er", "ir", "re", "oir"].iter().any(|e| verb.ends_with(e)) && verb.len() > 3;
    let asks_a_form = matches!(
        verb,
        "compare"
            | "comparer"
            | "sort"
            | "trier"
            | "list"
            | "lister"
            | "group"
            | "grouper"
            | "average"
            | "split"
            | "break"
            | "show"
            | "montrer"
            | "afficher"
            | "know"
            | "savoir"
            | "see"
    );
    (!verb.is_empty() && !asks_a_form && (!french || infinitive)).then_some(n + 1)
}

impl Parser {
    /// The question and the remark beside it, when the message holds one.
    pub(super) fn remark(&self, message: &str, cx: &Context<'_>) -> Option<(String, String)> {
        // One remark, then another in what is left ("What's my taxi spending in November?
        // I don't drive anymore, it's the knee."), up to a few.
        let mut question = message.to_string();
        let mut remarks: Vec<String> = Vec::new();
        for _ in 0..4 {
            let Some((rest, remark)) = splits(&question)
                .into_iter()
                .find(|(q, r, full)| !q.is_empty() && self.says_nothing(r, *full, cx))
                .map(|(q, r, _)| (q, r.to_string()))
            else {
                break;
            };
            remarks.push(remark);
            question = rest;
        }
        if remarks.is_empty() {
            return None;
        }
        remarks.sort_by_key(|r| message.find(r.as_str()));
        Some((question, remarks.join(" … ")))
    }

    /// Whether a clause says nothing Sou reads: a remark's word, and no word that names,
    /// dates, counts, computes, negates or narrows anything.
    fn says_nothing(&self, clause: &str, sentence: bool, cx: &Context<'_>) -> bool {
        let tokens = tokenize(clause);
        if is_thanks(&tokens) {
            return true;
        }
        // "Je ne suis pas certain de savoir où regarder": the doubt, then words that must
        // name, date, count, negate and narrow nothing.
        if let Some(n) = doubts(&tokens) {
            let rest = &tokens[n..];
            return rest.len() <= 12
                && !rest.iter().any(|t| {
                    t.kind != TokenKind::Word
                        || period::is_time_word(t)
                        || restricts(&t.norm)
                        || lexicon::changes_meaning(&t.norm)
                        || lexicon::is_exclusion_word(&t.norm)
                })
                && self.names_nothing(&tokens, (0..tokens.len()).map(|k| k < n).collect(), clause, cx);
        }
        let words = |f: &dyn Fn(&str) -> bool| tokens.iter().any(|t| f(&t.norm));
        // "i go every week", "j'y vais tous les matins": how often, not a period.
        let how_often = |k: usize| {
            let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
            (k >= 1 && matches!(w(k - 1), "every"))
                || (k >= 2 && w(k - 1) == "les" && matches!(w(k - 2), "tous" | "toutes"))
        };
        let opener = justifies(&tokens).or_else(|| purpose(&tokens));
        let why = opener.is_some();
        // (Its "que": "parce que", "afin que", "la déclaration que mon comptable …".)
        let conjunction = |w: &str| why && matches!(w, "que" | "qu");
        if tokens.is_empty()
            // (A sentence of its own may be long: "My son the doctor says it's arthritis,
            // what does he know".)
            || tokens.len() > if why || sentence { 24 } else { 12 }
            || tokens
                .iter()
                .enumerate()
                .any(|(k, t)| t.kind != TokenKind::Word || (period::is_time_word(t) && !how_often(k)))
            || !(why || words(&is_remark_marker) || speaks_of_self(&tokens))
            || (why && tokens.iter().skip(opener.map_or(2, |n| n.max(2))).any(|t| ASKS_SOU.contains(&t.norm.as_str())))
            || tokens
                .iter()
                .enumerate()
                .any(|(k, t)| restricts(&t.norm) && !after_thinking(&tokens, k) && !conjunction(&t.norm))
            || words(&lexicon::changes_meaning)
            || words(&lexicon::is_exclusion_word)
            // ("…, and is it still going?": a question, after its "and".)
            || tokens
                .iter()
                .find(|t| !matches!(t.norm.as_str(), "and" | "et" | "so" | "donc" | "alors" | "also" | "aussi"))
                .is_some_and(|t| steps::starts_a_request(&t.norm))
            || words(&steps::asks_or_leads_on)
            || lexicon::asks_about_world(&tokens)
            || lexicon::label_text(clause, &tokens, &mut vec![false; tokens.len()]).is_some()
        {
            return false;
        }
        let mut used: Vec<bool> =
            (0..tokens.len()).map(|k| period::is_time_word(&tokens[k]) && how_often(k)).collect();
        // The words that open a reason are its own.
        used.iter_mut().take(opener.unwrap_or(0)).for_each(|u| *u = true);
        self.names_nothing(&tokens, used, clause, cx)
    }

    /// Whether `tokens` but those `used` read as no period, calculation, exclusion or name.
    fn names_nothing(
        &self,
        tokens: &[crate::text::Token],
        mut used: Vec<bool>,
        clause: &str,
        cx: &Context<'_>,
    ) -> bool {
        if period::find(tokens, &used, clause, cx.today, crate::locale::Locale::En).is_some() {
            return false;
        }
        let read = intent::read(tokens, &mut used, clause);
        if read.kind.is_some()
            || read.group_by.is_some()
            || read.advice
            || read.average
            || read.largest
            || read.latest
            || read.top.is_some()
            || read.direction.is_some()
            || !read.words.is_empty()
        {
            return false;
        }
        let finder = self.finder();
        if !finder.excluded(tokens, &mut used, clause).is_empty() {
            return false;
        }
        let found = finder.entities(tokens, &mut used, clause);
        found.categories.is_empty()
            && found.merchants.is_empty()
            && found.accounts.is_empty()
            && found.unrecognized.iter().all(|u| !u.changes_meaning)
    }
}

#[cfg(test)]
mod tests {
    use super::splits;

    #[test]
    fn a_remark_is_after_the_last_break_before_the_first_or_between_two() {
        let s = splits("how much at foncia this year, the agency keeps adding fees ngl");
        assert_eq!(
            s[0],
            ("how much at foncia this year".to_string(), "the agency keeps adding fees ngl", false)
        );
        let s = splits("je stresse. combien ce mois-ci ?");
        assert_eq!(s[1], ("combien ce mois-ci".to_string(), "je stresse", true));
        assert!(splits("combien ce mois-ci").is_empty());
        let s = splits("Je voudrais savoir, puisqu'un loyer manque, quels prélèvements Foncia cette année.");
        let around = "Je voudrais savoir quels prélèvements Foncia cette année".to_string();
        assert_eq!(s[3], (around, "puisqu'un loyer manque", false));
    }
}
