-- Mail (issue 73): one IMAP account read only, its folders' sync state, and each mail as
-- the server last gave it (its text bounded, attachments named, never read), found by
-- words like a message. A stranger wrote every mail: nothing here is an instruction.
CREATE TABLE mail_account (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    address TEXT NOT NULL,
    host TEXT NOT NULL,
    port INTEGER NOT NULL,
    security TEXT NOT NULL,
    username TEXT NOT NULL,
    -- How far back the first sync reads (days).
    first_days INTEGER NOT NULL DEFAULT 30
);

CREATE TABLE mail_folders (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    -- The user chose it to be read (Inbox by default).
    read INTEGER NOT NULL DEFAULT 0,
    -- The server's UIDVALIDITY: when it changes, every UID means another mail.
    uid_validity INTEGER,
    -- The server's UIDNEXT and message count at the last sync: both unchanged, nothing
    -- is fetched.
    uid_next INTEGER,
    exists_count INTEGER,
    synced_at TEXT,
    -- What went wrong at the last sync, said to the user; NULL: it went well.
    problem TEXT
);

CREATE TABLE mails (
    id INTEGER PRIMARY KEY,
    folder_id INTEGER NOT NULL REFERENCES mail_folders(id) ON DELETE CASCADE,
    uid INTEGER NOT NULL,
    message_id TEXT,
    from_address TEXT NOT NULL,
    from_name TEXT,
    subject TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    body TEXT NOT NULL,
    -- The attachments' names, a JSON array.
    attachments TEXT NOT NULL DEFAULT '[]',
    -- What was not kept (JSON), NULL when the mail was kept whole.
    cut TEXT,
    -- When Sidecar spoke first about it (at most once per mail).
    spoken_at TEXT,
    UNIQUE (folder_id, uid)
);
CREATE INDEX mails_sent_at ON mails (sent_at);

-- Who matters: a sender's address ("ana@example.org") or a whole domain ("example.org").
CREATE TABLE mail_people (
    who TEXT PRIMARY KEY
);

CREATE VIRTUAL TABLE mails_fts USING fts5(
    from_name,
    subject,
    body,
    content = 'mails',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER mails_fts_insert AFTER INSERT ON mails BEGIN
    INSERT INTO mails_fts(rowid, from_name, subject, body) VALUES (new.id, new.from_name, new.subject, new.body);
END;
CREATE TRIGGER mails_fts_delete AFTER DELETE ON mails BEGIN
    INSERT INTO mails_fts(mails_fts, rowid, from_name, subject, body) VALUES ('delete', old.id, old.from_name, old.subject, old.body);
END;
