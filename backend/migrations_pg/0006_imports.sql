-- Bank files a user uploaded, and categorisation rules (see the SQLite migration
-- 0005_imports.sql), with the same row-level security as every table with a user_id.

CREATE TABLE imports (
    id          TEXT   PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name   TEXT   NOT NULL,
    format      TEXT   NOT NULL CHECK (format IN ('csv', 'ofx', 'qif', 'camt')),
    content     BYTEA,
    status      TEXT   NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    account_id  BIGINT,
    report      TEXT,
    created_at  TEXT   NOT NULL,
    imported_at TEXT,
    UNIQUE (user_id, id),
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE
);
CREATE INDEX imports_user ON imports (user_id, created_at);

CREATE TABLE category_rules (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pattern     TEXT   NOT NULL CHECK (length(pattern) BETWEEN 2 AND 100),
    category_id BIGINT NOT NULL,
    created_at  TEXT   NOT NULL,
    UNIQUE (user_id, pattern),
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE
);

-- Row-level security as 0001 gives every table with a user_id: enabled and forced, the
-- user's rows only, and every row for the tables' owner (for its functions). Used by
-- the later migrations and for each dataset's table.
CREATE FUNCTION sou_protect(p_table text)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', p_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', p_table);
    EXECUTE format(
        'CREATE POLICY tenant ON %I
         USING (user_id = NULLIF(current_setting(''sou.user_id'', true), '''')::bigint)
         WITH CHECK (user_id = NULLIF(current_setting(''sou.user_id'', true), '''')::bigint)', p_table);
    EXECUTE format('CREATE POLICY migration_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', p_table);
END
$$;
REVOKE ALL ON FUNCTION sou_protect(text) FROM PUBLIC;
SELECT sou_protect('imports');
SELECT sou_protect('category_rules');

-- Uploaded files never imported, for every user: deleted after a while.
CREATE FUNCTION sou_purge_uploads(p_cutoff text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM imports WHERE status = 'pending' AND created_at < p_cutoff;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
REVOKE ALL ON FUNCTION sou_purge_uploads(text) FROM PUBLIC;
