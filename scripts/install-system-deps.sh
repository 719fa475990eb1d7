#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Sidecar needs to build, run and test, if any are
# missing (with --packaging, also what `make package` needs). Idempotent and quick
# when everything is there.
set -euo pipefail

packages=(
  # Tauri 2 on Linux
  libwebkit2gtk-4.1-dev build-essential curl wget file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev libgtk-3-dev pkg-config
  # D-Bus client library (the keychain)
  libdbus-1-dev
  # ALSA's headers: the microphone (cpal) falls back to ALSA where no sound server runs
  libasound2-dev
  # Spoken replies, in Spanish and English (a separate program; the packages depend on it)
  espeak-ng
  # Headless desktop for end-to-end tests: X server, D-Bus, notification daemon,
  # WebDriver for WebKitGTK, key presses and screenshots
  xvfb xauth dbus dbus-x11 webkit2gtk-driver dunst xdotool imagemagick
  # A browser and its WebDriver: the web app a home core serves to a phone, tested at a
  # phone's size
  chromium chromium-driver
  # A compositor, so the character on the desktop is tested see-through and without
  xcompmgr
  # A real Secret Service (the keychain) for tests of API-key storage
  gnome-keyring
  # llama.cpp's server, compiled from source for the offline model; pip fetches the
  # source and the models' packages (scripts/build-runtime.sh)
  cmake python3-pip
  # Python venv for the tests' driver and fixture servers (not needed to run Sidecar)
  python3-venv
  # Speech to text's tests: people reading, with what they said (CMU Sphinx's test
  # data), and opusenc to make voice notes of it as the phone sends them
  pocketsphinx-testdata opus-tools
  # A sound server of the tests' own, with a virtual microphone fed by a null sink
  pulseaudio pulseaudio-utils
  # A real IMAP server for the mail tests, started by each test on loopback with its
  # own configuration (the system's service is stopped if this script installed it)
  dovecot-imapd
)
# `make package`: the Debian package checker (the .deb and .rpm are built by Tauri's
# own bundler, which needs no rpmbuild).
if [ "${1:-}" = "--packaging" ]; then
  packages+=(lintian)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "Installing system packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  # The tests start their own Dovecot; a mail server this script brought is not left
  # listening on the machine.
  if [[ " ${missing[*]} " == *" dovecot-imapd "* ]] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    $sudo systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true
  fi
fi

for tool in cargo node npm python3; do
  if ! command -v "$tool" >/dev/null; then
    case "$tool" in
      cargo) echo "Rust is missing: install it from https://rustup.rs and run this again." ;;
      node|npm) echo "Node.js 20.19+ with npm is missing: install it (https://nodejs.org) and run this again." ;;
      python3) echo "python3 is missing: apt-get install python3 python3-venv" ;;
    esac
    exit 1
  fi
done
