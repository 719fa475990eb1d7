"""Desktop integration of the real app: global hotkey, tray menu, OS notifications,
close-to-tray, single instance, remembered window geometry."""
import subprocess
import time

import pytest
from conftest import add_reminder_on_page, daytime_zone, wait_until
from scripted_llm import ScriptedLlm, text_reply
from sni_watcher import click_tray_menu, tray_icon_bytes, tray_menu_disabled, tray_menu_labels


@pytest.fixture
def app(desktop, tmp_path):
    session = desktop.launch(tmp_path / "data")
    wait_until(lambda: desktop.visible_windows(), 30, "no visible Sidecar window")
    yield session
    desktop.close(session)


def focused_testid(session):
    return session.script("return document.activeElement && document.activeElement.dataset.testid")


def test_the_hotkey_hides_and_shows_the_window_and_focuses_the_composer(desktop, app):
    app.script("document.activeElement && document.activeElement.blur()")
    assert focused_testid(app) != "composer"
    desktop.key("ctrl+shift+space")
    wait_until(lambda: not desktop.visible_windows(), 20, "the hotkey did not hide the window")
    desktop.key("ctrl+shift+space")
    wait_until(lambda: desktop.visible_windows(), 20, "the hotkey did not bring the window back")
    wait_until(lambda: focused_testid(app) == "composer", 20, "the composer is not focused")


def test_the_tray_menu_sends_a_test_notification_over_dbus(desktop, app):
    labels = wait_until(tray_menu_labels, 30, "no tray item registered")
    assert labels == ["Open Sidecar", "Dismiss the new message", "Quiet for 1 hour", "Send test notification", "Quit"]
    assert tray_menu_disabled() == {"Dismiss the new message"}, "nothing to dismiss yet"
    before = desktop.notifications().count('member=Notify')
    click_tray_menu("Send test notification")
    wait_until(lambda: desktop.notifications().count('member=Notify') > before, 30, "no Notify call")
    log = desktop.notifications()
    call = log[log.rfind('member=Notify'):]
    assert 'string "Sidecar"' in call
    assert "Notifications work" in call


def test_closing_the_window_keeps_sidecar_in_the_tray(desktop, app):
    # The close button asks the app to close; the app hides instead of quitting.
    app.script("window.__TAURI__.window.getCurrentWindow().close()")
    wait_until(lambda: not desktop.visible_windows(), 20, "closing did not hide the window")
    assert desktop.app_pids(), "the app quit instead of hiding to the tray"
    click_tray_menu("Open Sidecar")
    wait_until(lambda: desktop.visible_windows(), 20, "Open Sidecar did not show the window")


def test_a_second_launch_shows_the_first_window(desktop, app, tmp_path):
    desktop.key("ctrl+shift+space")
    wait_until(lambda: not desktop.visible_windows(), 20, "window not hidden")
    pids = desktop.app_pids()
    second = subprocess.run([desktop.binary, "--data-dir", str(tmp_path / "data")],
                            env=desktop.env, timeout=30, capture_output=True)
    assert second.returncode == 0
    wait_until(lambda: desktop.visible_windows(), 20, "the first window was not shown")
    assert desktop.app_pids() == pids, "a second instance kept running"


def test_quit_from_the_tray_and_the_window_geometry_is_remembered(desktop, tmp_path):
    data = tmp_path / "data"
    session = desktop.launch(data)
    try:
        session.cmd("POST", "/window/rect", {"x": 140, "y": 90, "width": 700, "height": 560})
        wait_until(lambda: session.cmd("GET", "/window/rect")["width"] == 700, 20, "resize did not apply")
        click_tray_menu("Quit")
        wait_until(lambda: not desktop.app_pids(), 30, "Quit did not end the app")
    finally:
        session.quit()
    session = desktop.launch(data)
    try:
        rect = session.cmd("GET", "/window/rect")
        assert (rect["width"], rect["height"]) == (700, 560), rect
        assert (rect["x"], rect["y"]) == (140, 90), rect
    finally:
        desktop.close(session)


def test_clicking_a_notification_opens_the_window(desktop, app):
    desktop.key("ctrl+shift+space")
    wait_until(lambda: not desktop.visible_windows(), 20, "window not hidden")
    before = desktop.notifications().count('member=Notify')
    click_tray_menu("Send test notification")
    wait_until(lambda: desktop.notifications().count('member=Notify') > before, 30, "no Notify call")
    # dunst performs the default action of the notification on screen, as a click does.
    wait_until(lambda: subprocess.run(["dunstctl", "count", "displayed"], capture_output=True,
                                      text=True).stdout.strip() not in ("", "0"), 5, "not displayed")
    subprocess.run(["dunstctl", "action", "0"], check=True)
    wait_until(lambda: desktop.visible_windows(), 20, "the notification click did not open Sidecar")
    assert 'member=ActionInvoked' in desktop.notifications()


def test_quiet_for_an_hour_from_the_tray(desktop, tmp_path):
    import datetime
    import json
    import sqlite3
    data = tmp_path / "data"
    session = desktop.launch(data)
    try:
        wait_until(lambda: "Quiet for 1 hour" in tray_menu_labels(), 30, "no tray item registered")
        click_tray_menu("Quiet for 1 hour")

        def quiet_until():
            state = json.loads(sqlite3.connect(data / "sidecar.db").execute("SELECT state FROM proactive").fetchone()[0])
            return state.get("quiet_until")

        until = wait_until(quiet_until, 30, "the tray did not set quiet")
        left = datetime.datetime.fromisoformat(until.replace("Z", "+00:00")) - datetime.datetime.now(datetime.timezone.utc)
        assert 3500 < left.total_seconds() <= 3600, left
        # The settings say so.
        session.settings("proactivity")
        wait_until(lambda: "Quiet until" in session.text(session.wait_for("[data-testid=quiet-line]", 10)), 30, "not shown as quiet")
    finally:
        desktop.close(session)


def test_clicking_a_reminder_notification_opens_the_chat_on_it(desktop, tmp_path):
    data = tmp_path / "data"
    session = desktop.launch(data)
    try:
        # A notification an earlier test left on screen would be the one "action 0" clicks
        # (its app is gone, so nothing would open).
        subprocess.run(["dunstctl", "close-all"], check=False)
        before = desktop.notifications().count('member=Notify')
        add_reminder_on_page(session, "Call the plumber", 8)
        wait_until(lambda: session.find_all("[data-testid=reminder-upcoming]"), 30, "not listed")
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "window not hidden")
        wait_until(lambda: desktop.notifications().count('member=Notify') > before, 20, "no Notify call")
        wait_until(lambda: subprocess.run(["dunstctl", "count", "displayed"], capture_output=True,
                                          text=True).stdout.strip() not in ("", "0"), 5, "not displayed")
        subprocess.run(["dunstctl", "action", "0"], check=True)
        wait_until(lambda: desktop.visible_windows(), 20, "the click did not open Sidecar")
        wait_until(lambda: session.find_all("[data-testid=message-assistant].highlighted"), 30, "the reminder is not highlighted")
        assert "Reminder: Call the plumber" in session.text(session.find("[data-testid=message-assistant].highlighted"))
        desktop.screenshot("reminder-opened-from-notification")
    finally:
        desktop.close(session)


def test_the_tray_shows_an_alert_while_a_reminder_is_unread(desktop, tmp_path):
    session = desktop.launch(tmp_path / "data")
    try:
        normal_bytes = wait_until(tray_icon_bytes, 30, "no tray item registered")
        add_reminder_on_page(session, "Feed the cat", 8)
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "window not hidden")
        wait_until(lambda: tray_icon_bytes() not in (None, normal_bytes), 25, "the tray icon did not switch to its alert")
        # Looking at the window clears it.
        desktop.key("ctrl+shift+space")
        wait_until(lambda: desktop.visible_windows(), 20, "window not shown")
        wait_until(lambda: tray_icon_bytes() == normal_bytes, 30, "the alert stayed after the window was shown")
    finally:
        desktop.close(session)


def test_dismissing_the_trays_alert_for_a_spontaneous_message_teaches_that_it_was_unwelcome(desktop, tmp_path):
    import json
    import sqlite3
    decision = json.dumps({"shouldSpeak": True, "reason": "scripted", "messageType": "checkin",
                           "suggestedMessage": "¿Qué tal va el día?"})
    # The decision streams slowly, so the window is hidden by the time Sidecar speaks.
    llm = ScriptedLlm([text_reply(*[decision[i:i + 12] for i in range(0, len(decision), 12)])], delay=0.25)
    config = tmp_path / "settings.toml"
    config.write_text(f'[[providers]]\nid = "p"\nbase_url = "{llm.base_url}"\nmodel = "m"\n'
                      f'[user]\ntimezone = "{daytime_zone()}"\n')
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        normal = wait_until(tray_icon_bytes, 30, "no tray item registered")
        composer = session.wait_for("[data-testid=composer]")
        session.send_keys(composer, "/proactive tick\ue007")
        wait_until(lambda: llm.requests, 30, "the model was not asked")
        desktop.key("ctrl+shift+space")
        wait_until(lambda: not desktop.visible_windows(), 20, "window not hidden")
        wait_until(lambda: tray_icon_bytes() not in (None, normal), 20, "no alert for the message")
        assert "Dismiss the new message" not in tray_menu_disabled()

        click_tray_menu("Dismiss the new message")
        wait_until(lambda: tray_icon_bytes() == normal, 30, "the alert stayed")
        assert not desktop.visible_windows(), "dismissing does not open the window"
        assert tray_menu_disabled() == {"Dismiss the new message"}

        def checkin():
            state = json.loads(sqlite3.connect(data / "sidecar.db").execute("SELECT state FROM proactive").fetchone()[0])
            return next((k for k in state.get("learned", {}).get("kinds", []) if k["kind"] == "checkin"), None)

        wait_until(lambda: (checkin() or {}).get("unwelcome") == 1, 10, f"not learned: {checkin()}")
        assert checkin()["allowance"] == 0.5 and checkin()["channel"] == "desktop", checkin()
    finally:
        desktop.close(session)
        llm.close()


def test_while_the_desktop_is_set_to_do_not_disturb_sidecar_does_not_speak_first(desktop, tmp_path):
    """DT-7: dunst paused (its Do Not Disturb, read on the real session bus) skips the
    spontaneous tick without asking the model; resumed, the next tick asks it."""
    import json
    decision = json.dumps({"shouldSpeak": False, "reason": "scripted", "messageType": "checkin", "suggestedMessage": ""})
    llm = ScriptedLlm([text_reply(decision)])
    config = tmp_path / "settings.toml"
    config.write_text(f'[[providers]]\nid = "p"\nbase_url = "{llm.base_url}"\nmodel = "m"\n'
                      f'[user]\ntimezone = "{daytime_zone()}"\n')
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])

    def answers():
        return session.texts("[data-testid=message-assistant]")

    try:
        subprocess.run(["dunstctl", "set-paused", "true"], check=True)
        composer = session.wait_for("[data-testid=composer]")
        session.send_keys(composer, "/proactive tick\ue007")
        wait_until(lambda: any("Do Not Disturb" in a for a in answers()), 30, f"no skip for Do Not Disturb: {answers()}")
        assert "Tick skipped: your desktop is set to Do Not Disturb." in answers()[-1], answers()
        assert not llm.requests, "the model was not asked"
        desktop.screenshot("do-not-disturb")

        subprocess.run(["dunstctl", "set-paused", "false"], check=True)
        session.send_keys(composer, "/proactive tick\ue007")
        wait_until(lambda: llm.requests, 30, "the model was not asked once Do Not Disturb was off")
    finally:
        subprocess.run(["dunstctl", "set-paused", "false"], check=False)
        desktop.close(session)
        llm.close()
