//! A write waiting for the user's approval, and what became of it: its dry run's effect
//! (with the transactions it moves), then Approve, Reject and Edit — plain forms, the
//! same with or without JavaScript — or, once decided, what happened, with Undo.

use agent::{Approval, ApprovalState, Locale, ToolCall};
use leptos::prelude::*;

use super::ledger::rows_table;

use crate::post;

/// `HH:MM UTC` of an RFC 3339 timestamp.
fn clock(ts: &str) -> String {
    ts.get(11..16).map(|hm| format!("{hm} UTC")).unwrap_or_default()
}

/// An amount as one types it, with `decimal` as the mark: "300,00", "300.00".
pub fn typed_amount(m: agent::Money, decimal: char) -> String {
    let exp = m.currency.exponent();
    let unit = 10i64.pow(exp);
    let (whole, frac) = (m.minor / unit, (m.minor % unit).abs());
    if exp == 0 {
        whole.to_string()
    } else {
        format!("{whole}{decimal}{frac:0width$}", width = exp as usize)
    }
}

/// The hidden fields every form of the card carries: where to come back to.
fn back_field(back: &str) -> impl IntoView {
    view! { <input type="hidden" name="back" value=back.to_string()/> }
}

/// The user's categories (key, name), for an edit form's choice of category: in the
/// context of the page (or of the answer drawn after streaming) when it has them.
#[derive(Clone, Debug, Default)]
pub struct CategoryChoices(pub Vec<(String, String)>);

impl CategoryChoices {
    pub fn of(vocabulary: &agent::Vocabulary, locale: Locale) -> CategoryChoices {
        CategoryChoices(
            vocabulary
                .categories
                .iter()
                .map(|c| (c.key.clone(), locale.pick(&c.name_fr, &c.name_en).clone()))
                .collect(),
        )
    }
}

/// A choice of category named `name`, `chosen` selected.
fn category_choice(id: String, name: &'static str, chosen: &str, label: &'static str) -> Option<AnyView> {
    let choices = use_context::<CategoryChoices>().filter(|c| !c.0.is_empty())?;
    Some(
        view! {
            <label for=id.clone()>{label}</label>
            <select id=id name=name>
                {choices.0.into_iter().map(|(key, text)| {
                    let selected = key == chosen;
                    view! { <option value=key selected=selected>{text}</option> }
                }).collect_view()}
            </select>
        }
        .into_any(),
    )
}

/// The fields of the edit form, for the tools whose arguments a user types.
fn edit_fields(a: &Approval, locale: Locale) -> Option<AnyView> {
    let pick = |fr: &'static str, en: &'static str| locale.pick(fr, en);
    let id = &a.id;
    Some(match &a.plan.call {
        ToolCall::SetBudget(b) => {
            let amount = b.amount.map(|m| typed_amount(m, locale.pick(',', '.'))).unwrap_or_default();
            let currency = a
                .effect
                .budget
                .as_ref()
                .and_then(|e| e.after.or(e.before))
                .or(b.amount)
                .map(|m| m.currency.to_string())
                .unwrap_or_default();
            let month = format!("{:04}-{:02}", b.from.year(), b.from.month());
            view! {
                <label for=format!("amount-{id}")>{pick("Montant par mois (vide : supprimer)", "Amount a month (empty: remove)")}</label>
                <input id=format!("amount-{id}") name="amount" inputmode="decimal" value=amount autocomplete="off"/>
                <input type="hidden" name="currency" value=currency/>
                <label for=format!("from-{id}")>{pick("À partir de", "From")}</label>
                <input id=format!("from-{id}") name="from" type="month" value=month required/>
            }
            .into_any()
        }
        ToolCall::CreateRule(r) => view! {
            <label for=format!("pattern-{id}")>{pick("Le libellé contient", "The label contains")}</label>
            <input id=format!("pattern-{id}") name="pattern" value=r.pattern.clone() required maxlength="100"/>
            {category_choice(format!("category-{id}"), "category", &r.category, pick("Catégorie", "Category"))}
            <label class="check">
                <input type="checkbox" name="apply_to_past" value="1" checked=r.apply_to_past/>
                {pick("Aussi pour les opérations passées", "Past transactions too")}
            </label>
        }
        .into_any(),
        ToolCall::Recategorise(r) => {
            category_choice(format!("to-{id}"), "to", &r.to, pick("Vers la catégorie", "To the category"))?
        }
        ToolCall::MergeMerchants(m) => view! {
            <label for=format!("name-{id}")>{pick("Nom", "Name")}</label>
            <input id=format!("name-{id}") name="name" value=m.name.clone().unwrap_or_default() maxlength="60"/>
        }
        .into_any(),
        _ => return None,
    })
}

/// The card of one approval. `back` is the page its forms come back to.
pub fn approval_card(a: Approval, back: String, locale: Locale) -> impl IntoView {
    let pick = |fr: &'static str, en: &'static str| locale.pick(fr, en);
    let action = post::approvals::DECIDE.to(&[&a.id]);
    let count = a.effect.transactions;
    let sample = (!a.effect.sample.is_empty()).then(|| {
        let shown = a.effect.sample.len();
        let summary = match (locale, count as usize > shown) {
            (Locale::Fr, true) => format!("Voir les opérations ({shown} premières sur {count})"),
            (Locale::Fr, false) => format!("Voir les opérations ({count})"),
            (Locale::En, true) => format!("See the transactions (first {shown} of {count})"),
            (Locale::En, false) => format!("See the transactions ({count})"),
        };
        view! {
            <details class="effect-rows">
                <summary>{summary}</summary>
                {rows_table(a.effect.sample.clone(), locale)}
            </details>
        }
    });
    let state = a.state;
    let decided = match state {
        ApprovalState::Pending => {
            let edit = edit_fields(&a, locale).map(|fields| {
                view! {
                    <details class="edit">
                        <summary>{pick("Modifier", "Edit")}</summary>
                        <form method="post" action=action.clone() class="edit-form">
                            <input type="hidden" name="action" value="edit"/>
                            {back_field(&back)}
                            {fields}
                            <button type="submit">{pick("Nouvel aperçu", "New preview")}</button>
                        </form>
                    </details>
                }
            });
            view! {
                <p class="expires">{format!("{} {}", pick("Attend votre réponse jusqu'à", "Waiting for your answer until"), clock(&a.expires_at))}</p>
                <div class="actions">
                    <form method="post" action=action.clone()>
                        <input type="hidden" name="action" value="approve"/>
                        <input type="hidden" name="digest" value=a.digest.clone()/>
                        {back_field(&back)}
                        <button type="submit" class="primary" data-testid="approve">{pick("Approuver", "Approve")}</button>
                    </form>
                    <form method="post" action=action.clone()>
                        <input type="hidden" name="action" value="reject"/>
                        {back_field(&back)}
                        <button type="submit" data-testid="reject">{pick("Refuser", "Reject")}</button>
                    </form>
                </div>
                {edit}
            }
            .into_any()
        }
        ApprovalState::Executed | ApprovalState::Approved => {
            let undo = a.change.as_ref().map(|c| match &c.undone_at {
                Some(_) => view! { <p class="state undone" data-testid="undone">{pick("Annulé : tout est revenu comme avant.", "Undone: everything is back as it was.")}</p> }.into_any(),
                None => view! {
                    <form method="post" action=post::approvals::UNDO.to(&[&c.id.to_string()])>
                        {back_field(&back)}
                        <button type="submit" data-testid="undo">{pick("Annuler cette modification", "Undo this change")}</button>
                    </form>
                }
                .into_any(),
            });
            view! {
                <p class="state done" role="status" data-testid="done">{pick("Fait.", "Done.")}</p>
                {undo}
            }
            .into_any()
        }
        ApprovalState::Rejected => view! { <p class="state">{pick("Refusé : rien n'a été modifié.", "Rejected: nothing changed.")}</p> }.into_any(),
        ApprovalState::Expired => view! { <p class="state">{pick("Expiré : rien n'a été modifié.", "Expired: nothing changed.")}</p> }.into_any(),
        ApprovalState::Superseded => view! { <p class="state">{pick("Remplacé par la version modifiée ci-dessous.", "Replaced by the edited version below.")}</p> }.into_any(),
        ApprovalState::Failed => view! { <p class="state error" role="alert">{a.reason.clone().unwrap_or_default()}</p> }.into_any(),
    };
    view! {
        <section class="approval" id=format!("approval-{}", a.id) data-testid="approval" data-state=state.as_str()>
            <h3>{a.title.clone()}</h3>
            <ul class="effect">{a.effect.lines.clone().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
            {sample}
            {decided}
        </section>
    }
}
