-- Sessions a person can list and end (Settings → Account): an id of their own for the
-- list's forms (never the token's digest), when each was last used (a session ends
-- after a time without use as well as at its age), and what it was opened from — the
-- browser and system as names from a fixed list (`auth/device.rs`, never the
-- User-Agent itself) and the client address.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at TEXT;
ALTER TABLE sessions ADD COLUMN browser TEXT;
ALTER TABLE sessions ADD COLUMN os TEXT;
ALTER TABLE sessions ADD COLUMN address TEXT;
UPDATE sessions SET id = lower(hex(randomblob(16))), last_seen_at = created_at;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
CREATE INDEX sessions_seen ON sessions (last_seen_at);
