-- The user's other devices attached to this Sidecar (issue 70): each with its own token,
-- kept only as its SHA-256; a revoked device keeps its row (when, and what it was) and
-- its token opens nothing.
CREATE TABLE link_devices (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    paired_at TEXT NOT NULL,
    last_seen TEXT,
    revoked_at TEXT
);

-- The one pairing code open (made by the app, the daemon or `sidecar devices code`, and
-- redeemed by whichever process listens): its digits, when it stops working, tries left.
CREATE TABLE link_pairing (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    digits TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    tries_left INTEGER NOT NULL
);
