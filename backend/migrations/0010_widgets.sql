-- Widget sites: Sou embedded in another web site, in an iframe on `/embed/{id}` that
-- `/widget.js` opens. A site names the origins allowed to frame it (JSON array), what
-- its visitors may ask — ledger read tools and datasets, by name (JSON arrays); never a
-- write — its greeting, theme and how many questions all its visitors together may ask
-- per hour. The id (128 random bits) is public: it is in the host page's snippet.
-- Deleting the row revokes the site at once, with its visitors' conversations.
CREATE TABLE widget_sites (
    id            TEXT    PRIMARY KEY CHECK (length(id) = 22),
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    origins       TEXT    NOT NULL,
    tools         TEXT    NOT NULL,
    datasets      TEXT    NOT NULL,
    greeting      TEXT    NOT NULL CHECK (length(greeting) <= 280),
    theme         TEXT    NOT NULL CHECK (theme IN ('light', 'dark')),
    rate_per_hour INTEGER NOT NULL CHECK (rate_per_hour BETWEEN 1 AND 10000),
    status        TEXT    NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    created_at    TEXT    NOT NULL,
    UNIQUE (user_id, id)
);
CREATE INDEX widget_sites_owner ON widget_sites (user_id, created_at);

-- A visitor's conversation: the site it was held on and the SHA-256 of the visitor's
-- token. The owner's history, pages and shares never show one; it goes with its site,
-- and a day after it began.
ALTER TABLE conversations ADD COLUMN site_id TEXT REFERENCES widget_sites (id) ON DELETE CASCADE;
ALTER TABLE conversations ADD COLUMN visitor TEXT;
CREATE INDEX conversations_site ON conversations (site_id, created_at);
