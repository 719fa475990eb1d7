"""The conversation list in the real app: past conversations are listed, one is opened
and its reply continues there; search narrows the list."""
from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply
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


def files_holding(folder, word):
    """The files under `folder` (the database, its WAL, logs, knowledge) holding `word`."""
    words = {word.encode(), word.lower().encode()}
    return [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and any(w in p.read_bytes() for w in words)]


def test_an_incognito_chat_says_so_and_leaves_no_word_once_left(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Okay.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        ask(session, "My plumber Anselmo comes on Monday")
        session.click(session.find("[data-testid=new-incognito]"))
        session.wait_for("[data-testid=incognito-banner]", 10)
        wait_until(lambda: not session.find_all("[data-testid=message-assistant]"), 30, "the incognito chat is not empty")
        ask(session, "My neighbour Zenobia Quintanilla keeps the key under the turquoise pot")
        banner = session.texts("[data-testid=incognito-banner]")[0]
        assert "Nothing here is remembered" in banner, banner
        assert not any("Zenobia" in t for t in titles(session)), titles(session)
        desktop.screenshot("incognito")
        # What the model was told: it may not keep anything, and has no tool to.
        told = llm.requests[-1]
        assert "This is an incognito chat" in str(told["messages"])
        assert "remember_fact" not in str(told.get("tools", [])) and "remember_fact" in str(llm.requests[0].get("tools", []))
        session.click(session.find("[data-testid=leave-incognito]"))
        wait_until(lambda: not session.find_all("[data-testid=incognito-banner]"), 10, "still incognito")
        wait_until(lambda: not session.find_all("[data-testid=message-user]"), 10, "the new chat is not empty")
        for word in ["Zenobia", "Quintanilla", "turquoise"]:
            assert files_holding(data, word) == [], f"{word} is still in {files_holding(data, word)}"
        assert "sidecar.db" in files_holding(data, "Anselmo"), "the other conversation is kept"
    finally:
        desktop.close(session)
        llm.close()


def test_a_message_deleted_in_the_chat_asks_first_and_leaves_no_word(desktop, tmp_path):
    fact = '{"fact": "Neighbour Zenobia Quintanilla keeps the key", "category": "Relationships"}'
    llm = ScriptedLlm([tool_reply(("f1", "remember_fact", fact)), text_reply("Okay, the turquoise pot.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        ask(session, "My neighbour Zenobia Quintanilla keeps the key under the turquoise pot")
        assert "Zenobia" in (data / "knowledge" / "learnings.md").read_text(), "the model kept a fact"
        ask(session, "My plumber Anselmo comes on Monday")
        # The Memory page names where the fact was learned, opens it, and marks it important.
        session.click(session.find("[data-testid=nav-memory]"))
        session.wait_for("[data-testid=fact]", 20)
        session.click(session.find("[data-testid=fact-mark-important]"))
        wait_until(lambda: "Zenobia Quintanilla keeps the key | learned:" in (data / "knowledge" / "learnings.md").read_text()
                   and "| critical" in (data / "knowledge" / "learnings.md").read_text(), 10, "not marked in the file")
        session.wait_for("[data-testid=fact-important]", 10)
        assert session.texts("[data-testid=memory-message]")[0].startswith("Marked important")
        desktop.screenshot("memory-important")
        session.click(session.find("[data-testid=fact-origin]"))
        session.wait_for("[data-testid=composer]", 10)
        wait_until(lambda: session.find_all("[data-testid=message-user].highlighted"), 10, "the message it was learned from is not shown")
        assert "Zenobia" in session.text(session.find("[data-testid=message-user].highlighted"))
        session.script("document.querySelector('[data-testid=message-user] [data-testid=forget-message]').click()")
        session.wait_for("[data-testid=forget-confirm]", 10)
        assert "and its reply for good" in session.texts("[data-testid=forget-confirm]")[0]
        desktop.screenshot("forget-message")
        session.click(session.find("[data-testid=forget-yes]"))
        wait_until(lambda: not any("Zenobia" in t for t in session.texts("[data-testid=message-user] .content")), 10, "still shown")
        assert len(session.find_all("[data-testid=message-assistant]")) == 1, "its reply went with it"
        # What Sidecar had learned from it is named, and forgotten too when the user says so.
        session.wait_for("[data-testid=forget-learned]", 10)
        assert "Neighbour Zenobia Quintanilla keeps the key" in session.texts("[data-testid=forget-learned]")[0]
        desktop.screenshot("forget-learned")
        session.click(session.find("[data-testid=forget-learned-yes]"))
        wait_until(lambda: not session.find_all("[data-testid=forget-learned]"), 10, "still asking")
        for word in ["Zenobia", "Quintanilla"]:
            assert files_holding(data, word) == [], f"{word} is still in {files_holding(data, word)}"
        assert "sidecar.db" in files_holding(data, "Anselmo"), "the other exchange is kept"
        # The day's backup was made before: Settings names it, and removes it after a new one.
        wait_until(lambda: list((data / "backups").glob("daily-*")), 20, "no daily backup")
        session.settings("data", 20)
        session.click(session.wait_for("[data-testid=held-remove]", 10))
        assert "A new backup of everything kept is made first" in session.texts("[data-testid=held-in-backups]")[0]
        desktop.screenshot("held-in-backups")
        session.click(session.find("[data-testid=held-yes]"))
        wait_until(lambda: session.find_all("[data-testid=held-note]"), 20, "no word of the backups removed")
        assert session.texts("[data-testid=held-note]")[0] == "Removed 1 backup; a new one holds everything kept."
        left = sorted(p.name for p in (data / "backups").iterdir())
        assert len(left) == 1 and left[0].startswith("sidecar-"), left
    finally:
        desktop.close(session)
        llm.close()


def test_forget_everything_about_someone_lists_first_and_forgets_what_stays_ticked(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Noted.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        ask(session, "Ana turns forty on the ninth of March")
        ask(session, "Ana and I saw a film at the Kursaal")
        ask(session, "I love banana smoothies")
        session.click(session.find("[data-testid=nav-memory]"))
        session.send_keys(session.wait_for("[data-testid=fact-text]", 20), "Ana is allergic to pecans\ue007")
        wait_until(lambda: "pecans" in (data / "knowledge" / "learnings.md").read_text(), 10, "the fact was not saved")
        session.click(session.find("[data-testid=forget-about-open]"))
        session.send_keys(session.wait_for("[data-testid=forget-about-name]", 10), "ana\ue007")
        session.wait_for("[data-testid=forget-about-list]", 20)
        listed = session.texts("[data-testid=forget-about-list]")[0]
        assert "Ana is allergic to pecans" in listed and "forty" in listed and "Kursaal" in listed, listed
        assert "banana" not in listed, "banana is not Ana"
        # Nothing is gone until the user says; the cinema stays.
        assert files_holding(data, "forty"), "deleted before asking"
        session.script("[...document.querySelectorAll('[data-testid=forget-about-list] li')]"
                       ".find(li => li.textContent.includes('Kursaal')).querySelector('input').click()")
        desktop.screenshot("forget-about")
        session.click(session.find("[data-testid=forget-about-confirm]"))
        wait_until(lambda: session.find_all("[data-testid=forget-about-said]"), 20, "no word of what went")
        said = session.texts("[data-testid=forget-about-said]")[0]
        assert said.startswith("Forgotten about “ana”: 1 fact, 2 messages"), said
        for word in ["forty", "pecans"]:
            assert files_holding(data, word) == [], f"{word} is still in {files_holding(data, word)}"
        assert files_holding(data, "Kursaal") and files_holding(data, "banana"), "what was not chosen is kept"
    finally:
        desktop.close(session)
        llm.close()
