-- Conversations and their messages. Messages are never deleted by context management:
-- later features change what is *sent* to the model, not what is stored.
CREATE TABLE conversations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    title       TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE messages (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id  INTEGER NOT NULL REFERENCES conversations(id),
    role             TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content          TEXT NOT NULL,
    -- complete | stopped (user pressed Stop) | interrupted (stream broke) | error
    status           TEXT NOT NULL DEFAULT 'complete',
    finish_reason    TEXT,
    created_at       TEXT NOT NULL
);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);

-- One row per model call, so cost and token use can be shown and summed later.
CREATE TABLE usage (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id    INTEGER REFERENCES conversations(id),
    message_id         INTEGER REFERENCES messages(id),
    provider           TEXT NOT NULL,
    model              TEXT NOT NULL,
    purpose            TEXT NOT NULL,
    input_tokens       INTEGER,
    output_tokens      INTEGER,
    created_at         TEXT NOT NULL
);
