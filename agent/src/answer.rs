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

/// A query's result in a sentence: the one value, or the number of rows and the first.
fn dataset(r: &crate::DatasetResult, locale: Locale) -> String {
    let rows = &r.result.rows;
    let title = &r.title;
    match (rows.as_slice(), locale) {
        ([], Locale::Fr) => format!("{title} : aucune ligne."),
        ([], Locale::En) => format!("{title}: no rows."),
        ([only], Locale::Fr) if only.len() == 1 => format!("{title} : {}.", only[0].display(locale)),
        ([only], Locale::En) if only.len() == 1 => format!("{title}: {}.", only[0].display(locale)),
        ([first, ..], _) => {
            let n = rows.len();
            let more = if r.result.truncated { "+" } else { "" };
            let lead = match first.as_slice() {
                [label, value] => Some((label.display(locale), value.display(locale))),
                _ => None,
            };
            match (locale, lead) {
                (Locale::Fr, Some((l, v))) => {
                    format!("{title} : {n}{more} ligne(s) ; en premier, {l} ({v}).")
                }
                (Locale::En, Some((l, v))) => format!("{title}: {n}{more} row(s); first, {l} ({v})."),
                (Locale::Fr, None) => format!("{title} : {n}{more} ligne(s)."),
                (Locale::En, None) => format!("{title}: {n}{more} row(s)."),
            }
        }
    }
}

// Over 120 lines; to split (issue 49).
#[allow(clippy::too_many_lines)]
pub fn summarize(output: &ToolOutput, locale: Locale) -> String {
    match output {
        ToolOutput::ComparePeriods(r) => {
            let cur = r.current.total.format(locale);
            let refe = r.reference.total.format(locale);
            let diff = r.difference.format(locale);
            let diff = if r.difference.minor > 0 { format!("+{diff}") } else { diff };
            let change =
                r.change_basis_points.map(|bp| format!(" ({})", percent(bp, locale))).unwrap_or_default();
            let filter = r
                .merchant
                .as_ref()
                .or(r.category.as_ref())
                .map(|e| format!(" — {}", e.label))
                .unwrap_or_default();
            let (a, b) = (&r.current.period.label, &r.reference.period.label);
            match (locale, r.flow) {
                (Locale::Fr, crate::Flow::Spending) => {
                    format!("Dépenses{filter} : {cur} ({a}) contre {refe} ({b}), soit {diff}{change}.")
                }
                (Locale::Fr, crate::Flow::Income) => {
                    format!("Revenus{filter} : {cur} ({a}) contre {refe} ({b}), soit {diff}{change}.")
                }
                (Locale::En, crate::Flow::Spending) => {
                    format!("Spending{filter}: {cur} ({a}) vs {refe} ({b}), a change of {diff}{change}.")
                }
                (Locale::En, crate::Flow::Income) => {
                    format!("Income{filter}: {cur} ({a}) vs {refe} ({b}), a change of {diff}{change}.")
                }
            }
        }
        ToolOutput::IncomeSummary(r) => {
            let total = r.total.format(locale);
            let filter = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
            let period = &format!("{}{}", r.period.label, left_out(&r.excluded, locale));
            let n = r.count;
            let mut s = match (locale, filter) {
                (Locale::Fr, Some(f)) => {
                    format!("Vous avez reçu {total} ({f}) — {period}, en {n} versement(s).")
                }
                (Locale::Fr, None) => format!("Vous avez reçu {total} — {period}, en {n} versement(s)."),
                (Locale::En, Some(f)) => format!("You received {total} ({f}) — {period}, in {n} payment(s)."),
                (Locale::En, None) => format!("You received {total} — {period}, in {n} payment(s)."),
            };
            if let Some(a) = &r.average {
                s.push(' ');
                s.push_str(&average_sentence(a, locale));
            }
            s
        }
        ToolOutput::SpendingSummary(r)
            if r.top.is_some() && !r.groups.is_empty() && !r.group_by.is_time() =>
        {
            top_sentence(r, locale)
        }
        ToolOutput::SpendingSummary(r) => {
            let total = r.total.format(locale);
            let filter = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
            let period = &format!("{}{}", r.period.label, left_out(&r.excluded, locale));
            let mut s = match (locale, filter, r.merchant.is_some()) {
                (Locale::Fr, Some(f), true) => format!("Vous avez dépensé {total} chez {f} — {period}"),
                (Locale::Fr, Some(f), false) => format!("Vous avez dépensé {total} en {f} — {period}"),
                (Locale::Fr, None, _) => format!("Vous avez dépensé {total} — {period}"),
                (Locale::En, Some(f), true) => format!("You spent {total} at {f} — {period}"),
                (Locale::En, Some(f), false) => format!("You spent {total} on {f} — {period}"),
                (Locale::En, None, _) => format!("You spent {total} — {period}"),
            };
            s.push_str(&match (locale, r.count) {
                (Locale::Fr, 0) => ", aucune opération.".to_string(),
                (Locale::Fr, 1) => ", en 1 opération.".to_string(),
                (Locale::Fr, n) => format!(", en {n} opérations."),
                (Locale::En, 0) => ", no transactions.".to_string(),
                (Locale::En, 1) => ", in 1 transaction.".to_string(),
                (Locale::En, n) => format!(", in {n} transactions."),
            });
            // The largest group — the first of equals; months, weeks and days are in date
            // order, so it is not always the first.
            if let Some(top) = r.groups.iter().rev().max_by_key(|g| g.total.minor) {
                let amount = top.total.format(locale);
                s.push_str(&match (locale, r.group_by.is_time()) {
                    (Locale::Fr, false) => format!(" Poste principal : {} ({amount}).", top.label),
                    (Locale::Fr, true) => format!(" Le plus : {} ({amount}).", top.label),
                    (Locale::En, false) => format!(" Largest: {} ({amount}).", top.label),
                    (Locale::En, true) => format!(" Highest: {} ({amount}).", top.label),
                });
            }
            if !r.other_currencies.is_empty() {
                let others =
                    r.other_currencies.iter().map(|m| m.format(locale)).collect::<Vec<_>>().join(", ");
                s.push_str(&match locale {
                    Locale::Fr => format!(" Non inclus (autres devises) : {others}."),
                    Locale::En => format!(" Not included (other currencies): {others}."),
                });
            }
            // An average asked for is the answer; the total it divides follows.
            if let Some(a) = &r.average {
                s = format!("{} {s}", average_sentence(a, locale));
            }
            s
        }
        ToolOutput::CashFlow(r) => {
            let (inc, out, net) = (r.income.format(locale), r.spending.format(locale), r.net.format(locale));
            let net = if r.net.minor > 0 { format!("+{net}") } else { net };
            let period = &r.period.label;
            let rate = r.savings_rate_basis_points.map(|bp| percent(bp, locale));
            match (locale, rate) {
                (Locale::Fr, Some(rate)) => format!(
                    "{period} : {inc} de revenus, {out} de dépenses, solde {net} — taux d'épargne {rate}."
                ),
                (Locale::Fr, None) => {
                    format!("{period} : aucun revenu, {out} de dépenses, solde {net}.")
                }
                (Locale::En, Some(rate)) => {
                    format!("{period}: {inc} in, {out} out, net {net} — savings rate {rate}.")
                }
                (Locale::En, None) => format!("{period}: no income, {out} out, net {net}."),
            }
        }
        ToolOutput::Balances(r) => {
            let total = r.total.format(locale);
            let date = crate::wording::day_label(r.date, locale);
            match (locale, r.accounts.as_slice()) {
                (Locale::Fr, [one]) => {
                    format!("Solde de {} au {date} : {}.", one.label, one.balance.format(locale))
                }
                (Locale::En, [one]) => {
                    format!("{} balance on {date}: {}.", one.label, one.balance.format(locale))
                }
                (Locale::Fr, accounts) => {
                    format!("Solde total au {date} : {total}, sur {} compte(s).", accounts.len())
                }
                (Locale::En, accounts) => {
                    format!("Total balance on {date}: {total}, across {} account(s).", accounts.len())
                }
            }
        }
        ToolOutput::BudgetStatus(r) => {
            let over: Vec<&str> = r
                .lines
                .iter()
                .filter(|l| l.state == crate::BudgetState::Over)
                .map(|l| l.category.label.as_str())
                .collect();
            let (spent, budget) = (r.spent.format(locale), r.budget.format(locale));
            let period = &r.period.label;
            let mut s = match (locale, r.lines.as_slice()) {
                (Locale::Fr, [one]) => format!(
                    "Budget {} — {period} : {spent} dépensés sur {budget}, reste {}.",
                    one.category.label,
                    one.remaining.format(locale)
                ),
                (Locale::En, [one]) => format!(
                    "{} budget — {period}: {spent} spent of {budget}, {} left.",
                    one.category.label,
                    one.remaining.format(locale)
                ),
                (Locale::Fr, _) => format!("Budgets — {period} : {spent} dépensés sur {budget} prévus."),
                (Locale::En, _) => format!("Budgets — {period}: {spent} spent of {budget} planned."),
            };
            s.push_str(&match (locale, over.is_empty()) {
                (Locale::Fr, true) => " Aucun budget dépassé.".to_string(),
                (Locale::En, true) => " No budget exceeded.".to_string(),
                (Locale::Fr, false) => format!(" Dépassé : {}.", over.join(", ")),
                (Locale::En, false) => format!(" Over budget: {}.", over.join(", ")),
            });
            s
        }
        ToolOutput::RecurringPayments(r) => {
            let n = r.items.len();
            let (monthly, yearly) = (r.monthly_total.format(locale), r.yearly_total.format(locale));
            match (locale, n) {
                (Locale::Fr, 0) => format!("Aucun paiement récurrent trouvé — {}.", r.period.label),
                (Locale::En, 0) => format!("No recurring payments found — {}.", r.period.label),
                (Locale::Fr, n) => format!(
                    "{n} paiement(s) récurrent(s) : environ {monthly} par mois, soit {yearly} par an."
                ),
                (Locale::En, n) => {
                    format!("{n} recurring payment(s): about {monthly} a month, {yearly} a year.")
                }
            }
        }
        ToolOutput::ListTransactions(r) if r.order == crate::ListOrder::Largest => {
            let shown = r.transactions.len();
            let top = r.transactions.first().map(|t| (t.amount.format(locale), t.label.as_str()));
            match (locale, top) {
                (Locale::Fr, None) => format!("Aucune opération — {}.", r.period.label),
                (Locale::En, None) => format!("No transactions — {}.", r.period.label),
                (Locale::Fr, Some((amount, label))) => format!(
                    "Les {shown} plus grosses opérations sur {} — {} ; la première : {label}, {amount}.",
                    r.count, r.period.label
                ),
                (Locale::En, Some((amount, label))) => format!(
                    "The {shown} largest of {} transactions — {}; the largest: {label}, {amount}.",
                    r.count, r.period.label
                ),
            }
        }
        ToolOutput::QueryDataset(r) | ToolOutput::RunSql(r) => dataset(r, locale),
        ToolOutput::DatasetInfo(r) => {
            let names: Vec<String> = r
                .datasets
                .iter()
                .map(|d| match locale {
                    Locale::Fr => format!("{} ({} lignes)", d.name, d.rows),
                    Locale::En => format!("{} ({} rows)", d.name, d.rows),
                })
                .collect();
            match (locale, names.len()) {
                (Locale::Fr, 0) => "Aucun jeu de données : importez un fichier CSV dans « Données ».".into(),
                (Locale::En, 0) => "No dataset yet: upload a CSV file under “Data”.".into(),
                (Locale::Fr, n) => format!("{n} jeu(x) de données : {}.", names.join(", ")),
                (Locale::En, n) => format!("{n} dataset(s): {}.", names.join(", ")),
            }
        }
        ToolOutput::ListTransactions(r) => {
            let shown = r.transactions.len();
            let net = r.net.format(locale);
            let (n, period) = (r.count, format!("{}{}", r.period.label, left_out(&r.excluded, locale)));
            match (locale, r.truncated) {
                (Locale::Fr, false) => format!("{n} opération(s) — {period}, solde net {net}."),
                (Locale::Fr, true) => format!(
                    "{n} opérations — {period} ; les {shown} plus récentes sont affichées. Solde net {net}."
                ),
                (Locale::En, false) => format!("{n} transaction(s) — {period}, net {net}."),
                (Locale::En, true) => {
                    format!("{n} transactions — {period}; showing the {shown} most recent. Net {net}.")
                }
            }
        }
    }
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

/// "Vos 5 premiers marchands — T3 2026 : Carrefour 1 200,00 € (10,6 %), … Ensemble
/// 4 500,00 €, soit 39,7 % de vos 11 326,02 € de dépenses.": a top N speaks of the N.
fn top_sentence(r: &crate::SummaryResult, locale: Locale) -> String {
    let n = r.groups.len();
    let what = match (locale, r.group_by, n) {
        (Locale::Fr, crate::GroupBy::Merchant, 1) => "Votre premier marchand".to_string(),
        (Locale::Fr, crate::GroupBy::Merchant, n) => format!("Vos {n} premiers marchands"),
        (Locale::Fr, crate::GroupBy::Month, 1) => "Votre mois le plus cher".to_string(),
        (Locale::Fr, crate::GroupBy::Month, n) => format!("Vos {n} mois les plus chers"),
        (Locale::Fr, crate::GroupBy::Week, 1) => "Votre semaine la plus chère".to_string(),
        (Locale::Fr, crate::GroupBy::Week, n) => format!("Vos {n} semaines les plus chères"),
        (Locale::Fr, crate::GroupBy::Day, 1) => "Votre jour le plus cher".to_string(),
        (Locale::Fr, crate::GroupBy::Day, n) => format!("Vos {n} jours les plus chers"),
        (Locale::En, crate::GroupBy::Month, 1) => "Your most expensive month".to_string(),
        (Locale::En, crate::GroupBy::Month, n) => format!("Your {n} most expensive months"),
        (Locale::En, crate::GroupBy::Week, 1) => "Your most expensive week".to_string(),
        (Locale::En, crate::GroupBy::Week, n) => format!("Your {n} most expensive weeks"),
        (Locale::En, crate::GroupBy::Day, 1) => "Your most expensive day".to_string(),
        (Locale::En, crate::GroupBy::Day, n) => format!("Your {n} most expensive days"),
        (Locale::Fr, crate::GroupBy::Account, 1) => "Votre premier compte".to_string(),
        (Locale::Fr, crate::GroupBy::Account, n) => format!("Vos {n} premiers comptes"),
        (Locale::Fr, _, 1) => "Votre première catégorie".to_string(),
        (Locale::Fr, _, n) => format!("Vos {n} premières catégories"),
        (Locale::En, crate::GroupBy::Merchant, 1) => "Your top merchant".to_string(),
        (Locale::En, crate::GroupBy::Merchant, n) => format!("Your top {n} merchants"),
        (Locale::En, crate::GroupBy::Account, 1) => "Your top account".to_string(),
        (Locale::En, crate::GroupBy::Account, n) => format!("Your top {n} accounts"),
        (Locale::En, _, 1) => "Your top category".to_string(),
        (Locale::En, _, n) => format!("Your top {n} categories"),
    };
    let within = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
    let what = match (locale, within) {
        (Locale::Fr, Some(f)) => format!("{what} en {f}"),
        (Locale::En, Some(f)) => format!("{what} in {f}"),
        (_, None) => what,
    };
    let period = format!("{}{}", r.period.label, left_out(&r.excluded, locale));
    let part = |minor: i64| -> i64 {
        if r.total.minor <= 0 {
            return 0;
        }
        let (n, d) = (i128::from(minor) * 10_000, i128::from(r.total.minor));
        i64::try_from((n + d / 2) / d).unwrap_or(0)
    };
    let each: Vec<String> = r
        .groups
        .iter()
        .map(|g| format!("{} {} ({})", g.label, g.total.format(locale), share(part(g.total.minor), locale)))
        .collect();
    let together: i64 = r.groups.iter().map(|g| g.total.minor).sum();
    let sum = crate::Money::new(together, r.total.currency).format(locale);
    let total = r.total.format(locale);
    let of_all = share(part(together), locale);
    match locale {
        Locale::Fr if n == 1 => {
            format!("{what} — {period} : {}. Sur {total} de dépenses en tout.", each.join(", "))
        }
        Locale::En if n == 1 => {
            format!("{what} — {period}: {}. Out of {total} spent in all.", each.join(", "))
        }
        Locale::Fr => format!(
            "{what} — {period} : {}. Ensemble {sum}, soit {of_all} de vos {total} de dépenses.",
            each.join(", ")
        ),
        Locale::En => format!(
            "{what} — {period}: {}. Together {sum}, {of_all} of your {total} spending.",
            each.join(", ")
        ),
    }
}

/// " (hors Deliveroo)", " (excluding Rent)": what a figure leaves out, or nothing.
fn left_out(excluded: &[crate::EntityRef], locale: Locale) -> String {
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
