-- The ledger's monthly roll-up: the same table and rules as SQLite's
-- 0012_ledger_months.sql (see there). Kept by one trigger function, in the transaction
-- of every change to `transactions`, under the same row-level security as the rest.
CREATE TABLE ledger_months (
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month       TEXT   NOT NULL,
    account_id  BIGINT NOT NULL,
    category_id BIGINT NOT NULL,
    merchant_id BIGINT NOT NULL,
    currency    TEXT   NOT NULL,
    debit       BIGINT NOT NULL DEFAULT 0,
    credit      BIGINT NOT NULL DEFAULT 0,
    debits      BIGINT NOT NULL DEFAULT 0,
    credits     BIGINT NOT NULL DEFAULT 0,
    n           BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, month, account_id, category_id, merchant_id, currency)
);
SELECT sou_protect('ledger_months');

INSERT INTO ledger_months (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
SELECT user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency,
       SUM(LEAST(amount_minor, 0)), SUM(GREATEST(amount_minor, 0)),
       COUNT(*) FILTER (WHERE amount_minor < 0), COUNT(*) FILTER (WHERE amount_minor > 0), COUNT(*)
FROM transactions
GROUP BY user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency;

CREATE FUNCTION sou_ledger_months() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.user_id, OLD.date, OLD.amount_minor, OLD.currency, OLD.account_id,
                             OLD.category_id, OLD.merchant_id)
                        IS NOT DISTINCT FROM
                            (NEW.user_id, NEW.date, NEW.amount_minor, NEW.currency, NEW.account_id,
                             NEW.category_id, NEW.merchant_id) THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE ledger_months SET
            debit = debit - LEAST(OLD.amount_minor, 0), credit = credit - GREATEST(OLD.amount_minor, 0),
            debits = debits - (OLD.amount_minor < 0)::int, credits = credits - (OLD.amount_minor > 0)::int,
            n = n - 1
        WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
          AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
          AND currency = OLD.currency;
        DELETE FROM ledger_months
        WHERE user_id = OLD.user_id AND month = substr(OLD.date, 1, 7) AND account_id = OLD.account_id
          AND category_id = COALESCE(OLD.category_id, 0) AND merchant_id = COALESCE(OLD.merchant_id, 0)
          AND currency = OLD.currency AND n <= 0;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO ledger_months AS l
            (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
        VALUES (NEW.user_id, substr(NEW.date, 1, 7), NEW.account_id, COALESCE(NEW.category_id, 0),
                COALESCE(NEW.merchant_id, 0), NEW.currency, LEAST(NEW.amount_minor, 0),
                GREATEST(NEW.amount_minor, 0), (NEW.amount_minor < 0)::int, (NEW.amount_minor > 0)::int, 1)
        ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
            debit = l.debit + excluded.debit, credit = l.credit + excluded.credit,
            debits = l.debits + excluded.debits, credits = l.credits + excluded.credits, n = l.n + 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_months AFTER INSERT OR UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_months();

-- Indexes that cover what the tools read from `transactions` (as on SQLite).
DROP INDEX transactions_user_date;
CREATE INDEX transactions_user_date
    ON transactions (user_id, date, id) INCLUDE (amount_minor, currency, category_id, merchant_id, account_id);
CREATE INDEX transactions_user_account_date ON transactions (user_id, account_id, date) INCLUDE (amount_minor);
