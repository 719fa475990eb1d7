"""Memory by meaning in the real app: history imported with the real CLI (which embeds
it with the light multilingual model) is embedded again with EmbeddingGemma, the
automatic choice on a computer with memory for it, and is found by the Memory search
from a paraphrase in another language that shares no word with it (words alone miss it:
tests/it/meaning.rs); Settings shows the embedder ready and everything embedded; switched
to the light one, everything is embedded again and the paraphrase is still found; and
Back up now writes a backup."""
import json
import subprocess
import time
from pathlib import Path

from conftest import wait_until

HISTORY = [
    ("user", "Mi hermana Lucía empezó a trabajar como enfermera en el hospital La Fe."),
    ("assistant", "¡Qué buena noticia para Lucía!"),
    ("user", "Yesterday I fixed the kitchen tap with a new washer."),
    ("assistant", "Nice, dripping taps are the worst."),
    ("user", "We might go hiking in the Pyrenees in spring."),
    ("assistant", "That sounds lovely."),
]


def test_the_memory_search_finds_a_paraphrase_that_words_miss(desktop, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    history = tmp_path / "history.jsonl"
    history.write_text("".join(json.dumps({"role": r, "content": c}) + "\n" for r, c in HISTORY))
    cli = Path(desktop.binary).with_name("sidecar")
    done = subprocess.run([str(cli), "--data-dir", str(data), "import", str(history)], env=desktop.env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    # "Automatic", the default, on a computer with memory for EmbeddingGemma (the memory
    # rule itself is a unit test): everything the CLI embedded with e5-small is embedded
    # again with it at start.
    session = desktop.launch(data, env={"SIDECAR_EMBEDDINGS": "gemma"})
    try:
        session.settings("meaning")
        session.wait_for("[data-testid=meaning-settings]", 10)
        assert session.script("return document.querySelector('[data-testid=meaning-auto]').checked"), "automatic is the default"
        wait_until(lambda: "Ready: EmbeddingGemma" in " ".join(session.texts("[data-testid=meaning-state]")), 60,
                   "EmbeddingGemma not ready")
        wait_until(lambda: "All 6 items embedded" in " ".join(session.texts("[data-testid=meaning-progress]")), 60,
                   "not embedded again")
        assert "Here: EmbeddingGemma-300M" in " ".join(session.texts("[data-testid=meaning-settings] label"))
        desktop.screenshot("settings-memory-gemma")
        assert "embeddinggemma-300m-q8_0.gguf" in (data / "logs/embedder.log").read_text()

        first = lambda: (session.texts("[data-testid=recall-hit]") or [""])[0]

        def search(question):
            session.click(session.find("[data-testid=nav-memory]"))
            session.wait_for("[data-testid=memory-search]", 10)
            session.script("document.querySelector('[data-testid=memory-search]').select()")
            session.send_keys(session.find("[data-testid=memory-search]"), question)

        # The search follows the typing: wait for the answer to the whole question.
        search("What did I say about my sibling's new position?")
        wait_until(lambda: "enfermera" in first() and not session.find_all("[data-testid=memory-words-only]"), 30,
                   "the paraphrase was not found first with EmbeddingGemma")
        desktop.screenshot("memory-meaning")

        # The light embedder, chosen here: everything is embedded again with it, and the
        # same paraphrase is still found first.
        session.settings("meaning")
        session.wait_for("[data-testid=meaning-settings]", 10)
        session.tap("[data-testid=meaning-local]")
        session.tap("[data-testid=meaning-save]")
        wait_until(lambda: "Ready: the built-in multilingual model" in " ".join(session.texts("[data-testid=meaning-state]")), 30,
                   "e5-small not ready")
        wait_until(lambda: "All 6 items embedded" in " ".join(session.texts("[data-testid=meaning-progress]")), 30,
                   "progress not shown")
        desktop.screenshot("settings-memory")
        search("What did I say about my sibling's new position?")
        wait_until(lambda: "enfermera" in first() and not session.find_all("[data-testid=memory-words-only]"), 30,
                   "the paraphrase was not found first with e5-small")

        session.settings("data")
        session.tap("[data-testid=back-up-now]")
        wait_until(lambda: "Backed up to" in " ".join(session.texts("[data-testid=data-note]")), 30, "no backup")
        made = list((data / "backups").glob("sidecar-*.sidecar-backup"))
        assert made, "the backup file exists"
        desktop.screenshot("settings-data")
        # A passphrase set here seals the next backup (an age file, none of its words readable).
        session.send_keys(session.find("[data-testid=seal-passphrase]"), "la maceta turquesa del balcón")
        session.tap("[data-testid=seal-save]")
        wait_until(lambda: "encrypted with your passphrase" in " ".join(session.texts("[data-testid=seal-state]")), 30, "not sealed")
        time.sleep(1.1)  # backup names carry the second they were made
        session.tap("[data-testid=back-up-now]")
        wait_until(lambda: len(list((data / "backups").glob("sidecar-*.sidecar-backup"))) == len(made) + 1, 60, "no sealed backup")
        sealed = next(p for p in (data / "backups").glob("sidecar-*.sidecar-backup") if p not in made)
        content = sealed.read_bytes()
        assert content.startswith(b"age-encryption.org/v1") and b"enfermera" not in content and b"manifest" not in content
        session.script("document.querySelector('[data-testid=backup-seal]').scrollIntoView()")
        desktop.screenshot("settings-data-sealed")
    finally:
        desktop.close(session)


def test_when_embeddinggemma_cannot_start_the_light_one_stands_in_and_settings_says_why(desktop, tmp_path):
    # The runtime folder as installed, but EmbeddingGemma's file damaged (a cut download,
    # a bad disk): its server exits as it starts.
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    installed = Path(desktop.binary).parent.parent / "lib/sidecar"
    for item in installed.iterdir():
        (runtime / item.name).symlink_to(item)
    (runtime / "embeddinggemma-300m-q8_0.gguf").unlink()
    (runtime / "embeddinggemma-300m-q8_0.gguf").write_bytes(b"GGUF" + bytes(4096))
    data = tmp_path / "data"
    # Settings of its own: the test before saves another embedder in the session's.
    session = desktop.launch(data, env={"SIDECAR_EMBEDDINGS": "gemma", "SIDECAR_RUNTIME": str(runtime),
                                        "SIDECAR_CONFIG": str(tmp_path / "settings.toml")})

    def wait_for_text(selector, text, timeout):
        shown = lambda: " ".join(session.texts(selector))
        try:
            wait_until(lambda: text in shown(), timeout, f"{text!r} not shown")
        except TimeoutError as e:
            raise TimeoutError(f"{e}; shown: {shown()}") from e
        return shown()

    try:
        session.settings("meaning")
        session.wait_for("[data-testid=meaning-settings]", 10)
        # Recall by meaning keeps working, with the light embedder...
        wait_for_text("[data-testid=meaning-state]", "Ready: the built-in multilingual model", 60)
        # ...and "automatic" says so, and where to look, instead of naming EmbeddingGemma.
        wait_for_text("[data-testid=meaning-settings] label",
                      "Here: multilingual-e5-small, because EmbeddingGemma-300M did not start", 20)
        desktop.screenshot("settings-memory-stands-in")

        # Chosen outright, EmbeddingGemma says why it did not start and what to do.
        session.tap("[data-testid=meaning-gemma]")
        session.tap("[data-testid=meaning-save]")
        state = wait_for_text("[data-testid=meaning-state]", "its file may be damaged", 60)
        assert "reinstall Sidecar" in state and "choose the light embedder" in state, state
        desktop.screenshot("settings-memory-gemma-damaged")
    finally:
        desktop.close(session)
