-- Repeats are RFC 5545 RRULEs computed by a library: a series keeps its first
-- occurrence (DTSTART) so INTERVAL and COUNT count from there. The hand-made JSON rule
-- (`repeat`) is gone; every repeating row already had its RRULE.
ALTER TABLE reminders ADD COLUMN series_start TEXT;
-- A date said with no hour: all day, reminded at the default hour.
ALTER TABLE reminders ADD COLUMN all_day INTEGER NOT NULL DEFAULT 0;
UPDATE reminders SET series_start = due_at WHERE rrule IS NOT NULL;
ALTER TABLE reminders DROP COLUMN repeat;
