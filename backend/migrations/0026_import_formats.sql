-- The formats an import may be in are the list Sou's readers are made from
-- (`agent::for_each_format!`), checked where the row is read back
-- (`Format::parse`): a new format needs no migration. SQLite cannot drop a CHECK, so
-- the table is made again without it, its rows and index as they were.
CREATE TABLE imports_new (
    id             TEXT    PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name      TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (length(format) BETWEEN 1 AND 16),
    content        BLOB,
    status         TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    account_id     INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    report         TEXT,
    created_at     TEXT    NOT NULL,
    imported_at    TEXT,
    UNIQUE (user_id, id)
);
INSERT INTO imports_new (id, user_id, file_name, format, content, status, account_id, report, created_at, imported_at)
    SELECT id, user_id, file_name, format, content, status, account_id, report, created_at, imported_at FROM imports;
DROP TABLE imports;
ALTER TABLE imports_new RENAME TO imports;
CREATE INDEX imports_user ON imports (user_id, created_at);
