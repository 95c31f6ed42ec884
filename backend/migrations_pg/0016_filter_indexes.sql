-- A category's or a merchant's lines over a period, from an index that holds what their
-- sums read (the check that reads an answer's total again, a list's count), rather than
-- every line of the period: a year's groceries are a fraction of a year.
CREATE INDEX transactions_user_category_date
    ON transactions (user_id, category_id, date) INCLUDE (amount_minor, currency, merchant_id, account_id);
CREATE INDEX transactions_user_merchant_date
    ON transactions (user_id, merchant_id, date) INCLUDE (amount_minor, currency, category_id, account_id);
