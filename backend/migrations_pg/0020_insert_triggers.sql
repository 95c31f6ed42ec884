-- Lines inserted by one statement (an import's batch, the copies of a bench) update the
-- roll-up and the months' state once per statement, from the statement's new rows
-- grouped by month, account, category, merchant and currency, rather than once per
-- line: a roll-up row updated at every line of a long transaction would leave a row
-- version per line, each found through the previous ones. Updates and deletes keep
-- their triggers per line (0010, 0015). Same sums as per line: each group adds its
-- debits, credits and counts.
DROP TRIGGER ledger_months ON transactions;
CREATE TRIGGER ledger_months AFTER UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_months();

CREATE FUNCTION sou_ledger_months_added() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_months AS l
        (user_id, month, account_id, category_id, merchant_id, currency, debit, credit, debits, credits, n)
    SELECT user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency,
           SUM(LEAST(amount_minor, 0)), SUM(GREATEST(amount_minor, 0)),
           COUNT(*) FILTER (WHERE amount_minor < 0), COUNT(*) FILTER (WHERE amount_minor > 0), COUNT(*)
    FROM added
    GROUP BY user_id, substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency
    ON CONFLICT (user_id, month, account_id, category_id, merchant_id, currency) DO UPDATE SET
        debit = l.debit + excluded.debit, credit = l.credit + excluded.credit,
        debits = l.debits + excluded.debits, credits = l.credits + excluded.credits, n = l.n + excluded.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_months_added AFTER INSERT ON transactions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sou_ledger_months_added();

DROP TRIGGER ledger_month_state ON transactions;
CREATE TRIGGER ledger_month_state AFTER UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sou_ledger_month_state();

-- As `sou_ledger_month_state` does for one new line: each month the statement added to
-- is made, or cleared (its row locked either way).
CREATE FUNCTION sou_ledger_month_state_added() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_month_state AS s (user_id, month)
    SELECT DISTINCT user_id, substr(date, 1, 7) FROM added
    ORDER BY 1, 2
    ON CONFLICT (user_id, month) DO UPDATE SET checked = NULL WHERE s.checked IS NOT NULL;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_month_state_added AFTER INSERT ON transactions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sou_ledger_month_state_added();
