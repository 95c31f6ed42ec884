// A scenario reads top to bottom, however long.
#![allow(clippy::too_many_lines)]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The agent's integration tests, one binary (`cargo test -p agent --test it`): the
//! labelled corpus of messages and their plans, and property tests on arbitrary input.

mod blind;
mod corpus;
mod negation;
mod out_of_domain;
mod remark;
mod robustness;
mod steps;
