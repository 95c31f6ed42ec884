-- Sou's store on PostgreSQL: the same tables as the SQLite migrations (dates as
-- YYYY-MM-DD text, timestamps as RFC 3339 text, so queries compare them alike), with
-- row-level security enabled and forced on every table that has a user_id. The app
-- sets the user per transaction: SELECT set_config('sou.user_id', '<id>', true).
-- Without it, the setting is NULL (or '' once a past transaction of the pooled
-- connection set it), NULLIF makes both NULL, and no row is visible.

CREATE TABLE users (
    id              BIGSERIAL PRIMARY KEY,
    name            TEXT   NOT NULL UNIQUE,
    locale          TEXT   NOT NULL DEFAULT 'fr' CHECK (locale IN ('fr', 'en')),
    currency        TEXT   NOT NULL DEFAULT 'EUR' CHECK (length(currency) = 3),
    created_at      TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    password_hash   TEXT,
    demo_expires_at TEXT
);

CREATE TABLE accounts (
    id                    BIGSERIAL PRIMARY KEY,
    user_id               BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                  TEXT   NOT NULL,
    kind                  TEXT   NOT NULL CHECK (kind IN ('checking', 'savings', 'card', 'other')),
    currency              TEXT   NOT NULL CHECK (length(currency) = 3),
    key                   TEXT,
    name_en               TEXT,
    aliases               TEXT   NOT NULL DEFAULT '[]',
    opening_balance_minor BIGINT NOT NULL DEFAULT 0,
    opening_date          TEXT   CHECK (opening_date IS NULL OR opening_date ~ '^\d{4}-\d{2}-\d{2}$'),
    UNIQUE (user_id, name),
    UNIQUE (user_id, key),
    UNIQUE (user_id, id)
);

CREATE TABLE categories (
    id      BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key     TEXT   NOT NULL,
    name_fr TEXT   NOT NULL,
    name_en TEXT   NOT NULL,
    aliases TEXT   NOT NULL DEFAULT '[]',
    kind    TEXT   NOT NULL DEFAULT 'expense' CHECK (kind IN ('expense', 'income', 'transfer')),
    UNIQUE (user_id, key),
    UNIQUE (user_id, id)
);

CREATE TABLE merchants (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key         TEXT   NOT NULL,
    name        TEXT   NOT NULL,
    aliases     TEXT   NOT NULL DEFAULT '[]',
    category_id BIGINT,
    UNIQUE (user_id, key),
    UNIQUE (user_id, id),
    -- A merchant's category is its owner's (composite key: no cross-user reference).
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE transactions (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id   BIGINT NOT NULL,
    date         TEXT   NOT NULL CHECK (date ~ '^\d{4}-\d{2}-\d{2}$'),
    amount_minor BIGINT NOT NULL,
    currency     TEXT   NOT NULL CHECK (length(currency) = 3),
    raw_label    TEXT   NOT NULL,
    merchant_id  BIGINT,
    category_id  BIGINT,
    import_batch TEXT,
    dedupe_hash  TEXT   NOT NULL,
    UNIQUE (user_id, dedupe_hash),
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, merchant_id) REFERENCES merchants (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);
CREATE INDEX transactions_user_date ON transactions (user_id, date);

CREATE TABLE budgets (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category_id  BIGINT NOT NULL,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency     TEXT   NOT NULL CHECK (length(currency) = 3),
    period       TEXT   NOT NULL DEFAULT 'month' CHECK (period IN ('month')),
    UNIQUE (user_id, category_id),
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE conversations (
    id         TEXT   PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT   NOT NULL,
    created_at TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    updated_at TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    UNIQUE (user_id, id)
);
CREATE INDEX conversations_user ON conversations (user_id, updated_at);

CREATE TABLE messages (
    id              BIGSERIAL PRIMARY KEY,
    conversation_id TEXT   NOT NULL,
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT   NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT   NOT NULL,
    plan            TEXT,
    events          TEXT,
    created_at      TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);

CREATE TABLE provider_keys (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider   TEXT   NOT NULL CHECK (provider IN ('anthropic', 'openai', 'gemini', 'mistral', 'xai', 'ollama')),
    nonce      BYTEA  NOT NULL,
    ciphertext BYTEA  NOT NULL,
    last4      TEXT   NOT NULL,
    updated_at TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    PRIMARY KEY (user_id, provider)
);

CREATE TABLE llm_choices (
    user_id  BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    provider TEXT   NOT NULL CHECK (provider IN ('anthropic', 'openai', 'gemini', 'mistral', 'xai', 'ollama')),
    model    TEXT
);

CREATE TABLE sessions (
    token_hash TEXT   PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT   NOT NULL,
    expires_at TEXT   NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE api_tokens (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label        TEXT   NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
    token_hash   TEXT   NOT NULL UNIQUE,
    prefix       TEXT   NOT NULL,
    created_at   TEXT   NOT NULL,
    last_used_at TEXT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Row-level security on every table with a user_id, forced for the owner too.
-- The role running this (the tables' owner) is subject to it too, so it gets a policy
-- that shows it every row, for its functions in 0002; Sou's own role never gets it.
DO $$
DECLARE t text;
BEGIN
    FOR t IN SELECT c.table_name FROM information_schema.columns c
             JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
             WHERE c.table_schema = current_schema() AND c.column_name = 'user_id' AND tb.table_type = 'BASE TABLE'
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY tenant ON %I
             USING (user_id = NULLIF(current_setting(''sou.user_id'', true), '''')::bigint)
             WITH CHECK (user_id = NULLIF(current_setting(''sou.user_id'', true), '''')::bigint)', t);
        EXECUTE format('CREATE POLICY migration_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    END LOOP;
END
$$;
