"""Sidecar as a person installs it: the .deb that `make test` packs (Tauri's bundler, the
same packaging as `make package`), unpacked with dpkg-deb into a temporary root and run
with a clean HOME, no Python on PATH and nothing pointing back at the source checkout.
The offline model and recall by meaning must work from what the package holds alone."""
import json
import os
import subprocess

import pytest

from conftest import wait_until
from installed import clean_env, desktop_app, unpack

# What a person said once (the same lines as the core's recall-by-meaning test).
HISTORY = [
    ("user", "Mi hermana Laura empezó a trabajar como enfermera en el hospital La Fe."),
    ("assistant", "¡Qué buena noticia para Laura!"),
    ("user", "Yesterday I fixed the kitchen tap with a new washer."),
    ("assistant", "Nice, dripping taps are the worst."),
    ("user", "Estoy leyendo una novela de ciencia ficción muy larga."),
    ("assistant", "¿Cuál es?"),
    ("user", "We might go hiking in the Pyrenees in spring."),
    ("assistant", "That sounds lovely."),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return unpack(tmp_path_factory.mktemp("installed"))


def test_the_package_holds_the_offline_runtime(installed):
    runtime = installed / "usr/lib/sidecar"
    assert os.access(runtime / "llama-server", os.X_OK)
    assert (runtime / "SmolLM2-135M-Instruct.Q4_1.gguf").stat().st_size > 90_000_000
    assert (runtime / "e5-small-q4.bin").stat().st_size == 71_622_400
    assert (runtime / "embeddinggemma-300m-q8_0.gguf").stat().st_size == 333_590_464
    notice = (installed / "usr/share/doc/sidecar/copyright").read_text()
    assert "Gemma is provided under and subject to the Gemma Terms of Use" in notice
    assert (installed / "usr/bin/sidecar").exists() and (installed / "usr/bin/sidecar-desktop").exists()
    assert (installed / "usr/share/applications/Sidecar.desktop").exists()
    assert (installed / "usr/share/man/man1/sidecar.1.gz").exists() and (installed / "usr/share/man/man1/sidecar-desktop.1.gz").exists()


def test_the_unpacked_cli_answers_offline_and_recalls_by_meaning_with_no_python(installed, tmp_path):
    home = tmp_path / "home"
    env = clean_env(installed, home)
    sidecar = str(installed / "usr/bin/sidecar")
    ask = subprocess.run([sidecar, "ask", "Hello! Say one short sentence."], env=env, capture_output=True,
                         text=True, timeout=300)
    assert ask.returncode == 0, ask.stderr
    assert ask.stdout.strip(), "the bundled model said nothing"
    data = home / ".local/share/sidecar"
    log = (data / "logs/local-model.log").read_text()
    assert "listening on http://127.0.0.1:" in log, log[-2000:]

    # Recall runs in a home of its own: the small model's reply above is sampled, and a
    # reply that happens to say "new" and "about" (CI, stop 53) is a match by words
    # this check is not about. That a stray match can outrank the paraphrase by
    # meaning is recall's margin, measured in tests/it/meaning.rs and the recall evals.
    light_home = tmp_path / "recalling"
    (light_home / ".config/sidecar").mkdir(parents=True)
    (light_home / ".config/sidecar/settings.toml").write_text('[memory.embeddings]\nbackend = "local"\n')
    recalls_the_paraphrase(installed, light_home, tmp_path / "old.jsonl")
    assert not (light_home / ".local/share/sidecar/logs/embedder.log").exists(), "the light embedder runs in the app"
    # With no settings, the embedder that suits this computer: EmbeddingGemma from 8 GB
    # of memory, run from the package as well.
    auto_home = tmp_path / "auto"
    recalls_the_paraphrase(installed, auto_home, tmp_path / "old.jsonl")
    embedder_log = auto_home / ".local/share/sidecar/logs/embedder.log"
    if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >= 8 << 30:
        log = embedder_log.read_text()
        assert "embeddinggemma-300m-q8_0.gguf" in log and "listening on http://127.0.0.1:" in log, log[-2000:]
    else:
        assert not embedder_log.exists(), "the light embedder below 8 GB"


def recalls_the_paraphrase(installed, home, history):
    """The history imported with the unpacked CLI in `home`, and a paraphrase in another
    language that shares no word with it found first, by meaning."""
    env = clean_env(installed, home)
    sidecar = str(installed / "usr/bin/sidecar")
    history.write_text("\n".join(json.dumps({"role": r, "content": c, "id": f"m{i}"})
                                 for i, (r, c) in enumerate(HISTORY)))
    imported = subprocess.run([sidecar, "import", "--json", str(history)], env=env, capture_output=True,
                              text=True, timeout=300)
    assert imported.returncode == 0, imported.stderr
    found = subprocess.run([sidecar, "recall", "--json", "What did I say about my sibling's new job?"],
                           env=env, capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stderr
    result = json.loads(found.stdout)
    assert result.get("words_only") is None, result
    assert "enfermera" in result["hits"][0]["snippet"], result["hits"]


def test_the_unpacked_app_chats_with_its_bundled_model(installed, desktop, tmp_path):
    """One chat in the installed desktop app, started by a WebDriver of its own with the
    clean environment (the shared one carries the test venv's PATH)."""
    with desktop_app(installed, tmp_path / "home", "package") as session:
        session.wait_for("[data-testid=composer]", 30)
        session.send_keys(session.find("[data-testid=composer]"), "Hello! Say one short sentence.\ue007")
        wait_until(lambda: session.find_all("[data-testid=message-assistant]") and not session.find_all("[data-testid=stop]"),
                   240, "no complete reply from the bundled model")
        assert session.texts("[data-testid=message-assistant] .content")[-1].strip()
        badge = session.texts("[data-testid=model-badge]")[0]
        assert "Demo" in badge, badge
        desktop.screenshot("package-chat")
