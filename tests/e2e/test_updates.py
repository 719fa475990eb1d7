"""Updates as a person who installed the .deb meets them: Settings → About looks at a
loopback release with a newer version, signed by the same release script a maintainer
runs (`scripts/release-manifest.py`), shows what changed, and installs it only after the
user says yes. A package signed with a stranger's key is refused and nothing installs.

The updater is Tauri's real plugin in the unpacked app. The one stand-in is `pkexec`: it
needs a polkit agent and a password, so here it installs into the test's unpacked root
instead of the system, and notes what it was asked."""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, free_port, port_open, wait_until
from installed import desktop_app, package, unpack

NEWER = "0.2.0"
NOTES = "- Reminders ring on time after the laptop sleeps.\n- Recall finds paraphrases in Spanish."
TAURI = ROOT / "ui/node_modules/.bin/tauri"


def generate_key(path: Path) -> str:
    subprocess.run([str(TAURI), "signer", "generate", "--ci", "-p", "", "-w", str(path)], check=True,
                   capture_output=True, env={**os.environ, "CI": "true"})
    return Path(f"{path}.pub").read_text().strip()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """A newer version of the package under test, published twice on loopback: signed
    with the key the app trusts, and signed with a stranger's key."""
    work = tmp_path_factory.mktemp("release")
    trusted = generate_key(work / "trusted.key")
    generate_key(work / "stranger.key")
    # The same package as version NEWER: what a maintainer's next build would be. Only the
    # control member changes; the payload is the package's own (repacking 250 MB cost 20 s).
    raw = work / "raw"
    (raw / "control").mkdir(parents=True)
    subprocess.run(["ar", "x", str(package())], cwd=raw, check=True)
    subprocess.run(["tar", "-xzf", "control.tar.gz", "-C", "control"], cwd=raw, check=True)
    control = raw / "control/control"
    control.write_text("".join(f"Version: {NEWER}\n" if line.startswith("Version:") else line
                               for line in control.read_text().splitlines(keepends=True)))
    subprocess.run(["tar", "--owner=0", "--group=0", "-czf", "control.tar.gz", "-C", "control", "."], cwd=raw, check=True)
    newer = work / f"Sidecar_{NEWER}_amd64.deb"
    subprocess.run(["ar", "rcD", str(newer), "debian-binary", "control.tar.gz", "data.tar.gz"], cwd=raw, check=True)
    (raw / "data.tar.gz").unlink()
    (work / "notes.md").write_text(NOTES)
    port = free_port()
    for name, key in [("good", "trusted.key"), ("bad", "stranger.key")]:
        subprocess.run([sys.executable, str(ROOT / "scripts/release-manifest.py"), "--version", NEWER,
                        "--base-url", f"http://127.0.0.1:{port}/{name}", "--notes-file", str(work / "notes.md"),
                        "--out", str(work / name), str(newer)], check=True,
                       env={**os.environ, "TAURI_SIGNING_PRIVATE_KEY_PATH": str(work / key), "TAURI_SIGNING_PRIVATE_KEY_PASSWORD": ""})
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(work)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: port_open(port), 30, "the release server is not listening")
    yield {"port": port, "trusted": trusted, "newer": newer}
    server.terminate()
    server.wait(10)


def stand_in_installer(bin_dir: Path, root: Path, asked: Path):
    """`pkexec dpkg -i PACKAGE` as the plugin runs it, done into the unpacked root."""
    bin_dir.mkdir()
    script = bin_dir / "pkexec"
    script.write_text(f"""#!/bin/sh
PATH=/usr/bin:/bin
exec 2>> '{asked}.err'
echo "$@" >> '{asked}.log'
[ "$1" = dpkg ] && [ "$2" = -i ] || exit 1
cp "$3" '{asked}' && /usr/bin/dpkg-deb -x "$3" '{root}' && /usr/bin/dpkg-deb -f "$3" Version > '{root}/installed-version'
""")
    script.chmod(0o755)


def test_about_installs_a_signed_update_after_asking_and_refuses_a_strangers(release, desktop, tmp_path):
    root = unpack(tmp_path / "root")
    asked = tmp_path / "installed.deb"
    stand_in_installer(tmp_path / "bin", root, asked)
    home = tmp_path / "home"
    config = home / ".config/sidecar"
    config.mkdir(parents=True)
    base = f"http://127.0.0.1:{release['port']}"
    (config / "settings.toml").write_text(f'[updates]\naddress = "{base}/bad/latest.json"\npublic_key = "{release["trusted"]}"\n')

    with desktop_app(root, home, "updates", path_first=[tmp_path / "bin"]) as session:
        session.settings("about")
        # The section shows before the core has said how Sidecar was installed.
        session.wait_for("[data-testid=about-format]", 15)
        assert session.texts("[data-testid=about-format]") == ["Installed from a .deb package."]
        assert session.texts("[data-testid=about-version]") == ["Sidecar 0.1.0"]

        def look_and_install():
            session.tap("[data-testid=update-look]")
            session.wait_for("[data-testid=update-offer]", 30)
            offer = session.texts("[data-testid=update-offer]")[0]
            assert f"Sidecar {NEWER} is available" in offer and "Reminders ring on time after the laptop sleeps." in offer, offer
            session.tap("[data-testid=update-install]")
            assert "Install Sidecar 0.2.0 now?" in session.texts("[data-testid=update-confirm]")[0]
            session.tap("[data-testid=update-confirm-yes]")

        # A stranger's signature: downloaded, refused, never handed to the installer.
        look_and_install()
        session.wait_for("[data-testid=update-failed]", 120)
        refused = session.texts("[data-testid=update-failed]")[0]
        assert "signature does not match" in refused and "Nothing was installed" in refused, refused
        assert not asked.exists() and not Path(f"{asked}.log").exists()
        assert not session.find_all("[data-testid=update-retry]"), "the same package would be refused again"
        desktop.screenshot("about-update-refused")

        # The address is a setting: the release signed with the trusted key.
        field = session.find("[data-testid=update-address]")
        session.send_keys(field, "\ue009a")
        session.send_keys(field, f"{base}/good/latest.json\ue007")
        wait_until(lambda: "Saved" in "".join(session.texts("[data-testid=update-address-note]")), 10,
                   f"the address was not saved: {session.texts('[data-testid=update-address-note]')} {session.script('return document.querySelector(arguments[0]).value', '[data-testid=update-address]')}")
        assert f"{base}/good/latest.json" in (config / "settings.toml").read_text()

        look_and_install()
        session.wait_for("[data-testid=update-installed], [data-testid=update-failed]", 180)
        err = Path(f"{asked}.err")
        assert not session.find_all("[data-testid=update-failed]"), (session.texts("[data-testid=update-failed]"), err.read_text() if err.exists() else "")
        assert session.texts("[data-testid=update-installed]")[0].startswith(f"Sidecar {NEWER} is installed.")
        desktop.screenshot("about-update-installed")
    assert Path(f"{asked}.log").read_text().split()[:2] == ["dpkg", "-i"]
    assert sha256(asked) == sha256(release["newer"]), "the installer got the package the release published"
    assert (root / "installed-version").read_text().strip() == NEWER
