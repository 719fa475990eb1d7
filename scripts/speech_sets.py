#!/usr/bin/env python3
"""Lays out the speech sets the speech-to-text benchmark reads (crates/voice/benches/speech.rs),
recordings made by people with what they said, none of them ours:

- FLEURS (Google, CC BY 4.0): native speakers reading Wikipedia sentences, 10 Spanish and
  10 English clips as OGG/Opus at 24 kbit/s, from the test fixtures of
  sebastian-software/cuttledoc (MIT); clips 000-004 are the development part, 005-009 the
  test part;
- LibriVox read English (CMU Sphinx's test data, Debian's pocketsphinx-testdata, BSD-2):
  5 clips, development part;
- Asterisk's Spanish prompts (Debian's asterisk-core-sounds-es-g722 and the transcripts in
  asterisk-core-sounds-es, CC BY-SA 3.0): one Mexican voice actor (Allison) reading the
  telephone system's sentences, 16 kHz G.722 decoded with PyPI's g722 (public domain). The
  prompts of three words or more without digits in the text (a digit can be heard either
  way) and without sounds in brackets; sorted by name, alternately development and test.
  Their transcripts are written mostly without accents ("numero", "contrasena"), so the
  benchmark compares this set with accents folded.

Nothing here is in the repository: SOURCE is the cuttledoc checkout or git directory the
tool library's fetch brings; the Debian packages are fetched with `apt-get download` and g722
is installed into OUT-tools. Layout: OUT/<set>-<lang>/<part>/<name>.{ogg,wav,txt}.

Usage: speech_sets.py SOURCE OUT
"""

import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FIXTURES = "packages/cuttledoc/fixtures"
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
ASTERISK = ("asterisk-core-sounds-es-g722", "asterisk-core-sounds-es")
ASTERISK_VOICE = "usr/share/asterisk/sounds/es_MX_f_Allison"
ASTERISK_SAID = "usr/share/doc/asterisk-core-sounds-es/core-sounds-es.txt.gz"
G722 = "g722==1.2.8"
# Decodes each G.722 file named on standard input to a 16 kHz mono 16-bit WAV beside it.
DECODE = """
import sys, wave, G722
for line in sys.stdin:
    path = line.strip()
    pcm = G722.G722(16000, 64000).decode(open(path, "rb").read())
    with wave.open(path[: -len(".g722")] + ".wav", "wb") as out:
        out.setnchannels(1); out.setsampwidth(2); out.setframerate(16000); out.writeframes(pcm.tobytes())
"""


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
    asterisk(out)
    print(f"speech sets in {out}: {sum(1 for _ in out.rglob('*.txt'))} clips")


def asterisk(out: Path) -> None:
    tools = out.with_name(out.name + "-tools")
    if not (tools / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
        subprocess.run([str(tools / "bin" / "pip"), "install", "--quiet", G722], check=True)
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        subprocess.run(["apt-get", "download", *ASTERISK], cwd=temp, check=True, capture_output=True)
        for deb in temp.glob("*.deb"):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(temp / "x")], check=True)
        said = {}
        for line in gzip.decompress((temp / "x" / ASTERISK_SAID).read_bytes()).decode("utf-8").splitlines():
            name, sep, words = line.partition(": ")
            if sep and "/" not in name and "[" not in words and not any(c.isdigit() for c in words) and len(words.split()) >= 3:
                said[name.strip()] = words.strip()
        names = sorted(n for n in said if (temp / "x" / ASTERISK_VOICE / f"{n}.g722").is_file())
        recordings = []
        for i, name in enumerate(names):
            folder = out / "asterisk-es" / ("dev" if i % 2 == 0 else "test")
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(temp / "x" / ASTERISK_VOICE / f"{name}.g722", folder / f"{name}.g722")
            (folder / f"{name}.txt").write_text(said[name] + "\n")
            recordings.append(str(folder / f"{name}.g722"))
        subprocess.run([str(tools / "bin" / "python"), "-c", DECODE], input="\n".join(recordings), text=True, check=True)
        for recording in recordings:
            Path(recording).unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
