"""The phone's browser on the home core, in the real app and Debian's Chromium at a
phone's size (390×844): the app lets other devices in on a loopback address and shows a
pairing code; the browser opens the web app the core serves over HTTPS, is refused a
wrong code with the core's words, signs in with the right one, chats (the reply
streamed from the app's model, the exchange in the app's chat too), talks through the
browser's microphone (the clip written down by the app's speech model), sets a reminder that
the app's Reminders page then lists, and is signed out at once when the app revokes it.
Screenshots: .e2e/web-*.png."""
import subprocess
import time

from conftest import ARTIFACTS, add_reminder_on_page, port_open, wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings
from test_devices import free_port
from webdriver import Session

# A person reading (CMU Sphinx's test data): "he might even have been made amiable himself".
READING = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"


def test_a_phone_s_browser_signs_in_with_the_code_chats_and_sets_a_reminder_the_app_shows(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Hola ", "desde el móvil."), text_reply("Apuntado.")])
    address = f"127.0.0.1:{free_port()}"
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    with open(config, "a") as f:
        f.write(f'[devices]\nlisten = ["{address}"]\n')
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    driver_port = free_port()
    chromedriver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    phone = None
    try:
        host, port = address.split(":")
        wait_until(lambda: port_open(int(port)), 30, "the app did not let other devices in")
        wait_until(lambda: port_open(driver_port), 15, "ChromeDriver is not listening")
        session.settings("devices")
        session.tap("[data-testid=devices-open-code]")
        code = session.text(session.wait_for("[data-testid=devices-code]", 10)).split("Pairing code: ")[1][:9]

        phone = Session.chromium(f"http://127.0.0.1:{driver_port}", tmp_path / "chromium", microphone=READING)
        phone.cmd("POST", "/url", {"url": f"https://{address}/"})
        phone.wait_for("[data-testid=web-code]", 20)
        assert phone.script("return innerWidth") == 390
        phone.send_keys(phone.find("[data-testid=web-code]"), "0000 0000" if code != "0000 0000" else "1111 1111")
        phone.tap("[data-testid=web-sign-in-button]")
        assert "That is not the code. 4 tries left." in phone.text(phone.wait_for("[data-testid=web-sign-in-error]", 10))
        phone.screenshot(ARTIFACTS / "web-sign-in.png")
        phone.cmd("POST", f"/element/{phone.find('[data-testid=web-code]')}/clear", {})
        phone.send_keys(phone.find("[data-testid=web-code]"), code)
        phone.tap("[data-testid=web-sign-in-button]")
        phone.wait_for("[data-testid=composer]", 30)
        assert phone.script("return document.cookie") == "", "the session is out of scripts' reach"

        # A message from the phone is answered by the app's model, streamed there, and is
        # the app's conversation too.
        phone.send_keys(phone.find("[data-testid=composer]"), "¿Me oyes desde el móvil?\ue007")
        wait_until(lambda: any("Hola desde el móvil." in t for t in phone.texts("[data-testid=message-assistant]")), 30,
                   "the reply did not reach the phone")
        time.sleep(0.3)
        phone.screenshot(ARTIFACTS / "web-chat.png")
        overflow = phone.script("return document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the chat is {overflow} pixels wider than the phone"
        session.tap("[data-testid=nav-chat]")
        wait_until(lambda: any("desde el móvil" in t for t in session.texts("[data-testid=message-user]")), 15,
                   "the phone's message is not in the app's chat")

        # Said into the phone's microphone: the app writes it down and answers it.
        phone.tap("[data-testid=voice]")
        phone.wait_for("[data-testid=voice-status]", 10)
        time.sleep(5.5)
        phone.tap("[data-testid=voice]")
        wait_until(lambda: any("amiable" in t.lower() for t in phone.texts("[data-testid=message-user]")), 60,
                   "what the phone heard was not written down and sent")

        # A reminder set on the phone is the app's.
        add_reminder_on_page(phone, "water the plants, from the phone", 3600)
        wait_until(lambda: any("water the plants" in t for t in phone.texts("[data-testid=reminders-view]")), 15,
                   "the phone does not list its reminder")
        phone.screenshot(ARTIFACTS / "web-reminders.png")
        session.tap("[data-testid=nav-reminders]")
        wait_until(lambda: any("water the plants, from the phone" in t for t in session.texts("[data-testid=reminders-view]")), 15,
                   "the app does not list the phone's reminder")

        # The phone's settings are the home's, but for what only the app's window has.
        phone.settings("devices")
        assert phone.find_all("[data-testid=web-sign-out]")
        assert not phone.find_all("[data-testid=settings-nav-voice]"), "the app's microphone and speakers are not the phone's"

        # The app revokes the phone: the phone is signed out at once.
        session.settings("devices")
        assert "Phone" in session.text(session.wait_for("[data-testid=device-1]", 10))
        session.tap("[data-testid=device-revoke-1]")
        phone.wait_for("[data-testid=web-sign-in]", 15)
    finally:
        if phone:
            phone.quit()
        chromedriver.terminate()
        chromedriver.wait(10)
        desktop.close(session)
        llm.close()
