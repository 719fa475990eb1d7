-- A conversation the user pinned stays at the top of the list.
ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
