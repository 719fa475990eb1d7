"""The character on the desktop, in the real app: turned on in Settings it appears at the
screen's corner; it listens, speaks a reminder (a click opens the chat on it, a double-click
snoozes it), sleeps on /quiet, takes its menu, follows a drag and keeps its place across a
restart; with a compositor it is see-through, without one it sits on a card. Screenshots of
each state at 1x and 2x go to .e2e/."""
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from conftest import add_reminder_on_page, daytime_zone, free_port, pids_on_display, port_open, wait_until
from webdriver import Session

TITLE = "^Sidecar character$"
REST = 112
MARGIN = 24
SCREEN = (1280, 800)


def character_windows(desktop):
    return desktop.visible_windows(TITLE)


def geometry(window_id):
    out = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window_id], capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in out.split() if "=" in line)
    return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])


def handles(session):
    return session.cmd("GET", "/window/handles")


def switch(session, handle):
    session.cmd("POST", "/window", {"handle": handle})


def to_character(session, timeout=20):
    """Switches the WebDriver session to the character's page, once it is there."""
    def found():
        for handle in handles(session):
            switch(session, handle)
            if session.find_all("[data-testid=character]"):
                return handle
        return None
    return wait_until(found, timeout, "the character's page is not there")


def to_main(session):
    for handle in handles(session):
        switch(session, handle)
        if session.find_all("[data-testid=nav-settings]"):
            return handle
    raise AssertionError("the chat window's page is gone")


def watch_moods(session):
    """Records every mood the character's page shows from now on, so a short one (a few
    seconds of listening) is seen however slow the switch between windows is."""
    session.script("""
        const el = document.querySelector('[data-testid=character]');
        window.__moods = [el.dataset.mood];
        new MutationObserver(() => window.__moods.push(el.dataset.mood)).observe(el, {attributes: true, attributeFilter: ['data-mood']});
    """)


def saw(session, wanted):
    return wanted in (session.script("return window.__moods || []") or [])


def see_through(session):
    """Whether the page was told its window is see-through ("true"/"false"), once it was."""
    return wait_until(lambda: session.script("return document.querySelector('[data-testid=character]').dataset.seeThrough"), 10,
                      "the page was not told about its window")


def mood(session):
    return session.script("const c = document.querySelector('[data-testid=character]'); return c && c.dataset.mood")


def shot(desktop, name):
    """A crop of the screen around the character (and its bubble or menu)."""
    path = desktop.screenshot(f"character-{name}-full")
    ids = character_windows(desktop)
    if ids:
        x, y, w, h = geometry(ids[0])
        pad = 16
        subprocess.run(["convert", str(path), "-crop", f"{w + 2 * pad}x{h + 2 * pad}+{max(0, x - pad)}+{max(0, y - pad)}",
                        str(path).replace("-full", "")], check=False)
        path.unlink(missing_ok=True)


def turn_on_in_settings(session):
    session.settings("desktop")
    box = session.wait_for("[data-testid=character-shown]", 10)
    assert not session.script("return document.querySelector('[data-testid=character-shown]').checked")
    session.click(box)


@pytest.fixture
def compositor(desktop):
    proc = subprocess.Popen(["xcompmgr"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    yield proc
    proc.terminate()
    proc.wait(5)


def test_turned_on_it_appears_at_the_corner_listens_speaks_and_opens_the_chat(desktop, compositor, tmp_path):
    session = desktop.launch(tmp_path / "data", extra_args=["--config", str(daytime(tmp_path))])
    try:
        assert not character_windows(desktop), "the character is off until the user turns it on"
        turn_on_in_settings(session)
        window = wait_until(lambda: character_windows(desktop), 15, "no character window")[0]
        x, y, w, h = geometry(window)
        assert (w, h) == (REST, REST)
        assert (x, y) == (SCREEN[0] - REST - MARGIN, SCREEN[1] - REST - MARGIN), (x, y)
        # See-through: no card behind it, and Settings says nothing about a compositor.
        to_character(session)
        assert see_through(session) == "true", "not see-through with a compositor"
        assert not session.find_all(".stage.card")
        wait_until(lambda: mood(session) == "idle", 30, "not idle")
        shot(desktop, "idle-1x")

        # Typing in the chat: it listens, and goes back to idle after a pause.
        watch_moods(session)
        to_main(session)
        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]", 10), "hello the")
        to_character(session)
        wait_until(lambda: saw(session, "listening"), 30, "not listening while the user types")
        wait_until(lambda: mood(session) == "idle", 30, "still listening after the pause")

        # A reminder: it speaks its first line; the window grows and the character stays put.
        to_main(session)
        assert not session.find_all("[data-testid=character-no-compositor]")
        add_reminder_on_page(session, "Call the plumber", 6)
        to_character(session)
        bubble = shown_bubble(session)
        said = session.script("return document.querySelector('[data-testid=character-bubble]').textContent")
        assert "Call the plumber" in said, said
        assert mood(session) == "speaking"
        bx, by, bw, bh = geometry(window)
        assert (bx + bw, by + bh) == (x + REST, y + REST), "the character moved when its bubble opened"
        time.sleep(0.5)
        shot(desktop, "speaking-1x")

        # Hide the chat; a click on the bubble brings it up on that message.
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "chat window not hidden")
        session.click(bubble)
        wait_until(lambda: desktop.visible_windows(), 20, "the click did not open the chat")
        wait_until(lambda: geometry(window)[2] == REST, 20, "the bubble did not close")
        to_main(session)
        wait_until(lambda: session.find_all("[data-testid=message-assistant].highlighted"), 30, "the reminder is not highlighted")
        assert "Call the plumber" in session.text(session.find("[data-testid=message-assistant].highlighted"))
    finally:
        desktop.close(session)


def test_a_double_click_on_a_reminders_bubble_snoozes_it(desktop, compositor, tmp_path):
    data = tmp_path / "data"
    session = desktop.launch(data, extra_args=["--config", str(character_config(tmp_path))])
    try:
        to_character(session)
        to_main(session)
        add_reminder_on_page(session, "Water the plants", 5)
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "chat window not hidden")
        to_character(session)
        bubble = shown_bubble(session)
        session.cmd("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "origin": {"element-6066-11e4-a52e-4f735466cecf": bubble}, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})
        session.wait_for("[data-testid=character-note]", 10)
        said = session.script("return document.querySelector('[data-testid=character-note]').textContent")
        assert "again in" in said, said

        def snoozed():
            rows = sqlite3.connect(data / "sidecar.db").execute("SELECT COUNT(*) FROM reminders WHERE message LIKE '%Water the plants%' AND state = 'pending'").fetchone()
            return rows[0] > 0
        wait_until(snoozed, 30, "the reminder was not snoozed")
        assert not desktop.visible_windows(), "a double-click snoozes; it does not open the chat"
    finally:
        desktop.close(session)


def shown_bubble(session, timeout=30):
    """The bubble once it is there and wholly inside the window, which grows to hold
    it just after it appears: a pointer sent before then lands out of bounds."""
    bubble = session.wait_for("[data-testid=character-bubble]", timeout)
    inside = """const r = document.querySelector('[data-testid=character-bubble]').getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;"""
    wait_until(lambda: session.script(inside), 30, "the bubble never fitted in the window")
    return bubble


def scripted_model(vault):
    """A model that writes a slow reply, then asks for a notes tool that needs Allow."""
    from scripted_llm import ScriptedLlm, text_reply, tool_reply
    note = ("mcp_note", "create_note", '{"path": "bread.md", "content": "Buy bread"}')
    return ScriptedLlm([text_reply("The sea ", "is ", "salty ", "because ", "rivers ", "carry ", "minerals."),
                        tool_reply(note), text_reply("Saved.")], delay=0.5)


def model_config(tmp_path, llm, vault, extra=""):
    config = tmp_path / "settings.toml"
    config.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{llm.base_url}"\nmodel = "gpt-4o-mini"\n'
                      f'[llm]\nmax_retries = 0\n[user]\ntimezone = "{daytime_zone()}"\n[tools]\nnotes_folder = "{vault}"\n[desktop]\ncharacter = true\n{extra}')
    return config


def listen_think_and_ask(desktop, session, vault, scale):
    """Typing, a reply being written, a tool waiting for Allow: each state, shot."""
    to_character(session)
    watch_moods(session)
    to_main(session)
    session.tap("[data-testid=nav-chat]")
    composer = session.wait_for("[data-testid=composer]", 10)
    session.send_keys(composer, "Why is the sea")
    to_character(session)
    wait_until(lambda: saw(session, "listening"), 30, "not listening while the user types")
    if mood(session) == "listening":
        shot(desktop, f"listening-{scale}")
    to_main(session)
    session.send_keys(session.find("[data-testid=composer]"), " salty?\ue007")
    to_character(session)
    wait_until(lambda: saw(session, "thinking"), 30, "not thinking while the reply is written")
    if mood(session) == "thinking":
        time.sleep(0.5)
        shot(desktop, f"thinking-{scale}")
    wait_until(lambda: mood(session) == "idle", 20, "not back to idle after the reply")

    to_main(session)
    session.send_keys(session.wait_for("[data-testid=composer]", 10), "Note that I must buy bread\ue007")
    session.wait_for("[data-testid=permission-card]", 30)
    to_character(session)
    wait_until(lambda: mood(session) == "asking", 30, "not asking while a tool waits for Allow")
    time.sleep(0.5)
    shot(desktop, f"asking-{scale}")
    to_main(session)
    session.tap("[data-testid=permission-allow_once]")
    to_character(session)
    wait_until(lambda: mood(session) in ("thinking", "idle"), 30, "still asking after the answer")
    wait_until(lambda: (vault / "bread.md").exists(), 20, "the allowed tool did not run")


def test_it_thinks_while_a_reply_is_written_and_asks_while_a_tool_waits(desktop, compositor, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    llm = scripted_model(vault)
    session = desktop.launch(tmp_path / "data", ["--config", str(model_config(tmp_path, llm, vault))])
    try:
        to_character(session)
        listen_think_and_ask(desktop, session, vault, "1x")
    finally:
        desktop.close(session)
        llm.close()


def daytime(tmp_path):
    """A settings file with only the daytime zone (the character is turned on in Settings)."""
    config = tmp_path / "daytime.toml"
    config.write_text(f'[user]\ntimezone = "{daytime_zone()}"\n')
    return config


def character_config(tmp_path, extra=""):
    config = tmp_path / "character.toml"
    config.write_text(f'[user]\ntimezone = "{daytime_zone()}"\n[desktop]\ncharacter = true\n' + extra)
    return config


def test_quiet_makes_it_sleep_and_its_menu_quiets_opens_settings_and_hides_it(desktop, compositor, tmp_path):
    session = desktop.launch(tmp_path / "data", extra_args=["--config", str(character_config(tmp_path))])
    try:
        to_character(session)
        wait_until(lambda: mood(session) == "idle", 30, "not idle")
        to_main(session)
        session.send_keys(session.wait_for("[data-testid=composer]", 10), "/quiet\ue007")
        to_character(session)
        wait_until(lambda: mood(session) == "sleeping", 30, "/quiet did not make it sleep")
        time.sleep(1.6)
        shot(desktop, "sleeping-1x")
        to_main(session)
        session.send_keys(session.wait_for("[data-testid=composer]", 10), "/quiet off\ue007")
        to_character(session)
        wait_until(lambda: mood(session) == "idle", 30, "/quiet off did not wake it")

        # The right-click menu: Quiet for 1 hour.
        session.script("document.querySelector('[data-testid=character-figure]').dispatchEvent(new MouseEvent('contextmenu', {bubbles: true}))")
        session.wait_for("[data-testid=character-menu]", 5)
        time.sleep(0.5)
        shot(desktop, "menu-1x")
        session.click(session.find("[data-testid=character-menu-quiet]"))
        wait_until(lambda: mood(session) == "sleeping", 30, "Quiet for 1 hour did not make it sleep")

        # Settings: the chat window opens on General.
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "chat window not hidden")
        session.script("document.querySelector('[data-testid=character-figure]').dispatchEvent(new MouseEvent('contextmenu', {bubbles: true}))")
        session.click(session.wait_for("[data-testid=character-menu-settings]", 5))
        wait_until(lambda: desktop.visible_windows(), 20, "Settings did not bring the chat window up")
        to_main(session)
        session.wait_for("[data-testid=settings-section-desktop]:not([hidden]) [data-testid=character-setting]", 10)
        to_character(session)

        # Hide the character: its window goes, and Settings shows the switch off.
        session.script("document.querySelector('[data-testid=character-figure]').dispatchEvent(new MouseEvent('contextmenu', {bubbles: true}))")
        session.wait_for("[data-testid=character-menu-hide]", 5)
        # Clicked after the script returns: the window goes with the click.
        session.script("setTimeout(() => document.querySelector('[data-testid=character-menu-hide]').click(), 50)")
        wait_until(lambda: not character_windows(desktop), 30, "the character did not hide")
        to_main(session)
        session.settings("desktop")
        wait_until(lambda: not session.script("return document.querySelector('[data-testid=character-shown]').checked"), 5,
                   "Settings still shows the character on")

        # Its own shortcut brings it back, and hides it again.
        desktop.key("ctrl+shift+period")
        wait_until(lambda: character_windows(desktop), 30, "the shortcut did not show the character")
        wait_until(lambda: session.script("return document.querySelector('[data-testid=character-shown]').checked"), 5,
                   "Settings does not show the character on after its shortcut")
        desktop.key("ctrl+shift+period")
        wait_until(lambda: not character_windows(desktop), 30, "the shortcut did not hide the character")
    finally:
        desktop.close(session)


def drag(start, end, steps=40):
    """A press, small moves (as a hand makes: the pointer never outruns the window) and
    a release."""
    (x0, y0), (x1, y1) = start, end
    subprocess.run(["xdotool", "mousemove", str(x0), str(y0), "mousedown", "1"], check=True)
    for i in range(1, steps + 1):
        subprocess.run(["xdotool", "mousemove", str(x0 + (x1 - x0) * i // steps), str(y0 + (y1 - y0) * i // steps)], check=True)
        time.sleep(0.02)
    time.sleep(0.3)
    subprocess.run(["xdotool", "mouseup", "1"], check=True)


def settled(window, still=1.0, timeout=20):
    """The window's geometry once it has not changed for `still` seconds."""
    deadline = time.time() + timeout
    seen, since = geometry(window), time.time()
    while time.time() < deadline:
        time.sleep(0.1)
        now = geometry(window)
        if now != seen:
            seen, since = now, time.time()
        elif time.time() - since >= still:
            return now
    raise TimeoutError(f"the window did not stand still within {timeout}s (last at {seen})")


def test_a_drag_moves_it_and_a_restart_keeps_the_place(desktop, compositor, tmp_path):
    data = tmp_path / "data"
    config = character_config(tmp_path)
    session = desktop.launch(data, extra_args=["--config", str(config)])
    try:
        window = wait_until(lambda: character_windows(desktop), 15, "no character window")[0]
        to_character(session)
        # Pressed only once the page has its start and the window stands still: a press
        # read from a place the window was about to leave lands beside the character.
        wait_until(lambda: mood(session) == "idle", 30, "not idle")
        x, y, _, _ = settled(window)
        drag((x + 56, y + 60), (400, 300))
        # The window follows the pointer through the shell a moment later: wait for it
        # to reach the drop, not for the first step.
        def near_the_drop():
            at = geometry(character_windows(desktop)[0])[:2]
            return at if abs(at[0] - (400 - 56)) <= 2 and abs(at[1] - (300 - 60)) <= 2 else None
        moved = wait_until(near_the_drop, 30, f"the drag from {(x, y)} did not bring it to the drop")
        wait_until(lambda: sqlite3.connect(data / "sidecar.db").execute("SELECT COUNT(*) FROM character_places").fetchone()[0] == 1, 20, "the place was not kept")
        # A drag is not a click: the chat did not come up on it.
    finally:
        desktop.close(session)
    session = desktop.launch(data, extra_args=["--config", str(config)])
    try:
        window = wait_until(lambda: character_windows(desktop), 15, "no character window after the restart")[0]
        assert abs(geometry(window)[0] - moved[0]) <= 2 and abs(geometry(window)[1] - moved[1]) <= 2, (geometry(window), moved)
    finally:
        desktop.close(session)


def test_without_a_compositor_it_sits_on_a_card_and_settings_says_why(desktop, tmp_path):
    session = desktop.launch(tmp_path / "data", extra_args=["--config", str(character_config(tmp_path))])
    try:
        to_character(session)
        assert see_through(session) == "false", "see-through without a compositor"
        assert session.find_all(".stage.card"), "no card behind the character without a compositor"
        shot(desktop, "card-1x")
        to_main(session)
        session.settings("desktop")
        note = session.wait_for("[data-testid=character-no-compositor]", 10)
        assert "compositor" in session.text(note)
        session.script("document.querySelector('[data-testid=character-setting]').scrollIntoView()")
        time.sleep(0.5)
        desktop.screenshot("character-settings")
    finally:
        desktop.close(session)


def moved_within(session, seconds):
    """Whether the drawing changed (a breath, a blink) within `seconds`."""
    session.script("""
        window.__moved = false;
        new MutationObserver(() => { window.__moved = true; })
            .observe(document.querySelector('[data-testid=character-art]'), {attributes: true, subtree: true, childList: true});
    """)
    time.sleep(seconds)
    return session.script("return window.__moved")


def test_it_stands_still_when_the_system_asks_for_reduced_motion(desktop, tmp_path):
    settings = Path(desktop.env["XDG_CONFIG_HOME"]) / "gtk-3.0" / "settings.ini"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text("[Settings]\ngtk-enable-animations=false\n")
    session = desktop.launch(tmp_path / "data", extra_args=["--config", str(character_config(tmp_path))])
    try:
        to_character(session)
        wait_until(lambda: mood(session) == "idle", 30, "not idle")
        assert session.script("return matchMedia('(prefers-reduced-motion: reduce)').matches"), "WebKit did not hear GTK's setting"
        assert not moved_within(session, 4.5), "it breathed or blinked although the system asks for reduced motion"
    finally:
        desktop.close(session)
        settings.unlink()
    session = desktop.launch(tmp_path / "data2", extra_args=["--config", str(character_config(tmp_path))])
    try:
        to_character(session)
        wait_until(lambda: mood(session) == "idle", 30, "not idle")
        assert moved_within(session, 4.5), "it did not breathe"
    finally:
        desktop.close(session)


def test_at_2x_scale_in_the_dark_theme(desktop, compositor, tmp_path):
    """A second WebDriver whose app runs at GDK_SCALE=2 and, as users run it, with WebKit's
    compositing mode available (the other tests turn it off): the window doubles, the
    drawing stays sharp (SVG), the dark variant shows, and the chat window keeps working
    beside it (one web process for both)."""
    port = free_port()
    env = dict(desktop.env, GDK_SCALE="2")
    env.pop("WEBKIT_DISABLE_COMPOSITING_MODE", None)
    driver = desktop.start("webdriver-2x", ["WebKitWebDriver", f"--port={port}"], env=env)
    wait_until(lambda: port_open(port), 30, "second WebKitWebDriver not listening")
    data = tmp_path / "data"
    data.mkdir()
    (data / "welcome.done").touch()
    vault = tmp_path / "vault"
    vault.mkdir()
    llm = scripted_model(vault)
    config = model_config(tmp_path, llm, vault, 'theme = "dark"\n')
    session = Session(f"http://127.0.0.1:{port}", desktop.binary, ["--data-dir", str(data), "--config", str(config)])
    try:
        window = wait_until(lambda: character_windows(desktop), 30, "no character window at 2x")[0]
        _, _, w, h = geometry(window)
        assert (w, h) == (2 * REST, 2 * REST), (w, h)
        to_character(session)
        wait_until(lambda: session.script("return document.documentElement.dataset.theme") == "dark", 30, "not dark")
        web = len(pids_on_display(["WebKitWebProces"]))
        assert web == 1, f"{web} web processes: the character shares the chat's"
        time.sleep(0.5)
        shot(desktop, "idle-2x-dark")
        listen_think_and_ask(desktop, session, vault, "2x-dark")
        to_main(session)
        add_reminder_on_page(session, "Stretch your back", 5)
        to_character(session)
        session.wait_for("[data-testid=character-bubble]", 30)
        wait_until(lambda: geometry(window)[2] == 2 * 280, 20, "the window did not grow for the bubble at 2x")
        time.sleep(0.5)
        shot(desktop, "speaking-2x-dark")
        session.click(session.find("[data-testid=character-bubble]"))
        to_main(session)
        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]", 30), "/quiet\ue007")
        to_character(session)
        wait_until(lambda: mood(session) == "sleeping", 30, "not asleep")
        time.sleep(1.6)
        shot(desktop, "sleeping-2x-dark")
    finally:
        session.quit()
        llm.close()
        driver.terminate()
        for pid in desktop.app_pids():
            os.kill(pid, 15)
        wait_until(lambda: not desktop.app_pids(), 30, "app still running")
