//! Golden tests: the report's charts as SVG — spending by category with amounts and as
//! shares, and the link preview — compared byte for byte with `app/tests/golden/`.
//! `UPDATE_GOLDEN=1 cargo test -p app --features ssr --lib golden` rewrites them, for
//! review as a diff.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use agent::reports::{Block, BlockKind, Figures, Freshness, Names, ReportKind, ReportPage};
use agent::{Currency, Date, Group, GroupBy, Locale, Money, Period, SummaryResult, ToolOutput};
use leptos::prelude::*;

fn eur(minor: i64) -> Money {
    Money::new(minor, Currency::new("EUR").unwrap())
}

fn month(m: u32) -> Period {
    agent::period::month(Date::new(2026, m, 1).unwrap(), Locale::Fr)
}

fn spending(period: Period, groups: &[(&str, i64)]) -> SummaryResult {
    SummaryResult {
        top: None,
        period,
        category: None,
        merchant: None,
        account: None,
        excluded: Vec::new(),
        group_by: GroupBy::Category,
        total: eur(groups.iter().map(|g| g.1).sum()),
        count: 12,
        other_currencies: Vec::new(),
        groups: groups
            .iter()
            .map(|(label, minor)| Group {
                key: label.to_lowercase(),
                label: label.to_string(),
                total: eur(*minor),
                count: 3,
            })
            .collect(),
        average: None,
        chart: None,
        transactions: Vec::new(),
        transactions_truncated: false,
        source_ids: Vec::new(),
        source_count: 0,
    }
}

fn now() -> SummaryResult {
    spending(
        month(10),
        &[("Logement", 95_000), ("Courses", 41_230), ("Restaurants", 12_850), ("Transports <&>", 6_420)],
    )
}

fn before() -> SummaryResult {
    spending(month(9), &[("Logement", 95_000), ("Courses", 38_110), ("Transports <&>", 7_000)])
}

/// The `<svg>` elements of some HTML, one per line.
fn svgs(html: &str) -> String {
    html.split("<svg").skip(1).map(|s| format!("<svg{}\n", &s[..s.find("</svg>").unwrap() + 6])).collect()
}

fn check(name: &str, actual: &str) {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{path}: run with UPDATE_GOLDEN=1"));
    assert_eq!(actual, expected, "{name} changed: UPDATE_GOLDEN=1 rewrites it, then review the diff");
}

fn categories_svg(figures: Figures) -> String {
    let owner = Owner::new();
    let html = owner.with(|| super::parts::categories(now(), before(), figures, Locale::Fr).to_html());
    owner.unset();
    svgs(&html)
}

#[test]
fn spending_by_category_with_amounts() {
    let svg = categories_svg(Figures::Amounts);
    assert!(svg.contains("<title>") && svg.contains("<desc>") && svg.contains("950,00"), "{svg}");
    assert!(svg.contains("Transports &lt;&amp;&gt;"), "labels are escaped: {svg}");
    check("categories-amounts.svg", &svg);
}

#[test]
fn spending_by_category_as_shares_writes_no_money() {
    let svg = categories_svg(Figures::Shares);
    assert!(!svg.contains('€') && svg.contains("61,1\u{a0}%"), "{svg}");
    check("categories-shares.svg", &svg);
}

#[test]
fn the_link_preview_draws_the_categories() {
    let page = ReportPage {
        title: "Bilan — octobre 2026".into(),
        summary: "octobre 2026 · Dépenses 1 555,00 €".into(),
        kind: ReportKind::Monthly,
        mode: Freshness::Snapshot,
        figures: Figures::Amounts,
        names: Names::Merchants,
        locale: Locale::Fr,
        as_of: Date::new(2026, 11, 2).unwrap(),
        period: Some(month(10)),
        blocks: vec![Block {
            kind: BlockKind::Categories,
            plans: Vec::new(),
            outputs: vec![ToolOutput::SpendingSummary(now()), ToolOutput::SpendingSummary(before())],
            markdown: None,
            notes: Vec::new(),
        }],
    };
    assert!(super::og::has_chart(&page));
    let svg = super::og::svg(&page);
    assert!(!svg.contains("<!"), "well-formed XML: {svg}");
    check("preview.svg", &format!("{svg}\n"));
}
