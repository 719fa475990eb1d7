-- Conversations the user deleted: hidden at once (and from recall), removed for good
-- once the undo window has passed.
ALTER TABLE conversations ADD COLUMN deleted_at TEXT;
CREATE INDEX conversations_by_activity ON conversations(updated_at);
