"""The database encrypted at rest in the real app (issue 74): Settings → Your data →
Encrypt it, with the desktop's real keychain (the run's GNOME Keyring); the next start
converts today's chat, which is all there after, and no file of the data folder shows
what was said; sqlite3 reads nothing. Stop encrypting makes it plain at the next start."""
import sqlite3

import pytest

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import ask, write_settings

SECRET = "Zanahoriaquebrada"
PLAIN = b"SQLite format 3\x00"


def open_encryption(session):
    """Settings → Your data, scrolled to the database's encryption once it has loaded."""
    session.settings("data", 20)
    session.wait_for("[data-testid=encryption-state]", 10)
    session.script("document.querySelector('[data-testid=database-encryption]').scrollIntoView({block: 'center'})")


def state(session):
    return " ".join(session.texts("[data-testid=encryption-state]"))


def test_encrypting_the_database_converts_todays_chat_at_the_next_start_and_back(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Anotado.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    db = data / "sidecar.db"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        ask(session, f"La llave del trastero la tiene {SECRET}")
        wait_until(lambda: "Anotado." in " ".join(session.texts("[data-testid=message-assistant]")), 30, "no reply")
        open_encryption(session)
        assert "The database is not encrypted." in state(session)
        session.click(session.find("[data-testid=encryption-toggle]"))
        wait_until(lambda: "Sidecar encrypts the database when it starts next." in state(session), 10, state(session))
        assert session.find_all("[data-testid=encryption-restart]")
        desktop.screenshot("encryption-pending")
    finally:
        desktop.close(session)
    assert db.read_bytes()[:16] == PLAIN, "nothing converts until the next start"

    session = desktop.launch(data, ["--config", str(config)])
    try:
        wait_until(lambda: any(SECRET in t for t in session.texts("[data-testid=message-user]")), 20, "today's chat is not there after the conversion")
        open_encryption(session)
        assert "The database is encrypted; its key is in this computer's keychain." in state(session)
        desktop.screenshot("encryption-on")
        assert db.read_bytes()[:16] != PLAIN
        for path in data.iterdir():
            if path.is_file() and path.name.startswith("sidecar.db"):
                assert SECRET.encode() not in path.read_bytes(), f"{path.name} shows what was said"
        reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            with pytest.raises(sqlite3.DatabaseError):
                reader.execute("SELECT count(*) FROM messages").fetchone()
        finally:
            # Left open, it would be "another Sidecar" holding the file at the next start.
            reader.close()
        session.click(session.find("[data-testid=encryption-toggle]"))
        wait_until(lambda: "Sidecar makes the database plain again when it starts next." in state(session), 10, state(session))
    finally:
        desktop.close(session)

    session = desktop.launch(data, ["--config", str(config)])
    try:
        wait_until(lambda: any(SECRET in t for t in session.texts("[data-testid=message-user]")), 20, "the chat is not there after decrypting")
        open_encryption(session)
        assert "The database is not encrypted." in state(session)
    finally:
        desktop.close(session)
    assert db.read_bytes()[:16] == PLAIN
