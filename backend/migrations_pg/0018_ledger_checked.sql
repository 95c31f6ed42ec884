-- Which months' roll-up a summary's check found equal to their rows, with nothing
-- changed since: the same table and rules as SQLite's 0016_ledger_checked.sql (see
-- there). A change writes the month's row only when it is not NULL already: rewriting
-- it at every line would leave one row version per line of a long transaction (an
-- import), each found through the previous ones. It locks the row instead, so a check
-- that records a month waits for a change in flight and then sees its token cleared.
CREATE TABLE ledger_month_state (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month   TEXT   NOT NULL,
    checked BIGINT,
    PRIMARY KEY (user_id, month)
);
SELECT sou_protect('ledger_month_state');

INSERT INTO ledger_month_state (user_id, month)
SELECT DISTINCT user_id, month FROM ledger_months;

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
    -- A line deleted (a user's rows cascade when the user goes) only clears a month that
    -- has a row; a new one makes it.
    IF old_month IS NOT NULL THEN
        PERFORM 1 FROM ledger_month_state WHERE user_id = OLD.user_id AND month = old_month FOR UPDATE;
        UPDATE ledger_month_state SET checked = NULL
        WHERE user_id = OLD.user_id AND month = old_month AND checked IS NOT NULL;
    END IF;
    IF new_month IS NOT NULL THEN
        INSERT INTO ledger_month_state AS s (user_id, month) VALUES (NEW.user_id, new_month)
        ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE s.checked IS NOT NULL;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_month_state AFTER INSERT OR UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_month_state();
CREATE TRIGGER ledger_month_state AFTER INSERT OR UPDATE OR DELETE ON ledger_months
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_month_state();
