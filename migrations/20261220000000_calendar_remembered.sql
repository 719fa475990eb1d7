-- The choices made for a CalDAV account, kept when it is disconnected so connecting
-- the same account again brings them back (the first hour's M4): the calendars turned
-- off, the one Sidecar writes, and whether reminders are mirrored there.
CREATE TABLE calendar_remembered (
    url TEXT NOT NULL,
    username TEXT NOT NULL,
    -- JSON: {"unread": [href…], "writable": href | null, "mirror": bool}
    choices TEXT NOT NULL,
    PRIMARY KEY (url, username)
);
