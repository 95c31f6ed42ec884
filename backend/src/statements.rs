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

    /// SQLite: runs them in a transaction of their own, `BEGIN IMMEDIATE`, the writes and
    /// `COMMIT` in one call: one hand-off to the connection's thread instead of three (a
    /// quick answer's fixed cost). A connection that may still be in that transaction (a
    /// write failed, or the call was cut short) is closed, which rolls it back, instead
    /// of going back to the pool.
    pub(crate) async fn commit_alone(mut self, pool: &sqlx::AnyPool, keep: bool) -> Result<(), sqlx::Error> {
        /// Closes the connection unless it was given back after a commit.
        struct Closing(Option<sqlx::pool::PoolConnection<Any>>);
        impl Drop for Closing {
            fn drop(&mut self) {
                if let Some(conn) = &mut self.0 {
                    conn.close_on_drop();
                }
            }
        }
        debug_assert!(self.dialect == Dialect::Sqlite);
        if self.parts.is_empty() {
            return Ok(());
        }
        self.parts.insert(0, "BEGIN IMMEDIATE".into());
        self.parts.push("COMMIT".into());
        let mut conn = Closing(Some(pool.acquire().await?));
        if let Some(db) = conn.0.as_mut() {
            self.execute(db, keep).await?;
        }
        // Committed: the connection goes back to the pool.
        drop(conn.0.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// A write that fails inside `commit_alone` leaves nothing of the others, and the
    /// connection it ran on does not go back to the pool inside its transaction: every
    /// later write, on any of the pool's connections, begins and commits at once.
    #[tokio::test]
    async fn a_failed_call_rolls_back_and_leaves_no_open_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).await.unwrap();
        let user = store.ensure_user("alice").await.unwrap();
        let insert = |st: &mut Statements<'_>, name: &str| {
            let (u, n) = (st.bind(user.0), st.bind(name.to_string()));
            st.push(format!(
                "INSERT INTO categories (user_id, key, name_fr, name_en) VALUES ({u}, {n}, {n}, {n})"
            ));
        };
        let mut st = Statements::new(Dialect::Sqlite);
        insert(&mut st, "first");
        insert(&mut st, "first");
        assert!(
            st.commit_alone(store.pool(), true).await.is_err(),
            "the second insert breaks the unique key"
        );
        let count = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM categories WHERE user_id = $1")
                .bind(user.0)
                .fetch_one(store.pool())
                .await
                .unwrap()
        };
        assert_eq!(count().await, 0, "nothing of a failed call is kept");
        // More writes than the pool has connections: a connection left in its
        // transaction would fail the one given it ("within a transaction") and hold the
        // writer's lock from the others (busy after the timeout).
        for i in 0..12 {
            let mut st = Statements::new(Dialect::Sqlite);
            insert(&mut st, &format!("c{i}"));
            st.commit_alone(store.pool(), true).await.unwrap();
        }
        assert_eq!(count().await, 12);
    }
}
