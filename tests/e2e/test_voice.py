"""Push-to-talk in the real app, on a real audio path: a PulseAudio server of this test's
own whose virtual microphone plays a person reading (CMU Sphinx's test data); the
composer's microphone button listens with a level meter, a second press writes down what
was said with the speech model of the runtime folder and sends it, and the model answers."""
import subprocess
import time

from conftest import ARTIFACTS, wait_until
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
            "load-module module-null-sink sink_name=speakers\n"
            "load-module module-null-sink sink_name=micfeed\n"
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

    def close(self):
        self.proc.kill()
        self.proc.wait()


def test_what_is_said_into_the_microphone_is_sent_and_answered(desktop, tmp_path):
    sound = SoundServer(tmp_path)
    llm = ScriptedLlm([text_reply("Noted: amiable indeed.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "llama3.2")])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)], env=sound.env)
    try:
        session.wait_for("[data-testid=composer]", 20)
        session.click(session.find("[data-testid=voice]"))
        session.wait_for("[data-testid=voice-status]", 10)
        assert "Listening" in session.texts("[data-testid=voice-status]")[0]
        time.sleep(0.3)
        playing = sound.play_into_microphone(CLIP)
        # The meter moves while the person speaks.
        level = "var m = document.querySelector('.voice-level'); return m ? m.getAttribute('aria-valuenow') : '0'"
        wait_until(lambda: float(session.script(level) or 0) > 0.01, 10, "the meter stayed still")
        desktop.screenshot("voice-listening")
        assert playing.wait(timeout=30) == 0
        session.click(session.find("[data-testid=voice]"))
        wait_until(lambda: session.texts("[data-testid=message-user]"), 60, "nothing was sent")
        said = session.texts("[data-testid=message-user]")[-1].lower()
        assert "might even have been made amiable himself" in said, said
        wait_until(lambda: "amiable indeed" in " ".join(session.texts("[data-testid=message-assistant] .content")), 30, "no reply")
        assert "amiable himself" in str(llm.requests[-1]["messages"][-1]).lower()
        desktop.screenshot("voice-sent")
    finally:
        desktop.close(session)
        llm.close()
        sound.close()
