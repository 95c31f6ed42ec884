//! Shared reports: what the owner chooses a page to show, what a report keeps, and
//! what a page may show of a result. A report is blocks of plans (never SQL) and, for a
//! snapshot, the results they gave; before any result reaches a page it goes through
//! [`redact`]: no internal id ever, no merchant when the owner shares categories only.
//! A page that shares figures as shares only computes them with [`share_bp`] and shows
//! no money at all.

pub use crate::money::share_bp;
use serde::{Deserialize, Serialize};

use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::period;
use crate::plan::ToolCallPlan;
use crate::tool::spending_summary::SummaryResult;
use crate::tool::{ToolCall, ToolOutput};

/// What a report is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// One answer of a conversation.
    Answer,
    /// A month or a period: categories, cash flow, budgets, merchants, recurring, pins.
    Monthly,
}

/// Frozen figures or figures computed again on each view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Freshness {
    /// The figures as they were when the report was made ("as of").
    #[default]
    Snapshot,
    /// The plans run again on each view ("computed").
    Live,
}

/// Money, or each figure as a share of its whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figures {
    #[default]
    Amounts,
    /// Percentages only: no amount of money appears on the page.
    Shares,
}

/// Merchant names and bank labels, or categories only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Names {
    #[default]
    Merchants,
    /// No merchant name, no bank label: each line says its category.
    Categories,
}

impl ReportKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportKind::Answer => "answer",
            ReportKind::Monthly => "monthly",
        }
    }
    pub fn parse(s: &str) -> Option<ReportKind> {
        match s {
            "answer" => Some(ReportKind::Answer),
            "monthly" => Some(ReportKind::Monthly),
            _ => None,
        }
    }
}

impl Freshness {
    pub fn as_str(self) -> &'static str {
        match self {
            Freshness::Snapshot => "snapshot",
            Freshness::Live => "live",
        }
    }
    pub fn parse(s: &str) -> Option<Freshness> {
        match s {
            "snapshot" => Some(Freshness::Snapshot),
            "live" => Some(Freshness::Live),
            _ => None,
        }
    }
}

impl Figures {
    pub fn as_str(self) -> &'static str {
        match self {
            Figures::Amounts => "amounts",
            Figures::Shares => "shares",
        }
    }
    pub fn parse(s: &str) -> Option<Figures> {
        match s {
            "amounts" => Some(Figures::Amounts),
            "shares" => Some(Figures::Shares),
            _ => None,
        }
    }
}

impl Names {
    pub fn as_str(self) -> &'static str {
        match self {
            Names::Merchants => "merchants",
            Names::Categories => "categories",
        }
    }
    pub fn parse(s: &str) -> Option<Names> {
        match s {
            "merchants" => Some(Names::Merchants),
            "categories" => Some(Names::Categories),
            _ => None,
        }
    }
}

/// One of the owner's shared reports, as Settings and `GET /api/v1/reports` list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSummary {
    /// The link's id: `/r/{id}`.
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: ReportKind,
    pub mode: Freshness,
    pub figures: Figures,
    pub names: Names,
    /// RFC 3339, UTC.
    pub created_at: String,
    /// The last day the link works, in the server's time zone; `None`: until revoked.
    pub expires_on: Option<Date>,
    pub views: u64,
}

/// What a block of a report shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "block", rename_all = "snake_case")]
pub enum BlockKind {
    /// An answer from a conversation (the report's own, or one pinned to a monthly report).
    Answer,
    /// Spending by category, this period then the one before (two plans).
    Categories,
    /// Income, spending and the savings rate.
    CashFlow,
    Budgets,
    /// The largest merchants.
    Merchants,
    Recurring,
}

/// A part of a report: its plans and, in a snapshot, the results they gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    #[serde(flatten)]
    pub kind: BlockKind,
    pub plans: Vec<ToolCallPlan>,
    /// One per plan. Empty in a live report's storage: computed on each view.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<ToolOutput>,
    /// A model's answer (Markdown), kept as it was: snapshots only, with amounts and
    /// merchant names (its words cannot be redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// What the chat warned of under the answer (a plan Sou was not sure of): the page
    /// says it too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What a report keeps: its period (monthly reports) and its blocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportContent {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
    pub blocks: Vec<Block>,
    /// The titles Sou gave a report its owner did not title: changing the options picks
    /// again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_title: Option<AutoTitle>,
}

/// Sou's title for a report, with names and amounts or without.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoTitle {
    /// What the plan computes, in words: "Dépenses chez Carrefour, plus de 50 € — 2025".
    pub named: String,
    /// The same without a name or an amount: "Réponse de Sou — 2025".
    pub plain: String,
}

impl AutoTitle {
    /// The title a report with these options may show: the named one only when the
    /// report shows both amounts and merchants.
    pub fn pick(&self, figures: Figures, names: Names) -> &str {
        match (figures, names) {
            (Figures::Amounts, Names::Merchants) => &self.named,
            _ => &self.plain,
        }
    }
}

/// A report as its page shows it: results already redacted for its options.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportPage {
    pub title: String,
    /// One line under the title, also the link preview's description.
    pub summary: String,
    pub kind: ReportKind,
    pub mode: Freshness,
    pub figures: Figures,
    pub names: Names,
    pub locale: Locale,
    /// When the figures were computed: the snapshot's date, or now for a live report.
    pub as_of: Date,
    pub period: Option<Period>,
    pub blocks: Vec<Block>,
}

/// A period a monthly report can cover, read from `2026-10` (a month), `2026` (a year)
/// or `2026-01-01..2026-03-31` (days, both included).
pub fn parse_period(text: &str, locale: Locale) -> Option<Period> {
    let text = text.trim();
    if let Some((a, b)) = text.split_once("..") {
        let (start, last) = (Date::parse_iso(a.trim())?, Date::parse_iso(b.trim())?);
        let end = last.add_days(1);
        return (start < end && end.to_days() - start.to_days() <= 366 * 5)
            .then(|| period::range(start, end, locale));
    }
    let parts: Vec<&str> = text.split('-').collect();
    let year = |s: &str| s.parse::<i32>().ok().filter(|y| (1900..=2200).contains(y) && s.len() == 4);
    match parts.as_slice() {
        [y] => period::year(year(y)?, locale),
        [y, m] if m.len() == 2 => {
            let m = m.parse::<u32>().ok()?;
            Some(period::month(Date::new(year(y)?, m, 1)?, locale))
        }
        _ => None,
    }
}

/// What the page may show of a result: never an internal id (transaction ids, the ids
/// behind a figure), and with [`Names::Categories`] no merchant name or bank label —
/// each line names its category, each merchant group its rank, a merchant filter or
/// exclusion reads "a merchant". `call` is the plan that gave the result, which tells
/// an excluded merchant from an excluded category.
pub fn redact(output: ToolOutput, call: Option<&ToolCall>, names: Names, locale: Locale) -> ToolOutput {
    let categories = names == Names::Categories;
    let excluded_merchant = call.and_then(|c| c.excluded().1).map(str::to_string);
    let hide = crate::tool::Hide { categories, locale, excluded_merchant, known: call.is_some() };
    // Each tool says what it hides (in its file, `crate::tool`).
    output.redact(&hide)
}

/// One line saying what a report shows, under its title and in its link preview: the
/// answer's sentence, or the month's spending, income and savings rate. With
/// [`Figures::Shares`], shares only.
pub fn summary_line(kind: ReportKind, content: &ReportContent, figures: Figures, locale: Locale) -> String {
    let first = content.blocks.iter().flat_map(|b| b.outputs.iter()).next();
    match (kind, figures) {
        (ReportKind::Answer, Figures::Amounts) => match first {
            Some(o) => o.answer(locale),
            None => {
                content.blocks.first().and_then(|b| b.markdown.as_deref()).map(first_line).unwrap_or_default()
            }
        },
        (ReportKind::Answer, Figures::Shares) => match first {
            Some(ToolOutput::SpendingSummary(r)) => {
                largest_share(r, false, locale).unwrap_or_else(|| r.period.label.clone())
            }
            Some(ToolOutput::IncomeSummary(r)) => {
                largest_share(r, true, locale).unwrap_or_else(|| r.period.label.clone())
            }
            Some(o) => o_period(o).unwrap_or_default(),
            None => String::new(),
        },
        (ReportKind::Monthly, _) => {
            let mut parts = Vec::new();
            for b in &content.blocks {
                match (&b.kind, b.outputs.first(), figures) {
                    (BlockKind::CashFlow, Some(ToolOutput::CashFlow(r)), Figures::Amounts) => {
                        parts.push(format!(
                            "{} {}",
                            locale.pick("Dépenses", "Spending"),
                            r.spending.format(locale)
                        ));
                        parts.push(format!(
                            "{} {}",
                            locale.pick("revenus", "income"),
                            r.income.format(locale)
                        ));
                        if let Some(bp) = r.savings_rate_basis_points {
                            parts.push(format!(
                                "{} {}",
                                locale.pick("épargne", "savings"),
                                crate::answer::share(bp, locale)
                            ));
                        }
                    }
                    (BlockKind::CashFlow, Some(ToolOutput::CashFlow(r)), Figures::Shares) => {
                        if let Some(bp) = r.savings_rate_basis_points {
                            parts.push(format!(
                                "{} {}",
                                locale.pick("Taux d'épargne", "Savings rate"),
                                crate::answer::share(bp, locale)
                            ));
                        }
                    }
                    (BlockKind::Categories, Some(ToolOutput::SpendingSummary(r)), _) => {
                        if let Some(s) = largest_share(r, false, locale) {
                            parts.push(s);
                        }
                    }
                    _ => {}
                }
            }
            let period = content.period.as_ref().map(|p| p.label.clone()).unwrap_or_default();
            if parts.is_empty() {
                period
            } else {
                format!("{period} · {}", parts.join(" · "))
            }
        }
    }
}

/// "Logement : 42,1 % des dépenses" for the largest group (of income, for income).
fn largest_share(r: &SummaryResult, income: bool, locale: Locale) -> Option<String> {
    let g = r.groups.iter().max_by_key(|g| g.total.minor)?;
    let bp = share_bp(g.total.minor, r.total.minor)?;
    let of = match (income, locale) {
        (false, Locale::Fr) => "des dépenses",
        (true, Locale::Fr) => "des revenus",
        (false, Locale::En) => "of spending",
        (true, Locale::En) => "of income",
    };
    Some(match locale {
        Locale::Fr => format!("{} : {} {of}", g.label, crate::answer::share(bp, locale)),
        Locale::En => format!("{}: {} {of}", g.label, crate::answer::share(bp, locale)),
    })
}

fn o_period(o: &ToolOutput) -> Option<String> {
    o.period().map(|p| p.label.clone())
}

/// A Markdown text's first line, without its marks, at most 200 characters.
fn first_line(md: &str) -> String {
    let line = md.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    let plain: String = line.chars().filter(|c| !matches!(c, '*' | '_' | '#' | '`' | '[' | ']')).collect();
    plain.trim().chars().take(200).collect()
}

/// The period of the same length just before `p` (for a month, the month before).
pub fn previous(p: &Period, locale: Locale) -> Period {
    period::preceding(p, locale)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::args::GroupBy;
    use crate::tools::{EntityRef, TransactionRow};

    #[test]
    fn shares_round_half_away_from_zero() {
        assert_eq!(share_bp(1, 3), Some(3333));
        assert_eq!(share_bp(2, 3), Some(6667));
        assert_eq!(share_bp(-2, 3), Some(-6667));
        assert_eq!(share_bp(5, 0), None);
        assert_eq!(share_bp(i64::MAX, 1), None);
    }

    fn row(id: i64, label: &str, merchant: Option<&str>, category: Option<&str>) -> TransactionRow {
        TransactionRow {
            id,
            date: Date::new(2026, 1, 12).unwrap(),
            label: label.into(),
            merchant: merchant.map(Into::into),
            category: category.map(Into::into),
            account: "Compte courant".into(),
            amount: crate::money::Money::new(-1234, crate::money::Currency::new("EUR").unwrap()),
        }
    }

    #[test]
    fn redaction_removes_ids_and_with_categories_only_every_merchant() {
        let eur = crate::money::Currency::new("EUR").unwrap();
        let entity = |key: &str, label: &str| EntityRef { key: key.into(), label: label.into() };
        let summary = SummaryResult {
            top: None,
            period: parse_period("2026-01", Locale::Fr).unwrap(),
            category: None,
            merchant: Some(entity("carrefour", "Carrefour")),
            account: None,
            excluded: vec![entity("lidl", "Lidl"), entity("restaurants", "Restaurants")],
            group_by: GroupBy::Merchant,
            total: crate::money::Money::new(5000, eur),
            count: 2,
            other_currencies: Vec::new(),
            groups: vec![crate::tools::Group {
                key: "monoprix".into(),
                label: "Monoprix".into(),
                total: crate::money::Money::new(5000, eur),
                count: 2,
            }],
            average: None,
            chart: Some(crate::chart::ChartSpec {
                kind: crate::chart::ChartKind::Line,
                title: "Dépenses par mois — Carrefour, janvier 2026".into(),
                x: "mois".into(),
                y: "dépenses".into(),
                points: Vec::new(),
                currency: Some(eur),
                percent: false,
            }),
            transactions: vec![
                row(41, "CB CARREFOUR CITY", Some("Carrefour"), Some("Courses")),
                row(42, "CB X", None, None),
            ],
            transactions_truncated: false,
            source_ids: vec![41, 42],
            source_count: 2,
        };
        let call: ToolCall = serde_json::from_value(serde_json::json!({
            "tool": "spending_summary",
            "args": {"period": summary.period, "merchant": "carrefour", "exclude_merchant": "lidl",
                     "exclude_category": "restaurants", "group_by": "merchant"}
        }))
        .unwrap();
        let kept =
            redact(ToolOutput::SpendingSummary(summary.clone()), Some(&call), Names::Merchants, Locale::Fr);
        let ToolOutput::SpendingSummary(kept) = kept else { panic!() };
        assert!(kept.source_ids.is_empty() && kept.transactions.iter().all(|t| t.id == 0));
        assert_eq!(kept.transactions[0].label, "CB CARREFOUR CITY");

        let hidden = redact(ToolOutput::SpendingSummary(summary), Some(&call), Names::Categories, Locale::Fr);
        let text = serde_json::to_string(&hidden).unwrap().to_lowercase();
        for name in ["carrefour", "lidl", "monoprix"] {
            assert!(!text.contains(name), "{name} in {text}");
        }
        let ToolOutput::SpendingSummary(hidden) = hidden else { panic!() };
        assert_eq!(hidden.excluded[1].label, "Restaurants", "an excluded category stays");
        assert_eq!(hidden.groups[0].label, "Commerçant 1");
        assert_eq!(
            (hidden.transactions[0].label.as_str(), hidden.transactions[1].label.as_str()),
            ("Courses", "Sans catégorie")
        );
    }

    #[test]
    fn periods_read_as_months_years_and_ranges() {
        let p = parse_period("2026-10", Locale::Fr).unwrap();
        assert_eq!((p.start, p.end), (Date::new(2026, 10, 1).unwrap(), Date::new(2026, 11, 1).unwrap()));
        assert_eq!(p.label, "octobre 2026");
        let p = parse_period("2025", Locale::En).unwrap();
        assert_eq!(p.end, Date::new(2026, 1, 1).unwrap());
        let p = parse_period("2026-01-01..2026-03-31", Locale::En).unwrap();
        assert_eq!(p.end, Date::new(2026, 4, 1).unwrap());
        for bad in ["", "2026-13", "26-10", "2026-1", "2026-03-31..2026-01-01", "octobre", "2026-10-01"] {
            assert!(parse_period(bad, Locale::Fr).is_none(), "{bad}");
        }
        assert_eq!(
            previous(&parse_period("2026-01", Locale::Fr).unwrap(), Locale::Fr).label,
            "décembre 2025"
        );
    }
}
