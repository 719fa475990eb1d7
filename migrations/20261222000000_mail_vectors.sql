-- Recall finds the mail of people who matter by meaning too (issue 73): a vector may
-- stand for a mail. SQLite cannot change a CHECK, so the table is made again, as it was
-- with one kind more.
CREATE TABLE embeddings_with_mail (
    kind    TEXT NOT NULL CHECK (kind IN ('message', 'fact', 'summary', 'checkpoint', 'mail')),
    ref_id  INTEGER NOT NULL,
    model   TEXT NOT NULL,
    vector  BLOB NOT NULL,
    density REAL,
    PRIMARY KEY (kind, ref_id, model)
) WITHOUT ROWID;
INSERT INTO embeddings_with_mail (kind, ref_id, model, vector, density) SELECT kind, ref_id, model, vector, density FROM embeddings;
DROP TABLE embeddings;
ALTER TABLE embeddings_with_mail RENAME TO embeddings;
