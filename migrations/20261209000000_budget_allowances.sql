-- Extra dollars the user allowed on a day past their budget ("allow N more today"),
-- by the user's local date.
CREATE TABLE budget_allowances (
    day TEXT PRIMARY KEY,
    extra_usd REAL NOT NULL
);
