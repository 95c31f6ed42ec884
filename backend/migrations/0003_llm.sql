-- Language-model settings per user: sealed provider keys and the chosen provider/model.

-- A provider key sealed by the vault (XChaCha20-Poly1305; the owner and provider are the
-- associated data). Only the last four characters are kept in clear, for display.
CREATE TABLE provider_keys (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider    TEXT    NOT NULL CHECK (provider IN ('anthropic', 'openai', 'gemini', 'mistral', 'xai', 'ollama')),
    nonce       BLOB    NOT NULL,
    ciphertext  BLOB    NOT NULL,
    last4       TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (user_id, provider)
);

-- The provider a user's questions go to, and the model (NULL: the router picks the
-- provider's simple or complex model).
CREATE TABLE llm_choices (
    user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    provider    TEXT    NOT NULL CHECK (provider IN ('anthropic', 'openai', 'gemini', 'mistral', 'xai', 'ollama')),
    model       TEXT
);
