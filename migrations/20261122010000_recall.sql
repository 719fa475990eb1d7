-- Full-text search over every message ever stored (context management never deletes
-- them, so evicted turns stay findable) and over the saved facts.
CREATE VIRTUAL TABLE messages_fts USING fts5(
    content,
    content = 'messages',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');

-- A message imported from elsewhere keeps its original id, shown by recall.
ALTER TABLE messages ADD COLUMN external_id TEXT;
-- Imported history: searchable, never the conversation the chat continues.
ALTER TABLE conversations ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;

-- A copy of learnings.md's facts for searching (the file stays the source of truth).
CREATE VIRTUAL TABLE facts_fts USING fts5(
    category UNINDEXED,
    text,
    confirmed UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2'
);
