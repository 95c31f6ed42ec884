-- Shared reports. A report is readable by anyone who has its link, `/r/{id}`: the id is
-- 128 random bits, the only way to it. Deleting the row revokes the link; an expired
-- one reads as if it never existed. `content` is JSON (agent::reports::ReportContent):
-- the plans, and for a snapshot the results they gave, copied from the answer, so a
-- report outlives the conversation it came from.
CREATE TABLE reports (
    id         TEXT    PRIMARY KEY CHECK (length(id) = 22),
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('answer', 'monthly')),
    title      TEXT    NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
    mode       TEXT    NOT NULL CHECK (mode IN ('snapshot', 'live')),
    figures    TEXT    NOT NULL CHECK (figures IN ('amounts', 'shares')),
    names      TEXT    NOT NULL CHECK (names IN ('merchants', 'categories')),
    locale     TEXT    NOT NULL CHECK (locale IN ('fr', 'en')),
    content    TEXT    NOT NULL,
    as_of      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    expires_on TEXT,
    expires_at TEXT,
    views      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (user_id, id)
);
CREATE INDEX reports_owner ON reports (user_id, created_at);

-- An answer's public id: what the chat page and the API name it by (the row id stays
-- inside). Answers stored before have one too.
ALTER TABLE messages ADD COLUMN public_id TEXT;
UPDATE messages SET public_id = lower(hex(randomblob(16))) WHERE role = 'assistant';
CREATE UNIQUE INDEX messages_public_id ON messages (public_id);
