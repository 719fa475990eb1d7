"""Settings → Calendar in the real app against a real CalDAV server (Radicale, from the
test venv, on loopback): a wrong password is refused with what to do, the right one
finds the calendars, one is chosen for Sidecar to write, the chat's list_events reads
the phone's event in local time, a reminder set in the chat lands on the calendar as a
to-do once the mirror is on, and a calendar published at an address (.ics, served by
Python's web server) is subscribed to and listed read-only."""
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


FEED = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//club//EN\r\nX-WR-CALNAME:Book club\r\nBEGIN:VEVENT\r\nUID:club-1\r\n"
        "DTSTAMP:20261101T000000Z\r\nDTSTART:20261203T180000Z\r\nDTEND:20261203T190000Z\r\nSUMMARY:Book club\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n")


def collection(url):
    request = urllib.request.Request(url, method="GET")
    request.add_header("Authorization", "Basic " + base64.b64encode(b"ana:secret").decode())
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


COFFEE = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VEVENT\r\nUID:coffee\r\nDTSTAMP:20261101T000000Z\r\n"
          "DTSTART:{day}T100000Z\r\nDTEND:{day}T104500Z\r\nSUMMARY:Coffee with Ana\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


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
    llm = ScriptedLlm([tool_reply(("l1", "list_events", json.dumps({"day": "today"}))), text_reply("Today: the dentist."),
                       text_reply("Done."), text_reply("Done.")])
    site = tmp_path / "site"
    site.mkdir()
    (site / "club.ics").write_text(FEED)
    web_port = free_port()
    web = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(web_port), "--directory", str(site)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    config = tmp_path / "config" / "settings.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{llm.base_url}"\nmodel = "gpt-4o-mini"\n'
                      '[llm]\nmax_retries = 0\n[user]\ntimezone = "UTC"\n')
    session = None
    try:
        wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 20, "Radicale did not start")
        dav(url + "ana/work/", "MKCALENDAR")
        dav(url + "ana/work/dentist.ics", "PUT", EVENT.format(day=time.strftime("%Y%m%d", time.gmtime())))
        dav(url + "ana/work/coffee.ics", "PUT", COFFEE.format(day=time.strftime("%Y%m%d", time.gmtime(time.time() + 86400))))
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
        wait_until(lambda: session.script("return !document.querySelector('[data-testid=caldav-mirror]').disabled"), 10, "mirror not offered")
        session.tap("[data-testid=caldav-mirror]")
        wait_until(lambda: " written, " in " ".join(session.texts("[data-testid=caldav-note]")), 30, "the mirror did not report")

        # A calendar published at an address, subscribed to.
        wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", web_port)) == 0, 20, "the web server did not start")
        session.send_keys(session.find("[data-testid=caldav-feed-url]"), "ftp://nowhere")
        session.tap("[data-testid=caldav-subscribe]")
        error = session.wait_for("[data-testid=caldav-feed-error]", 30)
        assert "starts with webcal://" in session.text(error), session.text(error)
        session.cmd("POST", f"/element/{session.find('[data-testid=caldav-feed-url]')}/clear", {})
        session.send_keys(session.find("[data-testid=caldav-feed-url]"), f"http://127.0.0.1:{web_port}/club.ics")
        session.tap("[data-testid=caldav-subscribe]")
        feed = session.wait_for("[data-testid=caldav-feed]", 30)
        wait_until(lambda: "Book club" in session.text(feed) and "Synced" in session.text(feed), 30, "the feed is not listed")
        assert not session.find_all("[data-testid=caldav-feed] input[type=radio]"), "a feed is read only"
        desktop.screenshot("calendar-settings")

        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]"), "What do I have today?\ue007")
        wait_until(lambda: len(llm.requests) == 2, 30, "the tool's result did not go back")
        result = next(m for m in llm.requests[1]["messages"] if m.get("tool_call_id") == "l1")["content"]
        assert "(all day) Dentist week" in result, result

        # A reminder set in the chat lands on the calendar as a to-do with an alarm.
        session.send_keys(session.find("[data-testid=composer]"), "Remind me to call mum tomorrow at 9\ue007")
        wait_until(lambda: "SUMMARY:call mum" in collection(url + "ana/work/"), 30, "the reminder's to-do is not on the calendar")
        held = collection(url + "ana/work/")
        assert "BEGIN:VTODO" in held and "BEGIN:VALARM" in held, held

        # A reminder whose time is an event's, read as it is typed on the Reminders page.
        session.tap("[data-testid=nav-reminders]")
        # … in the one-sentence box too (the first hour's M3).
        session.send_keys(session.wait_for("[data-testid=quick-add]"), "Bring the slides 15 minutes before my 10:00 with Ana")
        quick = lambda: session.text(session.find("[data-testid=quick-preview]"))
        try:
            wait_until(lambda: "09:45" in quick() and "Coffee with Ana" in quick(), 20, "the sentence box did not find the event")
        except TimeoutError:
            raise AssertionError(quick())
        assert session.text(session.find("[data-testid=split-what]")).strip().endswith("Bring the slides"), quick()
        desktop.screenshot("reminder-before-event-sentence")
        session.tap("[data-testid=quick-add-button]")
        wait_until(lambda: "Bring the slides" in " ".join(session.texts("[data-testid=group-upcoming]")), 20, "not listed")
        session.tap("[data-testid=toggle-form]")
        session.send_keys(session.wait_for("[data-testid=reminder-what]"), "Bring the book")
        session.send_keys(session.find("[data-testid=reminder-when]"), "15 minutes before my 10:00 with Ana")
        preview = lambda: session.text(session.find("[data-testid=when-preview]"))
        try:
            wait_until(lambda: "09:45" in preview(), 20, "the preview did not find the event")
        except TimeoutError:
            raise AssertionError(preview())
        assert "Coffee with Ana" in session.text(session.find("[data-testid=when-preview]"))
        desktop.screenshot("reminder-before-event")
        session.tap("[data-testid=add-reminder]")
        wait_until(lambda: "Bring the book" in " ".join(session.texts("[data-testid=group-upcoming]")), 20, "not listed")

        # Disconnecting asks in the window first, then takes Sidecar's to-dos off the
        # server, so the phone stops ringing for them (the first hour's M4).
        session.settings("calendar")
        session.tap("[data-testid=caldav-disconnect]")
        question = session.wait_for("[data-testid=caldav-disconnect-confirm]", 10)
        assert "takes its reminders' to-dos off the calendar first" in session.text(question), session.text(question)
        desktop.screenshot("calendar-disconnect-asks")
        assert "SUMMARY:call mum" in collection(url + "ana/work/"), "nothing is done before the answer"
        session.tap("[data-testid=caldav-disconnect-yes]")
        session.wait_for("[data-testid=caldav-none]", 30)
        held = collection(url + "ana/work/")
        assert "BEGIN:VTODO" not in held and "BEGIN:VEVENT" in held, held
    finally:
        if session:
            desktop.close(session)
        llm.close()
        server.kill()
        web.kill()
