-- An import looks up each message's id from the other app, to store it once however
-- often the same export is imported.
CREATE INDEX messages_external_id ON messages(external_id) WHERE external_id IS NOT NULL;
