-- The running summary of each conversation's evicted turns. Every version is kept
-- (and searchable); the latest says up to which message the history is summarised.
CREATE TABLE context_summaries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id  INTEGER NOT NULL REFERENCES conversations(id),
    upto_message_id  INTEGER NOT NULL,
    text             TEXT NOT NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX context_summaries_by_conversation ON context_summaries(conversation_id, id);

-- Checkpoints: the state of a piece of work (JSON body: title, current_work,
-- completed, pending, decisions, failed_approaches, user_preferences, critical_info).
CREATE TABLE checkpoints (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id  INTEGER NOT NULL REFERENCES conversations(id),
    status           TEXT NOT NULL CHECK (status IN ('in_progress', 'paused', 'resumed', 'completed', 'abandoned')),
    trigger          TEXT NOT NULL CHECK (trigger IN ('manual', 'auto')),
    body             TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX checkpoints_by_time ON checkpoints(updated_at);

-- The update_plan checklist of a conversation (JSON list of {text, status}).
CREATE TABLE plans (
    conversation_id  INTEGER PRIMARY KEY REFERENCES conversations(id),
    items            TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

-- A conversation that continues a checkpoint, or whose offer to continue was declined.
ALTER TABLE conversations ADD COLUMN resumed_checkpoint_id INTEGER REFERENCES checkpoints(id);
ALTER TABLE conversations ADD COLUMN offer_dismissed INTEGER NOT NULL DEFAULT 0;

-- recall over summaries and checkpoints too.
CREATE VIRTUAL TABLE notes_fts USING fts5(
    kind UNINDEXED,
    ref_id UNINDEXED,
    text,
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON context_summaries BEGIN
    INSERT INTO notes_fts(kind, ref_id, text) VALUES ('summary', new.id, new.text);
END;
CREATE TRIGGER checkpoints_fts_insert AFTER INSERT ON checkpoints BEGIN
    INSERT INTO notes_fts(kind, ref_id, text)
    VALUES ('checkpoint', new.id, (SELECT group_concat(value, ' ') FROM json_tree(new.body) WHERE type = 'text'));
END;
CREATE TRIGGER checkpoints_fts_update AFTER UPDATE OF body ON checkpoints BEGIN
    DELETE FROM notes_fts WHERE kind = 'checkpoint' AND ref_id = old.id;
    INSERT INTO notes_fts(kind, ref_id, text)
    VALUES ('checkpoint', new.id, (SELECT group_concat(value, ' ') FROM json_tree(new.body) WHERE type = 'text'));
END;
