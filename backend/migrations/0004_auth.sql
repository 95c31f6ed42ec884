-- Accounts: a password (argon2id, PHC string) for users who sign up; demo users carry
-- an expiry instead and are deleted with everything they own once it passes. Sessions
-- and personal API tokens are stored as SHA-256 hashes of random tokens: the database
-- alone cannot be used to sign in.

ALTER TABLE users ADD COLUMN password_hash TEXT;
ALTER TABLE users ADD COLUMN demo_expires_at TEXT;

CREATE TABLE sessions (
    token_hash   TEXT    PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label        TEXT    NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
    token_hash   TEXT    NOT NULL UNIQUE,
    -- The first characters of the token, so the list can tell tokens apart.
    prefix       TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    last_used_at TEXT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
