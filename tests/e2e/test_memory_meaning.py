"""Memory by meaning in the real app: history imported with the real CLI (which embeds
it with the local multilingual model) is found by the Memory search from a paraphrase in
another language that shares no word with it (words alone miss it: tests/it/meaning.rs); Settings shows the embedder ready and
everything embedded; switched to EmbeddingGemma, everything is embedded again and the
paraphrase is still found; and Back up now writes a backup."""
import json
import subprocess
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

    session = desktop.launch(data)
    try:
        session.click(session.find("[data-testid=nav-memory]"))
        session.wait_for("[data-testid=memory-search]", 10)
        session.send_keys(session.find("[data-testid=memory-search]"), "What did I say about my sibling's new position?")
        # The search follows the typing: wait for the answer to the whole question.
        first = lambda: (session.texts("[data-testid=recall-hit]") or [""])[0]
        wait_until(lambda: "enfermera" in first(), 20, "the paraphrase was not found first")
        assert not session.find_all("[data-testid=memory-words-only]"), "meaning was used"
        desktop.screenshot("memory-meaning")

        session.settings("meaning")
        session.wait_for("[data-testid=meaning-settings]", 10)
        wait_until(lambda: "Ready" in " ".join(session.texts("[data-testid=meaning-state]")), 20, "embedder not ready")
        wait_until(lambda: "All 6 items embedded" in " ".join(session.texts("[data-testid=meaning-progress]")), 30,
                   "progress not shown")
        desktop.screenshot("settings-memory")

        # The larger embedder: chosen here, everything is embedded again with it, and the
        # same paraphrase is still found first.
        session.tap("[data-testid=meaning-gemma]")
        session.tap("[data-testid=meaning-save]")
        wait_until(lambda: "Ready: EmbeddingGemma" in " ".join(session.texts("[data-testid=meaning-state]")), 60,
                   "EmbeddingGemma not ready")
        wait_until(lambda: "All 6 items embedded" in " ".join(session.texts("[data-testid=meaning-progress]")), 60,
                   "not embedded again")
        desktop.screenshot("settings-memory-gemma")
        assert "embeddinggemma-300m-q8_0.gguf" in (data / "logs/embedder.log").read_text()
        session.click(session.find("[data-testid=nav-memory]"))
        session.wait_for("[data-testid=memory-search]", 10)
        session.script("document.querySelector('[data-testid=memory-search]').select()")
        session.send_keys(session.find("[data-testid=memory-search]"), "What did I say about my sibling's new position?")
        wait_until(lambda: "enfermera" in first() and not session.find_all("[data-testid=memory-words-only]"), 30,
                   "the paraphrase was not found first with EmbeddingGemma")

        session.settings("data")
        session.tap("[data-testid=back-up-now]")
        wait_until(lambda: "Backed up to" in " ".join(session.texts("[data-testid=data-note]")), 30, "no backup")
        assert list((data / "backups").glob("sidecar-*.sidecar-backup")), "the backup file exists"
        desktop.screenshot("settings-data")
    finally:
        desktop.close(session)
