-- The process that runs an attempt: a daemon or an app started meanwhile recovers only
-- the attempts whose process is gone (issue 69), never one still under way elsewhere. Its
-- start time (ticks since boot) tells it from a later process given the same pid.
ALTER TABLE task_runs ADD COLUMN pid INTEGER;
ALTER TABLE task_runs ADD COLUMN pid_started INTEGER;
