-- Speaking first: the user's choices (ProactiveConfig) and what the spontaneous loop
-- remembers between ticks (ProactiveState), each one JSON document in a single row,
-- so a new field needs no migration (missing fields read as their defaults).
CREATE TABLE proactive (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    config  TEXT NOT NULL DEFAULT '{}',
    state   TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO proactive (id) VALUES (1);
