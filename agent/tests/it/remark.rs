//! A remark beside the question, or a form turned down before it, is shown as not used;
//! the question alone runs only if it is read at high. Anything in the remark that could
//! name, date, count, negate or narrow keeps the run waiting.

use agent::{Confidence, Context, Date, ParseOutcome, Parser, ReasonCode, Vocabulary};

fn parser() -> Parser {
    let vocab = include_str!("../../../backend/demo/vocabulary.json");
    Parser::new(serde_json::from_str::<Vocabulary>(vocab).unwrap())
}

/// Whether the message runs at high with a remark reason, and its tool.
fn read(p: &Parser, message: &str) -> Option<(&'static str, bool)> {
    let cx = Context { today: Date::new(2026, 11, 29).unwrap(), locale: None, previous: None };
    match p.parse(message, &cx) {
        ParseOutcome::Plan(plan) if plan.meta.confidence == Confidence::High => {
            let remark = plan.meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::Remark);
            Some((plan.call.name(), remark))
        }
        _ => None,
    }
}

#[test]
fn remarks_are_not_used_and_say_so() {
    let p = parser();
    for (message, tool) in [
        ("how much have i paid foncia this year, the agency keeps adding fees ngl", "spending_summary"),
        ("mon loyer m'a coûté combien cette année, ça fait mal", "spending_summary"),
        ("am i over budget on eating out this month? im scared lol", "budget_status"),
        ("did i earn more in october than in september? freelancing is so up and down", "compare_periods"),
        ("je stresse. combien j'ai dépensé ce mois-ci ?", "spending_summary"),
        ("combien en santé en 2025 ? Merci d'avance.", "spending_summary"),
        ("I don't want the list, just the total I spent at monoprix in october", "spending_summary"),
        ("pas besoin du détail, juste le total des restos la semaine dernière", "spending_summary"),
        ("never mind the chart, just tell me how much I spent on health in 2025", "spending_summary"),
        ("i dont want the list just the total for uber last month", "spending_summary"),
        ("pas le total hein, je veux voir les transactions chez la fnac cette année", "list_transactions"),
        ("no breakdown, one number: transport 2025", "spending_summary"),
        ("je veux pas la moyenne, je veux le total des courses sur 2025", "spending_summary"),
        ("don't show me every single payment, just how much Uber cost last month", "spending_summary"),
        // A greeting before and a closing after.
        ("Good morning. Could you please tell me how much I spent on groceries in September? Thank you kindly.", "spending_summary"),
        ("Bonjour, je souhaiterais connaître le montant de mes dépenses de transports pour l'année 2025. Bien cordialement, Mme Lefèvre", "spending_summary"),
        // About the person's life, asking nothing.
        ("how much did healthcare cost me in september, i had the flu twice", "spending_summary"),
        ("combien chez paul ce mois, j'y vais tous les matins", "spending_summary"),
        ("how much did i spend at ugc this year, i go every week", "spending_summary"),
    ] {
        assert_eq!(read(&p, message), Some((tool, true)), "{message}");
    }
}

#[test]
fn what_might_narrow_the_question_is_never_a_remark() {
    let p = parser();
    for message in [
        // A restriction, a name, a number, a period, a negation, an ask in the clause.
        "how much at carrefour this month, it was mostly food",
        "how much at carrefour this month, i want the food ones",
        "combien chez amazon cette année, c'est les livres",
        "how much did i spend in october, i think i was in spain",
        "how much at zara this year lol, not the refunds",
        "combien en restos en octobre, j'avais pas faim",
        "liste les retraits du mois dernier, puis combien ça fait au total",
        "how much did I spend at amazon this year, is it bad",
        "combien chez Lidl en octobre, je pense qu'il y en a 3",
        "combien chez Lidl en octobre, c'était en septembre je crois",
        // The person speaks of themselves, but asks, corrects or widens.
        "how much at lidl in october, i mean the other one",
        "how much at lidl in october, we need the receipts",
        "how much at lidl in october, i go there every week of the year too",
        "combien chez paul ce mois, on y va aussi le dimanche",
        "combien chez paul ce mois, je veux savoir si c'est trop",
        "how much at ugc this month, we went twice in september",
        // Turned down, then asked for: a contradiction waits.
        "I don't want the list, show me the list of amazon purchases in october",
        "je ne veux pas le solde, juste mon solde",
        "not the total, just the total at uber last month",
        "pas la moyenne, juste la moyenne des courses par mois en 2025",
        "no breakdown, spending by category in 2025",
    ] {
        assert_eq!(read(&p, message), None, "{message}");
    }
}

/// A correction said after the question replaces the one period or name it names: the
/// plan is the corrected question's, with the correction said.
#[test]
fn a_correction_replaces_what_it_names() {
    let p = parser();
    let cx = Context { today: Date::new(2026, 11, 29).unwrap(), locale: None, previous: None };
    for (said, meant) in [
        ("combien en courses en septembre... non pardon, en octobre", "combien en courses en octobre"),
        ("how much did I spend at Lidl in August, wait no, July", "how much did I spend at Lidl in July"),
        (
            "how much on groceries in october, no wait, restaurants i mean",
            "how much on restaurants in october",
        ),
        ("restaurants in october, no wait not october, september", "restaurants in september"),
        ("combien chez carrefour ce mois, non pardon, chez lidl", "combien chez lidl ce mois"),
        // Said first: one thing taken back, the other given, then the question.
        ("no not october, i meant september. restaurants", "restaurants in september"),
        (
            "pas ce mois-ci, le mois dernier : combien en transports ?",
            "combien en transports le mois dernier",
        ),
        ("non pas le livret, le compte courant : solde ?", "solde du compte courant"),
        ("no i don't mean the livret, the current account balance", "the current account balance"),
    ] {
        let (ParseOutcome::Plan(a), ParseOutcome::Plan(b)) = (p.parse(said, &cx), p.parse(meant, &cx)) else {
            panic!("{said}: no plan");
        };
        assert_eq!(a.call, b.call, "{said}");
        assert_eq!(a.meta.confidence, Confidence::High, "{said}");
        assert!(a.meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::Correction), "{said}");
    }
    // Not one thing of a kind the question holds once, or not said to be a correction.
    for message in [
        "how much at lidl in august, no wait, july and august",
        "how much at lidl in august, no, not the refunds",
        "restaurants in october, no wait not the refunds, september",
        "combien en courses et en restos en septembre, non pardon, chez lidl",
        "how much at lidl in august, july",
        "how much at lidl in august, no wait, the other one",
        "not october, how much in october",
        "no not october. restaurants",
        "not groceries, how much on groceries and restaurants in october",
        "pas le livret, combien en courses en octobre",
    ] {
        assert_eq!(read(&p, message), None, "{message}");
    }
}
