-- Widget sites (see the SQLite migration 0009_widgets.sql). A visitor has no account:
-- the embed page and its requests find the site through the owner's function below,
-- which returns an enabled site by its id; everything else is under row-level security.
CREATE TABLE widget_sites (
    id            TEXT   PRIMARY KEY CHECK (length(id) = 22),
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT   NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    origins       TEXT   NOT NULL,
    tools         TEXT   NOT NULL,
    datasets      TEXT   NOT NULL,
    greeting      TEXT   NOT NULL CHECK (length(greeting) <= 280),
    theme         TEXT   NOT NULL CHECK (theme IN ('light', 'dark')),
    rate_per_hour BIGINT NOT NULL CHECK (rate_per_hour BETWEEN 1 AND 10000),
    status        TEXT   NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    created_at    TEXT   NOT NULL,
    UNIQUE (user_id, id)
);
CREATE INDEX widget_sites_owner ON widget_sites (user_id, created_at);
SELECT sou_protect('widget_sites');

ALTER TABLE conversations ADD COLUMN site_id TEXT;
ALTER TABLE conversations ADD COLUMN visitor TEXT;
ALTER TABLE conversations ADD FOREIGN KEY (user_id, site_id) REFERENCES widget_sites (user_id, id) ON DELETE CASCADE;
CREATE INDEX conversations_site ON conversations (site_id, created_at);

-- The enabled site behind an id, for a visitor (no user is known yet).
CREATE FUNCTION sou_widget_site(p_id text)
RETURNS TABLE (user_id bigint, name text, origins text, tools text, datasets text, greeting text,
               theme text, rate_per_hour bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT s.user_id, s.name, s.origins, s.tools, s.datasets, s.greeting, s.theme, s.rate_per_hour
    FROM widget_sites s WHERE s.id = p_id AND s.status = 'enabled'
$$;

-- Visitors' conversations begun before the cutoff, for every user.
CREATE FUNCTION sou_purge_visitors(p_cutoff text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM conversations WHERE visitor IS NOT NULL AND created_at < p_cutoff;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
REVOKE ALL ON FUNCTION sou_widget_site(text), sou_purge_visitors(text) FROM PUBLIC;
