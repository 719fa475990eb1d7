-- One vector per item and model: when the embedder changes, the old model's vectors stay
-- until the new one has embedded everything (recall uses words alone meanwhile, and says
-- so), so a switch that is interrupted or undone loses nothing.
CREATE TABLE embeddings_per_model (
    kind    TEXT NOT NULL CHECK (kind IN ('message', 'fact', 'summary', 'checkpoint')),
    ref_id  INTEGER NOT NULL,
    model   TEXT NOT NULL,
    vector  BLOB NOT NULL,
    density REAL,
    PRIMARY KEY (kind, ref_id, model)
) WITHOUT ROWID;
INSERT INTO embeddings_per_model (kind, ref_id, model, vector, density) SELECT kind, ref_id, model, vector, density FROM embeddings;
DROP TABLE embeddings;
ALTER TABLE embeddings_per_model RENAME TO embeddings;
