"""A message's actions in the real app: Regenerate writes the reply again and the
versions flip back; Edit replaces a sent message and answers it anew; Copy puts a code
block on the clipboard (pasted back into the composer)."""
from conftest import said, wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings
from test_chats import ask

FIRST = "Blue, like this:\n\n```python\nprint('blue')\n```"


def replies(session):
    return session.texts("[data-testid=message-assistant] .content")


def position(session):
    found = session.texts("[data-testid=version-position]")
    return found[0] if found else None


def click(session, css):
    session.script(f"document.querySelector({css!r}).click()")


def test_regenerate_flip_versions_edit_and_copy(desktop, tmp_path):
    llm = ScriptedLlm([text_reply(FIRST), text_reply("Green."), text_reply("Mango."), text_reply("Noted.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        ask(session, "Name a colour")
        wait_until(lambda: session.find_all("[data-testid=message-assistant] .hljs-built_in"), 30, "code not highlighted")

        # Copy the code block, then paste it into the composer.
        # A real click: the webview lets only a user's gesture write the clipboard.
        session.click(session.find("[data-testid=copy-code]"))
        wait_until(lambda: session.texts("[data-testid=copy-code]") == ["Copied"], 5, f"copy not confirmed: {session.texts('[data-testid=copy-code]')}")
        composer = session.find("[data-testid=composer]")
        session.click(composer)
        session.send_keys(composer, "\ue009v\ue000")
        wait_until(lambda: session.script("return document.querySelector('[data-testid=composer]').value") == "print('blue')\n",
                   5, "the clipboard did not hold the code")
        session.script("const c = document.querySelector('[data-testid=composer]'); c.select();")
        session.send_keys(composer, "\ue003")
        desktop.screenshot("message-actions")

        click(session, "[data-testid=regenerate]")
        wait_until(lambda: replies(session) == ["Green."] and position(session) == "2 / 2", 30, f"not regenerated: {replies(session)}")
        assert said(llm.requests[-1]["messages"][-1]) == "Name a colour", "the replaced reply is not sent back"

        click(session, "[aria-label='Previous version']")
        wait_until(lambda: position(session) == "1 / 2" and "Blue" in replies(session)[0], 30, "did not flip back")

        click(session, "[data-testid=message-user] [data-testid=edit-message]")
        box = session.wait_for("[data-testid=edit-text]")
        session.script("document.querySelector('[data-testid=edit-text]').select()")
        session.send_keys(box, "Name a fruit\ue007")
        wait_until(lambda: replies(session) == ["Mango."], 30, f"edit not answered: {replies(session)}")
        assert session.texts("[data-testid=message-user] .content") == ["Name a fruit"]
        sent = [said(m) for m in llm.requests[-1]["messages"] if m["role"] != "system"]
        assert sent == ["Name a fruit"], sent

        # After a restart the conversation reads the same.
        desktop.close(session)
        session = desktop.launch(tmp_path / "data", ["--config", str(config)])
        wait_until(lambda: replies(session) == ["Mango."], 15, f"after restart: {replies(session)}")
    finally:
        desktop.close(session)
        llm.close()
