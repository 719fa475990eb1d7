#!/usr/bin/env python3
"""Lays out the speech sets the speech-to-text benchmark reads (crates/voice/benches/speech.rs),
recordings made by people with what they said, none of them ours:

- FLEURS (Google, CC BY 4.0): native speakers reading Wikipedia sentences, 10 Spanish and
  10 English clips as OGG/Opus at 24 kbit/s, from the test fixtures of
  sebastian-software/cuttledoc (MIT); clips 000-004 are the development part, 005-009 the
  test part;
- LibriVox read English (CMU Sphinx's test data, Debian's pocketsphinx-testdata, BSD-2):
  5 clips, development part.

Nothing here is in the repository: SOURCE is the cuttledoc checkout or git directory the
tool library's fetch brings. Layout: OUT/<set>-<lang>/<part>/<name>.{ogg,wav,txt}.

Usage: speech_sets.py SOURCE OUT
"""

import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = "packages/cuttledoc/fixtures"
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")


def read(source: Path, path: str) -> bytes:
    if (source / path).exists():
        return (source / path).read_bytes()
    return subprocess.run(["git", "--git-dir", str(source), "show", f"HEAD:{path}"], check=True, capture_output=True).stdout


def main(source: Path, out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)
    for lang in ("es", "en"):
        for i in range(10):
            part = "dev" if i < 5 else "test"
            folder = out / f"fleurs-{lang}" / part
            folder.mkdir(parents=True, exist_ok=True)
            name = f"fleurs-{lang}-{i:03}"
            (folder / f"{name}.ogg").write_bytes(read(source, f"{FIXTURES}/{name}.ogg"))
            (folder / f"{name}.txt").write_bytes(read(source, f"{FIXTURES}/{name}.txt"))
    folder = out / "librivox-en" / "dev"
    folder.mkdir(parents=True)
    for line in (LIBRIVOX / "transcription").read_text().splitlines():
        words, clip = line.rsplit(" (", 1)
        clip = clip.rstrip(")")
        shutil.copy(LIBRIVOX / f"{clip}.wav", folder / f"{clip}.wav")
        (folder / f"{clip}.txt").write_text(words.replace("<s>", "").replace("</s>", "").strip() + "\n")
    print(f"speech sets in {out}: {sum(1 for _ in out.rglob('*.txt'))} clips")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
