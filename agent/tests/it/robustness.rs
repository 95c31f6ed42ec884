//! Arbitrary input never panics and always yields a plan or a clarification.

use agent::{Context, Date, Locale, ParseOutcome, Parser, ReasonCode, Vocabulary};
use proptest::prelude::*;

/// The demo vocabulary and two datasets, so the analyst reading runs too.
fn parser() -> Parser {
    let mut vocab: Vocabulary =
        serde_json::from_str(include_str!("../../../backend/demo/vocabulary.json")).unwrap();
    vocab.datasets = serde_json::from_value(serde_json::json!([
        {"name": "ventes", "columns": [{"name": "region", "type": "text"}, {"name": "montant", "type": "number"},
                                       {"name": "mois", "type": "text"}, {"name": "quantite", "type": "integer"}]},
        {"name": "chiffre_d_affaires", "columns": [{"name": "region", "type": "text"}, {"name": "ca", "type": "number"},
                                                   {"name": "date", "type": "date"}]}
    ]))
    .unwrap();
    Parser::new(vocab)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_unicode_is_parsed(msg in "\\PC{0,300}") {
        let p = parser();
        let today = Date::new(2026, 11, 21).unwrap();
        let first = p.parse(&msg, &Context { today, locale: None, previous: None });
        // Deterministic, and usable as context for the next message.
        let again = p.parse(&msg, &Context { today, locale: None, previous: None });
        prop_assert_eq!(&first, &again);
        let _ = p.parse(&msg, &Context { today, locale: None, previous: first.plan() });
    }

    #[test]
    fn finance_words_in_any_order(words in proptest::collection::vec(
        prop::sample::select(vec!["combien", "dépensé", "how", "much", "spent", "courses", "janvier",
            "2026", "et", "and", "par", "by", "category", "mois", "dernier", "last", "month", "2025",
            "Carrefour", "restaurents", "monop", "transactions", "12/01/2026", "€", "may", "sept",
            "solde", "budget", "abonnements", "Livret A", "précédent", "avant", "l'été", "should",
            "refunds", "entre", "le", "1er", "vs", "par rapport", "1 234,56", "$", "plus de", "top",
            "taux d'épargne", "cash flow", "hiver", "Q3", "T1", "depuis", "since", "des", "3",
            "ventes", "région", "montant", "moyenne", "total", "nombre", "dans", "in", "chiffre d'affaires",
            "le plus", "moins", "most", "de", "d'", "ca", "date", "quantité", "max",
            // Writes: their verbs, connectors and markers.
            "mets", "set", "fixe", "supprime", "remove", "to", "en", "à partir de", "from", "→", "->",
            "règle", "rule", "always", "toujours", "classe", "move", "put", "passent", "fusionne",
            "merge", "into", "renomme", "rename", "same merchant", "même marchand", "comme",
            "virements internes", "as transfers", "Uber Eats", "«", "»", "contenant", ",", "sauf",
            // Shorthand, numbers in words, asides and corrections.
            "cmb", "auj", "chui", "mois der", "sem", "txns", "pro", "septante-cinq", "one hundred and",
            "thirty", "il y a deux mois", "ago", "or more", "ou moins", "Dear Sou", "Yours sincerely,",
            "NFLX.COM c'est", "actuellement en", "de la semaine", "jusqu'à aujourd'hui", "since the 15th",
            "non pas", "I meant", "no breakdown,", "just", "not the total,", ".", ":", "?"]), 0..16)) {
        let msg = words.join(" ");
        let today = Date::new(2026, 1, 31).unwrap();
        let p = parser();
        let _ = p.plan_steps(&msg, &Context { today, locale: None, previous: None });
        let first = p.parse(&msg, &Context { today, locale: None, previous: None });
        let _ = p.parse(&msg, &Context { today, locale: None, previous: first.plan() });
    }
}

/// A message over the parser's limit is told it is too long, in its own language
/// (whatever the interface's), and still offered plans to pick.
#[test]
fn a_long_message_is_told_too_long_in_its_language() {
    let p = parser();
    let today = Date::new(2026, 11, 21).unwrap();
    let fr = "Combien j'ai dépensé en courses et en restaurants depuis le début de l'année ? ".repeat(40);
    let en = "How much did I spend on groceries and restaurants since the start of the year? ".repeat(40);
    for (message, interface, want, words) in [
        (&fr, Some(Locale::En), Locale::Fr, "trop long"),
        (&en, Some(Locale::Fr), Locale::En, "too long"),
        (&fr, None, Locale::Fr, "500 caractères"),
    ] {
        assert!(message.chars().count() > 3000);
        let outcome = p.parse(message, &Context { today, locale: interface, previous: None });
        let ParseOutcome::Clarification(c) = outcome else {
            panic!("a plan for a long message: {outcome:?}")
        };
        assert_eq!(c.locale, want);
        assert!(c.question.contains(words), "{}", c.question);
        assert_eq!(c.reasons.iter().map(|r| r.code).collect::<Vec<_>>(), [ReasonCode::TooLong]);
        assert!(!c.suggestions.is_empty());
    }
}

/// Write requests, whole and cut at every word, never panic, and a write plan as the
/// previous one is never continued.
#[test]
fn write_requests_and_their_prefixes_are_parsed() {
    let p = parser();
    let today = Date::new(2026, 11, 21).unwrap();
    let messages = [
        "fixe mon budget courses à 250 € à partir de janvier",
        "remove my shopping budget from January",
        "create a rule: Uber Eats → Restaurants",
        "règle : les libellés contenant « LIBRAIRIE » vont en Loisirs",
        "classe toutes les opérations PAUL en Courses",
        "put my Fnac purchases from last month in Leisure",
        "Amazon Marketplace, AMZN et Monop c'est le même marchand",
        "merge Lidl into Carrefour",
        "renomme Le Petit Bistrot en « Chez Marcel »",
        "marque les virements vers mon livret comme transferts internes",
        "ces opérations BOURSORAMA de plus de 100 € sont des virements internes",
    ];
    for message in messages {
        let words: Vec<&str> = message.split(' ').collect();
        for n in 1..=words.len() {
            let m = words[..n].join(" ");
            let first = p.parse(&m, &Context { today, locale: None, previous: None });
            let next = p.parse("et en mars ?", &Context { today, locale: None, previous: first.plan() });
            if first.plan().is_some_and(|p| p.call.is_write()) {
                assert!(next.plan().is_none_or(|p| !p.call.is_write()), "{m}: {next:?}");
            }
        }
    }
}
