-- Each user's vocabulary (categories, merchants, accounts, datasets) has a version,
-- moved by every change to one of them: a server keeps each user's parser in memory and
-- rebuilds it only when the version (or the user's currency) it was built from moved,
-- whichever server made the change.
ALTER TABLE users ADD COLUMN vocabulary_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER categories_vocabulary_insert AFTER INSERT ON categories BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER categories_vocabulary_update AFTER UPDATE ON categories BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER categories_vocabulary_delete AFTER DELETE ON categories BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER merchants_vocabulary_insert AFTER INSERT ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER merchants_vocabulary_update AFTER UPDATE ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER merchants_vocabulary_delete AFTER DELETE ON merchants BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER accounts_vocabulary_insert AFTER INSERT ON accounts BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER accounts_vocabulary_update AFTER UPDATE ON accounts BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER accounts_vocabulary_delete AFTER DELETE ON accounts BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER datasets_vocabulary_insert AFTER INSERT ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER datasets_vocabulary_update AFTER UPDATE ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = NEW.user_id;
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id AND OLD.user_id <> NEW.user_id;
END;

CREATE TRIGGER datasets_vocabulary_delete AFTER DELETE ON datasets BEGIN
    UPDATE users SET vocabulary_version = vocabulary_version + 1 WHERE id = OLD.user_id;
END;
