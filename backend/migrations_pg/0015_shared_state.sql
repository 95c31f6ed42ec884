-- What several Sou servers on one database must agree on (see SQLite's
-- 0014_shared_state.sql): the sign-in and demo limits, imports' progress, a new token
-- waiting to be shown. The limits belong to no user: keys are digests, and the app role
-- reads and writes them directly. The rest is under row-level security as every table
-- with a user_id.

CREATE TABLE rate_events (
    key   TEXT   NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX rate_events_key ON rate_events (key, at_ms);

CREATE TABLE login_streaks (
    pair     TEXT   PRIMARY KEY,
    failures BIGINT NOT NULL,
    last_ms  BIGINT NOT NULL
);

CREATE TABLE import_progress (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    id         TEXT   NOT NULL,
    done       BIGINT NOT NULL DEFAULT 0,
    total      BIGINT NOT NULL DEFAULT 0,
    failed_fr  TEXT,
    failed_en  TEXT,
    at         TEXT   NOT NULL,
    PRIMARY KEY (user_id, id)
);
SELECT sou_protect('import_progress');

CREATE TABLE token_reveals (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_id   BIGINT NOT NULL,
    nonce      BYTEA  NOT NULL,
    sealed     BYTEA  NOT NULL,
    created_at TEXT   NOT NULL,
    PRIMARY KEY (user_id, token_id)
);
SELECT sou_protect('token_reveals');

-- Progress, refusals and reveals older than the cutoff, for every user (hourly).
CREATE FUNCTION sou_purge_shared_state(p_cutoff text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
BEGIN
    DELETE FROM import_progress WHERE at < p_cutoff;
    DELETE FROM token_reveals WHERE created_at < p_cutoff;
END
$$;
REVOKE ALL ON FUNCTION sou_purge_shared_state(text) FROM PUBLIC;

-- A session's account with its vocabulary's version and currency, in the one lookup a
-- request makes before the user is known (the parser kept for them needs no other).
CREATE FUNCTION sou_session_vocabulary(p_digest text, p_now text)
RETURNS TABLE (id bigint, name text, demo_expires_at text, vocabulary_version bigint, currency text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT u.id, u.name, u.demo_expires_at, u.vocabulary_version, u.currency
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = p_digest AND s.expires_at > p_now
      AND (u.demo_expires_at IS NULL OR u.demo_expires_at > p_now)
$$;
REVOKE ALL ON FUNCTION sou_session_vocabulary(text, text) FROM PUBLIC;
