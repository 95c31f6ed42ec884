-- Each user's vocabulary has a version, moved by every change to their categories,
-- merchants, accounts or datasets (see SQLite's 0013_vocabulary_version.sql).
ALTER TABLE users ADD COLUMN vocabulary_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION sou_vocabulary_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id <> OLD.user_id) THEN
        UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER vocabulary_version AFTER INSERT OR UPDATE OR DELETE ON categories
    FOR EACH ROW EXECUTE FUNCTION sou_vocabulary_version();
CREATE TRIGGER vocabulary_version AFTER INSERT OR UPDATE OR DELETE ON merchants
    FOR EACH ROW EXECUTE FUNCTION sou_vocabulary_version();
CREATE TRIGGER vocabulary_version AFTER INSERT OR UPDATE OR DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION sou_vocabulary_version();
CREATE TRIGGER vocabulary_version AFTER INSERT OR UPDATE OR DELETE ON datasets
    FOR EACH ROW EXECUTE FUNCTION sou_vocabulary_version();
