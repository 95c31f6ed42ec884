-- Names are compared after Unicode normalisation (NFKC, case folded): "ＡＬＩＣＥ" is
-- "alice". `name_key` is that form, unique; Sou fills it in for older accounts when it
-- opens the store, with the same code as on SQLite, leaving it empty for one whose key
-- another already has, so both keep signing in by their own names. `users` has no
-- user_id and no row-level security (0001); no owner's function reads names.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_unique_name_key ON users (name_key);
