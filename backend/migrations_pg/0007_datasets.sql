-- Analyst mode (see the SQLite migration 0006_datasets.sql). A dataset's own table is
-- created by the tables' owner, through the function below, so Sou's role still owns
-- nothing: it may read and insert into the table, under row-level security like every
-- other table; only the owner may drop it, and only once no dataset names it.

CREATE TABLE datasets (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT   NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    physical   TEXT   NOT NULL UNIQUE CHECK (physical ~ '^ds_[0-9a-f]{32}$'),
    file_name  TEXT   NOT NULL,
    columns    TEXT   NOT NULL,
    row_count  BIGINT NOT NULL,
    created_at TEXT   NOT NULL,
    UNIQUE (user_id, name),
    UNIQUE (user_id, id)
);
SELECT sou_protect('datasets');

-- p_columns: a JSON array of [name, type] pairs; names are checked, types allowlisted.
CREATE FUNCTION sou_create_dataset_table(p_table text, p_columns text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE
    col json;
    cols text := '';
    col_name text;
    col_type text;
BEGIN
    IF p_table !~ '^ds_[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'invalid dataset table name';
    END IF;
    IF NULLIF(current_setting('sou.user_id', true), '') IS NULL THEN
        RAISE EXCEPTION 'no user is set';
    END IF;
    FOR col IN SELECT * FROM json_array_elements(p_columns::json)
    LOOP
        col_name := col->>0;
        col_type := col->>1;
        IF col_name !~ '^[a-z][a-z0-9_]{0,62}$' OR col_name = 'user_id' THEN
            RAISE EXCEPTION 'invalid column name';
        END IF;
        IF col_type NOT IN ('BIGINT', 'DOUBLE PRECISION', 'TEXT') THEN
            RAISE EXCEPTION 'invalid column type';
        END IF;
        cols := cols || format(', %I %s', col_name, col_type);
    END LOOP;
    EXECUTE format(
        'CREATE TABLE %I (user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE%s)', p_table, cols);
    PERFORM sou_protect(p_table);
    EXECUTE format('GRANT SELECT, INSERT ON %I TO %I', p_table, session_user);
END
$$;

-- Drops a dataset's table once no dataset row names it (the caller deleted its own).
CREATE FUNCTION sou_drop_dataset_table(p_table text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
BEGIN
    IF p_table !~ '^ds_[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'invalid dataset table name';
    END IF;
    IF EXISTS (SELECT 1 FROM datasets WHERE physical = p_table) THEN
        RAISE EXCEPTION 'this dataset table is in use';
    END IF;
    EXECUTE format('DROP TABLE IF EXISTS %I', p_table);
END
$$;

-- Dataset tables no dataset names any more (their user was deleted), for every user.
CREATE FUNCTION sou_purge_dataset_tables()
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE t text; n bigint := 0;
BEGIN
    FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
             WHERE s.nspname = current_schema() AND c.relkind = 'r' AND c.relname ~ '^ds_[0-9a-f]{32}$'
               AND NOT EXISTS (SELECT 1 FROM datasets d WHERE d.physical = c.relname)
    LOOP
        EXECUTE format('DROP TABLE %I', t);
        n := n + 1;
    END LOOP;
    RETURN n;
END
$$;

REVOKE ALL ON FUNCTION sou_create_dataset_table(text, text), sou_drop_dataset_table(text),
    sou_purge_dataset_tables() FROM PUBLIC;
