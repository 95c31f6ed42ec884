//! Several writes sent to the database as one: on PostgreSQL one statement (each write
//! a part of its `WITH`, one round trip), on SQLite the statements one after the other
//! in one call (one hand-off to the connection's thread). Their values are numbered
//! across all of them (`$1`, `$2`…, [`Statements::bind`]).
//!
//! On PostgreSQL the parts run on one snapshot and none sees what another wrote: two
//! parts must not change the same row, nor read what another part writes.

use sqlx::any::AnyArguments;
use sqlx::{Any, AnyConnection, Arguments, Encode, Type};

use crate::ids::Dialect;

pub(crate) struct Statements<'q> {
    dialect: Dialect,
    parts: Vec<String>,
    /// PostgreSQL only: what the statement selects at the end (`pg_notify`…).
    select: Option<String>,
    args: AnyArguments<'q>,
    count: usize,
    failed: Option<sqlx::error::BoxDynError>,
}

impl<'q> Statements<'q> {
    pub(crate) fn new(dialect: Dialect) -> Statements<'q> {
        Statements {
            dialect,
            parts: Vec::new(),
            select: None,
            args: AnyArguments::default(),
            count: 0,
            failed: None,
        }
    }

    /// For the database `db` speaks to.
    pub(crate) fn on(db: &AnyConnection) -> Statements<'q> {
        let dialect = if db.backend_name() == "PostgreSQL" { Dialect::Postgres } else { Dialect::Sqlite };
        Statements::new(dialect)
    }

    /// Binds `value`; returns its placeholder (`$n`).
    pub(crate) fn bind<T>(&mut self, value: T) -> String
    where
        T: 'q + Encode<'q, Any> + Type<Any>,
    {
        if let Err(e) = self.args.add(value) {
            self.failed.get_or_insert(e);
        }
        self.count += 1;
        format!("${}", self.count)
    }

    /// Adds a write (an `INSERT`, `UPDATE` or `DELETE` without `RETURNING`).
    pub(crate) fn push(&mut self, sql: String) {
        self.parts.push(sql);
    }

    /// On PostgreSQL, a `SELECT` run with the writes (a notification sent at the
    /// commit); nothing on SQLite.
    pub(crate) fn select_on_postgres(&mut self, sql: String) {
        if self.dialect == Dialect::Postgres {
            self.select = Some(sql);
        }
    }

    /// Runs them all; `keep`: whether the connection keeps the statement prepared (for
    /// the few shapes that recur).
    pub(crate) async fn execute(self, db: &mut AnyConnection, keep: bool) -> Result<(), sqlx::Error> {
        if let Some(e) = self.failed {
            return Err(sqlx::Error::Encode(e));
        }
        let sql = match (self.dialect, self.parts.len(), &self.select) {
            (_, 0, None) => return Ok(()),
            (Dialect::Sqlite, _, _) => self.parts.join(";\n"),
            (Dialect::Postgres, 1, None) => self.parts.concat(),
            (Dialect::Postgres, _, select) => {
                let parts: Vec<String> =
                    self.parts.iter().enumerate().map(|(i, p)| format!("w{i} AS ({p})")).collect();
                let select = select.as_deref().unwrap_or("SELECT 1");
                if parts.is_empty() {
                    select.to_string()
                } else {
                    format!("WITH {} {select}", parts.join(", "))
                }
            }
        };
        sqlx::query_with(&sql, self.args).persistent(keep).execute(db).await?;
        Ok(())
    }
}
