//! Importing bank files: `/import` (upload, past imports) and `/import/{id}` (the
//! detected layout, editable for CSV; the preview; the import's progress and report).
//! Every form is a plain form — a GET for the preview, POSTs answered with a redirect —
//! with or without JavaScript (the pages load none): a running import's page reloads
//! itself every second until its report is there.

use crate::post::key;
use agent::imports::{
    AmountColumns, BalanceCheck, DateOrder, Fees, Format, Found, ImportReport, ImportState, ImportSummary,
    ImportView, Mapping, PreviewRow, Rejected,
};
use agent::Locale;
use leptos::prelude::*;

use crate::api::{load_import, load_imports, ImportData, ImportsData, LayoutEdit};
use crate::i18n::{self, count, tr};
use crate::layout::{Frame, Here, Loaded, TopBar};
use crate::post;
use crate::table::column_heads;

#[component]
pub fn ImportsPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let refused = leptos_router::hooks::use_query_map().with_untracked(|q| q.get(key::REFUSED));
    let data = Resource::new_blocking(|| (), move |_| load_imports(refused.clone()));
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Imports data/>
        </Loaded>
    }
}

/// The formats Sou reads, as the upload names them: "CSV, OFX/QFX, QIF ou CAMT.053".
fn formats(or: &str) -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.upload_name()).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{}{or}{last}", rest.join(", ")),
        None => String::new(),
    }
}

#[component]
fn Imports(data: ImportsData) -> impl IntoView {
    let locale = data.locale;
    let hint = match locale {
        Locale::Fr => format!(
            "{}, jusqu'à {} Mo. Sou reconnaît le format, l'encodage, le séparateur, l'ordre des dates et le signe des montants ; vous vérifiez l'aperçu avant d'importer.",
            formats(" ou "),
            data.max_mb
        ),
        Locale::En => format!(
            "{}, up to {} MB. Sou recognises the format, encoding, delimiter, date order and sign of amounts; you check the preview before importing.",
            formats(" or "),
            data.max_mb
        ),
    };
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Importer", "Import") here=Here::Import/>
            <main class="settings imports" data-testid="imports">
                <section class="card">
                    <h2>{tr(locale, "Importer un relevé bancaire", "Import a bank statement")}</h2>
                    <p class="hint">{hint}</p>
                    {data.refused.map(|m| view! { <p class="error" role="alert" data-testid="refused">{m}</p> })}
                    <form method="post" action=post::imports::UPLOAD.route() enctype="multipart/form-data" data-testid="upload-form">
                        <label for="import-file">{tr(locale, "Fichier", "File")}</label>
                        <input id="import-file" type="file" name="file" required
                            accept=Format::accept()/>
                        <button type="submit">{tr(locale, "Lire le fichier", "Read the file")}</button>
                    </form>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Imports", "Imports")}</h2>
                    {if data.imports.is_empty() {
                        view! { <p class="hint">{tr(locale, "Aucun fichier importé pour l'instant.", "No file imported yet.")}</p> }.into_any()
                    } else {
                        past_imports(data.imports, locale)
                    }}
                </section>
            </main>
        </div>
    }
}

fn past_imports(imports: Vec<ImportSummary>, locale: Locale) -> AnyView {
    view! {
        <table class="rows" data-testid="past-imports">
            <thead>
                <tr>
                    {column_heads([
                        (tr(locale, "Fichier", "File"), ""), (tr(locale, "Format", "Format"), ""),
                        (tr(locale, "Envoyé le", "Uploaded"), ""), (tr(locale, "Résultat", "Result"), ""),
                    ])}
                </tr>
            </thead>
            <tbody>
                {imports.into_iter().map(|i| {
                    let result = match (i.added, i.duplicates, i.rejected) {
                        (Some(a), Some(d), Some(r)) => counts(locale, a, d, r),
                        _ => tr(locale, "En attente : aperçu à valider", "Pending: preview to confirm").to_string(),
                    };
                    let day = i.created_at.get(..10).and_then(agent::Date::parse_iso)
                        .map(|d| i18n::date(d, locale)).unwrap_or_default();
                    view! {
                        <tr>
                            <td><a href=format!("/import/{}", i.id)>{i.file_name}</a></td>
                            <td>{i.format.name()}</td>
                            <td class="date">{day}</td>
                            <td>{result}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

fn counts(locale: Locale, added: u64, duplicates: u64, rejected: u64) -> String {
    match locale {
        Locale::Fr => format!(
            "{} · {} · {}",
            count(locale, added, ("ajoutée", "ajoutées"), ("", "")),
            count(locale, duplicates, ("déjà présente", "déjà présentes"), ("", "")),
            count(locale, rejected, ("rejetée", "rejetées"), ("", ""))
        ),
        Locale::En => format!("{added} added · {duplicates} already there · {rejected} rejected"),
    }
}

/// The preview form's fields, from the page's query.
fn edit_from_query(q: &leptos_router::params::ParamsMap) -> LayoutEdit {
    LayoutEdit::from_query(|k| q.get(k))
}

/// The accounts chosen for a file naming several (`part1`, `part2`…), comma-separated.
fn parts_from_query(q: &leptos_router::params::ParamsMap) -> String {
    (1..=100).map_while(|n| q.get(&format!("part{n}"))).collect::<Vec<_>>().join(",")
}

#[component]
pub fn ImportPage() -> impl IntoView {
    let id = leptos_router::hooks::use_params_map().with_untracked(|p| p.get("id")).unwrap_or_default();
    let (edit, into, parts) = leptos_router::hooks::use_query_map()
        .with_untracked(|q| (edit_from_query(q), q.get(key::ACCOUNT), parts_from_query(q)));
    let data = Resource::new_blocking(
        || (),
        move |_| load_import(id.clone(), edit.clone(), into.clone(), parts.clone()),
    );
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Import data/>
        </Loaded>
    }
}

#[component]
fn Import(data: ImportData) -> impl IntoView {
    let locale = data.locale;
    let v = data.view;
    let body = match v.state.clone() {
        ImportState::Done(report) => report_view(&v, report, locale),
        ImportState::Running { done, total } => progress_view(done, total, locale),
        ImportState::Pending => preview_view(v, None, locale),
        ImportState::Failed { message } => preview_view(v, Some(message), locale),
    };
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Importer", "Import") here=Here::Import/>
            <main class="settings imports" data-testid="import">{body}</main>
        </div>
    }
}

/// The progress bar of an import that is running: the page reloads itself every second
/// until the import has ended, then shows its report.
fn progress_view(done: u64, total: u64, locale: Locale) -> AnyView {
    view! {
        <section class="card">
            <h2>{tr(locale, "Import en cours…", "Importing…")}</h2>
            {progress_bar(done, total, locale)}
            <meta http-equiv="refresh" content="1"/>
        </section>
    }
    .into_any()
}

fn progress_bar(done: u64, total: u64, locale: Locale) -> impl IntoView {
    let percent = (done * 100).checked_div(total).unwrap_or(100);
    view! {
        <div class="progress" data-testid="progress">
            <progress max=total.max(1) value=done
                aria-label=tr(locale, "Avancement de l'import", "Import progress")></progress>
            <span class="progress-text">{format!("{done} / {total} · {percent} %")}</span>
        </div>
    }
}

fn report_view(v: &ImportView, r: ImportReport, locale: Locale) -> AnyView {
    let done = (r.read, r.read);
    let period = match (r.first, r.last) {
        (Some(a), Some(b)) => Some(match locale {
            Locale::Fr => format!("Opérations du {} au {}.", i18n::date(a, locale), i18n::date(b, locale)),
            Locale::En => {
                format!("Transactions from {} to {}.", i18n::date(a, locale), i18n::date(b, locale))
            }
        }),
        _ => None,
    };
    let added = match locale {
        Locale::Fr => format!(
            "{} au compte « {} ».",
            count(locale, r.added, ("opération ajoutée", "opérations ajoutées"), ("", "")),
            r.account
        ),
        Locale::En => format!(
            "{} added to the account “{}”.",
            count(locale, r.added, ("", ""), ("transaction", "transactions")),
            r.account
        ),
    };
    let rejected = r.rejected.len() as u64;
    let others = match locale {
        Locale::Fr => format!(
            "{}, ignorée{} · {}.",
            count(locale, r.duplicates, ("déjà présente", "déjà présentes"), ("", "")),
            if r.duplicates > 1 { "s" } else { "" },
            count(locale, rejected, ("ligne rejetée", "lignes rejetées"), ("", ""))
        ),
        Locale::En => format!(
            "{} already there, skipped · {} rejected.",
            r.duplicates,
            count(locale, rejected, ("", ""), ("line", "lines"))
        ),
    };
    view! {
        <section class="card" data-testid="report">
            <h2>{tr(locale, "Import terminé", "Import done")}</h2>
            <p class="hint">{v.file_name.clone()}</p>
            {progress_bar(done.0, done.1, locale)}
            <p data-testid="added">{added}</p>
            <p data-testid="skipped">{others}</p>
            {period.map(|p| view! { <p class="hint">{p}</p> })}
            {r.opening.map(|(day, m)| view! {
                <p data-testid="opening-set">{match locale {
                    Locale::Fr => format!("Solde d'ouverture du compte : {} au {}.", m.format(locale), i18n::date(day, locale)),
                    Locale::En => format!("The account's opening balance: {} on {}.", m.format(locale), i18n::date(day, locale)),
                }}</p>
            })}
            {rejected_list(r.rejected, locale)}
            <p class="next-steps">
                <a href="/" rel="external" data-testid="ask">{tr(locale, "Poser une question sur ces opérations", "Ask about these transactions")}</a>
                " · "
                <a href="/rules" rel="external">{tr(locale, "Créer une règle de catégorie", "Create a category rule")}</a>
                " · "
                <a href="/import" rel="external">{tr(locale, "Importer un autre fichier", "Import another file")}</a>
            </p>
        </section>
    }
    .into_any()
}

fn rejected_list(rejected: Vec<Rejected>, locale: Locale) -> Option<AnyView> {
    let n = rejected.len();
    (n > 0).then(|| {
        view! {
            <details class="rejected" data-testid="rejected" open=n <= 10>
                <summary>{match locale {
                    Locale::Fr => count(locale, n as u64, ("ligne rejetée", "lignes rejetées"), ("", "")),
                    Locale::En => count(locale, n as u64, ("", ""), ("line rejected", "lines rejected")),
                }}</summary>
                <ul>
                    {rejected.into_iter().map(|r| view! {
                        <li>{match locale {
                            Locale::Fr => format!("Ligne {} : {}", r.line, r.why.text(locale)),
                            Locale::En => format!("Line {}: {}", r.line, r.why.text(locale)),
                        }}</li>
                    }).collect_view()}
                </ul>
            </details>
        }
        .into_any()
    })
}

fn delimiter_name(d: char, locale: Locale) -> String {
    match d {
        '\t' => tr(locale, "tabulation", "tab").to_string(),
        ';' => "« ; »".to_string(),
        other => format!("« {other} »"),
    }
}

fn order_name(o: DateOrder, locale: Locale) -> &'static str {
    match o {
        DateOrder::Dmy => tr(locale, "JJ/MM/AAAA", "DD/MM/YYYY"),
        DateOrder::Mdy => tr(locale, "MM/JJ/AAAA", "MM/DD/YYYY"),
        DateOrder::Ymd => tr(locale, "AAAA-MM-JJ", "YYYY-MM-DD"),
    }
}

/// What Sou detected, in one line.
fn detected(v: &ImportView, locale: Locale) -> String {
    let mut parts = vec![v.format.name().to_string(), v.encoding.name().to_string()];
    if let Some(name) = v.mapping.as_ref().and_then(|m| m.layout.clone()) {
        parts.insert(0, format!("{} {name}", tr(locale, "relevé", "statement")));
    }
    if let Some(m) = &v.mapping {
        parts.push(format!(
            "{} {}",
            tr(locale, "séparateur", "delimiter"),
            delimiter_name(m.delimiter, locale)
        ));
        parts.push(format!("{} {}", tr(locale, "dates", "dates"), order_name(m.order, locale)));
        parts.push(format!("{} « {} »", tr(locale, "décimale", "decimal mark"), m.decimal));
        parts.push(
            match m.amounts {
                AmountColumns::Signed { .. } => tr(locale, "montants signés", "signed amounts"),
                AmountColumns::DebitCredit { .. } => {
                    tr(locale, "débit et crédit séparés", "separate debit and credit")
                }
            }
            .to_string(),
        );
    }
    if let Some(c) = &v.currency {
        parts.push(c.clone());
    }
    if let Some(m) = v.mapping.as_ref().filter(|m| m.fee.is_some()) {
        parts.push(
            match m.fees {
                Fees::Separate => tr(locale, "frais en lignes à part", "fees as rows of their own"),
                Fees::Netted => tr(locale, "frais déduits des montants", "fees taken off the amounts"),
            }
            .to_string(),
        );
    }
    parts.join(" · ")
}

/// What the file's balances say of its rows: they add up, or where they do not.
fn balances_view(b: BalanceCheck, locale: Locale) -> AnyView {
    let day = |d| i18n::date(d, locale);
    let mut lines: Vec<(bool, String)> = Vec::new();
    if let (Some((d, stated)), Some(computed), Some(gap)) = (b.closing, b.computed, b.gap()) {
        let gap = agent::Money::new(gap, stated.currency);
        lines.push(match (gap.minor == 0, locale) {
            (true, Locale::Fr) => (true, format!("Les opérations mènent au solde indiqué par le fichier ({}) : {} au {}.", b.source, stated.format(locale), day(d))),
            (true, Locale::En) => (true, format!("The rows lead to the balance the file states ({}): {} on {}.", b.source, stated.format(locale), day(d))),
            (false, Locale::Fr) => (false, format!("Les opérations ne mènent pas au solde indiqué par le fichier ({}) : {} au {}, contre {} calculés (écart {}). Une opération manque peut-être.", b.source, stated.format(locale), day(d), computed.format(locale), gap.format(locale))),
            (false, Locale::En) => (false, format!("The rows do not lead to the balance the file states ({}): {} on {}, against {} computed (a gap of {}). A transaction may be missing.", b.source, stated.format(locale), day(d), computed.format(locale), gap.format(locale))),
        });
    }
    if !b.breaks.is_empty() {
        let at: Vec<String> = b.breaks.iter().take(10).map(u64::to_string).collect();
        lines.push((false, match locale {
            Locale::Fr => format!("Le solde (« {} ») ne suit pas les montants ligne {} : une opération manque peut-être juste avant.", b.source, at.join(", ")),
            Locale::En => format!("The balance (“{}”) does not follow the amounts at line {}: a transaction may be missing just before.", b.source, at.join(", ")),
        }));
    }
    if !b.sets_opening && !b.adds_up() && b.opening.is_some() {
        lines.push((
            false,
            tr(
                locale,
                "Le solde d'ouverture du compte ne sera pas fixé d'après ce fichier.",
                "The account's opening balance will not be set from this file.",
            )
            .to_string(),
        ));
    }
    if let (true, Some((d, m))) = (b.sets_opening, b.opening) {
        lines.push((
            true,
            match locale {
                Locale::Fr => format!(
                    "Le solde d'ouverture du compte sera {} au {}{}.",
                    m.format(locale),
                    day(d),
                    if b.opening_stated { "" } else { ", d'après le solde de fin du fichier" }
                ),
                Locale::En => format!(
                    "The account's opening balance will be {} on {}{}.",
                    m.format(locale),
                    day(d),
                    if b.opening_stated { "" } else { ", from the file's closing balance" }
                ),
            },
        ));
    }
    let ok = lines.iter().all(|(ok, _)| *ok);
    view! {
        <div class=if ok { "balances" } else { "balances warning" } role=(!ok).then_some("alert") data-testid="balances" data-adds-up=ok.to_string()>
            {lines.into_iter().map(|(_, l)| view! { <p>{l}</p> }).collect_view()}
        </div>
    }
    .into_any()
}

fn preview_view(v: ImportView, failed: Option<String>, locale: Locale) -> AnyView {
    let rejected = v.rejected.len() as u64;
    let summary = match locale {
        Locale::Fr => format!(
            "{} · {} · {} déjà dans ce compte",
            count(locale, v.total_rows, ("opération lue", "opérations lues"), ("", "")),
            count(locale, rejected, ("ligne rejetée", "lignes rejetées"), ("", "")),
            v.duplicates
        ),
        Locale::En => format!(
            "{} read · {} rejected · {} already in this account",
            count(locale, v.total_rows, ("", ""), ("transaction", "transactions")),
            count(locale, rejected, ("", ""), ("line", "lines")),
            v.duplicates
        ),
    };
    let to_import = v.total_rows.saturating_sub(v.duplicates);
    let button = match locale {
        Locale::Fr => format!("Importer {}", count(locale, to_import, ("opération", "opérations"), ("", ""))),
        Locale::En => {
            format!("Import {}", count(locale, to_import, ("", ""), ("transaction", "transactions")))
        }
    };
    let mapping_json = v.mapping.as_ref().and_then(|m| serde_json::to_string(m).ok()).unwrap_or_default();
    // Several columns could hold the amounts: the user says which before importing.
    let sure = v.mapping.as_ref().is_none_or(|m| m.is_sure());
    let unsure = v.mapping.as_ref().filter(|m| !m.is_sure()).map(|m| {
        let column = tr(locale, "colonne", "column");
        let names: Vec<String> = m
            .unsure_amount
            .iter()
            .map(|&i| {
                let n = i + 1;
                match v.columns.get(i) {
                    // Without a header a column's name is its number.
                    Some((name, sample)) if *name == n.to_string() => format!("{column} {n} ({sample})"),
                    Some((name, sample)) => format!("{column} {n} « {name} » ({sample})"),
                    None => format!("{column} {n}"),
                }
            })
            .collect();
        match locale {
            Locale::Fr => format!(
                "Sou n'est pas sûr de la colonne des montants : {}. Vérifiez-la dans la disposition ci-dessous, puis mettez à jour l'aperçu ; l'import attend.",
                names.join(" ou ")
            ),
            Locale::En => format!(
                "Sou is not sure which column holds the amounts: {}. Check it in the layout below, then update the preview; the import waits.",
                names.join(" or ")
            ),
        }
    });
    let unreadable = v.mapping.as_ref().filter(|m| m.mostly_unreadable).map(|_| match locale {
        Locale::Fr => "La plupart des lignes n'ont pas pu être lues avec cette disposition (dates ou montants illisibles) : choisissez les colonnes de la date et du montant, puis mettez à jour l'aperçu ; l'import attend.",
        Locale::En => "Most lines could not be read with this layout (unreadable dates or amounts): choose the date and amount columns, then update the preview; the import waits.",
    });
    let id = v.id.clone();
    let shown = v.rows.len() as u64;
    let more = (v.total_rows > shown).then(|| match locale {
        Locale::Fr => format!("Les {shown} premières sur {}.", v.total_rows),
        Locale::En => format!("The first {shown} of {}.", v.total_rows),
    });
    view! {
        <section class="card">
            <h2>{v.file_name.clone()}</h2>
            <p class="hint" data-testid="detected">{detected(&v, locale)}</p>
            {failed.map(|m| view! { <p class="error" role="alert" data-testid="import-error">{m}</p> })}
            {v.mapping_error.clone().map(|m| view! {
                <p class="error" role="alert" data-testid="layout-error">{match locale {
                    Locale::Fr => format!("Cette disposition ne convient pas ({m}) : voici celle que Sou a détectée."),
                    Locale::En => format!("That layout does not fit ({m}): here is the one Sou detected."),
                }}</p>
            })}
            {unsure.filter(|_| unreadable.is_none()).map(|m| view! { <p class="warning" role="alert" data-testid="layout-unsure">{m}</p> })}
            {unreadable.map(|m| view! { <p class="warning" role="alert" data-testid="layout-unreadable">{m}</p> })}
            {layout_form(&v, locale)}
        </section>
        <section class="card">
            <h2>{tr(locale, "Aperçu", "Preview")}</h2>
            <p data-testid="summary">{summary}</p>
            {preview_table(v.rows.clone(), locale)}
            {more.map(|m| view! { <p class="hint">{m}</p> })}
            {v.balances.clone().map(|b| balances_view(b, locale))}
            {rejected_list(v.rejected.clone(), locale)}
            <form method="post" action=post::imports::RUN.to(&[&id]) class="run" data-testid="run-form">
                <input type="hidden" name="mapping" value=mapping_json/>
                <input type="hidden" name="account" value=v.account.clone().unwrap_or_default()/>
                {v.parts.iter().enumerate().map(|(i, p)| view! {
                    <input type="hidden" name=format!("part{}", i + 1) value=p.account.clone().unwrap_or_default()/>
                }).collect_view()}
                {(v.account.is_none() && v.parts.is_empty()).then(|| view! {
                    <label for="new-account">{tr(locale, "Nom du nouveau compte", "New account's name")}</label>
                    <input id="new-account" type="text" name="new_account" required maxlength="60"
                        value=v.new_account_name.clone()/>
                })}
                {v.asks_currency.then(|| view! {
                    <label for="new-currency">{if v.parts.is_empty() {
                        tr(locale, "Devise du compte (le fichier ne la dit pas)", "The account's currency (the file does not say)")
                    } else {
                        tr(locale, "Devise des nouveaux comptes (le fichier ne la dit pas)", "The new accounts' currency (the file does not say)")
                    }}</label>
                    <select id="new-currency" name="currency" data-testid="currency">
                        {v.currencies.iter().enumerate().map(|(i, c)| view! { <option value=c.clone() selected=i == 0>{c.clone()}</option> }).collect_view()}
                    </select>
                })}
                <button type="submit" disabled=v.total_rows == 0 || !sure>{button}</button>
            </form>
            <form method="post" action=post::imports::DISCARD.to(&[&id]) class="discard">
                <button type="submit" class="secondary">{tr(locale, "Abandonner ce fichier", "Discard this file")}</button>
            </form>
        </section>
    }
    .into_any()
}

fn preview_table(rows: Vec<PreviewRow>, locale: Locale) -> AnyView {
    view! {
        <table class="rows preview" data-testid="preview">
            <thead>
                <tr>
                    {column_heads([
                        (tr(locale, "Ligne", "Line"), "num"), (tr(locale, "Date", "Date"), ""),
                        (tr(locale, "Libellé", "Label"), ""), (tr(locale, "Catégorie", "Category"), ""),
                        (tr(locale, "Montant", "Amount"), "num"),
                    ])}
                </tr>
            </thead>
            <tbody>
                {rows.into_iter().map(|r| {
                    let class = if r.duplicate { "duplicate" } else { "" };
                    let money_class = if r.amount.minor < 0 { "money neg" } else { "money" };
                    view! {
                        <tr class=class>
                            <td class="num line">{r.line}</td>
                            <td class="date">{i18n::date(r.date, locale)}</td>
                            <td>
                                <span class="label">{r.label}</span>
                                {r.merchant.map(|m| view! { <span class="merchant">{m}</span> })}
                                // On a phone the category column is folded under the label.
                                {r.category.clone().map(|c| view! { <span class="category-inline">{c}</span> })}
                                {r.duplicate.then(|| view! {
                                    <span class="badge">{tr(locale, "déjà importée", "already imported")}</span>
                                })}
                            </td>
                            <td>{r.category.unwrap_or_default()}</td>
                            <td class="num"><span class=money_class>{r.amount.format(locale)}</span></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// The layout (CSV) and the account, sent back as a GET to redraw the preview.
fn layout_form(v: &ImportView, locale: Locale) -> AnyView {
    let csv = csv_layout(v, locale);
    let targets = targets(v, locale);
    view! {
        <form method="get" action=format!("/import/{}", v.id) class="layout-form" data-testid="layout-form">
            {csv}
            {targets}
            <button type="submit" class="secondary-action">{tr(locale, "Mettre à jour l'aperçu", "Update the preview")}</button>
        </form>
    }
    .into_any()
}

/// A CSV file's layout, each part said with how sure Sou is of it.
fn csv_layout(v: &ImportView, locale: Locale) -> Option<impl IntoView> {
    let columns = v.columns.clone();
    // `chosen: None` (the amount column Sou is not sure of): a first, empty option the
    // user must change.
    let column_select = move |name: &'static str, id: &'static str, chosen: Option<usize>| {
        let unset = chosen.is_none().then(|| {
            view! { <option value="" selected=true>{tr(locale, "— à choisir —", "— choose —")}</option> }
        });
        let options = columns
            .iter()
            .enumerate()
            .map(|(i, (title, sample))| {
                let text = if sample.is_empty() {
                    format!("{} · {title}", i + 1)
                } else {
                    let sample: String = sample.chars().take(24).collect();
                    format!("{} · {title} ({sample})", i + 1)
                };
                view! { <option value=(i + 1).to_string() selected=chosen == Some(i)>{text}</option> }
            })
            .collect_view();
        view! { <select id=id name=name>{unset}{options}</select> }
    };
    // An optional column (currency, fee, state): "none" is 0.
    let columns = v.columns.clone();
    let optional_select = move |name: &'static str, id: &'static str, chosen: Option<usize>| {
        let options = columns
            .iter()
            .enumerate()
            .map(|(i, (title, _))| {
                view! { <option value=(i + 1).to_string() selected=chosen == Some(i)>{format!("{} · {title}", i + 1)}</option> }
            })
            .collect_view();
        view! {
            <select id=id name=name>
                <option value="0" selected=chosen.is_none()>{tr(locale, "— aucune —", "— none —")}</option>
                {options}
            </select>
        }
    };
    let layout_name = v.mapping.as_ref().and_then(|m| m.layout.clone()).unwrap_or_default();
    // How sure Sou is of a part, said next to it.
    let how = move |found: Found| {
        let (class, text) = match (found, locale) {
            (Found::Layout, Locale::Fr) => ("found sure", format!("format {layout_name}")),
            (Found::Layout, Locale::En) => ("found sure", format!("{layout_name} layout")),
            (Found::Header, _) => {
                ("found sure", tr(locale, "d'après l'en-tête", "from the header").to_string())
            }
            (Found::Values, _) => (
                "found guess",
                tr(locale, "supposition d'après les valeurs", "a guess from the values").to_string(),
            ),
            (Found::User, _) => ("found sure", tr(locale, "votre choix", "your choice").to_string()),
        };
        view! { <span class=class data-testid="found">{text}</span> }
    };
    v.mapping.clone().map(|m: Mapping| {
        let (signed, amount, debit, credit) = match m.amounts {
            AmountColumns::Signed { amount } => (true, amount, amount, amount),
            AmountColumns::DebitCredit { debit, credit } => (false, debit, debit, credit),
        };
        view! {
            <fieldset class="layout">
                <legend>{tr(locale, "Disposition du fichier", "File layout")}</legend>
                <label for="l-delimiter">{tr(locale, "Séparateur", "Delimiter")}</label>
                <select id="l-delimiter" name="delimiter">
                    {[(";", ";"), (",", ","), ("tab", "\t"), ("|", "|")].into_iter().map(|(value, d)| {
                        let selected = m.delimiter.to_string() == d;
                        view! { <option value=value selected=selected>{delimiter_name(d.chars().next().unwrap_or(';'), locale)}</option> }
                    }).collect_view()}
                </select>
                <label for="l-skip">{tr(locale, "Lignes avant les données", "Lines before the data")}</label>
                <input id="l-skip" type="number" name="skip" min="0" max="1000" value=m.skip.to_string()/>
                <label for="l-date">{tr(locale, "Date", "Date")} {how(m.found.date)}</label>
                {column_select("date", "l-date", (!m.mostly_unreadable).then_some(m.date))}
                <label for="l-order">{tr(locale, "Ordre des dates", "Date order")}</label>
                <select id="l-order" name="order">
                    {DateOrder::ALL.into_iter().map(|o| view! {
                        <option value=o.as_str() selected=o == m.order>{format!("{} ({})", order_name(o, locale), o.example())}</option>
                    }).collect_view()}
                </select>
                <label for="l-label">{tr(locale, "Libellé", "Label")} {how(m.found.label)}</label>
                {column_select("label", "l-label", Some(m.label))}
                <label for="l-amounts">{tr(locale, "Montants", "Amounts")} {how(m.found.amount)}</label>
                <select id="l-amounts" name="amounts">
                    <option value="signed" selected=signed>{tr(locale, "Une colonne signée", "One signed column")}</option>
                    <option value="debit_credit" selected=!signed>{tr(locale, "Débit et crédit séparés", "Separate debit and credit")}</option>
                </select>
                <label for="l-amount">{tr(locale, "Montant (colonne signée)", "Amount (signed column)")}</label>
                {column_select("amount", "l-amount", m.unsure_amount.is_empty().then_some(amount).filter(|_| !m.mostly_unreadable))}
                <label for="l-debit">{tr(locale, "Débit", "Debit")}</label>
                {column_select("debit", "l-debit", Some(debit))}
                <label for="l-credit">{tr(locale, "Crédit", "Credit")}</label>
                {column_select("credit", "l-credit", Some(credit))}
                <label for="l-decimal">{tr(locale, "Décimale", "Decimal mark")}</label>
                <select id="l-decimal" name="decimal">
                    <option value="," selected=m.decimal == ','>"« , » (1 234,56)"</option>
                    <option value="." selected=m.decimal == '.'>"« . » (1,234.56)"</option>
                </select>
                <label for="l-currency">{tr(locale, "Devise de chaque ligne", "Each row's currency")}</label>
                {optional_select("currency", "l-currency", m.currency)}
                <label for="l-state">{tr(locale, "État (en attente, annulée…)", "State (pending, reverted…)")}</label>
                {optional_select("state", "l-state", m.state)}
                <label for="l-fee">{tr(locale, "Frais", "Fee")}</label>
                {optional_select("fee", "l-fee", m.fee)}
                <label for="l-fees">{tr(locale, "Les frais", "Fees")}</label>
                <select id="l-fees" name="fees">
                    <option value="separate" selected=m.fees == Fees::Separate>{tr(locale, "en lignes à part", "as rows of their own")}</option>
                    <option value="netted" selected=m.fees == Fees::Netted>{tr(locale, "déduits du montant", "taken off the amount")}</option>
                </select>
            </fieldset>
        }
    })
}

/// Where the rows go: an account, or one for each account a file names.
fn targets(v: &ImportView, locale: Locale) -> AnyView {
    let chosen = v.account.clone();
    let account_options = |chosen: Option<&str>, new: String| {
        view! {
            <option value="" selected=chosen.is_none()>{new}</option>
            {v.accounts.iter().map(|a| {
                let selected = chosen == Some(a.key.as_str());
                view! { <option value=a.key.clone() selected=selected>{format!("{} ({})", a.name, a.currency)}</option> }
            }).collect_view()}
        }
    };
    // A file naming several accounts: where each one's rows go.
    if v.parts.is_empty() {
        view! {
            <label for="l-account">{tr(locale, "Compte", "Account")}</label>
            <select id="l-account" name="account">
                {account_options(chosen.as_deref(), tr(locale, "Nouveau compte", "New account").to_string())}
            </select>
        }
        .into_any()
    } else {
        view! {
            <fieldset class="layout parts" data-testid="parts">
                <legend>{match locale {
                    Locale::Fr => format!("Ce fichier contient {} comptes : où va chacun ?", v.parts.len()),
                    Locale::En => format!("This file holds {} accounts: where does each go?", v.parts.len()),
                }}</legend>
                {v.parts.iter().enumerate().map(|(i, p)| {
                    let id = format!("l-part{}", i + 1);
                    let rows = match locale {
                        Locale::Fr => count(locale, p.rows, ("opération", "opérations"), ("", "")),
                        Locale::En => count(locale, p.rows, ("", ""), ("transaction", "transactions")),
                    };
                    let currency = p.currency.clone().map(|c| format!(" · {c}")).unwrap_or_default();
                    let new = match locale {
                        Locale::Fr => format!("Nouveau compte « {} »", p.name),
                        Locale::En => format!("New account “{}”", p.name),
                    };
                    view! {
                        <label for=id.clone()>{format!("{} · {rows}{currency}", p.name)}</label>
                        <select id=id name=format!("part{}", i + 1)>{account_options(p.account.as_deref(), new)}</select>
                    }
                }).collect_view()}
            </fieldset>
        }
        .into_any()
    }
}
