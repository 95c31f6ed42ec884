-- Sign-in attempts are counted before the password is checked, in the one statement
-- that adds one to the streak (`auth/limits.rs`): so that statement can say how long
-- ago the attempt before this one was, the streak keeps that time too.
ALTER TABLE login_streaks ADD COLUMN previous_ms INTEGER;
