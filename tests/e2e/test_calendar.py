"""Settings → Calendar in the real app against a real CalDAV server (Radicale, from the
test venv, on loopback): a wrong password is refused with what to do, the right one
finds the calendars, one is chosen for Sidecar to write, and the chat's list_events
reads the phone's event in local time."""
import base64
import json
import socket
import subprocess
import sys
import time
import urllib.request

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dav(url, method, body=None):
    request = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    request.add_header("Authorization", "Basic " + base64.b64encode(b"ana:secret").decode())
    request.add_header("Content-Type", "text/calendar")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


EVENT = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VEVENT\r\nUID:dentist\r\nDTSTAMP:20261101T000000Z\r\n"
         "DTSTART;VALUE=DATE:{day}\r\nSUMMARY:Dentist week\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def test_a_calendar_is_connected_in_settings_and_read_by_the_chat(desktop, tmp_path):
    port = free_port()
    (tmp_path / "users").write_text("ana:secret\n")
    server = subprocess.Popen([sys.executable, "-m", "radicale", "--server-hosts", f"127.0.0.1:{port}",
                               "--storage-filesystem-folder", str(tmp_path / "collections"), "--auth-type", "htpasswd",
                               "--auth-htpasswd-encryption", "plain", "--auth-htpasswd-filename", str(tmp_path / "users"),
                               "--logging-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    llm = ScriptedLlm([tool_reply(("l1", "list_events", json.dumps({"day": "today"}))), text_reply("Today: the dentist.")])
    config = tmp_path / "config" / "settings.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{llm.base_url}"\nmodel = "gpt-4o-mini"\n'
                      '[llm]\nmax_retries = 0\n[user]\ntimezone = "UTC"\n')
    session = None
    try:
        wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 20, "Radicale did not start")
        dav(url + "ana/work/", "MKCALENDAR")
        dav(url + "ana/work/dentist.ics", "PUT", EVENT.format(day=time.strftime("%Y%m%d", time.gmtime())))
        session = desktop.launch(tmp_path / "data", ["--config", str(config)])
        session.settings("calendar")
        session.wait_for("[data-testid=caldav-none]")
        session.send_keys(session.find("[data-testid=caldav-url]"), url)
        session.send_keys(session.find("[data-testid=caldav-user]"), "ana")
        session.send_keys(session.find("[data-testid=caldav-password]"), "wrong")
        session.tap("[data-testid=caldav-connect]")
        error = session.wait_for("[data-testid=caldav-error]", 30)
        assert "refused the user name or password" in session.text(error)
        # The refused password was cleared: the right one is typed afresh.
        wait_until(lambda: session.script("return document.querySelector('[data-testid=caldav-password]').value") == "", 10, "not cleared")
        session.send_keys(session.find("[data-testid=caldav-password]"), "secret")
        session.tap("[data-testid=caldav-connect]")
        session.wait_for("[data-testid=caldav-account]", 30)
        wait_until(lambda: any(t.startswith("Synced") for t in session.texts("[data-testid=caldav-status]")), 30, "not synced")
        session.tap("[data-testid^=caldav-write-]:not([data-testid=caldav-write-none])")
        desktop.screenshot("calendar-settings")

        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]"), "What do I have today?\ue007")
        wait_until(lambda: len(llm.requests) == 2, 30, "the tool's result did not go back")
        result = next(m for m in llm.requests[1]["messages"] if m.get("tool_call_id") == "l1")["content"]
        assert "(all day) Dentist week" in result, result
    finally:
        if session:
            desktop.close(session)
        llm.close()
        server.kill()
