-- How crowded each vector's neighbourhood is (the mean cosine of its nearest stored
-- neighbours): recall by meaning lowers a score by it, so repeated chatter gives way
-- to what was said once. NULL until measured; the indexer measures it in the background.
ALTER TABLE embeddings ADD COLUMN density REAL;
