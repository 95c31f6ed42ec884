-- Sign-in attempts are counted before the password is checked (see SQLite's
-- 0018_login_attempts.sql): the streak keeps the time of the attempt before the last.
ALTER TABLE login_streaks ADD COLUMN previous_ms BIGINT;
