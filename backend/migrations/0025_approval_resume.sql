-- A write a model proposed in its tool loop keeps the loop's state (JSON): once the
-- person decides, the loop goes on with the write's result as the tool's.
ALTER TABLE approvals ADD COLUMN resume TEXT;
