-- Writes with the user's approval and the changes they made (see the SQLite migration
-- 0010_writes.sql for what each column means).
ALTER TABLE budgets ADD COLUMN start_month TEXT NOT NULL DEFAULT '0001-01'
    CHECK (start_month ~ '^\d{4}-[01]\d$');
ALTER TABLE budgets ALTER COLUMN amount_minor DROP NOT NULL;
ALTER TABLE budgets DROP CONSTRAINT budgets_user_id_category_id_key;
ALTER TABLE budgets ADD CONSTRAINT budgets_user_category_month UNIQUE (user_id, category_id, start_month);

CREATE TABLE approvals (
    id              TEXT   PRIMARY KEY CHECK (length(id) = 22),
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id TEXT   REFERENCES conversations (id) ON DELETE SET NULL,
    plan            TEXT   NOT NULL,
    title           TEXT   NOT NULL,
    effect          TEXT   NOT NULL,
    rows            TEXT   NOT NULL,
    digest          TEXT   NOT NULL CHECK (length(digest) = 64),
    state           TEXT   NOT NULL DEFAULT 'pending'
                           CHECK (state IN ('pending', 'approved', 'executed', 'rejected',
                                            'superseded', 'failed')),
    reason          TEXT,
    created_at      TEXT   NOT NULL,
    expires_at      TEXT   NOT NULL,
    decided_at      TEXT,
    change_id       TEXT,
    UNIQUE (user_id, id)
);
CREATE INDEX approvals_state ON approvals (state, created_at);
SELECT sou_protect('approvals');

CREATE TABLE changes (
    id          TEXT   PRIMARY KEY CHECK (length(id) = 22),
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    approval_id TEXT   UNIQUE,
    tool        TEXT   NOT NULL,
    summary     TEXT   NOT NULL,
    rows        TEXT   NOT NULL,
    created_at  TEXT   NOT NULL,
    undone_at   TEXT,
    UNIQUE (user_id, id)
);
CREATE INDEX changes_user ON changes (user_id, created_at);
SELECT sou_protect('changes');

-- Approved writes that have not run yet, for every user: the server runs them once
-- when it starts (it may have stopped between the approval and the write).
CREATE FUNCTION sou_approved_writes()
RETURNS TABLE (id text, user_id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT a.id, a.user_id FROM approvals a WHERE a.state = 'approved' ORDER BY a.created_at
$$;
REVOKE ALL ON FUNCTION sou_approved_writes() FROM PUBLIC;
