-- The user in every key (PostgreSQL: the same number; the catalogue test is
-- backend/tests/it/schema.rs). Without row-level security, a key with the user in it
-- is what stops a row pointing at another user's row: every foreign key between
-- two users' tables is (user_id, …), every unique key starts with user_id, and a
-- table whose id is text has (user_id, id) as its primary key. A table whose id
-- is an INTEGER keeps it as its primary key, the rowid SQLite stores the row
-- under, with UNIQUE (user_id, id) where other tables point at it.
--
-- The foreign keys' ON DELETE are PostgreSQL's (no category, merchant or account
-- is deleted while rows point at it); an approval outlives its conversation, as
-- before, through a trigger (SQLite's SET NULL would empty user_id too).
--
-- SQLite cannot change a table's keys, so the tables are made again. Foreign keys
-- are on inside a migration's transaction, so nothing is dropped while a new
-- table points at it: the old tables are renamed first (their children follow
-- the name), the new ones made and filled, then the old ones dropped, children
-- first. Their indexes and triggers are made again as they were.

DROP TRIGGER ledger_months_insert;
DROP TRIGGER ledger_months_delete;
DROP TRIGGER ledger_months_update;
DROP TRIGGER ledger_month_state_insert;
DROP TRIGGER ledger_month_state_update;
DROP TRIGGER ledger_month_state_delete;
DROP TRIGGER budgets_category_owner_insert;
DROP TRIGGER budgets_category_owner_update;
DROP TRIGGER datasets_vocabulary_insert;
DROP TRIGGER datasets_vocabulary_update;
DROP TRIGGER datasets_vocabulary_delete;
DROP TRIGGER merchants_vocabulary_insert;
DROP TRIGGER merchants_vocabulary_update;
DROP TRIGGER merchants_vocabulary_delete;
ALTER TABLE run_steps RENAME TO run_steps_old;
ALTER TABLE run_events RENAME TO run_events_old;
ALTER TABLE messages RENAME TO messages_old;
ALTER TABLE approvals RENAME TO approvals_old;
ALTER TABLE runs RENAME TO runs_old;
ALTER TABLE transactions RENAME TO transactions_old;
ALTER TABLE budgets RENAME TO budgets_old;
ALTER TABLE category_rules RENAME TO category_rules_old;
ALTER TABLE imports RENAME TO imports_old;
ALTER TABLE changes RENAME TO changes_old;
ALTER TABLE datasets RENAME TO datasets_old;
ALTER TABLE reports RENAME TO reports_old;
ALTER TABLE conversations RENAME TO conversations_old;
ALTER TABLE widget_sites RENAME TO widget_sites_old;
ALTER TABLE merchants RENAME TO merchants_old;

CREATE TABLE merchants (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    aliases     TEXT    NOT NULL DEFAULT '[]',
    category_id INTEGER,
    UNIQUE (user_id, key),
    UNIQUE (user_id, id),
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE widget_sites (
    id            TEXT    NOT NULL CHECK (length(id) = 22),
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
    PRIMARY KEY (user_id, id)
);

CREATE TABLE conversations (
    id          TEXT    NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    site_id     TEXT,
    visitor     TEXT,
    PRIMARY KEY (user_id, id),
    FOREIGN KEY (user_id, site_id) REFERENCES widget_sites (user_id, id) ON DELETE CASCADE
);

CREATE TABLE reports (
    id         TEXT    NOT NULL CHECK (length(id) = 22),
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
    PRIMARY KEY (user_id, id)
);

CREATE TABLE datasets (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    physical   TEXT    NOT NULL CHECK (physical GLOB 'ds_[0-9a-f]*'),
    file_name  TEXT    NOT NULL,
    columns    TEXT    NOT NULL,
    row_count  INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (user_id, name),
    UNIQUE (user_id, id),
    UNIQUE (user_id, physical)
);

CREATE TABLE changes (
    id          TEXT    NOT NULL CHECK (length(id) = 22),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    approval_id TEXT,
    tool        TEXT    NOT NULL,
    summary     TEXT    NOT NULL,
    rows        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    undone_at   TEXT,
    PRIMARY KEY (user_id, id),
    UNIQUE (user_id, approval_id)
);

CREATE TABLE imports (
    id             TEXT    NOT NULL,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name      TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (length(format) BETWEEN 1 AND 16),
    content        BLOB,
    status         TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    account_id     INTEGER,
    report         TEXT,
    created_at     TEXT    NOT NULL,
    imported_at    TEXT,
    PRIMARY KEY (user_id, id),
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE
);

CREATE TABLE category_rules (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pattern     TEXT    NOT NULL CHECK (length(pattern) BETWEEN 2 AND 100),
    category_id INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (user_id, pattern),
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE budgets (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category_id  INTEGER NOT NULL,
    start_month  TEXT    NOT NULL DEFAULT '0001-01'
                         CHECK (start_month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
    amount_minor INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
    currency     TEXT    NOT NULL CHECK (length(currency) = 3),
    period       TEXT    NOT NULL DEFAULT 'month' CHECK (period IN ('month')),
    UNIQUE (user_id, category_id, start_month),
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE transactions (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id   INTEGER NOT NULL,
    date         TEXT    NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    amount_minor INTEGER NOT NULL,
    currency     TEXT    NOT NULL CHECK (length(currency) = 3),
    raw_label    TEXT    NOT NULL,
    merchant_id  INTEGER,
    category_id  INTEGER,
    import_batch TEXT,
    dedupe_hash  TEXT    NOT NULL,
    UNIQUE (user_id, dedupe_hash),
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, merchant_id) REFERENCES merchants (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

CREATE TABLE runs (
    id                TEXT    NOT NULL,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id   TEXT    NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'running'
                              CHECK (status IN ('running', 'proposed', 'paused', 'done', 'failed',
                                                'cancelled', 'rejected', 'interrupted')),
    locale            TEXT    NOT NULL DEFAULT 'en' CHECK (locale IN ('fr', 'en')),
    plan              TEXT,
    next_step         INTEGER NOT NULL DEFAULT 0,
    answer_confidence REAL,
    started_at        TEXT    NOT NULL,
    finished_at       TEXT,
    total_ms          INTEGER,
    heartbeat_at      TEXT    NOT NULL,
    owner             TEXT,
    PRIMARY KEY (user_id, id),
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE
);

CREATE TABLE approvals (
    id              TEXT    NOT NULL CHECK (length(id) = 22),
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id TEXT,
    plan            TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    effect          TEXT    NOT NULL,
    rows            TEXT    NOT NULL,
    digest          TEXT    NOT NULL CHECK (length(digest) = 64),
    state           TEXT    NOT NULL DEFAULT 'pending'
                            CHECK (state IN ('pending', 'approved', 'executed', 'rejected',
                                             'superseded', 'failed')),
    reason          TEXT,
    created_at      TEXT    NOT NULL,
    expires_at      TEXT    NOT NULL,
    decided_at      TEXT,
    change_id       TEXT,
    resume          TEXT,
    PRIMARY KEY (user_id, id),
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id)
);

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT    NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT    NOT NULL,
    plan            TEXT,
    events          TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    public_id       TEXT,
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE
);

CREATE TABLE run_events (
    run_id     TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq > 0),
    event      TEXT    NOT NULL,
    PRIMARY KEY (user_id, run_id, seq),
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE
);

CREATE TABLE run_steps (
    run_id          TEXT    NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL CHECK (seq > 0),
    kind            TEXT    NOT NULL CHECK (kind IN ('parse', 'guardian', 'route', 'planner', 'tool', 'model', 'verify')),
    status          TEXT    NOT NULL CHECK (status IN ('done', 'failed', 'stopped', 'refused')),
    title           TEXT    NOT NULL,
    tool            TEXT,
    arguments       TEXT,
    sql             TEXT,
    started_ms      INTEGER NOT NULL,
    duration_us     INTEGER NOT NULL,
    provider        TEXT,
    model           TEXT,
    input_tokens    INTEGER NOT NULL DEFAULT 0,
    output_tokens   INTEGER NOT NULL DEFAULT 0,
    cost_eur_micros INTEGER NOT NULL DEFAULT 0,
    sources         TEXT,
    checks          TEXT,
    error           TEXT,
    PRIMARY KEY (user_id, run_id, seq),
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX accounts_user_id ON accounts (user_id, id);
CREATE UNIQUE INDEX categories_user_id ON categories (user_id, id);

INSERT INTO merchants (id, user_id, key, name, aliases, category_id)
    SELECT id, user_id, key, name, aliases, category_id FROM merchants_old;
INSERT INTO widget_sites (id, user_id, name, origins, tools, datasets, greeting, theme, rate_per_hour, status, created_at)
    SELECT id, user_id, name, origins, tools, datasets, greeting, theme, rate_per_hour, status, created_at FROM widget_sites_old;
INSERT INTO conversations (id, user_id, title, created_at, updated_at, site_id, visitor)
    SELECT id, user_id, title, created_at, updated_at, site_id, visitor FROM conversations_old;
INSERT INTO reports (id, user_id, kind, title, mode, figures, names, locale, content, as_of, created_at, expires_on, expires_at, views)
    SELECT id, user_id, kind, title, mode, figures, names, locale, content, as_of, created_at, expires_on, expires_at, views FROM reports_old;
INSERT INTO datasets (id, user_id, name, physical, file_name, columns, row_count, created_at)
    SELECT id, user_id, name, physical, file_name, columns, row_count, created_at FROM datasets_old;
INSERT INTO changes (id, user_id, approval_id, tool, summary, rows, created_at, undone_at)
    SELECT id, user_id, approval_id, tool, summary, rows, created_at, undone_at FROM changes_old;
INSERT INTO imports (id, user_id, file_name, format, content, status, account_id, report, created_at, imported_at)
    SELECT id, user_id, file_name, format, content, status, account_id, report, created_at, imported_at FROM imports_old;
INSERT INTO category_rules (id, user_id, pattern, category_id, created_at)
    SELECT id, user_id, pattern, category_id, created_at FROM category_rules_old;
INSERT INTO budgets (id, user_id, category_id, start_month, amount_minor, currency, period)
    SELECT id, user_id, category_id, start_month, amount_minor, currency, period FROM budgets_old;
INSERT INTO transactions (id, user_id, account_id, date, amount_minor, currency, raw_label, merchant_id, category_id, import_batch, dedupe_hash)
    SELECT id, user_id, account_id, date, amount_minor, currency, raw_label, merchant_id, category_id, import_batch, dedupe_hash FROM transactions_old;
INSERT INTO runs (id, user_id, conversation_id, status, locale, plan, next_step, answer_confidence, started_at, finished_at, total_ms, heartbeat_at, owner)
    SELECT id, user_id, conversation_id, status, locale, plan, next_step, answer_confidence, started_at, finished_at, total_ms, heartbeat_at, owner FROM runs_old;
INSERT INTO approvals (id, user_id, conversation_id, plan, title, effect, rows, digest, state, reason, created_at, expires_at, decided_at, change_id, resume)
    SELECT id, user_id, conversation_id, plan, title, effect, rows, digest, state, reason, created_at, expires_at, decided_at, change_id, resume FROM approvals_old;
INSERT INTO messages (id, conversation_id, user_id, role, content, plan, events, created_at, public_id)
    SELECT id, conversation_id, user_id, role, content, plan, events, created_at, public_id FROM messages_old;
INSERT INTO run_events (run_id, user_id, seq, event)
    SELECT run_id, user_id, seq, event FROM run_events_old;
INSERT INTO run_steps (run_id, user_id, seq, kind, status, title, tool, arguments, sql, started_ms, duration_us, provider, model, input_tokens, output_tokens, cost_eur_micros, sources, checks, error)
    SELECT run_id, user_id, seq, kind, status, title, tool, arguments, sql, started_ms, duration_us, provider, model, input_tokens, output_tokens, cost_eur_micros, sources, checks, error FROM run_steps_old;

DROP TABLE run_steps_old;
DROP TABLE run_events_old;
DROP TABLE messages_old;
DROP TABLE approvals_old;
DROP TABLE runs_old;
DROP TABLE transactions_old;
DROP TABLE budgets_old;
DROP TABLE category_rules_old;
DROP TABLE imports_old;
DROP TABLE changes_old;
DROP TABLE datasets_old;
DROP TABLE reports_old;
DROP TABLE conversations_old;
DROP TABLE widget_sites_old;
DROP TABLE merchants_old;

CREATE INDEX widget_sites_owner ON widget_sites (user_id, created_at);
CREATE INDEX conversations_user ON conversations (user_id, updated_at);
CREATE INDEX conversations_site ON conversations (site_id, created_at) WHERE site_id IS NOT NULL;
CREATE INDEX reports_owner ON reports (user_id, created_at);
CREATE INDEX changes_user ON changes (user_id, created_at);
CREATE INDEX imports_user ON imports (user_id, created_at);
CREATE INDEX transactions_user_date
    ON transactions (user_id, date, id, amount_minor, currency, category_id, merchant_id, account_id);
CREATE INDEX transactions_user_account_date ON transactions (user_id, account_id, date, amount_minor);
CREATE INDEX transactions_user_category_date
    ON transactions (user_id, category_id, date, amount_minor, currency, merchant_id);
CREATE INDEX transactions_user_merchant_date
    ON transactions (user_id, merchant_id, date, amount_minor, currency, category_id);
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
CREATE INDEX runs_running ON runs (heartbeat_at) WHERE status = 'running';
CREATE INDEX approvals_state ON approvals (state, created_at);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
CREATE UNIQUE INDEX messages_public_id ON messages (user_id, public_id);
CREATE INDEX reports_id ON reports (id);
CREATE INDEX widget_sites_id ON widget_sites (id);

CREATE TRIGGER merchants_vocabulary_insert AFTER INSERT ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER merchants_vocabulary_update AFTER UPDATE ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER merchants_vocabulary_delete AFTER DELETE ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER datasets_vocabulary_insert AFTER INSERT ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER datasets_vocabulary_update AFTER UPDATE ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER datasets_vocabulary_delete AFTER DELETE ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER budgets_category_owner_insert BEFORE INSERT ON budgets
WHEN (SELECT user_id FROM categories WHERE id = NEW.category_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'a budget''s category must belong to the same user');
END;

CREATE TRIGGER budgets_category_owner_update BEFORE UPDATE OF user_id, category_id ON budgets
WHEN (SELECT user_id FROM categories WHERE id = NEW.category_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'a budget''s category must belong to the same user');
END;

CREATE TRIGGER ledger_months_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
    VALUES (NEW.user_id, substr(NEW.date, 1, 7), NEW.account_id, COALESCE(NEW.category_id, 0),
            COALESCE(NEW.merchant_id, 0), NEW.currency, MIN(NEW.amount_minor, 0), MAX(NEW.amount_minor, 0),
            NEW.amount_minor < 0, NEW.amount_minor > 0, 1)
    ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
        debit = debit + excluded.debit, credit = credit + excluded.credit,
        debits = debits + excluded.debits, credits = credits + excluded.credits, n = n + 1;
END;

CREATE TRIGGER ledger_months_delete AFTER DELETE ON transactions BEGIN
    UPDATE ledger_months SET
        debit = debit - MIN(OLD.amount_minor, 0), credit = credit - MAX(OLD.amount_minor, 0),
        debits = debits - (OLD.amount_minor < 0), credits = credits - (OLD.amount_minor > 0), n = n - 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency;
    DELETE FROM ledger_months
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency AND n <= 0;
END;

CREATE TRIGGER ledger_months_update
AFTER UPDATE OF user_id, date, amount_minor, currency, account_id, category_id, merchant_id ON transactions BEGIN
    UPDATE ledger_months SET
        debit = debit - MIN(OLD.amount_minor, 0), credit = credit - MAX(OLD.amount_minor, 0),
        debits = debits - (OLD.amount_minor < 0), credits = credits - (OLD.amount_minor > 0), n = n - 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency;
    DELETE FROM ledger_months
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency AND n <= 0;
    INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
    VALUES (NEW.user_id, substr(NEW.date, 1, 7), NEW.account_id, COALESCE(NEW.category_id, 0),
            COALESCE(NEW.merchant_id, 0), NEW.currency, MIN(NEW.amount_minor, 0), MAX(NEW.amount_minor, 0),
            NEW.amount_minor < 0, NEW.amount_minor > 0, 1)
    ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
        debit = debit + excluded.debit, credit = credit + excluded.credit,
        debits = debits + excluded.debits, credits = credits + excluded.credits, n = n + 1;
END;

CREATE TRIGGER ledger_month_state_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, substr(NEW.date, 1, 7))
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_update AFTER UPDATE ON transactions BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND checked IS NOT NULL;
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, substr(NEW.date, 1, 7))
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_delete AFTER DELETE ON transactions BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND checked IS NOT NULL;
END;

CREATE TRIGGER approvals_conversation_gone BEFORE DELETE ON conversations BEGIN
    UPDATE approvals SET conversation_id = NULL WHERE user_id = OLD.user_id AND conversation_id = OLD.id;
END;
