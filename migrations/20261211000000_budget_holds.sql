-- Reservations for model calls in flight, shared by every Sidecar process on this
-- database (the app, the daemon, each `sidecar ask`): a call's worst case is held here
-- in the same transaction that checked it fits, so processes started together cannot
-- together spend past a limit. A settled hold keeps the call's real cost until its
-- usage row is written; holds of a process that died, or past `expires_at`, are dropped.
CREATE TABLE budget_holds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pid INTEGER NOT NULL,
    provider TEXT NOT NULL,
    background INTEGER NOT NULL,
    usd REAL NOT NULL,
    settled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX budget_holds_pid ON budget_holds (pid, provider, settled);
