-- Reminders. `due_at` is the next occurrence in UTC; `zone` the IANA zone the user
-- set it in (recurrence is expanded there, so 9:00 stays 9:00 across DST).
-- States: pending → attempting (a delivery started) → delivered; or cancelled.
CREATE TABLE reminders (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    message             TEXT NOT NULL,
    due_at              TEXT NOT NULL,
    zone                TEXT NOT NULL,
    -- JSON of the repeat rule (hourly/daily/weekly), NULL for a one-off; `rrule` is its
    -- RFC 5545 form, for display and export.
    repeat              TEXT,
    rrule               TEXT,
    state               TEXT NOT NULL DEFAULT 'pending'
                        CHECK (state IN ('pending', 'attempting', 'delivered', 'cancelled')),
    attempt_started_at  TEXT,
    delivered_at        TEXT,
    -- The last delivery came after its time (the app was closed or crashed).
    late                INTEGER NOT NULL DEFAULT 0,
    created_at          TEXT NOT NULL
);
CREATE INDEX reminders_due ON reminders(state, due_at);

-- One row per delivered occurrence: the idempotency key is the reminder id and the
-- occurrence's due time, so an occurrence is never delivered twice.
CREATE TABLE reminder_deliveries (
    idempotency_key  TEXT PRIMARY KEY,
    reminder_id      INTEGER NOT NULL REFERENCES reminders(id),
    due_at           TEXT NOT NULL,
    delivered_at     TEXT NOT NULL,
    late             INTEGER NOT NULL
);
