-- Scheduled tasks (a prompt run on a schedule) and their runs, one per occurrence.
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    prompt TEXT NOT NULL,
    -- RFC 5545 RRULE without DTSTART; NULL: once, at `start`.
    rule TEXT,
    start TEXT NOT NULL,
    zone TEXT NOT NULL,
    -- run_now, ask, or skip_older_than:MINUTES
    catch_up TEXT NOT NULL,
    -- The tools it may use, fixed when it was created (a JSON array of names).
    tools TEXT NOT NULL DEFAULT '[]',
    -- Why it is paused (the user, or three failures in a row); NULL: running.
    paused TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE task_runs (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    -- The occurrence's time: one run per occurrence, ever.
    occurrence TEXT NOT NULL,
    state TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    -- What the run produced, or what went wrong.
    outcome TEXT,
    UNIQUE (task_id, occurrence)
);
