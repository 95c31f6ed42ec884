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
