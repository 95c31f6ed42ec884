-- The ledger's monthly roll-up: per user, month, account, category, merchant and
-- currency, the sum and count of debits and of credits. Summaries, comparisons, cash
-- flow, budgets and balances read whole months from here and only the partial months at
-- a period's edges from `transactions`, so their cost does not grow with the ledger.
-- Kept exact by the triggers below, in the same transaction as every insert, update and
-- delete of a transaction (imports, writes, undo, rules, cascades); a test checks it
-- against the raw rows. No category or merchant is 0.
CREATE TABLE ledger_months (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month       TEXT    NOT NULL,
    account_id  INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    merchant_id INTEGER NOT NULL,
    currency    TEXT    NOT NULL,
    debit       INTEGER NOT NULL DEFAULT 0,
    credit      INTEGER NOT NULL DEFAULT 0,
    debits      INTEGER NOT NULL DEFAULT 0,
    credits     INTEGER NOT NULL DEFAULT 0,
    n           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, month, account_id, category_id, merchant_id, currency)
) WITHOUT ROWID;

INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
SELECT user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency,
       SUM(MIN(amount_minor, 0)), SUM(MAX(amount_minor, 0)), SUM(amount_minor < 0), SUM(amount_minor > 0), COUNT(*)
FROM transactions
GROUP BY user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency;

CREATE TRIGGER ledger_months_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
    VALUES (NEW.user_id, substr(NEW.date, 1, 7), NEW.account_id, COALESCE(NEW.category_id, 0),
            COALESCE(NEW.merchant_id, 0), NEW.currency, MIN(NEW.amount_minor, 0), MAX(NEW.amount_minor, 0),
            NEW.amount_minor < 0, NEW.amount_minor > 0, 1)
    ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
        debit = debit + excluded.debit, credit = credit + excluded.credit,
        debits = debits + excluded.debits, credits = credits + excluded.credits, n = n + 1;
END;

CREATE TRIGGER ledger_months_delete AFTER DELETE ON transactions BEGIN
    UPDATE ledger_months SET
        debit = debit - MIN(OLD.amount_minor, 0), credit = credit - MAX(OLD.amount_minor, 0),
        debits = debits - (OLD.amount_minor < 0), credits = credits - (OLD.amount_minor > 0), n = n - 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency;
    DELETE FROM ledger_months
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency AND n <= 0;
END;

CREATE TRIGGER ledger_months_update
AFTER UPDATE OF user_id, date, amount_minor, currency, account_id, category_id, merchant_id ON transactions BEGIN
    UPDATE ledger_months SET
        debit = debit - MIN(OLD.amount_minor, 0), credit = credit - MAX(OLD.amount_minor, 0),
        debits = debits - (OLD.amount_minor < 0), credits = credits - (OLD.amount_minor > 0), n = n - 1
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency;
    DELETE FROM ledger_months
    WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
      AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
      AND currency = OLD.currency AND n <= 0;
    INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
    VALUES (NEW.user_id, substr(NEW.date, 1, 7), NEW.account_id, COALESCE(NEW.category_id, 0),
            COALESCE(NEW.merchant_id, 0), NEW.currency, MIN(NEW.amount_minor, 0), MAX(NEW.amount_minor, 0),
            NEW.amount_minor < 0, NEW.amount_minor > 0, 1)
    ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
        debit = debit + excluded.debit, credit = credit + excluded.credit,
        debits = debits + excluded.debits, credits = credits + excluded.credits, n = n + 1;
END;

-- Indexes that cover what the tools read from `transactions`: a period's rows in the
-- order they are listed (newest first: date, then id) with the columns they sum, filter
-- and group by (the edges of a summary, a period's totals, the first page of a list),
-- and an account's rows by date (its balance's current month).
DROP INDEX transactions_user_date;
CREATE INDEX transactions_user_date
    ON transactions (user_id, date, id, amount_minor, currency, category_id, merchant_id, account_id);
CREATE INDEX transactions_user_account_date ON transactions (user_id, account_id, date, amount_minor);
