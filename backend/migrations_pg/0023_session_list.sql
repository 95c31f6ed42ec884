-- Sessions a person can list and end (see SQLite's 0019_session_list.sql): an id for
-- the list's forms, when each was last used, and what it was opened from. Listing,
-- touching and ending them is done as their user (row-level security); finding the
-- account of a cookie, before the user is known, by the function below.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at TEXT;
ALTER TABLE sessions ADD COLUMN browser TEXT;
ALTER TABLE sessions ADD COLUMN os TEXT;
ALTER TABLE sessions ADD COLUMN address TEXT;
UPDATE sessions SET id = replace(gen_random_uuid()::text, '-', ''), last_seen_at = created_at;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
CREATE INDEX sessions_seen ON sessions (last_seen_at);

-- A session's account as `sou_session_vocabulary` (0012) finds it, unless the session
-- went unused since `p_idle_cutoff`; and when it was last used, so the caller knows
-- whether to note this use. (The older function stays for servers not yet upgraded.)
CREATE FUNCTION sou_session_lookup(p_digest text, p_now text, p_idle_cutoff text)
RETURNS TABLE (id bigint, name text, demo_expires_at text, vocabulary_version bigint, currency text,
               last_seen_at text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT u.id, u.name, u.demo_expires_at, u.vocabulary_version, u.currency, s.last_seen_at
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = p_digest AND s.expires_at > p_now AND s.last_seen_at > p_idle_cutoff
      AND (u.demo_expires_at IS NULL OR u.demo_expires_at > p_now)
$$;

-- Sessions unused since the cutoff, for every user (hourly, with the expired ones).
CREATE FUNCTION sou_purge_idle_sessions(p_cutoff text)
RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    DELETE FROM sessions WHERE last_seen_at IS NULL OR last_seen_at <= p_cutoff
$$;
REVOKE ALL ON FUNCTION sou_session_lookup(text, text, text), sou_purge_idle_sessions(text) FROM PUBLIC;
