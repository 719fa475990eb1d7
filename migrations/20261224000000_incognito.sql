-- An incognito chat (issue 74): nothing said in it is remembered. Its messages are kept
-- only while it is open, never in the search index (the triggers skip them, in all three
-- directions so the external-content index never gets a 'delete' for a row it lacks),
-- and removed for good when it closes. A reminder set from it says so.
ALTER TABLE conversations ADD COLUMN incognito INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reminders ADD COLUMN from_incognito INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN NOT EXISTS (SELECT 1 FROM conversations WHERE id = new.conversation_id AND incognito = 1) BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN NOT EXISTS (SELECT 1 FROM conversations WHERE id = old.conversation_id AND incognito = 1) BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages
WHEN NOT EXISTS (SELECT 1 FROM conversations WHERE id = new.conversation_id AND incognito = 1) BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
