-- Forgetting is for real (issue 74): the full-text indexes remove a deleted row's words
-- from their pages instead of marking them deleted until a merge (FTS5 `secure-delete`),
-- and the connections zero freed pages (`PRAGMA secure_delete`, set by the store).
INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO facts_fts(facts_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO notes_fts(notes_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO mails_fts(mails_fts, rank) VALUES ('secure-delete', 1);
