-- Which months' roll-up a summary's check found equal to their rows, with nothing
-- changed since (`tools/checked.rs`). `checked` is 1 for such a month, NULL for any
-- other; while a check compares a month it holds that check's own (negative) token.
-- Every change to a month's transactions or to its roll-up sets it back to NULL (the
-- triggers below, in the same transaction), a check's token included, so a comparison
-- that a change overtook is not recorded. A month's row is made by its first line.
CREATE TABLE ledger_month_state (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month   TEXT    NOT NULL,
    checked INTEGER,
    PRIMARY KEY (user_id, month)
) WITHOUT ROWID;

INSERT INTO ledger_month_state (user_id, month)
SELECT DISTINCT user_id, month FROM ledger_months;

-- A line deleted (a user's rows cascade when the user goes) only clears a month that has
-- a row; a new line makes it.
CREATE TRIGGER ledger_month_state_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, substr(NEW.date, 1, 7))
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_update AFTER UPDATE ON transactions BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND checked IS NOT NULL;
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, substr(NEW.date, 1, 7))
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_delete AFTER DELETE ON transactions BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND checked IS NOT NULL;
END;

-- The roll-up's own rows: a change that did not come from a transaction clears it too.
CREATE TRIGGER ledger_month_state_rollup_insert AFTER INSERT ON ledger_months BEGIN
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, NEW.month)
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_rollup_update AFTER UPDATE ON ledger_months BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = OLD.month AND checked IS NOT NULL;
    INSERT INTO ledger_month_state (user_id, month) VALUES (NEW.user_id, NEW.month)
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE checked IS NOT NULL;
END;

CREATE TRIGGER ledger_month_state_rollup_delete AFTER DELETE ON ledger_months BEGIN
    UPDATE ledger_month_state SET checked = NULL
    WHERE user_id = OLD.user_id AND month = OLD.month AND checked IS NOT NULL;
END;
