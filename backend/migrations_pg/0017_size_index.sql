-- The biggest lines of a period ("the 10 biggest expenses of 2025"), from an index in
-- the list's order (`ORDER BY ABS(amount_minor) DESC, date DESC, id DESC`, read
-- backwards): the planner walks it from the biggest and stops at the page, rather than
-- sorting every line of the year; for a short period it still reads (user, date).
-- SQLite plans a statement before it knows its bounds and would not choose it: it has
-- no such index.
CREATE INDEX transactions_user_size
    ON transactions (user_id, abs(amount_minor), date, id) INCLUDE (amount_minor, currency);
