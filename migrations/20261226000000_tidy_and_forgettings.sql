-- Tidying that asks (issue 74): what the user answered to a proposal of the memory's
-- tidy ("keep both", "keep the change", "leave the line"), so it is not asked again.
-- The key is a hash of the proposal's kind and words, never the words themselves.
CREATE TABLE tidy_answers (
    key         TEXT PRIMARY KEY,
    answered_at TEXT NOT NULL
);

-- When something was deleted for good (issue 74): a backup made before may still hold
-- it, and Settings → Your data offers to remove those backups.
CREATE TABLE forgettings (
    at TEXT NOT NULL
);
