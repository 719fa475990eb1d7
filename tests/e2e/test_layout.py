"""Every page at 420, 800 and 1280 px wide, in English and Spanish, in the real app:
nothing wider than the window (no sideways scroll) and every control within it, with
Edit/Delete reachable. Screenshots of each page at each width land in
.e2e/layout-PAGE-WIDTH[-es].png."""
import subprocess
import time
from pathlib import Path

import pytest
from conftest import ARTIFACTS, HEADER_ROWS, ROOT, one_header_row, wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings
from test_chats import ask

# A reply with what stretches a narrow window: a long code line and a table.
WIDE_REPLY = ("Here:\n\n```python\nprint('a long line of code that does not wrap, " + "x" * 80 + "')\n```\n\n"
              "| Day | Medicine | Dose | Notes |\n|---|---|---|---|\n| Monday | Antihistamine | 10 mg | with breakfast, never on an empty stomach |\n")

PAGES = ["chat", "reminders", "memory", "usage", "settings"]
# 1040: the default window, whose header must keep one row (the first hour's m15).
WIDTHS = [420, 800, 1040, 1280]
CLI = Path(__import__("os").environ.get("SIDECAR_CLI", ROOT / "target/debug/sidecar"))

# What each page's controls are; any of them past the window's edge is cut off.
OVERFLOW = """
const width = document.documentElement.clientWidth;
const cut = [...document.querySelectorAll('button, input, select, textarea, a, kbd, table, [data-testid=fact], [data-testid=cancel-reminder]')]
  .filter(e => e.getClientRects().length > 0)
  .filter(e => { const r = e.getBoundingClientRect(); return r.right > width + 1 || r.left < -1; })
  .map(e => (e.dataset.testid || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().left) + '..' + Math.round(e.getBoundingClientRect().right));
return {scroll: document.documentElement.scrollWidth, width, cut: cut.slice(0, 8)};
"""


def seed(data, env):
    """Facts, reminders (one recurring) and a conversation, as a user would have them."""
    run = lambda *args: subprocess.run([str(CLI), "--data-dir", str(data), *args], check=True, env=env, capture_output=True)
    run("remember", "Health", "Allergic to peanuts and to the pollen of olive trees, since childhood")
    run("remember", "Work", "Works as a nurse at the Hospital Clínico on night shifts three times a week")
    run("remind", "in 2 hours", "call the pharmacy about the prescription refill")
    run("remind", "every day at 8:00", "take the allergy pill with breakfast")


def show(session, page):
    session.script(f"document.querySelector('[data-testid=nav-{page}]').click()")
    session.wait_for("[data-testid=message-list]" if page == "chat" else f"[data-testid={page}-view]", 10)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_the_window(desktop, tmp_path, width, lang):
    data = tmp_path / "data"
    seed(data, desktop.env)
    llm = ScriptedLlm([text_reply(WIDE_REPLY)])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    if lang == "es":
        config.write_text(config.read_text() + '[desktop]\nlanguage = "es"\n')
    session = desktop.launch(data, ["--config", str(config)])
    try:
        session.cmd("POST", "/window/rect", {"width": width, "height": 760, "x": 0, "y": 0})
        wait_until(lambda: abs(session.script("return window.innerWidth") - width) <= 24, 30, "window not resized")
        ask(session, "Show me a long line of code, please, with a table")
        problems = {}
        for page in PAGES:
            show(session, page)
            if page == "memory":
                session.wait_for("[data-testid=fact]", 10)
            if page == "reminders":
                session.wait_for("[data-testid=cancel-reminder]", 10)
            found = session.script(OVERFLOW)
            time.sleep(0.4)  # the X server's copy of the window catches up with the page
            desktop.screenshot(f"layout-{page}-{width}" + ("" if lang == "en" else f"-{lang}"))
            if found["scroll"] > found["width"] + 1 or found["cut"]:
                problems[page] = found
            if width >= 1040 and not one_header_row(rows := session.script(HEADER_ROWS)):
                problems[f"{page} header"] = rows
        assert not problems, problems
    finally:
        desktop.close(session)
        llm.close()
