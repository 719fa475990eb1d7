-- Whether a conversation's replies are said aloud: 1 every one, 0 none, NULL as
-- Settings → Voice says for all of them.
ALTER TABLE conversations ADD COLUMN speaks INTEGER;
