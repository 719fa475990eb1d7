-- The rest of the time layer (issue 46).

-- A calendar is a CalDAV account's, or an .ics feed subscribed by its address (read only;
-- its ctag holds the feed's ETag).
ALTER TABLE calendars ADD COLUMN source TEXT NOT NULL DEFAULT 'caldav' CHECK (source IN ('caldav', 'ics'));

-- Reminders mirrored as to-dos (VTODO with a VALARM) in the calendar Sidecar may write,
-- so they ring on the user's phone too; off until the user turns it on.
ALTER TABLE calendar_account ADD COLUMN mirror_reminders INTEGER NOT NULL DEFAULT 0;
-- Each mirrored reminder's item on the server, with the version Sidecar last wrote.
CREATE TABLE calendar_mirrors (
    reminder_id INTEGER PRIMARY KEY,
    calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
    href TEXT NOT NULL,
    etag TEXT NOT NULL,
    -- A hash of the to-do as Sidecar last wanted it: unchanged, nothing is written.
    content TEXT NOT NULL
);

-- A reminder set "15 minutes before my 10:00 with Ana": the event it follows (its UID)
-- and how long before; when the event moves, so does the reminder.
ALTER TABLE reminders ADD COLUMN before_event TEXT;
ALTER TABLE reminders ADD COLUMN before_minutes INTEGER;

-- A task's result held back by quiet (hours or /quiet): notified once, together with the
-- others, when the quiet ends.
CREATE TABLE task_held (
    message_id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    held_at TEXT NOT NULL
);

-- When task results were notified: a day's notifications are capped (a task every hour
-- does not buzz all day); the rest wait in Tasks and come together later.
CREATE TABLE task_notifications (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL
);
