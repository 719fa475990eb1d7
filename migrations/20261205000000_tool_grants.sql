-- What the user allowed or denied a tool that acts (an MCP tool, a note tool that writes),
-- bound to the server's identity: editing a server's command voids its grants.
CREATE TABLE tool_grants (
    id INTEGER PRIMARY KEY,
    server TEXT NOT NULL,
    identity TEXT NOT NULL,
    -- '' stands for every tool of the server.
    tool TEXT NOT NULL DEFAULT '',
    allow INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (server, tool)
);

-- The definition of each tool the user last approved (name, description, schema), and
-- its SHA-256 pin: a tool whose definition changed asks again, showing what changed.
CREATE TABLE tool_pins (
    server TEXT NOT NULL,
    identity TEXT NOT NULL,
    tool TEXT NOT NULL,
    pin TEXT NOT NULL,
    definition TEXT NOT NULL,
    approved_at TEXT NOT NULL,
    PRIMARY KEY (server, tool)
);
