-- Where a fact was learned (issue 74): the user's message of the turn that saved it new.
-- The fact is kept as a hash of its words (learnings.md stays their one home), so
-- deleting the message can ask whether to forget what was learned from it.
CREATE TABLE fact_sources (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    fact_key    TEXT NOT NULL,
    message_id  INTEGER NOT NULL,
    learned_at  TEXT NOT NULL
);
CREATE INDEX fact_sources_by_message ON fact_sources(message_id);
