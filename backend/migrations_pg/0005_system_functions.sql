-- What Sou must do before it knows the user, or for every user at once, as functions
-- that run with the rights of the role that ran the migrations (the owner). The app's
-- role owns nothing and sees only the rows of the user its transaction names; these
-- functions are its only way past that, and each does one narrow thing.
-- They see every row through the owner's policy (0001).

-- The account a session cookie belongs to, if the session and the account are current.
CREATE FUNCTION sou_session_account(p_digest text, p_now text)
RETURNS TABLE (id bigint, name text, demo_expires_at text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT u.id, u.name, u.demo_expires_at FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = p_digest AND s.expires_at > p_now
      AND (u.demo_expires_at IS NULL OR u.demo_expires_at > p_now)
$$;

-- The account an API token belongs to; records its use.
CREATE FUNCTION sou_token_account(p_digest text, p_now text)
RETURNS TABLE (id bigint, name text, demo_expires_at text)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    UPDATE api_tokens t SET last_used_at = p_now FROM users u
    WHERE t.token_hash = p_digest AND u.id = t.user_id
    RETURNING u.id, u.name, u.demo_expires_at
$$;

-- Signing out: the session with this digest, whoever's it is.
CREATE FUNCTION sou_end_session(p_digest text)
RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    DELETE FROM sessions WHERE token_hash = p_digest
$$;

-- Expired sessions, then expired demo accounts with everything they own. Returns how
-- many demo accounts went.
CREATE FUNCTION sou_purge_expired(p_now text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM sessions WHERE expires_at <= p_now;
    DELETE FROM users WHERE demo_expires_at IS NOT NULL AND demo_expires_at <= p_now;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;

-- The retention period: conversations not updated since the cutoff, for every user.
CREATE FUNCTION sou_purge_conversations(p_cutoff text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE n bigint;
BEGIN
    DELETE FROM conversations WHERE updated_at < p_cutoff;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;

REVOKE ALL ON FUNCTION sou_session_account(text, text), sou_token_account(text, text), sou_end_session(text),
    sou_purge_expired(text), sou_purge_conversations(text) FROM PUBLIC;
