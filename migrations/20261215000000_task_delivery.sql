-- Scheduled tasks deliver (issue 46). A conversation's kind: NULL for a chat, 'tasks' for
-- the one task runs post in; a run posting there does not make it the current chat.
ALTER TABLE conversations ADD COLUMN kind TEXT;

-- A task's name in lists and notifications, and whether its result is delivered even in
-- quiet hours.
ALTER TABLE tasks ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN always_deliver INTEGER NOT NULL DEFAULT 0;
-- 'prompt': the user's words are run; 'brief': the morning brief, its prompt made at
-- each run from what the day holds.
ALTER TABLE tasks ADD COLUMN kind TEXT NOT NULL DEFAULT 'prompt';

-- A run's reply in the Tasks conversation and the tokens it took (Usage shows them).
ALTER TABLE task_runs ADD COLUMN message_id INTEGER;
ALTER TABLE task_runs ADD COLUMN prompt_tokens INTEGER;
ALTER TABLE task_runs ADD COLUMN completion_tokens INTEGER;

-- Thumbs on a morning brief: what the next ones are told the user liked or did not.
CREATE TABLE brief_feedback (
    message_id INTEGER PRIMARY KEY,
    liked INTEGER NOT NULL,
    -- The brief's first words, for the next brief to know which one it was.
    opening TEXT NOT NULL,
    at TEXT NOT NULL
);
