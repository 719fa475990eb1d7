-- Vectors for recall by meaning: one per message, fact, summary and checkpoint, under
-- the model that made it (a new model re-embeds everything). The vector is a
-- little-endian f32 scale followed by 8-bit components. Facts are keyed by a hash of
-- their text (learnings.md is their source of truth).
CREATE TABLE embeddings (
    kind    TEXT NOT NULL CHECK (kind IN ('message', 'fact', 'summary', 'checkpoint')),
    ref_id  INTEGER NOT NULL,
    model   TEXT NOT NULL,
    vector  BLOB NOT NULL,
    PRIMARY KEY (kind, ref_id)
) WITHOUT ROWID;
