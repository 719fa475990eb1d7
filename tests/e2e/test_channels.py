"""Settings → Channels in the real app, against a Bot API–compatible server on
loopback: the pairing code is shown, the phone sends /start CODE, the chat shows as
paired; a message from the phone is answered there and appears in the desktop chat.
Then the server goes away: a reminder the phone cannot take waits in the stored outbox,
the card says so, and once the server is back the phone has it, once."""
import os
import re
import subprocess
import time
from pathlib import Path

from conftest import wait_until
from fake_bot_api import FakeBotApi
from scripted_llm import ScriptedLlm, text_reply

PHONE = 5550001


def test_telegram_pairs_from_settings_and_the_phone_talks_to_the_same_chat(desktop, tmp_path):
    bot = FakeBotApi()
    llm = ScriptedLlm([text_reply("Sí, ", "te leo desde el escritorio también.")])
    config = tmp_path / "settings.toml"
    config.write_text("\n".join([
        "[[providers]]", 'id = "primary"', f'base_url = "{llm.base_url}"', 'model = "gpt-4o-mini"',
        "[llm]", "max_retries = 0", "[user]", 'timezone = "Europe/Madrid"',
        "[channels.telegram]", f'api_url = "{bot.api_url}"', "poll_timeout_secs = 1",
        # The real WhatsApp client, with no way to reach WhatsApp here: it says so.
        "[channels.whatsapp]", 'allowed_numbers = ["+34 600 11 22 33"]',
    ]) + "\n")
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        session.settings("channels")
        card = session.wait_for("[data-testid=telegram-card]", 10)
        assert "waiting for a bot token" in session.text(session.find("[data-testid=telegram-state]"))
        assert not bot.polled(), "no token, no polling"
        # The token from @BotFather, saved to the system keychain from Settings.
        session.send_keys(session.find("[data-testid=telegram-token]"), "123456:E2E-token-long-enough-for-the-check")
        session.click(session.find("[data-testid=save-telegram-token]"))
        wait_until(lambda: "Connected since" in session.text(session.find("[data-testid=telegram-state]")), 20, "not connected")
        assert "in the system keychain" in session.text(card)
        assert "E2E-token" not in session.text(card)
        session.click(session.wait_for("[data-testid=pair-telegram]", 10))
        instructions = session.text(session.wait_for("[data-testid=pairing-instructions]", 10))
        code = re.search(r"/start (\d{6})", instructions).group(1)
        session.script("document.querySelector('[data-testid=telegram-card]').scrollIntoView()")
        desktop.screenshot("channels-pairing-code")

        bot.say(PHONE, f"/start {code}")
        chat = session.wait_for("[data-testid=paired-chat]", 20)
        assert str(PHONE) in session.text(chat)
        assert not session.find_all("[data-testid=pairing-instructions]"), "the code is used up"
        assert "paired" in bot.sent_to(PHONE)[0]
        assert f"allowed_chats = [{PHONE}]" in config.read_text()
        desktop.screenshot("channels-paired")
        whatsapp = session.find("[data-testid=whatsapp-card]")
        assert "+34 600 11 22 33" in session.text(whatsapp)
        session.script("document.querySelector('[data-testid=whatsapp-card]').scrollIntoView()")
        wait_until(lambda: "Turn off" in session.text(session.find("[data-testid=whatsapp-toggle]")), 30, "WhatsApp not on")
        desktop.screenshot("channels-whatsapp")

        # The phone's message is answered on the phone and shows in the desktop chat.
        bot.say(PHONE, "¿Me lees desde el móvil?")
        wait_until(lambda: len(bot.sent_to(PHONE)) >= 2, 30, "no reply on the phone")
        assert bot.sent_to(PHONE)[1] == "Sí, te leo desde el escritorio también."
        session.click(session.find("[data-testid=nav-chat]"))
        wait_until(lambda: "¿Me lees desde el móvil?" in session.text(session.find("main")), 20, "the phone's message is not in the chat")
        wait_until(lambda: "te leo desde el escritorio" in session.text(session.find("main")), 20, "the reply is not in the chat")
        desktop.screenshot("channels-phone-in-chat")

        # Away from the desk at once, so the phone takes reminders; then the server goes.
        session.settings("proactivity")
        session.wait_for("[data-testid=phone-when-idle]", 10)
        session.script(
            "const i = document.querySelector('[data-testid=phone-when-idle]');"
            "Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(i, '0');"
            "i.dispatchEvent(new Event('input', {bubbles: true}))")
        session.click(session.find("[data-testid=save-proactive]"))
        wait_until(lambda: session.script("return document.querySelector('[data-testid=phone-when-idle]').value") == "0", 10, "not saved")
        time.sleep(0.5)
        session.settings("channels")
        bot.go_away()
        wait_until(lambda: "Disconnected" in session.text(session.find("[data-testid=telegram-state]")), 30, "Telegram not seen down")
        cli = Path(os.environ.get("SIDECAR_CLI", Path(desktop.binary).parent / "sidecar"))
        subprocess.run([str(cli), "--data-dir", str(tmp_path / "data"), "remind", "in 3 seconds", "regar las plantas"], check=True, timeout=60)

        wait_until(lambda: session.find_all("[data-testid=telegram-held]"), 30, "the card does not say a reminder waits")
        assert "1 reminder or result waits to be sent here" in session.text(session.find("[data-testid=telegram-held]"))
        assert not any("regar las plantas" in said for said in bot.sent_to(PHONE))
        session.script("document.querySelector('[data-testid=telegram-card]').scrollIntoView()")
        desktop.screenshot("channels-held-for-the-phone")
        bot.come_back()
        wait_until(lambda: any("regar las plantas" in said for said in bot.sent_to(PHONE)), 60, "the held reminder never reached the phone")
        wait_until(lambda: not session.find_all("[data-testid=telegram-held]"), 20, "the card still says it waits")
        assert sum("regar las plantas" in said for said in bot.sent_to(PHONE)) == 1, bot.sent_to(PHONE)
    finally:
        desktop.close(session)
        bot.close()
        llm.close()
