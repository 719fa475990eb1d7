"""Settings people look for, in the real app: dark theme at once, Spanish at once and
for Sidecar's own words after a restart, a global shortcut that another program holds
refused with a clear error and a free one that works, and launch at login."""
import subprocess
import sys
import time
from pathlib import Path

from conftest import ARTIFACTS, ROOT, wait_until
from test_chats import ask

HERE = Path(__file__).parent


def open_settings(session):
    session.settings("desktop")
    return session.wait_for("[data-testid=desktop-settings]", 10)


def note(session):
    found = session.texts("[data-testid=hotkey-note]")
    return found[0] if found else ""


def grab(combo):
    log = open(ARTIFACTS / "key-grabber.log", "w")
    proc = subprocess.Popen([sys.executable, "-u", str(HERE / "key_grabber.py"), combo], stdout=subprocess.PIPE, stderr=log, text=True)
    assert proc.stdout.readline().strip() == "grabbed"
    return proc


def test_theme_language_shortcut_and_launch_at_login(desktop, tmp_path):
    config = tmp_path / "settings.toml"
    config.write_text("")
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    holder = grab("ctrl+alt+k")
    try:
        open_settings(session)
        session.tap("[data-testid=theme-dark]")
        wait_until(lambda: session.script("return document.documentElement.dataset.theme") == "dark", 20, "not dark")
        background = session.script("return getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(21, 21, 28)", background
        desktop.screenshot("settings-dark")

        # Ctrl+Alt+K is held by another program: refused, and the old shortcut still works.
        session.tap("[data-testid=hotkey-change]")
        recorder = session.wait_for("[data-testid=hotkey-recorder]", 5)
        session.send_keys(recorder, "\ue009\ue00ak\ue000")
        wait_until(lambda: "already used by another program" in note(session), 10, f"no conflict said: {note(session)!r}")
        assert session.texts("[data-testid=hotkey]") == ["Ctrl+Shift+Space"]
        desktop.screenshot("settings-hotkey-taken")
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "the old shortcut stopped working")
        desktop.key("ctrl+shift+space")
        wait_until(lambda: desktop.visible_windows(), 20, "the window did not come back")

        # A free one is taken at once, and the old one lets go. (The shortcut brought
        # the chat forward.)
        open_settings(session)
        session.tap("[data-testid=hotkey-change]")
        recorder = session.wait_for("[data-testid=hotkey-recorder]", 5)
        session.send_keys(recorder, "\ue009\ue00aj\ue000")
        wait_until(lambda: session.texts("[data-testid=hotkey]") == ["Ctrl+Alt+J"], 10, f"not saved: {note(session)!r}")
        desktop.key("ctrl+alt+j")
        wait_until(lambda: not desktop.visible_windows(), 20, "the new shortcut does not hide the window")
        desktop.key("ctrl+shift+space")
        time.sleep(0.5)
        assert not desktop.visible_windows(), "the old shortcut still answers"
        desktop.key("ctrl+alt+j")
        wait_until(lambda: desktop.visible_windows(), 20, "the new shortcut does not bring it back")

        open_settings(session)
        # The box shows once the shell has said whether the entry exists.
        session.tap("[data-testid=launch-at-login]")
        entry = Path(desktop.env["HOME"]) / ".config/autostart/Sidecar.desktop"
        wait_until(entry.exists, 20, "no autostart entry")
        assert f"Exec={desktop.binary}" in entry.read_text()

        session.script("""const s = document.querySelector('[data-testid=language]');
            s.value = 'es'; s.dispatchEvent(new Event('change', {bubbles: true}));""")
        try:
            wait_until(lambda: session.texts("[data-testid=nav-settings]") == ["Ajustes"], 30, "the page is not in Spanish")
        except TimeoutError:
            chosen = session.script("return document.querySelector('[data-testid=language]').value")
            raise AssertionError(f"not Spanish: tab {session.texts('[data-testid=nav-settings]')}, select {chosen!r}, "
                                 f"errors {session.texts('[role=alert]')}, file {config.read_text()!r}") from None
        assert "[desktop]" in config.read_text() and 'language = "es"' in config.read_text()
    finally:
        holder.kill()
        desktop.close(session)

    # Next start: Spanish everywhere (the test environment says SIDECAR_LANG=en), still dark.
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        wait_until(lambda: session.texts("[data-testid=nav-settings]") == ["Ajustes"], 30, "not Spanish after restart")
        wait_until(lambda: session.script("return document.documentElement.dataset.theme") == "dark", 20, "not dark after restart")
        ask(session, "/help")
        assert "Esta lista de comandos" in session.texts("[data-testid=message-assistant] .content")[-1]
        desktop.screenshot("chat-dark-es")
        open_settings(session)
        # The box shows once the shell has said whether the entry exists.
        session.tap("[data-testid=launch-at-login]")
        entry = Path(desktop.env["HOME"]) / ".config/autostart/Sidecar.desktop"
        wait_until(lambda: not entry.exists(), 20, "launch at login not turned off")
    finally:
        desktop.close(session)


def test_web_search_is_set_up_in_settings_and_tried(desktop, tmp_path):
    """SearXNG chosen in Settings (a loopback instance serving the recorded answer);
    Try lists its results; settings.toml says so."""
    from http.server import BaseHTTPRequestHandler

    answer = (ROOT / "tests/fixtures/searxng.json").read_bytes()
    asked = []

    class Searxng(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            asked.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server, session, _ = open_with_searxng(desktop, tmp_path, Searxng, "")
    try:
        wait_until(lambda: "Saved" in " ".join(session.texts("[data-testid=search-note]")), 30, "no saved note")
        session.tap("[data-testid=search-try]")
        wait_until(lambda: session.find_all("[data-testid=search-found] li"), 15,
                   f"no results: {session.texts('[data-testid=search-note]')}")
        assert any("Tauri" in t for t in session.texts("[data-testid=search-found] li"))
        assert asked and asked[0].startswith("/search?q=Sidecar"), asked
        session.script("document.querySelector('[data-testid=search-found]').scrollIntoView({block: 'center'})")
        desktop.screenshot("settings-web-search")
    finally:
        desktop.close(session)
        server.shutdown()


def test_a_failed_web_search_try_is_said_in_spanish(desktop, tmp_path):
    """In Spanish, a SearXNG instance that answers 503 is named, with its status, in
    Spanish words (the core's typed search failure, worded by words::errors)."""
    from http.server import BaseHTTPRequestHandler

    class Down(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(503)
            self.send_header("content-length", "0")
            self.end_headers()

    server, session, _ = open_with_searxng(desktop, tmp_path, Down, '[desktop]\nlanguage = "es"\n')
    try:
        session.tap("[data-testid=search-try]")
        wait_until(lambda: "SearXNG respondió HTTP 503" in " ".join(session.texts("[data-testid=search-note]")), 15,
                   f"not said in Spanish: {session.texts('[data-testid=search-note]')}")
        desktop.screenshot("settings-web-search-failed-es")
    finally:
        desktop.close(session)
        server.shutdown()


def open_with_searxng(desktop, tmp_path, handler, settings):
    """The app on `settings`, with a loopback SearXNG served by `handler` chosen and
    saved in Settings → Web search."""
    import threading
    from http.server import ThreadingHTTPServer

    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    config = tmp_path / "settings.toml"
    config.write_text(settings)
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    session.settings("search")
    session.tap("[data-testid=search-searxng]")
    field = session.wait_for("[data-testid=search-url]", 5)
    session.send_keys(field, f"http://127.0.0.1:{server.server_address[1]}")
    session.tap("[data-testid=search-save]")
    wait_until(lambda: 'backend = "searxng"' in config.read_text(), 30, "not saved")
    # The file is written before the window hears back; Try stays disabled until it does,
    # and a script's click on a disabled button does nothing.
    wait_until(lambda: session.script("return !document.querySelector('[data-testid=search-try]').disabled"), 30, "Try stays disabled after saving")
    return server, session, config
