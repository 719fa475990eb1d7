"""One Sidecar on every device, in the real app: Settings → Devices turned on at a
loopback address, the certificate and a pairing code shown; a second device (the
`sidecar` CLI with a data folder of its own) pairs with that code, its message is
answered by the app's model and shows in the app's chat, it appears in the list with
its last activity, and once revoked it is refused. Screenshots: .e2e/devices-*.png."""
import json
import os
import socket
import subprocess
import time
from pathlib import Path

from conftest import wait_until
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
