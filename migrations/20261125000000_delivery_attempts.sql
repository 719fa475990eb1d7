-- Reminders under crashes. `shown_attempts` counts the times a delivery got as far as
-- showing an occurrence (reset when it moves on); past the cap the reminder is
-- `failed` rather than shown again and again by a crash loop. The CHECK on `state`
-- must change, and SQLite can only do that by rebuilding the table. The migration runs
-- in a transaction with foreign keys on (reminder_deliveries points here), so their
-- checks are deferred to the commit: the rows are copied aside, the table dropped and
-- made anew under its own name, and the rows put back before anything is checked.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE reminders_aside AS SELECT * FROM reminders;
DROP TABLE reminders;
CREATE TABLE reminders (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    message             TEXT NOT NULL,
    due_at              TEXT NOT NULL,
    zone                TEXT NOT NULL,
    rrule               TEXT,
    state               TEXT NOT NULL DEFAULT 'pending'
                        CHECK (state IN ('pending', 'attempting', 'delivered', 'cancelled', 'missed', 'failed')),
    attempt_started_at  TEXT,
    delivered_at        TEXT,
    late                INTEGER NOT NULL DEFAULT 0,
    created_at          TEXT NOT NULL,
    series_start        TEXT,
    all_day             INTEGER NOT NULL DEFAULT 0,
    shown_attempts      INTEGER NOT NULL DEFAULT 0
);
INSERT INTO reminders (id, message, due_at, zone, rrule, state, attempt_started_at, delivered_at, late, created_at, series_start, all_day)
    SELECT id, message, due_at, zone, rrule, state, attempt_started_at, delivered_at, late, created_at, series_start, all_day FROM reminders_aside;
DROP TABLE reminders_aside;
CREATE INDEX reminders_due ON reminders(state, due_at);
-- A reminder's line in the chat is keyed by its occurrence: posting it again (a
-- re-show after a crash) finds the first post instead of adding a second.
ALTER TABLE messages ADD COLUMN occurrence_key TEXT;
CREATE UNIQUE INDEX messages_by_occurrence ON messages(occurrence_key) WHERE occurrence_key IS NOT NULL;
