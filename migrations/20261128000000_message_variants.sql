-- Replies regenerated and messages edited: what they replaced is set aside (kept, not
-- shown, never sent to the model). A regenerated reply's versions are numbered under
-- the user message they answer, so the user can flip back to an earlier one.
ALTER TABLE messages ADD COLUMN set_aside INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN variant_of INTEGER;
ALTER TABLE messages ADD COLUMN variant INTEGER;
CREATE INDEX messages_by_variant ON messages(variant_of, variant);
