-- What a reminder's text leaves out: the rest of a calendar event's cut title, and
-- the event's own DESCRIPTION. Shown where there is room (the Reminders page, the
-- list), never in a notification.
ALTER TABLE reminders ADD COLUMN description TEXT;
