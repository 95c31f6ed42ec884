-- Accounts the parser can name, with the balance they were opened with; monthly budgets.
-- Every row belongs to a user; amounts are integer minor units.

-- `key` is the stable vocabulary key ("compte_courant"); `name` stays the French (and
-- default) display name, `name_en` the English one when it differs.
ALTER TABLE accounts ADD COLUMN key TEXT;
ALTER TABLE accounts ADD COLUMN name_en TEXT;
ALTER TABLE accounts ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
ALTER TABLE accounts ADD COLUMN opening_balance_minor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN opening_date TEXT
    CHECK (opening_date IS NULL OR opening_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');

-- Accounts created before this migration get a key from their name ("Compte courant"
-- -> "compte_courant"), or "account_<id>" when two names would give the same key.
UPDATE accounts SET key = lower(replace(trim(name), ' ', '_'))
WHERE NOT EXISTS (
    SELECT 1 FROM accounts other
    WHERE other.user_id = accounts.user_id AND other.id <> accounts.id
      AND lower(replace(trim(other.name), ' ', '_')) = lower(replace(trim(accounts.name), ' ', '_'))
);
UPDATE accounts SET key = 'account_' || id WHERE key IS NULL OR key = '';
CREATE UNIQUE INDEX accounts_user_key ON accounts (user_id, key);

CREATE TABLE budgets (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category_id  INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
    currency     TEXT    NOT NULL CHECK (length(currency) = 3),
    period       TEXT    NOT NULL DEFAULT 'month' CHECK (period IN ('month')),
    UNIQUE (user_id, category_id)
);

-- A budget's category is one of its owner's categories.
CREATE TRIGGER budgets_category_owner_insert BEFORE INSERT ON budgets
WHEN (SELECT user_id FROM categories WHERE id = NEW.category_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'a budget''s category must belong to the same user');
END;
CREATE TRIGGER budgets_category_owner_update BEFORE UPDATE OF user_id, category_id ON budgets
WHEN (SELECT user_id FROM categories WHERE id = NEW.category_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'a budget''s category must belong to the same user');
END;
