-- Bank files a user uploaded: kept, with their content, until imported; then the
-- report of what the import did. Categorisation rules: a label containing `pattern`
-- gets the rule's category.

CREATE TABLE imports (
    id             TEXT    PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name      TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (format IN ('csv', 'ofx', 'qif', 'camt')),
    content        BLOB,
    status         TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    account_id     INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    report         TEXT,
    created_at     TEXT    NOT NULL,
    imported_at    TEXT,
    UNIQUE (user_id, id)
);
CREATE INDEX imports_user ON imports (user_id, created_at);

CREATE TABLE category_rules (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pattern     TEXT    NOT NULL CHECK (length(pattern) BETWEEN 2 AND 100),
    category_id INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    created_at  TEXT    NOT NULL,
    UNIQUE (user_id, pattern)
);
