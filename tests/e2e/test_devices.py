"""One Sidecar on every device, in the real app. As the home core: Settings → Devices
turned on at a loopback address, the certificate and a pairing code shown; a second
device (the `sidecar` CLI with a data folder of its own) pairs with that code, its
message is answered by the app's model and shows in the app's chat, it appears in the
list with its last activity, and once revoked it is refused. As a second computer: the
app attaches to a home core (`sidecar daemon` of another data folder) with its code,
chats with the home's model, sets a reminder that fires on the home and is shown here
as this computer's notification, says so while the home is away and sends what was
written meanwhile once when it is back, and says so when the home revokes it.
Screenshots: .e2e/devices-*.png."""
import json
import os
import socket
import subprocess
import time
from pathlib import Path

from conftest import add_reminder_on_page, wait_until
from test_agent import write_settings
from scripted_llm import ScriptedLlm, text_reply


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def device(desktop, data, *args):
    """The `sidecar` CLI beside the app, as a second device with its own data."""
    cli = Path(desktop.binary).parent / "sidecar"
    env = {**os.environ, "SIDECAR_DATA_DIR": str(data), "SIDECAR_CONFIG": str(data / "settings.toml"),
           "SIDECAR_RUNTIME": "off", "SIDECAR_NO_KEYCHAIN": "1"}
    return subprocess.run([str(cli), "devices", *args], capture_output=True, text=True, env=env, timeout=60)


def test_a_second_device_pairs_with_the_app_talks_through_it_and_is_revoked(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Te oigo desde casa.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    laptop = tmp_path / "laptop"
    laptop.mkdir()
    address = f"127.0.0.1:{free_port()}"
    try:
        session.settings("devices")
        # The view arrives from the core after the section opens.
        assert "Off: no other device can reach this Sidecar." in session.text(session.wait_for("[data-testid=devices-listening]", 10))
        session.send_keys(session.find("[data-testid=devices-addresses]"), address)
        session.tap("[data-testid=devices-listen]")
        wait_until(lambda: f"Listening at {address}" in session.text(session.find("[data-testid=devices-listening]")), 10,
                   "the link did not listen")
        assert f'listen = ["{address}"]' in config.read_text(), "kept in settings.toml"
        fingerprint = session.text(session.wait_for("[data-testid=devices-fingerprint]", 5))
        session.tap("[data-testid=devices-open-code]")
        shown = session.text(session.wait_for("[data-testid=devices-code]", 5))
        code = shown.split("Pairing code: ")[1][:9]
        time.sleep(0.3)
        desktop.screenshot("devices-code")

        paired = device(desktop, laptop, "pair", address, code, "--name", "Laptop")
        assert paired.returncode == 0, paired.stderr
        assert fingerprint in paired.stdout, "the device shows the certificate the app shows"
        # The device shows up in the list by itself (the code was used up).
        session.wait_for("[data-testid=device-1]", 10)
        assert "Laptop" in session.text(session.find("[data-testid=device-1]"))

        sent = device(desktop, laptop, "call", "send_message", json.dumps({"text": "¿Me oyes desde el portátil?"}))
        assert sent.returncode == 0, sent.stderr
        assert json.loads(sent.stdout)["reply"] == "Te oigo desde casa."
        # The message and its reply are the app's: its chat shows them.
        session.tap("[data-testid=nav-chat]")
        wait_until(lambda: any("desde el portátil" in t for t in session.texts("[data-testid=message-user]")), 10,
                   "the device's message is not in the app's chat")
        time.sleep(0.3)
        desktop.screenshot("devices-chat")

        session.settings("devices")
        session.tap("[data-testid=device-revoke-1]")
        session.wait_for("[data-testid=devices-none]", 10)
        refused = device(desktop, laptop, "call", "list_chats")
        assert refused.returncode == 1
        assert "no longer allows this device" in refused.stderr, refused.stderr
    finally:
        desktop.close(session)
        llm.close()


def home_core(desktop, data, *args, **popen):
    """The `sidecar` CLI of the home core's data folder. It reaches no notification
    service (another computer's), so what shows on the test's bus is the attached app's
    alone."""
    cli = Path(desktop.binary).parent / "sidecar"
    env = {**os.environ, "SIDECAR_DATA_DIR": str(data), "SIDECAR_CONFIG": str(data / "settings.toml"),
           "SIDECAR_RUNTIME": "off", "SIDECAR_NO_KEYCHAIN": "1", "SIDECAR_LANG": "en",
           "DBUS_SESSION_BUS_ADDRESS": f"unix:path={data}/no-bus"}
    if popen:
        return subprocess.Popen([str(cli), *args], env=env, **popen)
    return subprocess.run([str(cli), *args], capture_output=True, text=True, env=env, timeout=60)


def test_the_app_attaches_to_a_home_core_chats_there_and_hears_its_reminders(desktop, tmp_path):
    home_llm = ScriptedLlm([text_reply("Hola ", "desde casa."), text_reply("Sigo aquí.")])
    own_llm = ScriptedLlm([text_reply("This computer's own model answered.")])
    home = tmp_path / "home"
    home.mkdir()
    port = free_port()
    write_settings(home / "settings.toml", [("primary", home_llm.base_url, "gpt-4o-mini")])
    with open(home / "settings.toml", "a") as f:
        f.write(f'[devices]\nlisten = ["127.0.0.1:{port}"]\n')
    log = open(tmp_path / "home-daemon.log", "w")
    daemon = home_core(desktop, home, "daemon", stdout=log, stderr=subprocess.STDOUT)
    config = write_settings(tmp_path / "settings.toml", [("primary", own_llm.base_url, "gpt-4o-mini")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 30, "the home core did not listen")
        shown = home_core(desktop, home, "devices", "code", "--json")
        assert shown.returncode == 0, shown.stderr
        shown = json.loads(shown.stdout)

        session.settings("devices")
        session.wait_for("[data-testid=home-settings]", 10)
        session.send_keys(session.find("[data-testid=home-address]"), f"127.0.0.1:{port}")
        session.send_keys(session.find("[data-testid=home-code]"), "0000 0000" if shown["code"] != "0000 0000" else "1111 1111")
        session.tap("[data-testid=home-attach]")
        assert "That is not the code. 4 tries left." in session.text(session.wait_for("[data-testid=home-error]", 10))
        session.cmd("POST", f"/element/{session.find('[data-testid=home-code]')}/clear", {})
        session.send_keys(session.find("[data-testid=home-code]"), shown["code"])
        session.tap("[data-testid=home-attach]")
        # The window reloads onto the home core.
        session.wait_for("[data-testid=composer]", 30)
        session.settings("devices")
        using = session.text(session.wait_for("[data-testid=home-using]", 20))
        assert f"127.0.0.1:{port}" in using, using
        assert session.text(session.find("[data-testid=home-fingerprint]")) == shown["fingerprint"], "the certificate the home shows"
        wait_until(lambda: "Connected" in session.text(session.find("[data-testid=home-state]")), 20, "the link is not up")
        assert not session.find_all("[data-testid=devices-listening]"), "an attached computer lets no device in"
        time.sleep(0.3)
        desktop.screenshot("devices-home")

        # A message typed here is answered by the home's model, streamed.
        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]", 10), "¿Me oyes desde el portátil?\ue007")
        wait_until(lambda: any("Hola desde casa." in t for t in session.texts("[data-testid=message-assistant]")), 30,
                   "the home's reply did not arrive")
        assert not own_llm.requests, "this computer's own model was not asked"
        assert not session.find_all("[data-testid=channel-tag]"), "said here, not 'on another device'"
        time.sleep(0.3)
        desktop.screenshot("devices-home-chat")

        # A reminder set here fires on the home and is shown here, once.
        before = desktop.notifications().count("member=Notify")
        add_reminder_on_page(session, "stretch, from the laptop", 4)
        wait_until(lambda: desktop.notifications().count("member=Notify") > before, 30, "no notification here")
        time.sleep(3)
        assert desktop.notifications().count("member=Notify") == before + 1, "shown twice"
        assert "stretch, from the laptop" in desktop.notifications()[-4000:]

        # The home goes away: the window says so, keeps what is sent meanwhile, and sends
        # it once when the home is back.
        daemon.terminate()
        daemon.wait(15)
        banner = session.wait_for("[data-testid=home-link-banner]", 15)
        assert "cannot be reached" in session.text(banner), session.text(banner)
        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]", 10), "¿Sigues ahí?\ue007")
        time.sleep(1)
        assert len(home_llm.requests) == 1, "nothing reached the home while it was away"
        daemon = home_core(desktop, home, "daemon", stdout=log, stderr=subprocess.STDOUT)
        wait_until(lambda: not session.find_all("[data-testid=home-link-banner]"), 30, "the line did not go when the home came back")
        wait_until(lambda: any("Sigo aquí." in t for t in session.texts("[data-testid=message-assistant]")), 30,
                   "the message sent while the home was away was not answered")
        time.sleep(2)
        assert len(home_llm.requests) == 2, "sent once"
        assert sum("¿Sigues ahí?" in t for t in session.texts("[data-testid=message-user]")) == 1, "shown once"

        # Revoked on the home: this window says so at once.
        revoked = home_core(desktop, home, "devices", "revoke", "1")
        assert revoked.returncode == 0, revoked.stderr
        banner = session.wait_for("[data-testid=home-link-banner]", 15)
        assert "no longer allows this device" in session.text(banner)
        time.sleep(0.3)
        desktop.screenshot("devices-home-refused")
    finally:
        desktop.close(session)
        daemon.terminate()
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
        home_llm.close()
        own_llm.close()
