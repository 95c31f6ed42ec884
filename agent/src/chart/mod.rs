//! Declarative charts: what a tool (or the page) asks to draw, never code. The same
//! spec is drawn as SVG on the server and in the browser (`app::chart`). Here, the
//! charts made from data — a query's rows, a summary's groups over time; the spec
//! itself is in `spec`.

pub(crate) mod spec;

pub use spec::{ChartKind, ChartSpec, Point};

use crate::datasets::QueryResult;
use crate::money::{Currency, Money};
use crate::tools::Group;

/// The most points a chart draws; a longer result is shown as a table only.
pub const MAX_POINTS: usize = 60;

/// Whether `s` reads as a date, a month, a quarter or a year (`2026-01-31`, `2026-01`,
/// `2026-Q1`, `2026-T1`, `2026`).
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    let year = b.len() >= 4 && b[..4].iter().all(u8::is_ascii_digit);
    match b.len() {
        4 => year && s.parse::<u32>().is_ok_and(|y| (1800..=2200).contains(&y)),
        7 if year && b[4] == b'-' && matches!(b[5], b'Q' | b'T') => (b'1'..=b'4').contains(&b[6]),
        7 | 10 => year && b[4] == b'-' && b[5..7].iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// The most slices a pie chart draws; more are shown as bars.
pub const MAX_SLICES: usize = 12;

/// A chart for a query's result when it has the shape of one: two columns, labels
/// then numbers, at most [`MAX_POINTS`] rows. Dates or months as labels give a line,
/// anything else bars.
pub fn suggest(result: &QueryResult, title: &str) -> Option<ChartSpec> {
    shaped(result, title, None)
}

/// As [`suggest`], drawn as `wanted` when the data allows it: a pie needs at most
/// [`MAX_SLICES`] values, none negative, not all zero; a line at least two points.
pub fn shaped(result: &QueryResult, title: &str, wanted: Option<ChartKind>) -> Option<ChartSpec> {
    if result.columns.len() != 2
        || result.rows.is_empty()
        || result.rows.len() > MAX_POINTS
        || result.truncated
    {
        return None;
    }
    let points: Vec<Point> = result
        .rows
        .iter()
        .map(|r| Some(Point { label: r.first()?.text(), value: r.get(1)?.as_f64()? }))
        .collect::<Option<_>>()?;
    if points.iter().any(|p| !p.value.is_finite()) {
        return None;
    }
    let pie_fits = points.len() <= MAX_SLICES
        && points.iter().all(|p| p.value >= 0.0)
        && points.iter().any(|p| p.value > 0.0);
    let kind = match wanted {
        Some(ChartKind::Pie) if pie_fits => ChartKind::Pie,
        Some(ChartKind::Line) if points.len() > 1 => ChartKind::Line,
        Some(ChartKind::Bar) => ChartKind::Bar,
        _ if points.len() > 1 && points.iter().all(|p| is_time(&p.label)) => ChartKind::Line,
        _ => ChartKind::Bar,
    };
    Some(ChartSpec {
        kind,
        title: title.to_string(),
        x: result.columns[0].clone(),
        y: result.columns[1].clone(),
        points,
        currency: None,
        percent: false,
    })
}

/// 10 to the power of the currency's exponent: minor units per major unit.
fn scale(currency: Currency) -> f64 {
    10_f64.powi(i32::try_from(currency.exponent()).unwrap_or(0))
}

/// Money as a value to draw: in major units.
fn major(m: Money) -> f64 {
    m.minor as f64 / scale(m.currency)
}

/// A drawn value back as money in `currency` (major units, rounded to the minor unit) —
/// for writing a chart's values when [`ChartSpec::currency`] is set.
pub fn money(value: f64, currency: Currency) -> Money {
    Money::new((value * scale(currency)).round() as i64, currency)
}

/// A line through a summary's money per month, week or day, in date order: at least two
/// groups and at most [`MAX_POINTS`], all in one currency. The values are major units,
/// for drawing only; the amounts themselves stay in the groups.
pub fn over_time(groups: &[Group], title: &str, x: &str, y: &str) -> Option<ChartSpec> {
    let currency = groups.first()?.total.currency;
    if groups.len() < 2 || groups.len() > MAX_POINTS || groups.iter().any(|g| g.total.currency != currency) {
        return None;
    }
    let points = groups.iter().map(|g| Point { label: g.label.clone(), value: major(g.total) }).collect();
    Some(ChartSpec {
        kind: ChartKind::Line,
        title: title.to_string(),
        x: x.to_string(),
        y: y.to_string(),
        points,
        currency: Some(currency),
        percent: false,
    })
}

/// Bars of groups as given (largest first), at most [`MAX_POINTS`], all in one
/// currency: money in major units, or with `whole` (minor units) each group's share of
/// it in percent, so that the chart shows no money.
pub fn bars(groups: &[Group], whole: Option<i64>, title: &str, x: &str, y: &str) -> Option<ChartSpec> {
    let currency = groups.first()?.total.currency;
    if groups.iter().any(|g| g.total.currency != currency) {
        return None;
    }
    let value = |g: &Group| match whole {
        // Tenths of a percent, as tables write shares.
        Some(w) => {
            let bp = crate::money::share_bp(g.total.minor, w).unwrap_or(0);
            ((bp + 5 * bp.signum()) / 10) as f64 / 10.0
        }
        None => major(g.total),
    };
    let points =
        groups.iter().take(MAX_POINTS).map(|g| Point { label: g.label.clone(), value: value(g) }).collect();
    Some(ChartSpec {
        kind: ChartKind::Bar,
        title: title.to_string(),
        x: x.to_string(),
        y: y.to_string(),
        points,
        currency: whole.is_none().then_some(currency),
        percent: whole.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datasets::{Cell, NumText};

    fn group(label: &str, minor: i64, currency: &str) -> Group {
        Group {
            key: label.into(),
            label: label.into(),
            total: Money::new(minor, Currency::new(currency).unwrap()),
            count: 1,
        }
    }

    #[test]
    fn money_over_time_is_a_line_in_major_units() {
        let months = [group("janv. 2026", 123_456, "EUR"), group("févr. 2026", 5, "EUR")];
        let c = over_time(&months, "Dépenses par mois", "mois", "dépenses").unwrap();
        assert_eq!(c.kind, ChartKind::Line);
        assert_eq!(c.points[0], Point { label: "janv. 2026".into(), value: 1234.56 });
        assert_eq!(c.points[1].value, 0.05);
        assert_eq!(c.currency, Currency::new("EUR"));
        let yen = over_time(&[group("a", 1500, "JPY"), group("b", 0, "JPY")], "t", "x", "y").unwrap();
        assert_eq!(yen.points[0].value, 1500.0);
        // One point is no line; mixed currencies are not drawn on one axis.
        assert_eq!(over_time(&months[..1], "t", "x", "y"), None);
        assert_eq!(over_time(&[group("a", 1, "EUR"), group("b", 1, "USD")], "t", "x", "y"), None);
        assert_eq!(over_time(&[], "t", "x", "y"), None);
        let many: Vec<Group> = (0..=MAX_POINTS).map(|i| group(&i.to_string(), 1, "EUR")).collect();
        assert_eq!(over_time(&many, "t", "x", "y"), None);
    }

    fn result(columns: &[&str], rows: Vec<Vec<Cell>>) -> QueryResult {
        QueryResult {
            sql: "q".into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
            truncated: false,
        }
    }

    fn num(s: &str) -> Cell {
        Cell::Num(NumText { num: s.into() })
    }

    #[test]
    fn labels_and_numbers_make_a_chart() {
        let r = result(
            &["region", "total"],
            vec![
                vec![Cell::Text("Nord".into()), num("1500.75")],
                vec![Cell::Text("Sud".into()), Cell::Int(800)],
            ],
        );
        let c = suggest(&r, "t").unwrap();
        assert_eq!((c.kind, c.x.as_str(), c.y.as_str()), (ChartKind::Bar, "region", "total"));
        assert_eq!(c.points[0], Point { label: "Nord".into(), value: 1500.75 });
        let months = result(
            &["mois", "n"],
            vec![
                vec![Cell::Text("2026-01".into()), Cell::Int(3)],
                vec![Cell::Text("2026-02".into()), Cell::Int(5)],
            ],
        );
        assert_eq!(suggest(&months, "t").unwrap().kind, ChartKind::Line);
        for (a, b) in [("2025-Q4", "2026-Q1"), ("2025-T4", "2026-T1"), ("2025", "2026")] {
            let r = result(
                &["t", "n"],
                vec![vec![Cell::Text(a.into()), Cell::Int(3)], vec![Cell::Text(b.into()), Cell::Int(5)]],
            );
            assert_eq!(suggest(&r, "t").unwrap().kind, ChartKind::Line, "{a}");
        }
        let codes = result(
            &["code", "n"],
            vec![
                vec![Cell::Text("2026-QX".into()), Cell::Int(3)],
                vec![Cell::Text("9999".into()), Cell::Int(5)],
            ],
        );
        assert_eq!(suggest(&codes, "t").unwrap().kind, ChartKind::Bar);
        // Asked for: a pie when the values are shares of a whole, else what fits.
        assert_eq!(shaped(&r, "t", Some(ChartKind::Pie)).unwrap().kind, ChartKind::Pie);
        assert_eq!(shaped(&months, "t", Some(ChartKind::Bar)).unwrap().kind, ChartKind::Bar);
        let negative = result(
            &["a", "b"],
            vec![vec![Cell::Text("x".into()), Cell::Int(-1)], vec![Cell::Text("y".into()), Cell::Int(2)]],
        );
        assert_eq!(shaped(&negative, "t", Some(ChartKind::Pie)).unwrap().kind, ChartKind::Bar);
    }

    #[test]
    fn other_shapes_stay_tables() {
        let three = result(&["a", "b", "c"], vec![vec![Cell::Int(1), Cell::Int(2), Cell::Int(3)]]);
        assert!(suggest(&three, "t").is_none());
        let text = result(&["a", "b"], vec![vec![Cell::Text("x".into()), Cell::Text("y".into())]]);
        assert!(suggest(&text, "t").is_none());
        let null = result(&["a", "b"], vec![vec![Cell::Text("x".into()), Cell::Null]]);
        assert!(suggest(&null, "t").is_none());
        let long =
            result(&["a", "b"], (0..61).map(|i| vec![Cell::Text(i.to_string()), Cell::Int(i)]).collect());
        assert!(suggest(&long, "t").is_none());
        assert!(suggest(&result(&["a", "b"], vec![]), "t").is_none());
    }
}
