-- Which months' roll-up was found equal to their rows, and whether anything changed
-- since. Every change to a month's transactions or to its roll-up moves the month's
-- `version` (the triggers below, in the same transaction); a summary's check compares a
-- month's roll-up with its rows once, then records the version it compared (`checked`,
-- only if the version has not moved meanwhile). A month whose `checked` is its
-- `version` is read from the roll-up by the check; any other is compared again.
CREATE TABLE ledger_month_state (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month   TEXT    NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    checked INTEGER,
    PRIMARY KEY (user_id, month)
) WITHOUT ROWID;

INSERT INTO ledger_month_state (user_id, month, version)
SELECT DISTINCT user_id, month, 1 FROM ledger_months;

-- A new line makes its month's row; a line deleted (a user's rows cascade when the user
-- goes) only moves a month that has one.
CREATE TRIGGER ledger_month_state_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO ledger_month_state (user_id, month, version) VALUES (NEW.user_id, substr(NEW.date, 1, 7), 1)
    ON CONFLICT (user_id, month) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER ledger_month_state_update AFTER UPDATE ON transactions BEGIN
    UPDATE ledger_month_state SET version = version + 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7);
    INSERT INTO ledger_month_state (user_id, month, version) VALUES (NEW.user_id, substr(NEW.date, 1, 7), 1)
    ON CONFLICT (user_id, month) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER ledger_month_state_delete AFTER DELETE ON transactions BEGIN
    UPDATE ledger_month_state SET version = version + 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7);
END;

-- The roll-up's own rows: a change that did not come from a transaction moves it too.
CREATE TRIGGER ledger_month_state_rollup_insert AFTER INSERT ON ledger_months BEGIN
    INSERT INTO ledger_month_state (user_id, month, version) VALUES (NEW.user_id, NEW.month, 1)
    ON CONFLICT (user_id, month) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER ledger_month_state_rollup_update AFTER UPDATE ON ledger_months BEGIN
    UPDATE ledger_month_state SET version = version + 1 WHERE user_id = OLD.user_id AND month = OLD.month;
    INSERT INTO ledger_month_state (user_id, month, version) VALUES (NEW.user_id, NEW.month, 1)
    ON CONFLICT (user_id, month) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER ledger_month_state_rollup_delete AFTER DELETE ON ledger_months BEGIN
    UPDATE ledger_month_state SET version = version + 1 WHERE user_id = OLD.user_id AND month = OLD.month;
END;
