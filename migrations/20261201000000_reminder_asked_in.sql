-- The user's chat message that asked for a reminder. Sidecar's own reading of that
-- message and the model's tool call answering it are one request: a second setting
-- of the same reminder for the same message stores nothing. No other path merges.
ALTER TABLE reminders ADD COLUMN asked_in INTEGER;
CREATE INDEX reminders_asked_in ON reminders(asked_in) WHERE asked_in IS NOT NULL;
