-- Tool use: an assistant message may carry tool calls (JSON list of {id, name,
-- arguments}); a tool message answers one call.
ALTER TABLE messages ADD COLUMN tool_calls TEXT;
ALTER TABLE messages ADD COLUMN tool_call_id TEXT;
ALTER TABLE messages ADD COLUMN is_error INTEGER NOT NULL DEFAULT 0;
-- What the UI shows under a reply: which provider answered, fallback, continued,
-- corrected, cost (JSON object; null for messages from before it existed).
ALTER TABLE messages ADD COLUMN meta TEXT;

-- Cost of each model call, in US dollars (null when the model's price is unknown).
ALTER TABLE usage ADD COLUMN cached_tokens INTEGER;
ALTER TABLE usage ADD COLUMN cost_usd REAL;
CREATE INDEX usage_by_time ON usage(created_at);

-- A provider the user picked for one conversation: it never silently falls back.
ALTER TABLE conversations ADD COLUMN provider_id TEXT;

-- Notes the agent keeps about its own recent mistakes (a claimed action with no tool
-- call, …). One per check within a cooldown; each expires.
CREATE TABLE self_corrections (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    check_name  TEXT NOT NULL,
    note        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);
CREATE INDEX self_corrections_by_check ON self_corrections(check_name, created_at);
