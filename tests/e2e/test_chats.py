"""The conversation list in the real app: past conversations are listed, one is opened
and its reply continues there; search narrows the list."""
from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings


def ask(session, text):
    before = len(session.find_all("[data-testid=message-assistant]"))
    session.send_keys(session.find("[data-testid=composer]"), text + "\ue007")
    wait_until(lambda: len(session.find_all("[data-testid=message-assistant]")) > before
               and not session.find_all("[data-testid=stop]"), 30, "no reply")


def titles(session):
    return session.texts("[data-testid=chat-row] .chat-title")


def test_a_past_conversation_is_listed_opened_and_continued(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Noted.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        ask(session, "My sister started a new job at the bakery")
        session.click(session.find("[data-testid=new-chat]"))
        wait_until(lambda: not session.find_all("[data-testid=message-assistant]"), 30, "new chat not empty")
        ask(session, "Plan a weekend in Lisbon")
        wait_until(lambda: titles(session)[:2] == ["Plan a weekend in Lisbon", "My sister started a new job at the bakery"],
                   10, f"list: {titles(session)}")
        desktop.screenshot("chats")
        session.script("document.querySelectorAll('[data-testid=chat-row] .chat-open')[1].click()")
        wait_until(lambda: any("bakery" in t for t in session.texts("[data-testid=message-user] .content")), 30, "not opened")
        ask(session, "She loves it")
        assert len(session.find_all("[data-testid=message-assistant]")) == 2
        wait_until(lambda: titles(session)[0] == "My sister started a new job at the bakery", 30, "order")
        session.send_keys(session.find("[data-testid=chat-search]"), "lisbon")
        wait_until(lambda: titles(session) == ["Plan a weekend in Lisbon"], 10, f"search: {titles(session)}")
    finally:
        desktop.close(session)
        llm.close()
