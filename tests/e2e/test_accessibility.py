"""A window anyone can use, in the real app's WebKit: axe-core (the npm package the UI's
tests use) checks every screen and every Settings section, in light and in dark, against
WCAG 2.1 A and AA, colour contrast included; and the main flows are walked with the
keyboard alone: the skip link to the message box, a message sent, the Reminders page
reached and a reminder set, Settings reached and a section opened."""
import json
import time
from pathlib import Path

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings

AXE = Path(__file__).resolve().parents[2] / "ui/node_modules/axe-core/axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(session):
    """What axe finds in the page as it is now, one line per element."""
    if not session.script("return Boolean(window.axe)"):
        session.script(AXE.read_text() + "\nreturn true;")
    session.script(
        "window.__axe = null;"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
        ".then((r) => { window.__axe = r.violations.flatMap((v) => v.nodes.map((n) =>"
        "  v.id + ': ' + n.target.join(' ') + ' (' + (n.any.concat(n.all)[0] || {message: ''}).message + ')')); })"
        ".catch((e) => { window.__axe = ['axe failed: ' + e]; });",
        RULES)
    wait_until(lambda: session.script("return window.__axe") is not None, 60, "axe did not finish")
    return session.script("return window.__axe")


def settled(session):
    """Lets a screen's answers from the core land before it is judged."""
    wait_until(lambda: not session.find_all(".page-loading"), 10, "still loading")
    time.sleep(0.4)


def every_screen(session):
    """Each screen's violations, by name: the chat, the pages, each Settings section."""
    found = {}
    session.tap("[data-testid=nav-chat]")
    session.wait_for("[data-testid=message-assistant]", 10)
    settled(session)
    found["chat"] = violations(session)
    for page in ["reminders", "memory", "usage"]:
        session.tap(f"[data-testid=nav-{page}]")
        session.wait_for(f"[data-testid={page}-view]", 15)
        settled(session)
        found[page] = violations(session)
    session.tap("[data-testid=nav-settings]")
    sections = session.script(
        "return [...document.querySelectorAll('[data-testid^=settings-nav-]')].map((b) => b.dataset.testid.slice(13))")
    for section in sections:
        session.settings(section)
        settled(session)
        found[f"settings {section}"] = violations(session)
    return {where: lines for where, lines in found.items() if lines}


def key(session, *names, text=""):
    """Presses keys (WebDriver's key codes) and then types `text`, with the keyboard alone."""
    strokes = []
    for k in list(names) + list(text):
        strokes += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
    session.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": strokes}]})
    session.cmd("DELETE", "/actions")


TAB, ENTER = "\ue004", "\ue007"


def focused(session):
    return session.script("const e = document.activeElement; return e ? (e.dataset.testid || e.id || e.tagName) : null")


def tab_to(session, testid, most=80):
    """Tabs forward until the element `testid` has the focus."""
    for _ in range(most):
        if focused(session) == testid:
            return
        key(session, TAB)
    raise AssertionError(f"{testid} never took the focus; last: {focused(session)}")


def test_every_screen_passes_axe_in_light_and_dark_and_the_main_flows_take_keys_alone(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Hello! ", "How can I help?"), text_reply("Noted.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        # Keys alone: from the top of the window, the skip link, then the message box.
        session.wait_for("[data-testid=composer]", 20)
        session.script("document.activeElement && document.activeElement.blur()")
        key(session, TAB)
        assert focused(session) == "skip-to-composer", focused(session)
        key(session, ENTER)
        assert focused(session) == "composer", focused(session)
        key(session, text="Hello there")
        key(session, ENTER)
        wait_until(lambda: "How can I help?" in " ".join(session.texts("[data-testid=message-assistant]")), 30, "no reply")

        # The Reminders page by Tab and Enter, and a reminder set in its sentence box.
        session.script("document.activeElement && document.activeElement.blur()")
        tab_to(session, "nav-reminders")
        key(session, ENTER)
        session.wait_for("[data-testid=reminders-view]", 15)
        tab_to(session, "quick-add")
        key(session, text="Call mum tomorrow at 9")
        wait_until(lambda: session.find_all("[data-testid=split-when]"), 30, "no reading shown")
        key(session, ENTER)
        wait_until(lambda: session.find_all("[data-testid=reminder-upcoming]"), 30, "the reminder was not set by Enter")
        assert "Call mum" in session.text(session.find("[data-testid=reminder-upcoming]"))

        # Settings, and a section in its list, by keys.
        session.script("document.activeElement && document.activeElement.blur()")
        tab_to(session, "nav-settings")
        key(session, ENTER)
        session.wait_for("[data-testid=settings-view]", 15)
        tab_to(session, "settings-nav-calendar")
        key(session, ENTER)
        session.wait_for("[data-testid=settings-section-calendar]:not([hidden])", 10)

        # A fact, so the memory page has a row to judge.
        session.tap("[data-testid=nav-memory]")
        session.send_keys(session.wait_for("[data-testid=fact-text]", 15), "Allergic to peanuts\ue007")
        wait_until(lambda: session.find_all("[data-testid=fact]"), 15, "no fact listed")

        light = every_screen(session)
        desktop.screenshot("a11y-light")
        session.settings("desktop")
        session.tap("[data-testid=theme-dark]")
        wait_until(lambda: session.script("return document.documentElement.dataset.theme") == "dark", 10, "not dark")
        dark = every_screen(session)
        session.tap("[data-testid=nav-chat]")
        time.sleep(0.4)
        desktop.screenshot("a11y-dark")
        assert (light, dark) == ({}, {}), json.dumps({"light": light, "dark": dark}, indent=1, ensure_ascii=False)
    finally:
        desktop.close(session)
        llm.close()
