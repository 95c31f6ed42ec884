-- Writes with the user's approval (set a budget, create a rule, recategorise, merge
-- merchants, mark transfers) and the changes they made, which can be undone.

-- A budget now applies from a month on: one row per category and first month
-- ('YYYY-MM'; '0001-01' for a budget that always applied), and a row without an amount
-- ends the budget from that month on. The month of a period takes the latest row that
-- starts at or before it. SQLite cannot change a table's UNIQUE or NOT NULL, so the
-- table is rebuilt.
CREATE TABLE budgets_by_month (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category_id  INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    start_month  TEXT    NOT NULL DEFAULT '0001-01'
                         CHECK (start_month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
    amount_minor INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
    currency     TEXT    NOT NULL CHECK (length(currency) = 3),
    period       TEXT    NOT NULL DEFAULT 'month' CHECK (period IN ('month')),
    UNIQUE (user_id, category_id, start_month)
);
INSERT INTO budgets_by_month (id, user_id, category_id, start_month, amount_minor, currency, period)
SELECT id, user_id, category_id, '0001-01', amount_minor, currency, period FROM budgets;
DROP TABLE budgets;
ALTER TABLE budgets_by_month RENAME TO budgets;

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

-- A write Sou proposed and what the user did with it. `plan` is the write's plan,
-- `effect` what the dry run showed, `rows` every row it will write with its value
-- before and after (the dry run's, checked again at execution: a row that changed
-- since refuses the whole write). `digest` is the SHA-256 of the user, the plan's
-- canonical call, the rows, the effect and the expiry; execution recomputes it.
-- `state` moves pending → approved → executed (or rejected, expired, superseded by an
-- edit, failed); only one update can take it from pending to approved, and only the
-- transaction that writes the rows takes it from approved to executed.
CREATE TABLE approvals (
    id              TEXT    PRIMARY KEY CHECK (length(id) = 22),
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id TEXT    REFERENCES conversations (id) ON DELETE SET NULL,
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
    UNIQUE (user_id, id)
);
CREATE INDEX approvals_state ON approvals (state, created_at);

-- An executed write: what it wrote (each row before and after), once per approval.
-- Undo writes the rows back, only if each is still as the write left it.
CREATE TABLE changes (
    id          TEXT    PRIMARY KEY CHECK (length(id) = 22),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    approval_id TEXT    UNIQUE,
    tool        TEXT    NOT NULL,
    summary     TEXT    NOT NULL,
    rows        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    undone_at   TEXT,
    UNIQUE (user_id, id)
);
CREATE INDEX changes_user ON changes (user_id, created_at);
