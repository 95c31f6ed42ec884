-- Analyst mode: a CSV file uploaded as a dataset lives in its own table, named
-- `ds_<random>`, with a user_id column and the file's typed columns; this table says
-- which tables a user has, under which name, with which columns (JSON).

CREATE TABLE datasets (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    physical   TEXT    NOT NULL UNIQUE CHECK (physical GLOB 'ds_[0-9a-f]*'),
    file_name  TEXT    NOT NULL,
    columns    TEXT    NOT NULL,
    row_count  INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (user_id, name),
    UNIQUE (user_id, id)
);
