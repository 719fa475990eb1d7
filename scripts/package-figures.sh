#!/usr/bin/env bash
# Figures of the packages `make package` built: size per format, and the time from
# unpacking the .deb to the first reply of its bundled model, run as a fresh user with no
# Python on PATH (`dpkg-deb -x` stands in for `apt install`, which needs root).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -t target/release/bundle/deb/*.deb | head -1)
for package in "$deb" $(ls -t target/release/bundle/rpm/*.rpm | head -1); do
  echo "$(basename "$package"): $(du -m "$package" | cut -f1) MiB"
done
root=$(mktemp -d) home=$(mktemp -d)
trap 'rm -rf "$root" "$home"' EXIT
now() { date +%s%N; }
t0=$(now)
dpkg-deb -x "$deb" "$root"
t1=$(now)
env -i HOME="$home" PATH="$root/usr/bin" LANG=C.UTF-8 "$root/usr/bin/sidecar" ask "Hello! Say one short sentence." >/dev/null 2>&1
t2=$(now)
env -i HOME="$home" PATH="$root/usr/bin" LANG=C.UTF-8 "$root/usr/bin/sidecar" ask "And another one." >/dev/null 2>&1
t3=$(now)
ms() { echo $(( ($2 - $1) / 1000000 )); }
echo "installed size: $(du -sm "$root" | cut -f1) MiB"
echo "unpack: $(ms "$t0" "$t1") ms; first reply of the bundled model (the worker starts, loads the model, answers): $(ms "$t1" "$t2") ms; install to first reply: $(ms "$t0" "$t2") ms"
echo "a second question (the worker starts again, files now in the page cache): $(ms "$t2" "$t3") ms"
