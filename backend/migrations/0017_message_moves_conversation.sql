-- A message stored moves its conversation's `updated_at` (the order of the list), in
-- the statement that stores it: one statement less for every question and answer.
-- Never backwards: an older message (the demo's) leaves a newer time as it is.
CREATE TRIGGER messages_move_conversation AFTER INSERT ON messages
BEGIN
    UPDATE conversations SET updated_at = NEW.created_at
    WHERE id = NEW.conversation_id AND user_id = NEW.user_id AND updated_at < NEW.created_at;
END;
