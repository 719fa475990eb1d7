-- Spontaneous messages as a phone channel delivered them, by the channel's own id
-- (Telegram's "chat:message"), so a reaction on one (a 👍 on Telegram) teaches the
-- kind it was. Forgotten with the seen ids, after 30 days.
CREATE TABLE channel_sent (
    channel TEXT NOT NULL,
    remote_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (channel, remote_id)
);
CREATE INDEX channel_sent_by_time ON channel_sent (sent_at);
