-- A message stored moves its conversation's `updated_at`, as on SQLite (0017 there).
CREATE FUNCTION sou_message_moves_conversation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE conversations SET updated_at = NEW.created_at
    WHERE id = NEW.conversation_id AND user_id = NEW.user_id AND updated_at < NEW.created_at;
    RETURN NULL;
END
$$;
CREATE TRIGGER messages_move_conversation AFTER INSERT ON messages
    FOR EACH ROW EXECUTE FUNCTION sou_message_moves_conversation();
