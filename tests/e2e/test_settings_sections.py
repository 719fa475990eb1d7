"""Settings as sections and the profile as a form, in Spanish, in the real app: the
section list and its search, a provider's sampling saved to settings.toml, the offline
model's tuning, and the profile form writing into user.md and SOUL.md. Screenshots of
each screen land in .e2e/sections-*.png."""
import time

from conftest import wait_until
from test_agent import write_settings
from scripted_llm import ScriptedLlm, text_reply


def test_settings_sections_search_sampling_and_the_profile_form_in_spanish(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Hola.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    config.write_text(config.read_text() + '[desktop]\nlanguage = "es"\n')
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        # One section at a time; the search finds words on sections not open.
        section = session.settings("desktop")
        assert "General" in session.text(section) and "Zona horaria" in session.text(section)
        session.send_keys(session.find("[data-testid=settings-search]"), "telegram")
        wait_until(lambda: session.script("return !document.querySelector('[data-testid=settings-section-channels]').hidden"), 5,
                   "the search did not show the channels")
        assert session.script("return document.querySelector('[data-testid=settings-section-desktop]').hidden")
        time.sleep(0.3)
        desktop.screenshot("sections-search-es")

        # A provider's sampling, saved in its own table of settings.toml.
        session.settings("providers")
        session.tap("[data-testid=edit-provider]")
        session.wait_for("[data-testid=provider-form]", 5)
        session.script("document.querySelector('details.sampling').open = true")
        session.send_keys(session.wait_for("[data-testid=provider-sampling-temperature]", 5), "0.3")
        session.send_keys(session.find("[data-testid=provider-sampling-max_tokens]"), "2048")
        time.sleep(0.3)
        desktop.screenshot("sections-provider-sampling-es")
        session.tap("[data-testid=save-provider]")
        wait_until(lambda: "[providers.sampling]" in config.read_text(), 30, "sampling not saved")
        text = config.read_text()
        assert "temperature = 0.3" in text and "max_tokens = 2048" in text, text

        # The offline model's tuning shows its defaults where nothing is set.
        session.settings("models")
        tuning = session.wait_for("[data-testid=local-tuning]", 10)
        assert "Muestreo del modelo sin conexión" in session.text(tuning)
        session.script("document.querySelector('[data-testid=local-tuning]').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        desktop.screenshot("sections-local-tuning-es")

        # Keeping: everything by default; a retention chosen is saved, and a tidy reports.
        # The section opens at its top, not where the last one was scrolled to (m3).
        assert session.script("return document.querySelector('main').scrollTop") > 0
        session.settings("data")
        assert session.script("return document.querySelector('main').scrollTop") == 0
        session.wait_for("[data-testid=keep-days]:not([disabled])", 10)
        keep = "document.querySelector('[data-testid=keep-days]')"
        assert session.script(f"return {keep}.selectedOptions[0].textContent") == "Siempre"
        session.script(f"const s = {keep}; s.value = '365'; s.dispatchEvent(new Event('change', {{bubbles: true}}))")
        wait_until(lambda: "keep_days = 365" in config.read_text(), 10, "the retention was not saved")
        # The seeds' purge: a size the database keeps under, idle chats closed.
        for test_id, value, saved in (("max-size", "50", "max_size_mb = 50"), ("close-idle", "2", "close_idle_hours = 2")):
            chooser = f"document.querySelector('[data-testid={test_id}]')"
            session.script(f"const s = {chooser}; s.value = '{value}'; s.dispatchEvent(new Event('change', {{bubbles: true}}))")
            wait_until(lambda saved=saved: saved in config.read_text(), 10, f"{saved} was not saved")
        # Each choice kept the others, however quickly they came.
        for saved in ("keep_days = 365", "max_size_mb = 50", "close_idle_hours = 2", "tidy_often = true"):
            assert saved in config.read_text(), config.read_text()
        session.tap("[data-testid=tidy-now]")
        wait_until(lambda: "Nada que limpiar" in " ".join(session.texts("[data-testid=retention-note]")), 30, "no tidy report")
        session.script("document.querySelector('[data-testid=retention-settings]').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        desktop.screenshot("sections-data-keeping-es")

        # Voice: which replies are said aloud (saved), the models that hear and speak.
        session.settings("voice")
        session.wait_for("[data-testid=speak-replies]:not([disabled])", 10)
        speak = "document.querySelector('[data-testid=speak-replies]')"
        assert session.script(f"return {speak}.selectedOptions[0].textContent") == "Cuando hablé"
        session.script(f"const s = {speak}; s.value = 'always'; s.dispatchEvent(new Event('change', {{bubbles: true}}))")
        wait_until(lambda: 'speak_replies = "always"' in config.read_text(), 10, "the choice was not saved")
        wait_until(lambda: "Guardado" in " ".join(session.texts("[data-testid=voice-note]")), 10, "not said saved")
        assert session.script(f"return {speak}.selectedOptions[0].textContent") == "Siempre"
        models = " ".join(session.texts("[data-testid=voice-models]"))
        assert "Whisper base (multilingual) · 148 MB · MIT" in models and "espeak-ng · GPL-3.0-or-later (un programa aparte)" in models, models
        desktop.screenshot("sections-voice-es")

        # The profile as a form; what it saves is in the files, the rest kept.
        session.tap("[data-testid=nav-memory]")
        session.tap("[data-testid=memory-tab-profile]")
        session.tap("[data-testid=profile-view-form]")
        session.send_keys(session.wait_for("[data-testid=profile-name]", 10), "Ana Ruiz")
        session.send_keys(session.find("[data-testid=profile-address]"), "Ana")
        session.send_keys(session.find("[data-testid=profile-about]"), "Enfermera en el turno de noche.")
        session.send_keys(session.find("[data-testid=profile-style]"), "Respuestas cortas.")
        session.tap("[data-testid=profile-form-save]")
        wait_until(lambda: "Guardado" in " ".join(session.texts("[data-testid=profile-form-message]")), 30, "profile not saved")
        user = (data / "knowledge" / "user.md").read_text()
        soul = (data / "knowledge" / "SOUL.md").read_text()
        assert "- Nombre: Ana Ruiz" in user and "- Llámame: Ana" in user and "## Sobre mí" in user, user
        assert soul.startswith("# Sidecar") and "## Cómo responder\n\nRespuestas cortas." in soul, soul
        time.sleep(0.3)
        desktop.screenshot("sections-profile-form-es")
    finally:
        desktop.close(session)
        llm.close()
