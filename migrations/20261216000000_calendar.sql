-- The calendar (issue 46): a CalDAV account's calendars, their items as the server
-- last gave them (kept when the server is down), and the events read from them.
CREATE TABLE calendars (
    id INTEGER PRIMARY KEY,
    href TEXT NOT NULL UNIQUE,
    name TEXT,
    color TEXT,
    -- The user reads it (events, quiet hours, the brief).
    read INTEGER NOT NULL DEFAULT 1,
    -- The one calendar Sidecar may write to.
    writable INTEGER NOT NULL DEFAULT 0,
    -- The server's change tag at the last sync: unchanged, nothing is fetched.
    ctag TEXT,
    synced_at TEXT,
    -- What went wrong at the last sync, said to the user; NULL: it went well.
    problem TEXT
);

CREATE TABLE calendar_items (
    id INTEGER PRIMARY KEY,
    calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
    href TEXT NOT NULL,
    etag TEXT NOT NULL,
    data TEXT NOT NULL,
    -- Sidecar made it (it may move or delete only these).
    by_sidecar INTEGER NOT NULL DEFAULT 0,
    UNIQUE (calendar_id, href)
);

CREATE TABLE calendar_events (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES calendar_items(id) ON DELETE CASCADE,
    uid TEXT NOT NULL,
    summary TEXT NOT NULL,
    start TEXT NOT NULL,
    "end" TEXT NOT NULL,
    all_day INTEGER NOT NULL,
    busy INTEGER NOT NULL,
    rrule TEXT,
    zone TEXT NOT NULL,
    location TEXT
);
CREATE INDEX calendar_events_time ON calendar_events (start, "end");
CREATE INDEX calendar_events_item ON calendar_events (item_id);

-- The CalDAV account (one): its address and user name; the password is in the keychain.
CREATE TABLE calendar_account (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    url TEXT NOT NULL,
    username TEXT NOT NULL
);
