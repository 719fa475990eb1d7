"""The "/" palette in the real app: it lists the core's command table, the keyboard
picks one, and /help is answered by Sidecar itself (no model is configured or asked)."""
from conftest import wait_until


def test_slash_opens_the_palette_and_help_lists_the_commands(desktop, tmp_path):
    session = desktop.launch(tmp_path / "data")
    try:
        composer = session.find("[data-testid=composer]")
        session.send_keys(composer, "/")
        palette = session.wait_for("[data-testid=palette]", 10)
        items = session.texts("[data-testid=palette-item]")
        assert any(i.startswith("/help") for i in items) and any("/quiet 30m | 2h | off | here" in i for i in items), items
        desktop.screenshot("palette")
        session.send_keys(composer, "he")
        assert len(session.find_all("[data-testid=palette-item]")) == 1
        session.send_keys(composer, "\ue004")  # Tab picks /help
        wait_until(lambda: session.script("return document.querySelector('[data-testid=composer]').value") == "/help", 20, "not picked")
        session.send_keys(composer, "\ue007")  # Enter sends it
        reply = session.wait_for("[data-testid=message-assistant]", 20)
        wait_until(lambda: "/reminders clear | lost" in session.text(reply), 30, "no command list")
        assert palette is not None
    finally:
        desktop.close(session)
