-- Sou's store. Every row belongs to a user; amounts are integer minor units.

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    locale      TEXT    NOT NULL DEFAULT 'fr' CHECK (locale IN ('fr', 'en')),
    currency    TEXT    NOT NULL DEFAULT 'EUR' CHECK (length(currency) = 3),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE accounts (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('checking', 'savings', 'card', 'other')),
    currency    TEXT    NOT NULL CHECK (length(currency) = 3),
    UNIQUE (user_id, name)
);

-- kind: 'expense' counts as spending, 'income' as money in, 'transfer' as neither.
CREATE TABLE categories (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    name_fr     TEXT    NOT NULL,
    name_en     TEXT    NOT NULL,
    aliases     TEXT    NOT NULL DEFAULT '[]',
    kind        TEXT    NOT NULL DEFAULT 'expense' CHECK (kind IN ('expense', 'income', 'transfer')),
    UNIQUE (user_id, key)
);

CREATE TABLE merchants (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    aliases     TEXT    NOT NULL DEFAULT '[]',
    category_id INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    UNIQUE (user_id, key)
);

CREATE TABLE transactions (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    date         TEXT    NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    amount_minor INTEGER NOT NULL,
    currency     TEXT    NOT NULL CHECK (length(currency) = 3),
    raw_label    TEXT    NOT NULL,
    merchant_id  INTEGER REFERENCES merchants (id) ON DELETE SET NULL,
    category_id  INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    import_batch TEXT,
    dedupe_hash  TEXT    NOT NULL,
    UNIQUE (user_id, dedupe_hash)
);
CREATE INDEX transactions_user_date ON transactions (user_id, date);

CREATE TABLE conversations (
    id          TEXT    PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX conversations_user ON conversations (user_id, updated_at);

-- A user message is stored before anything runs; the assistant's reply keeps the
-- plan it ran and every event it streamed, so the page can be rebuilt exactly.
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT    NOT NULL,
    plan            TEXT,
    events          TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
