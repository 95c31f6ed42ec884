-- What several Sou servers on one database must agree on, kept in the database rather
-- than in one server's memory: the sign-in and demo limits, an import's progress and
-- failure, and a new API token waiting to be shown once.

-- Counted events per key (a client address's failed log-ins, its demo accounts). A key
-- is the SHA-256 of what it counts: no address or name is stored.
CREATE TABLE rate_events (
    key   TEXT    NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX rate_events_key ON rate_events (key, at_ms);

-- Failed log-ins in a row for one account from one address (by digest).
CREATE TABLE login_streaks (
    pair     TEXT    PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_ms  INTEGER NOT NULL
);

-- An import under way (`done` of `total` rows, `at` its last report) or failed (what to
-- tell the user, in French and English); also a refused upload's reason, under an id of
-- its own. Written outside the import's own transaction, which holds its rows back until
-- it commits.
CREATE TABLE import_progress (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    id         TEXT    NOT NULL,
    done       INTEGER NOT NULL DEFAULT 0,
    total      INTEGER NOT NULL DEFAULT 0,
    failed_fr  TEXT,
    failed_en  TEXT,
    at         TEXT    NOT NULL,
    PRIMARY KEY (user_id, id)
);

-- A new API token made by a form without JavaScript, for the page that shows it once:
-- sealed with a key derived from the session that made it (the database alone cannot
-- read it), deleted when shown, and after ten minutes.
CREATE TABLE token_reveals (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_id   INTEGER NOT NULL,
    nonce      BLOB    NOT NULL,
    sealed     BLOB    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, token_id)
);
