-- Runs, their steps and events, model calls and usage limits (see the SQLite migration
-- 0011_runs.sql for what each column means).
CREATE TABLE runs (
    id                TEXT   PRIMARY KEY,
    user_id           BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    conversation_id   TEXT   NOT NULL,
    status            TEXT   NOT NULL DEFAULT 'running'
                             CHECK (status IN ('running', 'proposed', 'paused', 'done', 'failed',
                                               'cancelled', 'rejected', 'interrupted')),
    locale            TEXT   NOT NULL DEFAULT 'en' CHECK (locale IN ('fr', 'en')),
    plan              TEXT,
    next_step         INTEGER NOT NULL DEFAULT 0,
    answer_confidence DOUBLE PRECISION,
    started_at        TEXT   NOT NULL,
    finished_at       TEXT,
    total_ms          BIGINT,
    heartbeat_at      TEXT   NOT NULL,
    owner             TEXT,
    UNIQUE (user_id, id),
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE
);
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
CREATE INDEX runs_status ON runs (status, heartbeat_at);
SELECT sou_protect('runs');

CREATE TABLE run_steps (
    run_id          TEXT    NOT NULL,
    user_id         BIGINT  NOT NULL,
    seq             INTEGER NOT NULL CHECK (seq > 0),
    kind            TEXT    NOT NULL CHECK (kind IN ('parse', 'guardian', 'route', 'planner', 'tool', 'model', 'verify')),
    status          TEXT    NOT NULL CHECK (status IN ('done', 'failed', 'stopped')),
    title           TEXT    NOT NULL,
    tool            TEXT,
    arguments       TEXT,
    sql             TEXT,
    started_ms      BIGINT  NOT NULL,
    duration_us     BIGINT  NOT NULL,
    provider        TEXT,
    model           TEXT,
    input_tokens    BIGINT  NOT NULL DEFAULT 0,
    output_tokens   BIGINT  NOT NULL DEFAULT 0,
    cost_eur_micros BIGINT  NOT NULL DEFAULT 0,
    sources         TEXT,
    checks          TEXT,
    error           TEXT,
    PRIMARY KEY (run_id, seq),
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE
);
SELECT sou_protect('run_steps');

CREATE TABLE run_events (
    run_id  TEXT    NOT NULL,
    user_id BIGINT  NOT NULL,
    seq     INTEGER NOT NULL CHECK (seq > 0),
    event   TEXT    NOT NULL,
    PRIMARY KEY (run_id, seq),
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE
);
SELECT sou_protect('run_events');

CREATE TABLE model_calls (
    id              BIGSERIAL PRIMARY KEY,
    user_id         BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    run_id          TEXT,
    provider        TEXT    NOT NULL,
    model           TEXT    NOT NULL,
    route           TEXT    NOT NULL,
    input_tokens    BIGINT  NOT NULL,
    output_tokens   BIGINT  NOT NULL,
    cost_eur_micros BIGINT  NOT NULL,
    unpriced        INTEGER NOT NULL DEFAULT 0,
    latency_ms      BIGINT  NOT NULL,
    created_at      TEXT    NOT NULL
);
CREATE INDEX model_calls_user ON model_calls (user_id, created_at);
CREATE INDEX model_calls_time ON model_calls (created_at);
SELECT sou_protect('model_calls');

CREATE TABLE usage_limits (
    user_id            BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    monthly_eur_micros BIGINT NOT NULL CHECK (monthly_eur_micros >= 0)
);
SELECT sou_protect('usage_limits');

-- What every user's model calls cost since a time: the instance's monthly limit.
CREATE FUNCTION sou_instance_spent(p_since text)
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT COALESCE(SUM(cost_eur_micros), 0)::bigint FROM model_calls WHERE created_at >= p_since
$$;
REVOKE ALL ON FUNCTION sou_instance_spent(text) FROM PUBLIC;

-- Runs left running by a server that stopped (their heartbeat older than the cutoff),
-- for every user: the server that starts resumes or closes them.
CREATE FUNCTION sou_stale_runs(p_cutoff text)
RETURNS TABLE (id text, user_id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT r.id, r.user_id FROM runs r WHERE r.status = 'running' AND r.heartbeat_at < p_cutoff
    ORDER BY r.started_at
$$;
REVOKE ALL ON FUNCTION sou_stale_runs(text) FROM PUBLIC;

-- Events of finished runs are kept a day, for clients that reconnect; the trace stays.
CREATE FUNCTION sou_purge_run_events(p_cutoff text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM run_events e USING runs r
    WHERE e.run_id = r.id AND r.finished_at IS NOT NULL AND r.finished_at < p_cutoff;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
REVOKE ALL ON FUNCTION sou_purge_run_events(text) FROM PUBLIC;
