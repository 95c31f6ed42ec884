//! The period finder's own tests: words to periods, seasons, steps.

use super::*;
use crate::text::tokenize;

fn find_in(msg: &str) -> Option<(String, String, String)> {
    let today = Date::new(2026, 11, 21)?;
    let tokens = tokenize(msg);
    let used = vec![false; tokens.len()];
    find(&tokens, &used, msg, today, Locale::Fr)
        .map(|f| (f.period.start.to_string(), f.period.end.to_string(), f.period.words))
}

#[test]
fn months_years_relative() {
    let p = |a: &str, b: &str, w: &str| Some((a.to_string(), b.to_string(), w.to_string()));
    assert_eq!(find_in("en janvier 2026"), p("2026-01-01", "2026-02-01", "janvier 2026"));
    assert_eq!(find_in("in December"), p("2025-12-01", "2026-01-01", "December"));
    assert_eq!(find_in("en novembre"), p("2026-11-01", "2026-12-01", "novembre"));
    assert_eq!(find_in("le mois dernier"), p("2026-10-01", "2026-11-01", "le mois dernier"));
    assert_eq!(find_in("in 2025"), p("2025-01-01", "2026-01-01", "2025"));
    assert_eq!(find_in("cette semaine"), p("2026-11-16", "2026-11-23", "cette semaine"));
    assert_eq!(find_in("aujourd'hui"), p("2026-11-21", "2026-11-22", "aujourd'hui"));
    assert_eq!(find_in("may I ask"), None);
    assert_eq!(find_in("in may"), p("2026-05-01", "2026-06-01", "may"));
    assert_eq!(find_in("sept euros"), None);
    assert_eq!(find_in("année 9999"), None);
    // "il y a deux mois", "3 months ago": that month; days ago: that day.
    assert_eq!(find_in("il y a 2 mois"), p("2026-09-01", "2026-10-01", "il y a 2 mois"));
    assert_eq!(find_in("3 months ago"), p("2026-08-01", "2026-09-01", "3 months ago"));
    assert_eq!(find_in("2 days ago"), p("2026-11-19", "2026-11-20", "2 days ago"));
    assert_eq!(find_in("two weeks ago"), None);
    // "this month last year"; "the same month last year" depends on which month.
    assert_eq!(find_in("this month last year"), p("2025-11-01", "2025-12-01", "this month last year"));
    assert_eq!(find_in("the same month last year").map(|f| f.2), Some("last year".to_string()));
    // "so far" of the current period: up to today (on the server).
    #[cfg(feature = "readings")]
    {
        assert_eq!(find_in("ce mois-ci jusqu'ici"), p("2026-11-01", "2026-11-22", "ce mois-ci jusqu'ici"));
        let so_far = find_in("so far in 2026").map(|f| (f.0, f.1));
        assert_eq!(so_far, Some(("2026-01-01".into(), "2026-11-22".into())));
    }
    // "depuis lundi" (today is Saturday 21 November).
    assert_eq!(find_in("depuis lundi"), p("2026-11-16", "2026-11-22", "depuis lundi"));
    // "du trimestre", "hier soir", "ce matin".
    assert_eq!(find_in("les dépenses du trimestre"), p("2026-10-01", "2027-01-01", "du trimestre"));
    assert_eq!(find_in("du trimestre dernier"), p("2026-07-01", "2026-10-01", "trimestre dernier"));
    assert_eq!(find_in("hier soir"), p("2026-11-20", "2026-11-21", "hier soir"));
    assert_eq!(find_in("ce matin"), p("2026-11-21", "2026-11-22", "ce matin"));
    // "de la semaine" is this one, unless another week is said after it.
    assert_eq!(find_in("les dépenses de la semaine"), p("2026-11-16", "2026-11-23", "de la semaine"));
    assert_eq!(find_in("de la semaine dernière"), p("2026-11-09", "2026-11-16", "la semaine dernière"));
    // "depuis le mois de mars", "depuis le début du mois", "… jusqu'à aujourd'hui".
    assert_eq!(find_in("depuis le mois de mars"), p("2026-03-01", "2026-11-22", "depuis le mois de mars"));
    assert_eq!(find_in("depuis le début du mois"), p("2026-11-01", "2026-11-22", "depuis le début du mois"));
    assert_eq!(
        find_in("depuis le 1er septembre jusqu'à aujourd'hui"),
        p("2026-09-01", "2026-11-22", "depuis le 1er septembre jusqu'à aujourd'hui")
    );
    // "since the 15th": this month's (today is 21 November), or last month's.
    assert_eq!(find_in("since the 15th"), p("2026-11-15", "2026-11-22", "since the 15th"));
    assert_eq!(find_in("depuis le 25 du mois"), p("2026-10-25", "2026-11-22", "depuis le 25 du mois"));
    // A span's end follows its start (today is 21 November 2026).
    assert_eq!(
        find_in("between 1 September and 30 November"),
        p("2026-09-01", "2026-12-01", "between 1 September and 30 November")
    );
    // "la fin de semaine" is the weekend in Québec (today is Saturday 21 November).
    assert_eq!(
        find_in("la fin de semaine passée"),
        p("2026-11-14", "2026-11-16", "la fin de semaine passée")
    );
    assert_eq!(find_in("cette fin de semaine"), p("2026-11-21", "2026-11-23", "cette fin de semaine"));
    assert_eq!(find_in("il y a 2 semaines"), None);
}

#[test]
fn seasons() {
    let p = |a: &str, b: &str, w: &str| Some((a.to_string(), b.to_string(), w.to_string()));
    assert_eq!(find_in("l'été dernier"), p("2026-06-01", "2026-09-01", "l'été dernier"));
    assert_eq!(find_in("cet hiver"), p("2025-12-01", "2026-03-01", "cet hiver"));
    assert_eq!(find_in("summer 2025"), p("2025-06-01", "2025-09-01", "summer 2025"));
    assert_eq!(find_in("over summer"), p("2026-06-01", "2026-09-01", "over summer"));
    assert_eq!(find_in("during summer"), p("2026-06-01", "2026-09-01", "during summer"));
    assert_eq!(find_in("last winter"), p("2025-12-01", "2026-03-01", "last winter"));
    // ("winter 2026" is read on the server only.)
    #[cfg(feature = "readings")]
    assert_eq!(find_in("hiver 2026"), p("2025-12-01", "2026-03-01", "hiver 2026"));
    assert_eq!(find_in("j'ai été payé"), None);
}

#[test]
fn steps_from_a_period() {
    let jan = month(Date::new(2026, 1, 1).unwrap(), Locale::Fr);
    let prev = step(&jan, Unit::Month, -1, Locale::Fr);
    assert_eq!((prev.start.to_string(), prev.end.to_string()), ("2025-12-01".into(), "2026-01-01".into()));
    let a_year_before = step(&jan, Unit::Year, -1, Locale::Fr);
    assert_eq!(a_year_before.start.to_string(), "2025-01-01");
    assert_eq!(a_year_before.end.to_string(), "2025-02-01");
    let y2025 = year(2025, Locale::En).unwrap();
    assert_eq!(step(&y2025, Unit::Year, -1, Locale::En).label, "year 2024");
    let q = step(&jan, Unit::Quarter, 1, Locale::En);
    assert_eq!((q.start.to_string(), q.end.to_string()), ("2026-04-01".into(), "2026-07-01".into()));
}
