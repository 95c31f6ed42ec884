-- Shared reports (see the SQLite migration 0008_reports.sql). A reader without an
-- account has no user to name, so the page is read through the owner's function
-- below, which returns one current report by its id and counts the view; listing,
-- changing and revoking stay under row-level security like every other table.
CREATE TABLE reports (
    id         TEXT   PRIMARY KEY CHECK (length(id) = 22),
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT   NOT NULL CHECK (kind IN ('answer', 'monthly')),
    title      TEXT   NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
    mode       TEXT   NOT NULL CHECK (mode IN ('snapshot', 'live')),
    figures    TEXT   NOT NULL CHECK (figures IN ('amounts', 'shares')),
    names      TEXT   NOT NULL CHECK (names IN ('merchants', 'categories')),
    locale     TEXT   NOT NULL CHECK (locale IN ('fr', 'en')),
    content    TEXT   NOT NULL,
    as_of      TEXT   NOT NULL,
    created_at TEXT   NOT NULL,
    expires_on TEXT,
    expires_at TEXT,
    views      BIGINT NOT NULL DEFAULT 0,
    UNIQUE (user_id, id)
);
CREATE INDEX reports_owner ON reports (user_id, created_at);
SELECT sou_protect('reports');

-- The report behind a link, if it exists and has not expired; counts the view.
CREATE FUNCTION sou_view_report(p_id text, p_now text)
RETURNS TABLE (user_id bigint, kind text, title text, mode text, figures text, names text, locale text,
               content text, as_of text)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    UPDATE reports r SET views = r.views + 1
    WHERE r.id = p_id AND (r.expires_at IS NULL OR r.expires_at > p_now)
    RETURNING r.user_id, r.kind, r.title, r.mode, r.figures, r.names, r.locale, r.content, r.as_of
$$;

-- The same without counting a view (the link preview's image).
CREATE FUNCTION sou_peek_report(p_id text, p_now text)
RETURNS TABLE (user_id bigint, kind text, title text, mode text, figures text, names text, locale text,
               content text, as_of text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT r.user_id, r.kind, r.title, r.mode, r.figures, r.names, r.locale, r.content, r.as_of
    FROM reports r WHERE r.id = p_id AND (r.expires_at IS NULL OR r.expires_at > p_now)
$$;
REVOKE ALL ON FUNCTION sou_view_report(text, text), sou_peek_report(text, text) FROM PUBLIC;

ALTER TABLE messages ADD COLUMN public_id TEXT;
UPDATE messages SET public_id = md5(random()::text || id::text) WHERE role = 'assistant';
CREATE UNIQUE INDEX messages_public_id ON messages (public_id);
