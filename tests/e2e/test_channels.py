"""Settings → Channels in the real app, against a Bot API–compatible server on
loopback: the pairing code is shown, the phone sends /start CODE, the chat shows as
paired; a message from the phone is answered there and appears in the desktop chat."""
import re

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
    finally:
        desktop.close(session)
        bot.close()
        llm.close()
