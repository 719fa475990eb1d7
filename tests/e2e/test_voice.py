"""Push-to-talk in the real app (the microphone button, then the global shortcut), on a real audio path: a PulseAudio server of this test's
own whose virtual microphone plays a person reading (CMU Sphinx's test data); the
composer's microphone button listens with a level meter, a second press writes down what
was said with the speech model of the runtime folder and sends it, and the model answers.
In Spanish, a reminder said while the shortcut is held is set (the clip is Kokoro's, see
tests/fixtures/voice/make_spanish_clip.py: no person's recording of it exists here)."""
import array
import datetime
import json
import math
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

from conftest import ARTIFACTS, add_reminder_on_page, daytime_zone, wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings

CLIP = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"


class SoundServer:
    """PulseAudio with speakers (a null sink) and a microphone hearing the `micfeed` sink."""

    def __init__(self, tmp):
        run = tmp / "pulse-run"
        run.mkdir()
        script = tmp / "sound.pa"
        script.write_text(
            "load-module module-native-protocol-unix auth-anonymous=1\n"
            "load-module module-null-sink sink_name=speakers sink_properties=device.description=Speakers\n"
            "load-module module-null-sink sink_name=micfeed sink_properties=device.description=Feed\n"
            "load-module module-remap-source source_name=virtmic master=micfeed.monitor\n"
            "set-default-sink speakers\nset-default-source virtmic\n")
        self.address = f"unix:{run}/pulse/native"
        self.env = {"PULSE_SERVER": self.address, "XDG_RUNTIME_DIR": str(run), "HOME": str(tmp)}
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm", "--use-pid-file=no", "-F", str(script)],
            env=self.env, stdout=open(ARTIFACTS / "pulseaudio.log", "w"), stderr=subprocess.STDOUT)
        wait_until(lambda: (run / "pulse/native").exists(), 10, "pulseaudio not up")

    def play_into_microphone(self, wav):
        return subprocess.Popen(["paplay", "--device=micfeed", wav], env=self.env)

    def record_speakers(self, sink="speakers"):
        """What a sink plays from now on, as 16 kHz mono samples, growing."""
        return Recorder(self.env, sink)

    def close(self):
        self.proc.kill()
        self.proc.wait()


class Recorder:
    RATE = 16000

    def __init__(self, env, sink):
        self.samples = array.array("h")
        self.proc = subprocess.Popen(["parec", f"--device={sink}.monitor", "--format=s16le", f"--rate={self.RATE}", "--channels=1", "--latency-msec=20"],
                                     env=env, stdout=subprocess.PIPE)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while chunk := self.proc.stdout.read(640):
            self.samples.frombytes(chunk[: len(chunk) // 2 * 2])

    def loud_windows(self, start=0, end=None):
        """Indexes (in samples) of the 20 ms windows from `start` that are not silent."""
        samples = self.samples[start:end]
        step = self.RATE // 50
        return [start + i for i in range(0, len(samples) - step, step)
                if math.sqrt(sum(v * v for v in samples[i:i + step]) / step) > 300]

    def wav(self, path, end):
        import wave
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(self.RATE)
            w.writeframes(self.samples[:end].tobytes())

    def close(self):
        self.proc.kill()
        self.proc.wait()


def test_what_is_said_into_the_microphone_is_sent_and_answered(desktop, tmp_path):
    sound = SoundServer(tmp_path)
    llm = ScriptedLlm([text_reply("Noted: amiable indeed."), text_reply("Noted: amiable indeed.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "llama3.2")])
    # Replies are read, not said: the speakers are the other test's.
    config.write_text(config.read_text() + '[voice]\nspeak_replies = "off"\n')
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    try:
        session.wait_for("[data-testid=composer]", 20)
        # Held: push-to-talk's shortcut listens while it is down and sends when let go.
        subprocess.run(["xdotool", "keydown", "ctrl+alt+space"], check=True)
        session.wait_for("[data-testid=voice-status]", 10)
        assert "Listening" in session.texts("[data-testid=voice-status]")[0]
        time.sleep(0.3)
        assert sound.play_into_microphone(CLIP).wait(timeout=30) == 0
        subprocess.run(["xdotool", "keyup", "ctrl+alt+space"], check=True)
        wait_until(lambda: session.texts("[data-testid=message-user]"), 60, "nothing was sent when the key was let go")
        assert "amiable himself" in session.texts("[data-testid=message-user]")[-1].lower()
        wait_until(lambda: "amiable indeed" in " ".join(session.texts("[data-testid=message-assistant] .content")), 30, "no reply")

        # Pressed once, then again: the microphone button, then the shortcut.
        session.click(session.find("[data-testid=voice]"))
        session.wait_for("[data-testid=voice-status]", 10)
        time.sleep(0.3)
        playing = sound.play_into_microphone(CLIP)
        # The meter moves while the person speaks.
        level = "var m = document.querySelector('.voice-level'); return m ? m.getAttribute('aria-valuenow') : '0'"
        wait_until(lambda: float(session.script(level) or 0) > 0.01, 10, "the meter stayed still")
        assert playing.wait(timeout=30) == 0
        # The words show while listening, before anything is sent (Whisper shares two
        # cores with the other suites under `make test`: a wait, not a measure).
        wait_until(lambda: "amiable" in " ".join(session.texts("[data-testid=voice-draft]")).lower(), 60, "no words shown while listening")
        assert len(session.texts("[data-testid=message-user]")) == 1
        desktop.screenshot("voice-listening")
        # The second press is push-to-talk's global shortcut, as from any app.
        desktop.key("ctrl+alt+space")
        wait_until(lambda: len(session.texts("[data-testid=message-user]")) == 2, 60, "nothing was sent")
        said = session.texts("[data-testid=message-user]")[-1].lower()
        assert "might even have been made amiable himself" in said, said
        wait_until(lambda: len(session.texts("[data-testid=message-assistant] .content")) == 2, 30, "no second reply")
        assert "amiable himself" in str(llm.requests[-1]["messages"][-1]).lower()
        desktop.screenshot("voice-sent")
    finally:
        desktop.close(session)
        llm.close()
        sound.close()


SPANISH = Path(__file__).parent.parent / "fixtures/voice/recuerdame-llamar-a-ana.wav"


def test_a_reminder_said_in_spanish_while_the_key_is_held_is_set(desktop, tmp_path):
    """The offline model's window in Spanish: "Recuérdame llamar a Ana, mañana a las nueve"
    said while push-to-talk's shortcut is held is written down, sent, and sets the reminder."""
    sound = SoundServer(tmp_path)
    config = tmp_path / "settings.toml"
    config.write_text('[desktop]\nlanguage = "es"\n[voice]\nspeak_replies = "off"\n')
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)], env=sound.env)
    try:
        session.wait_for("[data-testid=composer]", 20)
        subprocess.run(["xdotool", "keydown", "ctrl+alt+space"], check=True)
        session.wait_for("[data-testid=voice-status]", 10)
        assert "Escuchando" in session.texts("[data-testid=voice-status]")[0]
        time.sleep(0.3)
        assert sound.play_into_microphone(str(SPANISH)).wait(timeout=30) == 0
        subprocess.run(["xdotool", "keyup", "ctrl+alt+space"], check=True)
        wait_until(lambda: session.texts("[data-testid=message-user]"), 60, "nothing was sent when the key was let go")
        said = session.texts("[data-testid=message-user]")[-1].lower()
        # Whisper may run two words together under load ("llamara ana", seen once in CI):
        # what was said is compared without its spaces.
        joined = lambda text: text.lower().replace(" ", "")
        assert "llamaraana" in joined(said) and "mañana" in said, said
        wait_until(lambda: any('te recordaré "' in t and "llamaraana" in joined(t) for t in session.texts("[data-testid=message-assistant] .content")),
                   90, "the reminder was not confirmed")
        desktop.screenshot("voice-reminder-es")
        rows = sqlite3.connect(data / "sidecar.db").execute("SELECT message, due_at, state FROM reminders").fetchall()
        # The machine's zone is UTC here: tomorrow at 09:00.
        tomorrow = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).date()
        assert len(rows) == 1 and joined(rows[0][0]) == "llamaraana" and rows[0][2] == "pending", rows
        assert rows[0][1].startswith(f"{tomorrow.isoformat()}T09:00:00"), rows

        # This chat's speaker: every reply here is said, a typed one too (replies are
        # otherwise off in this test's settings).
        speakers = sound.record_speakers()
        session.click(session.find("[data-testid=speak-here]"))
        pressed = "return document.querySelector('[data-testid=speak-here]').getAttribute('aria-pressed')"
        wait_until(lambda: session.script(pressed) == "true", 10, "the switch did not stay on")
        session.send_keys(session.find("[data-testid=composer]"), "Recuérdame regar las plantas el viernes a las 18\ue007")
        wait_until(lambda: speakers.loud_windows(), 30, "the reply was not said aloud")
        desktop.screenshot("voice-speak-here")
        speakers.close()
    finally:
        desktop.close(session)
        sound.close()


REPLY = ("Noted: amiable indeed. He might even have been made amiable himself, as the book says. "
         "Is there anything else about the Dashwood family you would like to talk about today? "
         "We could read the next chapter together tomorrow morning.")


def test_a_spoken_message_is_answered_aloud_and_talking_again_stops_the_voice(desktop, tmp_path):
    sound = SoundServer(tmp_path)
    llm = ScriptedLlm([text_reply(*[w + " " for w in REPLY.split(" ")])], delay=0.01)
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "llama3.2")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    speakers = sound.record_speakers()
    try:
        session.wait_for("[data-testid=composer]", 20)
        session.click(session.find("[data-testid=voice]"))
        session.wait_for("[data-testid=voice-status]", 10)
        time.sleep(0.3)
        assert sound.play_into_microphone(CLIP).wait(timeout=30) == 0
        session.click(session.find("[data-testid=voice]"))
        # The reply is said aloud as it streams (the default: replies to spoken messages).
        session.wait_for("[data-testid=voice-hush]", 60)
        wait_until(lambda: speakers.loud_windows(), 20, "the speakers stayed silent")
        # A few sentences' worth, so the capture holds more than one word to recognise.
        time.sleep(4.0)
        desktop.screenshot("voice-speaking")
        # Barge-in: pressing the microphone while Sidecar speaks silences it at once.
        heard_until = len(speakers.samples)
        session.click(session.find("[data-testid=voice]"))
        time.sleep(1.5)
        loud_after = speakers.loud_windows(heard_until)
        stopped_within = (loud_after[-1] - heard_until) / Recorder.RATE if loud_after else 0.0
        print(f"voice stopped {stopped_within * 1000:.0f} ms after the press")
        assert stopped_within <= 0.2, f"the voice went on {stopped_within:.2f} s after the press"
        session.click(session.find("[data-testid=voice-cancel]"))
        # What was said is the reply's own words, heard as English. The language is given:
        # Whisper base's detection took espeak-ng's robotic English for Spanish in one CI
        # run (stop 78), and what is tested here is the voice, not the detection.
        spoken = tmp_path / "spoken.wav"
        speakers.wav(spoken, heard_until)
        cli = Path(desktop.binary).with_name("sidecar")
        out = subprocess.run([str(cli), "transcribe", "--json", "--lang", "en", str(spoken)], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SIDECAR_RUNTIME": str(Path(desktop.binary).parent.parent / "lib/sidecar")})
        heard = json.loads(out.stdout)
        assert heard["lang"] == "en", heard
        # espeak-ng's English is robotic (Whisper mishears about one word in six of it):
        # the reply's own longer words are looked for, not every one.
        said = {w.strip(".,?:").lower() for w in REPLY.split() if len(w.strip(".,?:")) > 3}
        found = said & {w.strip(".,?:!'").lower() for w in heard["text"].split()}
        assert len(found) >= 2, heard
    finally:
        speakers.close()
        desktop.close(session)
        llm.close()
        sound.close()


def test_the_microphone_test_shows_its_level_then_what_it_heard_beside_its_button(desktop, tmp_path):
    """Settings → Voice's microphone test (the first hour's m2): a meter while it listens, a
    line while the speech model writes, and the words beside the button, in view."""
    sound = SoundServer(tmp_path)
    config = tmp_path / "settings.toml"
    config.write_text("")
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    try:
        session.settings("voice")
        button = session.wait_for("[data-testid=voice-test-microphone]:not([disabled])", 15)
        session.script("arguments[0].scrollIntoView({block: 'center'})", {"element-6066-11e4-a52e-4f735466cecf": button})
        session.click(button)
        # The meter is there while it listens (its moving is push-to-talk's, tested above
        # and in the UI's tests), then a line while the speech model writes.
        session.wait_for("[data-testid=mic-test-listening] [role=meter]", 10)
        playing = sound.play_into_microphone(CLIP)
        # The meter follows the voice, several times a second (it moved about every 2 s
        # while the input's buffer was the device's default).
        meter = "const m = document.querySelector('[data-testid=mic-test-listening] [role=meter]'); return m ? m.getAttribute('aria-valuenow') : null"
        wait_until(lambda: session.script(meter) not in ("0", None), 10, "the meter never moved")
        levels = []
        for _ in range(15):
            levels.append(session.script(meter))
            time.sleep(0.1)
        moves = sum(1 for a, b in zip(levels, levels[1:]) if a != b and b is not None)
        print("microphone meter, changes in 1.5 s:", moves, levels)
        assert moves >= 6, levels
        desktop.screenshot("mic-test-listening")
        session.wait_for("[data-testid=mic-test-transcribing]", 30)
        result = session.wait_for("[data-testid=mic-test-result]", 90)
        heard = session.text(result)
        # The recording starts a moment into the clip: its last words are what is sure.
        assert heard.startswith("Heard:") and "himself" in heard.lower(), heard
        beside = "const r = document.querySelector('[data-testid=mic-test-result]');" \
                 "const b = r.getBoundingClientRect();" \
                 "return r.closest('.setting-row').contains(document.querySelector('[data-testid=voice-test-microphone]')) && b.top >= 0 && b.bottom <= innerHeight"
        assert session.script(beside), "the result is not beside its button, in view"
        assert playing.wait(timeout=30) == 0
        desktop.screenshot("mic-test-result")
    finally:
        desktop.close(session)
        sound.close()


def test_the_voice_test_plays_on_the_speakers_chosen_in_settings(desktop, tmp_path):
    """Settings → Voice lists the outputs by name; with "Feed" chosen (and a Latin American
    female voice, a little faster), the voice test is heard there and not on the default."""
    sound = SoundServer(tmp_path)
    config = tmp_path / "settings.toml"
    config.write_text("")
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    speakers, feed = sound.record_speakers(), sound.record_speakers("micfeed")
    try:
        session.settings("voice")
        session.wait_for("[data-testid=voice-output]:not([disabled])", 10)
        names = session.script("return Array.from(document.querySelector('[data-testid=voice-output]').options).map(o => o.textContent)")
        assert names[1:3] == ["Speakers", "Feed"], names
        choose = "const s = document.querySelector(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}))"
        session.script(choose, "[data-testid=voice-output]", "Feed")
        wait_until(lambda: 'output_device = "Feed"' in config.read_text(), 10, "the speakers were not saved")
        # The view lists the devices again after the speakers are saved, and holds its
        # fields meanwhile: the choice is made once they are free (again if it landed
        # while they were not).
        def voice_chosen():
            session.wait_for("[data-testid=voice-spanish]:not([disabled])", 10)
            session.script(choose, "[data-testid=voice-spanish]", "es-419+f3")
            time.sleep(0.5)
            return 'spanish_voice = "es-419+f3"' in config.read_text()
        wait_until(voice_chosen, 15, "the voice was not saved")
        # The pace: arrow keys on the slider, saved when the key is let go. One step at a
        # time, as a hand does: a key pressed while the view holds its fields for a save
        # is not taken (it missed one under a loaded CI), so a step not shown is pressed again.
        shown = lambda: session.text(session.find("[data-testid=voice-speed-value]"))
        for expected in ("1.05×", "1.10×", "1.15×", "1.20×"):
            def stepped(expected=expected):
                if shown() == expected:
                    return True
                session.wait_for("[data-testid=voice-speed]:not([disabled])", 10)
                session.send_keys(session.find("[data-testid=voice-speed]"), "\ue014")  # Right arrow
                time.sleep(0.5)
                return shown() == expected
            wait_until(stepped, 15, f"the pace did not reach {expected}: {shown()}")
        wait_until(lambda: "speed = 1.2" in config.read_text(), 10, f"the pace was not saved: {config.read_text()}")
        assert session.text(session.find("[data-testid=voice-speed-value]")) == "1.20×"
        desktop.screenshot("voice-settings-output")
        session.click(session.find("[data-testid=voice-test-speaking]"))
        wait_until(lambda: feed.loud_windows(), 20, "nothing was heard on the chosen speakers")
        time.sleep(1.0)
        assert not speakers.loud_windows(), "the voice test played on the default speakers"
    finally:
        speakers.close()
        feed.close()
        desktop.close(session)
        sound.close()


def test_reminders_are_said_aloud_when_asked_and_never_while_quiet(desktop, tmp_path):
    """`[voice] speak_reminders` on: a reminder falling due is heard on the speakers as well
    as shown; after /quiet the next one is shown and not said."""
    sound = SoundServer(tmp_path)
    config = tmp_path / "settings.toml"
    # A zone where it is midday: quiet hours (22:00–08:00) must not hold the first one.
    config.write_text(f'[user]\ntimezone = "{daytime_zone()}"\n[voice]\nspeak_reminders = true\n')
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    speakers = sound.record_speakers()
    try:
        add_reminder_on_page(session, "Stretch your legs", 6)
        session.click(session.find("[data-testid=nav-chat]"))
        wait_until(lambda: "Stretch your legs" in " ".join(session.texts("[data-testid=message-assistant]")), 30, "the reminder is not in the chat")
        wait_until(lambda: speakers.loud_windows(), 20, "the reminder was not said aloud")

        session.send_keys(session.wait_for("[data-testid=composer]", 10), "/quiet\ue007")
        time.sleep(8)  # whatever was being said ends
        heard_until = len(speakers.samples)
        add_reminder_on_page(session, "Water the plants", 6)
        session.click(session.find("[data-testid=nav-chat]"))
        wait_until(lambda: "Water the plants" in " ".join(session.texts("[data-testid=message-assistant]")), 30, "the quiet reminder is not in the chat")
        time.sleep(3)
        assert not speakers.loud_windows(heard_until), "a reminder was said aloud while Sidecar was quiet"
    finally:
        speakers.close()
        desktop.close(session)
        sound.close()


def test_a_corrected_answer_is_said_from_the_correction_not_both(desktop, tmp_path):
    """A reply that claims an action it did not take is asked again and replaced in the
    window; aloud, the claim stops where it was and the corrected answer is said."""
    sound = SoundServer(tmp_path)
    claim = "Done! I have set a reminder for the dentist tomorrow morning at nine, with a second alarm an hour before."
    honest = "Sorry, I cannot set reminders with this model, so nothing was created."
    llm = ScriptedLlm([text_reply(*[w + " " for w in claim.split(" ")]), text_reply(honest)], delay=0.01)
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "llama3.2")])
    config.write_text(config.read_text() + '[voice]\nspeak_replies = "always"\n')
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    speakers = sound.record_speakers()
    try:
        session.send_keys(session.wait_for("[data-testid=composer]", 20), "make sure I do not forget the dentist\ue007")
        wait_until(lambda: "nothing was created" in " ".join(session.texts("[data-testid=message-assistant] .content")), 30, "no corrected answer")
        wait_until(lambda: speakers.loud_windows(), 20, "nothing was said")
        # Until the voice has been quiet for a second.
        wait_until(lambda: (lambda loud: loud and len(speakers.samples) - loud[-1] > Recorder.RATE)(speakers.loud_windows()), 30, "the voice went on")
        spoken = tmp_path / "spoken.wav"
        speakers.wav(spoken, len(speakers.samples))
        cli = Path(desktop.binary).with_name("sidecar")
        out = subprocess.run([str(cli), "transcribe", "--json", "--lang", "en", str(spoken)], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SIDECAR_RUNTIME": str(Path(desktop.binary).parent.parent / "lib/sidecar")})
        heard = json.loads(out.stdout)["text"].lower()
        assert "alarm" not in heard and "hour before" not in heard, f"the claim was said to its end: {heard!r}"
        assert "created" in heard or "reminders" in heard or "sorry" in heard, f"the correction was not said: {heard!r}"
    finally:
        speakers.close()
        desktop.close(session)
        llm.close()
        sound.close()
