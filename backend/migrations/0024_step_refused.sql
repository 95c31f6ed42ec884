-- A model's tool call the registry refused is a step of the trace: status 'refused'.
-- SQLite cannot change a CHECK in place: the table is made again, rows kept.
CREATE TABLE run_steps_new (
    run_id          TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
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
    PRIMARY KEY (run_id, seq)
);
INSERT INTO run_steps_new SELECT * FROM run_steps;
DROP TABLE run_steps;
ALTER TABLE run_steps_new RENAME TO run_steps;
