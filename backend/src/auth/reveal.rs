//! A new API token made by a form without JavaScript waits, sealed, for the Settings page
//! the form redirects to — which another server may draw. The key is derived from the
//! session cookie of the browser that made it: the database holds only the session's
//! digest, so a copy of it cannot read the token, and another browser of the same user
//! cannot either.

use std::time::Duration;

use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use chrono::Utc;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::AuthError;
use crate::ids::UserId;
use crate::store::{timestamp, Store};

/// How long a new API token waits to be shown.
const REVEAL_FOR: Duration = Duration::from_secs(600);

fn cipher(session: &str) -> XChaCha20Poly1305 {
    let key: [u8; 32] = Sha256::digest(format!("sou-token-reveal:{session}").as_bytes()).into();
    XChaCha20Poly1305::new(&key.into())
}

fn aad(user: UserId, id: i64) -> Vec<u8> {
    format!("sou-token-reveal:{}:{id}", user.0).into_bytes()
}

pub(super) async fn hold(
    store: &Store,
    user: UserId,
    id: i64,
    token: &SecretString,
    session: &str,
) -> Result<(), AuthError> {
    let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
    let aad = aad(user, id);
    let sealed = cipher(session)
        .encrypt(&nonce, Payload { msg: token.expose_secret().as_bytes(), aad: &aad })
        .map_err(|_| AuthError::Hash)?;
    let mut db = store.tenant(user).await?;
    sqlx::query(
        "INSERT INTO token_reveals (user_id, token_id, nonce, sealed, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(user.0)
    .bind(id)
    .bind(nonce.to_vec())
    .bind(sealed)
    .bind(timestamp(Utc::now()))
    .execute(&mut *db)
    .await?;
    db.commit().await?;
    Ok(())
}

pub(super) async fn take(
    store: &Store,
    user: UserId,
    id: i64,
    session: &str,
) -> Result<Option<SecretString>, AuthError> {
    let mut db = store.tenant(user).await?;
    let row = sqlx::query(
        "DELETE FROM token_reveals WHERE user_id = $1 AND token_id = $2 RETURNING nonce, sealed, created_at",
    )
    .bind(user.0)
    .bind(id)
    .fetch_optional(&mut *db)
    .await?;
    db.commit().await?;
    let Some(row) = row else { return Ok(None) };
    let (nonce, sealed, created): (Vec<u8>, Vec<u8>, String) =
        (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
    let cutoff = chrono::TimeDelta::from_std(REVEAL_FOR).unwrap_or_default();
    if created < timestamp(Utc::now() - cutoff) || nonce.len() != 24 {
        return Ok(None);
    }
    let aad = aad(user, id);
    let plain = cipher(session)
        .decrypt(XNonce::from_slice(&nonce), Payload { msg: &sealed, aad: &aad })
        .ok()
        .and_then(|p| String::from_utf8(p).ok());
    Ok(plain.map(SecretString::from))
}
