//! The tools that change the user's data, and what the user approves before one runs.
//!
//! A write plan never runs on its own: the server computes its effect (a dry run),
//! stores an approval bound to the plan, the effect and an expiry, and shows it
//! ([`Approval`]); only the user's approval of exactly that runs it, once, and records
//! a change that can be undone ([`Change`]).

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::money::Money;
use crate::tools::TransactionRow;

/// The most transactions one write may change: past it, the user is asked to narrow it.
pub const MAX_WRITE_ROWS: usize = 5000;

/// Where an approval is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalState {
    /// Waiting for the user, until it expires.
    Pending,
    /// Approved; runs at once (and after a restart, if the server stopped first).
    Approved,
    /// Ran; `change` says what changed.
    Executed,
    Rejected,
    /// Not answered in time.
    Expired,
    /// The user edited its arguments: a new approval replaced it.
    Superseded,
    /// Approved, but the data changed since the dry run: nothing was written.
    Failed,
}

impl ApprovalState {
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalState::Pending => "pending",
            ApprovalState::Approved => "approved",
            ApprovalState::Executed => "executed",
            ApprovalState::Rejected => "rejected",
            ApprovalState::Expired => "expired",
            ApprovalState::Superseded => "superseded",
            ApprovalState::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<ApprovalState> {
        [
            ApprovalState::Pending,
            ApprovalState::Approved,
            ApprovalState::Executed,
            ApprovalState::Rejected,
            ApprovalState::Expired,
            ApprovalState::Superseded,
            ApprovalState::Failed,
        ]
        .into_iter()
        .find(|state| state.as_str() == s)
    }
}

/// A budget before and after a `set_budget`, in one month.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetEffect {
    pub category: crate::tools::EntityRef,
    /// The first month it applies to.
    pub from: Date,
    /// The budget that month had (absent: none).
    pub before: Option<Money>,
    /// The budget it will have (absent: removed).
    pub after: Option<Money>,
}

/// What a write will do, computed by a dry run on the data as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// One sentence per thing that changes, in the user's language: "12 opérations
    /// passent de Shopping à Loisirs", "Budget Restaurants : 250,00 € → 300,00 € à partir
    /// de décembre 2026".
    pub lines: Vec<String>,
    /// Transactions whose category or merchant changes.
    pub transactions: u32,
    /// The first of them, newest first, as they are now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sample: Vec<TransactionRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetEffect>,
    /// Nothing would change: there is nothing to approve.
    #[serde(default)]
    pub empty: bool,
}

/// One category's budget as Settings → Budgets lists it: this month's, and the next
/// change planned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetView {
    pub category: crate::tools::EntityRef,
    /// The budget of the current month, if any.
    pub now: Option<Money>,
    /// The first month of the current budget (`None` for one that always applied).
    pub since: Option<Date>,
    /// The next change planned: its first month and the budget from then (none: ends).
    pub next: Option<(Date, Option<Money>)>,
}

/// An executed write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub id: String,
    /// The tool that ran.
    pub tool: String,
    /// What it changed, as the approval said.
    pub summary: String,
    /// RFC 3339.
    pub created_at: String,
    /// When it was undone (RFC 3339); absent while it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undone_at: Option<String>,
}

/// A write waiting for, or past, the user's decision: the stream's `approval_required`
/// event and `GET /api/v1/approvals/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    /// At least 128 random bits.
    pub id: String,
    /// The write's plan; `tool` is its name.
    pub plan: crate::plan::ToolCallPlan,
    /// What Sou will do, in one line: "Passer 12 opérations en Loisirs".
    pub title: String,
    pub effect: Effect,
    /// SHA-256 (hex) of the user, the canonical plan, the effect and the expiry: what
    /// an approval is bound to. `approve` may send it back to say "this, not another".
    pub digest: String,
    /// RFC 3339; a pending approval is refused after it.
    pub expires_at: String,
    pub state: ApprovalState,
    /// Once executed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
    /// Why it failed, when it did; safe to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Proposed by a model's tool loop, which goes on once it is decided: the run (an
    /// answer in the same conversation) that does (`GET /api/v1/runs/{id}/events`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continued_in: Option<String>,
}

/// The arguments of a write that its approval card lets a person edit: an edit may
/// change these and no other (`backend::approvals`, the card's form). A budget's
/// category, a merge's merchants, a recategorisation's filters stay as proposed.
pub fn editable_fields(tool: &str) -> &'static [&'static str] {
    match tool {
        "set_budget" => &["amount", "from"],
        "create_rule" => &["pattern", "category", "apply_to_past"],
        "recategorise" => &["to"],
        "merge_merchants" => &["name"],
        _ => &[],
    }
}

/// What an approval's or an undo's refusal code means, in the user's language (the
/// codes of `docs/api.md`); `None` for a code that is not one of them.
pub fn refusal_text(code: &str, locale: crate::locale::Locale) -> Option<&'static str> {
    let (fr, en) = match code {
        "approval_expired" => (
            "Cette demande a expiré : rien n'a été modifié. Redemandez pour un nouvel aperçu.",
            "This request expired: nothing changed. Ask again for a new preview.",
        ),
        "approval_done" => (
            "C'est déjà fait : une approbation ne sert qu'une fois.",
            "Done already: an approval counts once.",
        ),
        "approval_superseded" => (
            "Cette demande a été modifiée : approuvez sa nouvelle version.",
            "This request was edited: approve its new version.",
        ),
        "approval_decided" => (
            "Cette demande n'attend plus de réponse : rien n'a été modifié.",
            "This request is no longer waiting for an answer: nothing changed.",
        ),
        "approval_changed" => (
            "Ce qui serait exécuté n'est pas ce qui a été approuvé : rien n'a été modifié.",
            "What would run is not what was approved: nothing changed.",
        ),
        "conflict" => (
            "Les données ont changé depuis : rien n'a été modifié. Redemandez pour un nouvel aperçu.",
            "The data changed since: nothing changed. Ask again for a new preview.",
        ),
        "nothing_to_change" => {
            ("Rien ne changerait : c'est déjà le cas.", "Nothing would change: it is so already.")
        }
        "already_undone" => ("Cette modification a déjà été annulée.", "This change was undone already."),
        "not_editable" => (
            "Seuls les champs affichés dans la demande peuvent être modifiés : rien n'a été modifié.",
            "Only the fields the request shows can be edited: nothing changed.",
        ),
        _ => return None,
    };
    Some(locale.pick(fr, en))
}
