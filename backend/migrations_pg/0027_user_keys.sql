-- The user in every key, so the schema can be sharded by user (docs/deployment.md, "Sharded PostgreSQL"):
-- every table that holds someone's data has user_id first in its primary key, in
-- its unique keys and in its foreign keys to other such tables (SQLite: the same
-- migration number; the catalogue test is backend/tests/it/schema.rs). Ids stay
-- unique on their own (sequences, random text), so no row changes.
--
-- The (user_id, id) keys other tables referenced become the primary keys: the
-- foreign keys are dropped, the keys remade, the foreign keys made again, checked.

ALTER TABLE merchants DROP CONSTRAINT merchants_user_id_category_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_user_id_account_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_user_id_merchant_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_user_id_category_id_fkey;
ALTER TABLE budgets DROP CONSTRAINT budgets_user_id_category_id_fkey;
ALTER TABLE conversations DROP CONSTRAINT conversations_user_id_site_id_fkey;
ALTER TABLE messages DROP CONSTRAINT messages_user_id_conversation_id_fkey;
ALTER TABLE imports DROP CONSTRAINT imports_user_id_account_id_fkey;
ALTER TABLE category_rules DROP CONSTRAINT category_rules_user_id_category_id_fkey;
ALTER TABLE runs DROP CONSTRAINT runs_user_id_conversation_id_fkey;
ALTER TABLE run_steps DROP CONSTRAINT run_steps_user_id_run_id_fkey;
ALTER TABLE run_events DROP CONSTRAINT run_events_user_id_run_id_fkey;
ALTER TABLE approvals DROP CONSTRAINT approvals_conversation_id_fkey;

ALTER TABLE accounts DROP CONSTRAINT accounts_pkey, DROP CONSTRAINT accounts_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE categories DROP CONSTRAINT categories_pkey, DROP CONSTRAINT categories_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE merchants DROP CONSTRAINT merchants_pkey, DROP CONSTRAINT merchants_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE transactions DROP CONSTRAINT transactions_pkey, ADD PRIMARY KEY (user_id, id);
ALTER TABLE budgets DROP CONSTRAINT budgets_pkey, ADD PRIMARY KEY (user_id, id);
ALTER TABLE conversations DROP CONSTRAINT conversations_pkey, DROP CONSTRAINT conversations_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE messages DROP CONSTRAINT messages_pkey, ADD PRIMARY KEY (user_id, id);
ALTER TABLE imports DROP CONSTRAINT imports_pkey, DROP CONSTRAINT imports_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE category_rules DROP CONSTRAINT category_rules_pkey, ADD PRIMARY KEY (user_id, id);
ALTER TABLE datasets DROP CONSTRAINT datasets_pkey, DROP CONSTRAINT datasets_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE reports DROP CONSTRAINT reports_pkey, DROP CONSTRAINT reports_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE widget_sites DROP CONSTRAINT widget_sites_pkey, DROP CONSTRAINT widget_sites_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE approvals DROP CONSTRAINT approvals_pkey, DROP CONSTRAINT approvals_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE changes DROP CONSTRAINT changes_pkey, DROP CONSTRAINT changes_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE runs DROP CONSTRAINT runs_pkey, DROP CONSTRAINT runs_user_id_id_key, ADD PRIMARY KEY (user_id, id);
ALTER TABLE model_calls DROP CONSTRAINT model_calls_pkey, ADD PRIMARY KEY (user_id, id);
ALTER TABLE run_steps DROP CONSTRAINT run_steps_pkey, ADD PRIMARY KEY (user_id, run_id, seq);
ALTER TABLE run_events DROP CONSTRAINT run_events_pkey, ADD PRIMARY KEY (user_id, run_id, seq);

-- Unique keys: a dataset's table name and a change's approval are unique per user
-- (the names are random: ds_<uuid>; an approval is its user's), an answer's public id too.
ALTER TABLE datasets DROP CONSTRAINT datasets_physical_key, ADD UNIQUE (user_id, physical);
ALTER TABLE changes DROP CONSTRAINT changes_approval_id_key, ADD UNIQUE (user_id, approval_id);
DROP INDEX messages_public_id;
CREATE UNIQUE INDEX messages_public_id ON messages (user_id, public_id);

-- A shared report and a widget's site are found by their id alone, by a visitor
-- whose user is not known yet (sou_view_report, sou_widget_site).
CREATE INDEX reports_id ON reports (id);
CREATE INDEX widget_sites_id ON widget_sites (id);

ALTER TABLE merchants ADD CONSTRAINT merchants_user_id_category_id_fkey
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE;
ALTER TABLE transactions ADD CONSTRAINT transactions_user_id_account_id_fkey
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE;
ALTER TABLE transactions ADD CONSTRAINT transactions_user_id_merchant_id_fkey
    FOREIGN KEY (user_id, merchant_id) REFERENCES merchants (user_id, id) ON DELETE CASCADE;
ALTER TABLE transactions ADD CONSTRAINT transactions_user_id_category_id_fkey
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE;
ALTER TABLE budgets ADD CONSTRAINT budgets_user_id_category_id_fkey
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE;
ALTER TABLE conversations ADD CONSTRAINT conversations_user_id_site_id_fkey
    FOREIGN KEY (user_id, site_id) REFERENCES widget_sites (user_id, id) ON DELETE CASCADE;
ALTER TABLE messages ADD CONSTRAINT messages_user_id_conversation_id_fkey
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE;
ALTER TABLE imports ADD CONSTRAINT imports_user_id_account_id_fkey
    FOREIGN KEY (user_id, account_id) REFERENCES accounts (user_id, id) ON DELETE CASCADE;
ALTER TABLE category_rules ADD CONSTRAINT category_rules_user_id_category_id_fkey
    FOREIGN KEY (user_id, category_id) REFERENCES categories (user_id, id) ON DELETE CASCADE;
ALTER TABLE runs ADD CONSTRAINT runs_user_id_conversation_id_fkey
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE CASCADE;
ALTER TABLE run_steps ADD CONSTRAINT run_steps_user_id_run_id_fkey
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE;
ALTER TABLE run_events ADD CONSTRAINT run_events_user_id_run_id_fkey
    FOREIGN KEY (user_id, run_id) REFERENCES runs (user_id, id) ON DELETE CASCADE;
-- A conversation that goes leaves its approvals, without it (PostgreSQL 15: SET NULL on one column).
ALTER TABLE approvals ADD CONSTRAINT approvals_user_id_conversation_id_fkey
    FOREIGN KEY (user_id, conversation_id) REFERENCES conversations (user_id, id) ON DELETE SET NULL (conversation_id);

-- Finished runs' events found by their whole key.
CREATE OR REPLACE FUNCTION sou_purge_run_events(p_cutoff text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM run_events e USING runs r
    WHERE e.user_id = r.user_id AND e.run_id = r.id AND r.finished_at IS NOT NULL AND r.finished_at < p_cutoff;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
