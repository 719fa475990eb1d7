-- The stored outbox (issue 75, DT-8): a reminder or a task's result that a phone
-- (Telegram, WhatsApp) could not take when it was sent, held until the phone can, then
-- sent once, in the order it was held. `message` is the message as the router sends it
-- (JSON); `occurrence` is a reminder occurrence's key, so the same occurrence is held
-- once for a phone however often it is routed. `sending_at` is set while a send is
-- under way: a row still marked at the next start was cut off by a quit or a crash,
-- and is tried again.
CREATE TABLE outbox_waiting (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    sink        TEXT NOT NULL,
    message     TEXT NOT NULL,
    occurrence  TEXT,
    held_at     TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    sending_at  TEXT,
    last_error  TEXT
);
CREATE INDEX outbox_waiting_by_sink ON outbox_waiting (sink, id);
CREATE UNIQUE INDEX outbox_waiting_occurrence ON outbox_waiting (sink, occurrence) WHERE occurrence IS NOT NULL;
