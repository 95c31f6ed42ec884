//! Each tool over the ledger on the server, one file each: its run (on the shared
//! queries of `spending.rs`, `flows.rs` and `recurring.rs`), its checks, the
//! transactions its result rests on, and how to page through them. `super` expands
//! `agent::for_each_tool!` into the dispatches, so a tool missing here does not compile.

macro_rules! ledger_mods {
    (ledger: [$($l:ident $L:ident,)*] dataset: $d:tt write: $w:tt) => {
        $(pub(super) mod $l;)*
    };
}

agent::for_each_tool!(ledger_mods);

pub(crate) use super::cx::{CheckCx, PageCx, RunCx};
