"""Settings → Mail in the real app against a real IMAP server (Dovecot, Debian's
dovecot-imapd, started by the test on loopback with a mailbox of its own): a wrong
password is refused with what to do, the right one lists the folders and reads the
Inbox, who matters is kept, the chat's search_mail finds Ana's mail, quoted to the
model as data, and the morning brief names it with what it asks, counting the rest."""
import email.utils
import imaplib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply

USER, PASSWORD = "ana@example.org", "secret"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_dovecot(folder, port):
    """Dovecot in the foreground with this test's configuration; its mail processes run
    as Debian's dovecot user when the test is root (they may not run as root)."""
    root = os.geteuid() == 0
    me = "dovecot" if root else subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    login = "dovenull" if root else me
    for sub in ("run", "state", "home"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    if root:
        shutil.chown(folder / "home", user=me, group=me)
        folder.chmod(0o755)
    (folder / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    config = folder / "dovecot.conf"
    config.write_text(
        f"base_dir = {folder}/run\nstate_dir = {folder}/state\nlog_path = {folder}/log\nprotocols = imap\nlisten = 127.0.0.1\n"
        f"ssl = no\ndisable_plaintext_auth = no\nauth_mechanisms = plain login\nfirst_valid_uid = 0\n"
        f"default_login_user = {login}\ndefault_internal_user = {me}\n"
        f"passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {folder}/passwd\n}}\n"
        f"userdb {{\n  driver = static\n  args = uid={me} gid={me} home={folder}/home/%u\n}}\n"
        "mail_location = maildir:~/Maildir\n"
        f"service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n"
        "  inet_listener imaps {\n    port = 0\n  }\n  chroot =\n}\nservice anvil {\n  chroot =\n}\n")
    server = subprocess.Popen(["dovecot", "-F", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 20, "Dovecot did not start")
    return server


def deliver(port, sender, subject, body):
    imap = imaplib.IMAP4("127.0.0.1", port)
    imap.login(USER, PASSWORD)
    message = (f"From: {sender}\r\nTo: {USER}\r\nSubject: {subject}\r\nDate: {email.utils.formatdate()}\r\n"
               f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()
    imap.append("INBOX", None, imaplib.Time2Internaldate(time.time()), message)
    imap.logout()


def set_select(session, css, value):
    session.script("const s = document.querySelector(arguments[0]);"
                   "Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, arguments[1]);"
                   "s.dispatchEvent(new Event('change', { bubbles: true }));", css, value)


def test_a_mailbox_is_connected_in_settings_and_searched_by_the_chat(desktop, tmp_path):
    port = free_port()
    # Outside pytest's folders (0700, root's): Dovecot's own users must reach it.
    imap_folder = Path(tempfile.mkdtemp(prefix="sidecar-dovecot-"))
    server = start_dovecot(imap_folder, port)
    llm = ScriptedLlm([tool_reply(("m1", "search_mail", json.dumps({"query": "piso"}))), text_reply("Ana pregunta si el jueves a las 6 te va bien."),
                       text_reply("Que tengas un buen día.")])
    config = tmp_path / "config" / "settings.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{llm.base_url}"\nmodel = "gpt-4o-mini"\n'
                      '[llm]\nmax_retries = 0\n[user]\ntimezone = "Europe/Madrid"\n')
    session = None
    try:
        deliver(port, "Ana Ruiz <ana@example.org>", "El piso", "¿Te va bien el jueves a las 6 para ver el piso?")
        deliver(port, "Tienda <news@shop.example>", "Ofertas", "Compra ya.")
        session = desktop.launch(tmp_path / "data", ["--config", str(config)])
        session.settings("mail")
        session.wait_for("[data-testid=mail-none]")
        session.send_keys(session.find("[data-testid=mail-address]"), USER)
        session.send_keys(session.find("[data-testid=mail-host]"), "127.0.0.1")
        set_select(session, "[data-testid=mail-security]", "plain")
        port_field = session.find("[data-testid=mail-port]")
        session.cmd("POST", f"/element/{port_field}/clear", {})
        session.send_keys(port_field, str(port))
        wait_until(lambda: session.script("return document.querySelector('[data-testid=mail-user]').value") == USER, 10, "the user name is not filled from the address")
        session.send_keys(session.find("[data-testid=mail-password]"), "wrong")
        session.tap("[data-testid=mail-connect]")
        error = session.wait_for("[data-testid=mail-error]", 30)
        assert "refused the user name or password" in session.text(error), session.text(error)
        wait_until(lambda: session.script("return document.querySelector('[data-testid=mail-password]').value") == "", 10, "not cleared")
        session.send_keys(session.find("[data-testid=mail-password]"), PASSWORD)
        session.tap("[data-testid=mail-connect]")
        account = session.wait_for("[data-testid=mail-account]", 30)
        assert "read only" in session.text(account)
        wait_until(lambda: any("2 mails" in t for t in session.texts("[data-testid=mail-folder]")), 30, "the Inbox was not read")
        session.send_keys(session.find("[data-testid=mail-who]"), "ana@example.org")
        session.tap("[data-testid=mail-who-save]")
        wait_until(lambda: "1 sender or domain kept." in session.text(session.find("[data-testid=mail-settings]")), 10, "who matters not kept")
        desktop.screenshot("mail-settings")

        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]"), "¿Qué me dice Ana del piso?\ue007")
        wait_until(lambda: len(llm.requests) == 2, 30, "the tool's result did not go back")
        result = next(m for m in llm.requests[1]["messages"] if m.get("tool_call_id") == "m1")["content"]
        assert '<untrusted_content source="mail">' in result and "jueves a las 6" in result and "Ana Ruiz <ana@example.org>" in result, result
        assert "Ofertas" not in result, "only what matched"

        # The morning brief, run now: Ana's mail with what it asks, the shop's counted;
        # Sidecar writes that list itself, and no mail reaches the brief's model.
        session.settings("tasks")
        session.tap("[data-testid=brief-on]")
        wait_until(lambda: "The brief comes every day at" in " ".join(session.texts("[data-testid=tasks-note]")), 10, "brief not on")
        session.tap("[data-testid=task-run]")
        wait_until(lambda: len(llm.requests) == 3, 60, "the brief did not ask the model")
        brief_prompt = json.dumps(llm.requests[2]["messages"], ensure_ascii=False)
        assert "El piso" not in brief_prompt and "jueves" not in brief_prompt, brief_prompt
        db = sqlite3.connect(tmp_path / "data" / "sidecar.db")
        said = lambda: " ".join(c for (c,) in db.execute("SELECT content FROM messages WHERE content LIKE '%people who matter%'"))
        wait_until(lambda: "Ana Ruiz: El piso (asks about Thursday" in said(), 30, "the brief has no mail")
        assert "18:00)" in said() and "1 more email from others, not read." in said(), said()
        db.close()
    finally:
        if session:
            desktop.close(session)
        llm.close()
        server.kill()
        server.wait(10)
        shutil.rmtree(imap_folder, ignore_errors=True)
