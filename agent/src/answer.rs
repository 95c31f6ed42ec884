//! The words of figures in Sou's own answers, written without a model: percentages,
//! shares, averages and what a figure leaves out. Each tool's sentence is in its file
//! (`crate::tool`); `ChatEvent::answer` (in `protocol.rs`) sends it.

use crate::locale::Locale;

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

/// "En moyenne : 123,45 € par mois, sur 12 mois (un mois sans opération compte pour
/// zéro)."
pub fn average_sentence(a: &crate::tools::Average, locale: Locale) -> String {
    let amount = a.amount.format(locale);
    let per = crate::wording::per_label(a.per, locale);
    let over = average_over(a, locale);
    match (locale, a.per) {
        (Locale::Fr, crate::args::AveragePer::Month) => {
            format!("En moyenne : {amount} {per}, {over} (un mois sans opération compte pour zéro).")
        }
        (Locale::Fr, _) => format!("En moyenne : {amount} {per}, {over}."),
        (Locale::En, crate::args::AveragePer::Month) => {
            format!("On average: {amount} {per}, {over} (a month with none counts as zero).")
        }
        (Locale::En, _) => format!("On average: {amount} {per}, {over}."),
    }
}

/// What an average divided by: "sur 10,7 mois", "over 84 transactions".
pub fn average_over(a: &crate::tools::Average, locale: Locale) -> String {
    use crate::args::AveragePer as P;
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
pub(crate) fn left_out(excluded: &[crate::tools::EntityRef], locale: Locale) -> String {
    let names: Vec<&str> = excluded.iter().map(|e| e.label.as_str()).collect();
    crate::wording::excluding(&names, locale).map(|but| format!(" ({but})")).unwrap_or_default()
}
