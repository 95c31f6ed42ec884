//! The short text answer that follows a tool result, written without a model.
//!
//! It quotes what a bank, a file or the user named (labels, merchants, dataset cells), so
//! it is text, never Markdown: [`event`] is how it is sent, and the page shows it as it is.

use crate::protocol::ChatEvent;
use crate::{Locale, ToolOutput};

/// Sou's own answer to a tool result, as the chat stream sends it: a `token` whose
/// format is text (see [`ChatEvent::text`]), so a label such as
/// `[Confirmez votre compte](https://…)` is shown as written, not as a link.
pub fn event(output: &ToolOutput, locale: Locale) -> ChatEvent {
    ChatEvent::text(summarize(output, locale))
}

/// A change: 1234 basis points -> "+12,3 %" (fr) or "+12.3%" (en).
pub fn percent(bp: i64, locale: Locale) -> String {
    basis_points(bp, if bp < 0 { "-" } else { "+" }, locale)
}

/// A share as people read it: 7333 -> "73,3 %" / "73.3%"; no sign when positive.
pub fn share(bp: i64, locale: Locale) -> String {
    basis_points(bp, if bp < 0 { "-" } else { "" }, locale)
}

/// Tenths of a percent, rounded half away from zero. Integer arithmetic only.
fn basis_points(bp: i64, sign: &str, locale: Locale) -> String {
    let tenths = (bp.unsigned_abs() + 5) / 10;
    match locale {
        Locale::Fr => format!("{sign}{},{}\u{a0}%", tenths / 10, tenths % 10),
        Locale::En => format!("{sign}{}.{}%", tenths / 10, tenths % 10),
    }
}

/// Sou's sentence for a result: each tool's own (in its file, `crate::tool`).
pub fn summarize(output: &ToolOutput, locale: Locale) -> String {
    output.answer(locale)
}

/// "En moyenne : 123,45 € par mois, sur 12 mois (un mois sans opération compte pour
/// zéro)."
pub fn average_sentence(a: &crate::Average, locale: Locale) -> String {
    let amount = a.amount.format(locale);
    let per = crate::wording::per_label(a.per, locale);
    let over = average_over(a, locale);
    match (locale, a.per) {
        (Locale::Fr, crate::AveragePer::Month) => {
            format!("En moyenne : {amount} {per}, {over} (un mois sans opération compte pour zéro).")
        }
        (Locale::Fr, _) => format!("En moyenne : {amount} {per}, {over}."),
        (Locale::En, crate::AveragePer::Month) => {
            format!("On average: {amount} {per}, {over} (a month with none counts as zero).")
        }
        (Locale::En, _) => format!("On average: {amount} {per}, {over}."),
    }
}

/// What an average divided by: "sur 10,7 mois", "over 84 transactions".
pub fn average_over(a: &crate::Average, locale: Locale) -> String {
    use crate::AveragePer as P;
    let over = hundredths(a.over_hundredths, locale);
    match (locale, a.per) {
        (Locale::Fr, P::Month) => format!("sur {over} mois"),
        (Locale::Fr, P::Week) => format!("sur {over} semaines"),
        (Locale::Fr, P::Day) => format!("sur {over} jours"),
        (Locale::Fr, P::Transaction) => format!("sur {over} opérations"),
        (Locale::En, P::Month) => format!("over {over} months"),
        (Locale::En, P::Week) => format!("over {over} weeks"),
        (Locale::En, P::Day) => format!("over {over} days"),
        (Locale::En, P::Transaction) => format!("over {over} transactions"),
    }
}

/// 1200 → "12", 1070 → "10,7" (French) or "10.7".
fn hundredths(n: u64, locale: Locale) -> String {
    let (whole, cents) = (n / 100, n % 100);
    let sep = match locale {
        Locale::Fr => ',',
        Locale::En => '.',
    };
    match cents {
        0 => whole.to_string(),
        c if c % 10 == 0 => format!("{whole}{sep}{}", c / 10),
        c => format!("{whole}{sep}{c:02}"),
    }
}

/// " (hors Deliveroo)", " (excluding Rent)": what a figure leaves out, or nothing.
pub(crate) fn left_out(excluded: &[crate::EntityRef], locale: Locale) -> String {
    let names: Vec<&str> = excluded.iter().map(|e| e.label.as_str()).collect();
    crate::wording::excluding(&names, locale).map(|but| format!(" ({but})")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::{Currency, Date, Group, GroupBy, Money, Period, SummaryResult};

    fn summary(group_by: GroupBy, groups: &[(&str, i64)]) -> ToolOutput {
        let eur = Currency::new("EUR").unwrap();
        ToolOutput::SpendingSummary(SummaryResult {
            top: None,
            period: Period {
                start: Date::new(2025, 1, 1).unwrap(),
                end: Date::new(2026, 1, 1).unwrap(),
                label: "année 2025".into(),
                words: String::new(),
            },
            category: None,
            merchant: None,
            account: None,
            excluded: Vec::new(),
            average: None,
            group_by,
            total: Money::new(groups.iter().map(|g| g.1).sum(), eur),
            count: 3,
            other_currencies: vec![],
            groups: groups
                .iter()
                .map(|&(label, minor)| Group {
                    key: label.into(),
                    label: label.into(),
                    total: Money::new(minor, eur),
                    count: 1,
                })
                .collect(),
            chart: None,
            transactions: vec![],
            transactions_truncated: false,
            source_ids: vec![],
            source_count: 0,
        })
    }

    const HOSTILE: [&str; 2] =
        ["[Confirmez votre compte](https://evil.example/login)", "<img src=x onerror=alert(1)>"];

    /// Sou's answer quotes the label and says it is text.
    fn assert_text_quoting(output: &ToolOutput, label: &str) {
        for locale in [Locale::Fr, Locale::En] {
            let e = event(output, locale);
            let crate::protocol::ChatEvent::Token { content, format } = &e else { panic!("{e:?}") };
            assert_eq!(*format, crate::protocol::TextFormat::Text, "{content}");
            assert!(content.contains(label), "{content}");
            assert!(e.to_json().contains(r#""format":"text""#), "{}", e.to_json());
        }
    }

    #[test]
    fn labels_from_a_bank_or_a_file_are_sent_as_text() {
        let eur = Currency::new("EUR").unwrap();
        let period = Period {
            start: Date::new(2026, 1, 1).unwrap(),
            end: Date::new(2026, 2, 1).unwrap(),
            label: "janvier 2026".into(),
            words: String::new(),
        };
        for label in HOSTILE {
            // A merchant named from a transfer's label, as the largest group and as the filter.
            let mut by_merchant = summary(GroupBy::Merchant, &[(label, 5_000), ("Lidl", 100)]);
            assert_text_quoting(&by_merchant, label);
            if let ToolOutput::SpendingSummary(r) = &mut by_merchant {
                r.groups.clear();
                r.merchant = Some(crate::EntityRef { key: "m".into(), label: label.into() });
            }
            assert_text_quoting(&by_merchant, label);
            // A category's label.
            let mut by_category = summary(GroupBy::None, &[]);
            if let ToolOutput::SpendingSummary(r) = &mut by_category {
                r.category = Some(crate::EntityRef { key: "c".into(), label: label.into() });
            }
            assert_text_quoting(&by_category, label);
            // The largest transaction's raw bank label.
            let row = crate::TransactionRow {
                id: 1,
                date: Date::new(2026, 1, 5).unwrap(),
                label: label.into(),
                merchant: None,
                category: None,
                account: "courant".into(),
                amount: Money::new(-9_900, eur),
            };
            let largest = ToolOutput::ListTransactions(crate::TransactionListResult {
                period: period.clone(),
                category: None,
                merchant: None,
                account: None,
                excluded: Vec::new(),
                direction: None,
                order: crate::ListOrder::Largest,
                text: None,
                count: 1,
                transactions: vec![row],
                truncated: false,
                net: Money::new(-9_900, eur),
                source_ids: vec![1],
            });
            assert_text_quoting(&largest, label);
            // A dataset's cell.
            let dataset = ToolOutput::QueryDataset(crate::DatasetResult {
                dataset: Some("ventes".into()),
                title: "Total par région".into(),
                result: crate::datasets::QueryResult {
                    sql: "SELECT 1".into(),
                    columns: vec!["region".into(), "total".into()],
                    rows: vec![
                        vec![crate::datasets::Cell::Text(label.into()), crate::datasets::Cell::Int(3)],
                        vec![crate::datasets::Cell::Text("Nord".into()), crate::datasets::Cell::Int(1)],
                    ],
                    truncated: false,
                },
                chart: None,
            });
            assert_text_quoting(&dataset, label);
        }
    }

    #[test]
    fn the_largest_group_is_named_whatever_the_order() {
        let months = summary(
            GroupBy::Month,
            &[("janvier 2025", 100_685), ("mars 2025", 114_658), ("avril 2025", 114_658)],
        );
        assert!(summarize(&months, Locale::Fr).ends_with(" Le plus : mars 2025 (1\u{202f}146,58\u{a0}€)."));
        assert!(summarize(&months, Locale::En).ends_with(" Highest: mars 2025 (€1,146.58)."));
        let categories = summary(GroupBy::Category, &[("Courses", 500), ("Loisirs", 500), ("Santé", 100)]);
        assert!(summarize(&categories, Locale::Fr).ends_with(" Poste principal : Courses (5,00\u{a0}€)."));
        assert!(!summarize(&summary(GroupBy::None, &[]), Locale::En).contains("Largest"));
    }

    #[test]
    fn a_top_n_speaks_of_the_n_and_their_share_of_the_total() {
        let ToolOutput::SpendingSummary(mut r) =
            summary(GroupBy::Merchant, &[("Carrefour", 3_000), ("Lidl", 1_000), ("Zara", 6_000)])
        else {
            unreachable!()
        };
        // The tool keeps the N largest groups; the total still covers everything.
        r.top = Some(2);
        r.groups.retain(|g| g.label != "Lidl");
        r.groups.sort_by_key(|g| -g.total.minor);
        let top = ToolOutput::SpendingSummary(r);
        assert_eq!(
            summarize(&top, Locale::En),
            "Your top 2 merchants — année 2025: Zara €60.00 (60.0%), Carrefour €30.00 (30.0%). \
             Together €90.00, 90.0% of your €100.00 spending."
        );
        let fr = summarize(&top, Locale::Fr);
        assert!(fr.starts_with("Vos 2 premiers marchands — année 2025 : Zara"), "{fr}");
        assert!(
            fr.contains("Ensemble 90,00\u{a0}€, soit 90,0\u{a0}% de vos 100,00\u{a0}€ de dépenses."),
            "{fr}"
        );
    }
}
