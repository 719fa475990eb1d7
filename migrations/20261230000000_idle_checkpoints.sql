-- A chat closed after `[retention] close_idle_hours` untouched is summed up by a
-- checkpoint of its own kind, `idle` (issue 75, the seeds' purge). The CHECK on
-- `trigger` must change, and SQLite can only do that by rebuilding the table. The
-- migration runs in a transaction with foreign keys on (conversations point here), so
-- their checks are deferred to the commit: the rows are copied aside, the table dropped
-- and made anew under its own name with its index and triggers, and the rows put back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE checkpoints_aside AS SELECT * FROM checkpoints;
DROP TABLE checkpoints;
CREATE TABLE checkpoints (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id  INTEGER NOT NULL REFERENCES conversations(id),
    status           TEXT NOT NULL CHECK (status IN ('in_progress', 'paused', 'resumed', 'completed', 'abandoned')),
    trigger          TEXT NOT NULL CHECK (trigger IN ('manual', 'auto', 'idle')),
    body             TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
INSERT INTO checkpoints (id, conversation_id, status, trigger, body, created_at, updated_at)
    SELECT id, conversation_id, status, trigger, body, created_at, updated_at FROM checkpoints_aside;
DROP TABLE checkpoints_aside;
CREATE INDEX checkpoints_by_time ON checkpoints(updated_at);
-- The rows came back by INSERT: the search index already has them, so the triggers are
-- made after.
CREATE TRIGGER checkpoints_fts_insert AFTER INSERT ON checkpoints BEGIN
    INSERT INTO notes_fts(kind, ref_id, text)
    VALUES ('checkpoint', new.id, (SELECT group_concat(value, ' ') FROM json_tree(new.body) WHERE type = 'text'));
END;
CREATE TRIGGER checkpoints_fts_update AFTER UPDATE OF body ON checkpoints BEGIN
    DELETE FROM notes_fts WHERE kind = 'checkpoint' AND ref_id = old.id;
    INSERT INTO notes_fts(kind, ref_id, text)
    VALUES ('checkpoint', new.id, (SELECT group_concat(value, ' ') FROM json_tree(new.body) WHERE type = 'text'));
END;
