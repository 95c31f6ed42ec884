//! Each user's parser, kept in memory: building it reads the user's categories,
//! merchants, accounts and datasets and indexes their names, which is most of what a
//! `/api/v1/plan` request costs. A parser is used again while the user's
//! `vocabulary_version` (moved by a trigger on every change to those tables, from any
//! server) and currency are those it was built from: one small read instead of five.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent::Parser;

use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::Store;

/// At most this many users' parsers are kept; past it the cache starts again empty.
const USERS: usize = 4096;

#[derive(Clone, Default)]
pub(crate) struct Parsers {
    built: Arc<Mutex<HashMap<UserId, Built>>>,
}

struct Built {
    version: i64,
    currency: String,
    parser: Arc<Parser>,
}

impl Parsers {
    /// The parser kept for `user`, if any, with the stamp it was built at: not read
    /// again, so the caller checks that stamp before trusting it.
    pub(crate) fn cached(&self, user: UserId) -> Option<((i64, String), Arc<Parser>)> {
        let built = self.built.lock().unwrap_or_else(|p| p.into_inner());
        built.get(&user).map(|b| ((b.version, b.currency.clone()), b.parser.clone()))
    }

    /// `user`'s parser, built again only if their vocabulary changed since. `stamp`:
    /// their vocabulary version and currency, when the caller just read them (the
    /// session's lookup does); else they are read here.
    pub(crate) async fn get(
        &self,
        store: &Store,
        user: UserId,
        stamp: Option<(i64, String)>,
    ) -> Result<Arc<Parser>, BackendError> {
        let (version, currency) = match stamp {
            Some(stamp) => stamp,
            None => self::stamp(store, user).await?,
        };
        {
            let built = self.built.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(b) = built.get(&user).filter(|b| b.version == version && b.currency == currency) {
                return Ok(b.parser.clone());
            }
        }
        // Read after the version: a change in between gives a newer vocabulary under an
        // older version, built again next time, never an older one kept.
        let parser = Arc::new(Parser::new(store.vocabulary(user).await?));
        let mut built = self.built.lock().unwrap_or_else(|p| p.into_inner());
        if built.len() >= USERS {
            built.clear();
        }
        built.insert(user, Built { version, currency, parser: parser.clone() });
        Ok(parser)
    }
}

/// `user`'s vocabulary version and currency, as stored now. `users` is not one user's
/// rows: read without a transaction.
pub(crate) async fn stamp(store: &Store, user: UserId) -> Result<(i64, String), BackendError> {
    let mut db = store.pool().acquire().await?;
    read_stamp(&mut db, user).await
}

/// `user`'s vocabulary version and currency, read on the caller's connection.
pub(crate) async fn read_stamp(
    db: &mut sqlx::AnyConnection,
    user: UserId,
) -> Result<(i64, String), BackendError> {
    sqlx::query_as("SELECT CAST(vocabulary_version AS BIGINT), currency FROM users WHERE id = $1")
        .bind(user.0)
        .fetch_optional(db)
        .await?
        .ok_or(BackendError::NotFound)
}
