-- The tools each conversation has used or `find_tools` picked for it (issue 75, item 5:
-- sticky tools per conversation), so they come back with it after a restart.
CREATE TABLE conversation_tools (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, name)
);
