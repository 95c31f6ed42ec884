-- Names are compared after Unicode normalisation (NFKC, case folded): "ＡＬＩＣＥ" is
-- "alice". `name_key` is that form, unique; Sou fills it in for older accounts when it
-- opens the store (SQLite has no NFKC), leaving it empty for one whose key another
-- already has, so both keep signing in by their own names.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_unique_name_key ON users (name_key);
