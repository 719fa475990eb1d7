#!/usr/bin/env python3
"""The database's size per 1,000 messages, measured on stores built by the LoCoMo
benches (real chats, indexed for words and by meaning): as written, and compacted
(VACUUM INTO a copy), with the tables that take the most.

    python3 scripts/db_growth.py target/locomo-stores target/locomo-stores-gemma
"""
import glob
import os
import sqlite3
import sys
import tempfile

for root in sys.argv[1:]:
    written = compacted = messages = 0
    tables = {}
    for db in sorted(glob.glob(os.path.join(root, "*", "sidecar.db"))):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        messages += con.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        written += sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "copy.db")
            con.execute("VACUUM INTO ?", (copy,))
            compacted += os.path.getsize(copy)
            for name, size in sqlite3.connect(copy).execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
                tables[name] = tables.get(name, 0) + size
    if not messages:
        print(f"{root}: no stores")
        continue
    per = lambda b: f"{b / messages * 1000 / 1e6:.2f} MB"
    top = ", ".join(f"{name} {per(size)}" for name, size in sorted(tables.items(), key=lambda kv: -kv[1])[:4])
    print(f"{root}: {messages} messages; per 1,000 messages {per(written)} as written, {per(compacted)} compacted ({top})")
