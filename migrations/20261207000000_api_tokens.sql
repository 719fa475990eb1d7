-- The bearer token of each program that uses Sidecar's local HTTP API, kept only as its
-- SHA-256 (the token itself is in the system keychain, to be shown again in Settings).
-- One token per client; making a new one replaces the old.
CREATE TABLE api_tokens (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
