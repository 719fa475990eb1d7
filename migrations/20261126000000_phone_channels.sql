-- Phone channels (Telegram, WhatsApp). A message id seen once is never answered
-- again, across restarts and reconnects (W4); a channel's cursor (Telegram's next
-- update id) survives a restart so nothing is fetched twice or skipped.
CREATE TABLE channel_seen (
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    PRIMARY KEY (channel, message_id)
);
CREATE INDEX channel_seen_by_time ON channel_seen (seen_at);

CREATE TABLE channel_cursor (
    channel TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
