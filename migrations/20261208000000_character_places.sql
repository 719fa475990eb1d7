-- Where the user left the character on each screen (by the screen's name), so it comes
-- back there; physical pixels, top-left corner of its window.
CREATE TABLE character_places (
    screen TEXT PRIMARY KEY,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    saved_at TEXT NOT NULL
);
