-- Which months' roll-up was found equal to their rows, and whether anything changed
-- since: the same table and rules as SQLite's 0016_ledger_checked.sql (see there).
CREATE TABLE ledger_month_state (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month   TEXT   NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    checked BIGINT,
    PRIMARY KEY (user_id, month)
);
SELECT sou_protect('ledger_month_state');

INSERT INTO ledger_month_state (user_id, month, version)
SELECT DISTINCT user_id, month, 1 FROM ledger_months;

CREATE FUNCTION sou_ledger_month_state() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    old_month text;
    new_month text;
BEGIN
    IF TG_TABLE_NAME = 'transactions' THEN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN old_month := substr(OLD.date, 1, 7); END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN new_month := substr(NEW.date, 1, 7); END IF;
    ELSE
        IF TG_OP IN ('UPDATE', 'DELETE') THEN old_month := OLD.month; END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN new_month := NEW.month; END IF;
    END IF;
    -- A line deleted (a user's rows cascade when the user goes) only moves a month that
    -- has a row; a new one makes it.
    IF old_month IS NOT NULL THEN
        UPDATE ledger_month_state SET version = version + 1 WHERE user_id = OLD.user_id AND month = old_month;
    END IF;
    IF new_month IS NOT NULL THEN
        INSERT INTO ledger_month_state AS s (user_id, month, version) VALUES (NEW.user_id, new_month, 1)
        ON CONFLICT (user_id, month) DO UPDATE SET version = s.version + 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_month_state AFTER INSERT OR UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_month_state();
CREATE TRIGGER ledger_month_state AFTER INSERT OR UPDATE OR DELETE ON ledger_months
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_month_state();
