-- Runs: every answer is a run of steps, kept with what each step did (the trace), the
-- events it streamed (so a client that reconnects gets what it missed), and every model
-- call with its tokens and cost (usage, and the monthly limits).

-- `id` is also the answer's public id (`messages.public_id`). `heartbeat_at` is moved
-- by the server running it; a running run whose heartbeat stopped was left by a server
-- that stopped. `plan` is a plan of several steps, `next_step` the first one not done,
-- `owner` the server whose task runs its steps (one at a time).
CREATE TABLE runs (
    id                TEXT    PRIMARY KEY,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id   TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
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
    UNIQUE (user_id, id)
);
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
CREATE INDEX runs_status ON runs (status, heartbeat_at);

CREATE TABLE run_steps (
    run_id          TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL CHECK (seq > 0),
    kind            TEXT    NOT NULL CHECK (kind IN ('parse', 'guardian', 'route', 'planner', 'tool', 'model', 'verify')),
    status          TEXT    NOT NULL CHECK (status IN ('done', 'failed', 'stopped')),
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
    PRIMARY KEY (run_id, seq)
);

-- Each event the run streamed, numbered from 1: the stream's `id`s.
CREATE TABLE run_events (
    run_id     TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq > 0),
    event      TEXT    NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Every model call: who, which model, for what (`route`: guardian, router, assistant,
-- planner), its tokens, its cost in millionths of a euro (a floor when `unpriced`), how
-- long it took. Kept when the conversation is deleted: it is what was spent.
CREATE TABLE model_calls (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    run_id          TEXT,
    provider        TEXT    NOT NULL,
    model           TEXT    NOT NULL,
    route           TEXT    NOT NULL,
    input_tokens    INTEGER NOT NULL,
    output_tokens   INTEGER NOT NULL,
    cost_eur_micros INTEGER NOT NULL,
    unpriced        INTEGER NOT NULL DEFAULT 0,
    latency_ms      INTEGER NOT NULL,
    created_at      TEXT    NOT NULL
);
CREATE INDEX model_calls_user ON model_calls (user_id, created_at);
CREATE INDEX model_calls_time ON model_calls (created_at);

-- A user's own monthly limit on model spending (the instance's limits are configured).
CREATE TABLE usage_limits (
    user_id            INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    monthly_eur_micros INTEGER NOT NULL CHECK (monthly_eur_micros >= 0)
);
