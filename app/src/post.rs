//! Every address a page's form posts to, each written once: the page fills it in
//! ([`Post::to`]) and the server routes it ([`Post::route`]) to its feature's handler
//! (`server/src/<feature>.rs`, whose `routes()` lists them). Grouped by feature.

use serde::Deserialize;

/// An address like `/rules/{id}/apply`: each `{…}` is a part of the path.
#[derive(Clone, Copy, Debug)]
pub struct Post(pub &'static str);

impl Post {
    /// The path the server routes, with its `{…}` parts.
    pub const fn route(self) -> &'static str {
        self.0
    }

    /// The path with its `{…}` parts filled in order by `parts`.
    pub fn to(self, parts: &[&str]) -> String {
        let mut out = String::with_capacity(self.0.len() + 16);
        let mut parts = parts.iter();
        let mut rest = self.0;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
            out.push_str(parts.next().copied().unwrap_or_default());
            rest = &rest[close..];
        }
        out.push_str(rest);
        out
    }
}

impl std::fmt::Display for Post {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// The chat without JavaScript (`server/src/chat.rs`).
pub mod chat {
    use super::Post;
    pub const SEND: Post = Post("/chat");
}

/// Signing in and out (`server/src/auth.rs`).
pub mod auth {
    use super::Post;
    pub const LOG_IN: Post = Post("/auth/login");
    pub const SIGN_UP: Post = Post("/auth/signup");
    pub const DEMO: Post = Post("/auth/demo");
    pub const LOG_OUT: Post = Post("/auth/logout");
}

/// Settings → Account (`server/src/account.rs`).
pub mod account {
    use super::Post;
    pub const PASSWORD: Post = Post("/account/password");
    pub const END_SESSION: Post = Post("/account/sessions/{id}/end");
    pub const END_OTHERS: Post = Post("/account/sessions/end-others");
}

/// Bank files (`server/src/imports.rs`).
pub mod imports {
    use super::Post;
    pub const UPLOAD: Post = Post("/import");
    pub const RUN: Post = Post("/import/{id}/run");
    pub const DISCARD: Post = Post("/import/{id}/discard");
}

/// Datasets (`server/src/datasets.rs`).
pub mod datasets {
    use super::Post;
    pub const UPLOAD: Post = Post("/datasets");
    pub const DELETE: Post = Post("/datasets/{name}/delete");
}

/// Categorisation rules (`server/src/rules.rs`).
pub mod rules {
    use super::Post;
    pub const CREATE: Post = Post("/rules");
    pub const APPLY: Post = Post("/rules/{id}/apply");
    pub const DELETE: Post = Post("/rules/{id}/delete");
}

/// Plans of steps and the usage limit (`server/src/runs.rs`).
pub mod runs {
    use super::Post;
    pub const EDIT: Post = Post("/runs/{id}/edit");
    pub const ACT: Post = Post("/runs/{id}/{action}");
    pub const LIMIT: Post = Post("/usage/limit");
}

/// Approvals, budgets and undoing a change (`server/src/approvals.rs`).
pub mod approvals {
    use super::Post;
    pub const DECIDE: Post = Post("/approvals/{id}");
    pub const UNDO: Post = Post("/changes/{id}/undo");
    pub const BUDGET: Post = Post("/budgets");
}

/// Shared reports (`server/src/reports.rs`).
pub mod reports {
    use super::Post;
    pub const CREATE: Post = Post("/reports");
    pub const REVOKE: Post = Post("/reports/{id}/revoke");
}

/// Widgets (`server/src/widgets.rs`).
pub mod widgets {
    use super::Post;
    pub const CREATE: Post = Post("/widgets");
    pub const ENABLED: Post = Post("/widgets/{id}/enabled");
    pub const REVOKE: Post = Post("/widgets/{id}/revoke");
}

/// The names in a page's address after a post came back to it (`/rules?rule=12`,
/// `/login?error=…&name=…`): the server's handler writes them, the page reads them, both
/// from here. A refused form's own fields come back under their names too.
pub mod key {
    /// Why a form was refused: its error's code.
    pub const ERROR: &str = "error";
    /// Seconds to wait before trying again (sign-in and password limits).
    pub const RETRY: &str = "retry";
    /// Where signing in goes on to.
    pub const NEXT: &str = "next";
    /// How many other sessions a new password ended.
    pub const CHANGED: &str = "changed";
    /// How many sessions were ended.
    pub const ENDED: &str = "ended";
    /// The id of what a form just made (a report, a widget site).
    pub const CREATED: &str = "created";
    /// Something was revoked.
    pub const REVOKED: &str = "revoked";
    /// Something was saved (a budget's change id, the usage limit).
    pub const SAVED: &str = "saved";
    /// Why a write was not proposed or not approved: its error's code.
    pub const WRITE_ERROR: &str = "write_error";
    /// Why a usage limit was refused.
    pub const LIMIT_ERROR: &str = "limit_error";
    /// The usage limit as typed, given back with its error.
    pub const TYPED: &str = "typed";
    /// The id of why an upload was refused, kept for the page to say.
    pub const REFUSED: &str = "refused";
    /// The name of the dataset just added.
    pub const ADDED: &str = "added";
    /// The id of the rule just made, whose effect the page shows.
    pub const RULE: &str = "rule";
    /// How many lines a rule changed.
    pub const APPLIED: &str = "applied";
    /// The id of the API token just made, shown once.
    pub const TOKEN: &str = "token";
    /// The account an import goes to.
    pub const ACCOUNT: &str = "account";
    /// A name typed (sign-in, a widget site).
    pub const NAME: &str = "name";
    /// A rule's pattern.
    pub const PATTERN: &str = "pattern";
    /// A category's key (a rule, a budget).
    pub const CATEGORY: &str = "category";
    /// A budget's amount as typed.
    pub const AMOUNT: &str = "amount";
    /// A budget's first month.
    pub const FROM: &str = "from";
    /// A widget site's origins.
    pub const ORIGINS: &str = "origins";
    /// A widget site's greeting.
    pub const GREETING: &str = "greeting";
    /// A widget site's theme.
    pub const THEME: &str = "theme";
    /// A widget site's questions per hour.
    pub const RATE_PER_HOUR: &str = "rate_per_hour";
    /// A dataset query as typed.
    pub const SQL: &str = "sql";
    /// A question to start the chat with.
    pub const Q: &str = "q";
}

// The fields of the forms whose handlers read them as a struct, beside their addresses.

/// `POST /rules`.
#[derive(Deserialize)]
pub struct RuleForm {
    pub pattern: String,
    pub category: String,
}

/// `POST /chat`: a message, in a conversation or a new one, and the plan a chip chose.
#[derive(Deserialize)]
pub struct ChatForm {
    pub message: String,
    #[serde(default)]
    pub conversation_id: Option<String>,
    #[serde(default)]
    pub plan: Option<String>,
}

/// `POST /import/{id}/run`: where the rows go, and the layout the preview showed.
#[derive(Deserialize)]
pub struct RunForm {
    /// The CSV layout the preview showed, as JSON; empty: the detected one.
    #[serde(default)]
    pub mapping: String,
    /// An account key; empty: a new account named `new_account`.
    #[serde(default)]
    pub account: String,
    #[serde(default)]
    pub new_account: String,
    /// A new account's currency, asked when the file states none; empty: the user's.
    #[serde(default)]
    pub currency: String,
    /// A file naming several accounts: `part1`, `part2`… (an account key, empty for a
    /// new account named as the file names that account).
    #[serde(flatten)]
    pub parts: std::collections::HashMap<String, String>,
}

#[cfg(test)]
mod tests {
    use super::Post;

    #[test]
    fn parts_fill_the_braces_in_order() {
        for (post, parts, want) in [
            ("/rules", &[][..], "/rules"),
            ("/rules/{id}/apply", &["7"][..], "/rules/7/apply"),
            ("/runs/{id}/{action}", &["r1", "approve"][..], "/runs/r1/approve"),
            ("/runs/{id}/{action}", &["r1"][..], "/runs/r1/"),
        ] {
            assert_eq!(Post(post).to(parts), want);
        }
    }
}
