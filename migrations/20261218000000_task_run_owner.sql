-- The process that runs an attempt: a daemon or an app started meanwhile recovers only
-- the attempts whose process is gone (issue 69), never one still under way elsewhere.
ALTER TABLE task_runs ADD COLUMN pid INTEGER;
