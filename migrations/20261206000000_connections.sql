-- Other programs that use Sidecar as a server (an MCP client such as Claude Desktop), by
-- the name they give. A client is 'pending' from its first visit until the user allows
-- it with scopes, or 'revoked'. Nothing is served to a client that is not 'allowed'.
CREATE TABLE connections (
    name TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    -- Comma-separated: read_memory, write_memory, reminders, messages, health.
    scopes TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    changed_at TEXT NOT NULL
);

-- What each client did (or was refused), for Settings → Connections.
CREATE TABLE connection_log (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    action TEXT NOT NULL,
    allowed INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX connection_log_by_name ON connection_log (name, id);
