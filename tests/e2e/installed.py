"""Sidecar as a person installs it: the .deb that `make test` packs, unpacked into a
temporary root, and the clean environment of a fresh user who runs it."""
import glob
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import ROOT, ARTIFACTS, end_app, free_port, port_open, wait_until
from webdriver import Session


def package():
    named = os.environ.get("SIDECAR_TEST_DEB")
    found = [named] if named else sorted(glob.glob(str(ROOT / "target/*/bundle/deb/*.deb")), key=os.path.getmtime)
    if not found or not Path(found[-1]).exists():
        pytest.fail("no .deb to install: `make test` packs one (make test-deb)")
    return found[-1]


def unpack(into: Path):
    subprocess.run(["dpkg-deb", "-x", package(), str(into)], check=True)
    return into


def clean_env(root: Path, home: Path, path_first=(), **extra):
    """A fresh user's environment: the package's own programs on PATH and nothing else
    (but `path_first`, stand-ins a test puts before them)."""
    home.mkdir(parents=True, exist_ok=True)
    path = os.pathsep.join([*map(str, path_first), str(root / "usr/bin")])
    env = {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", "SIDECAR_LANG": "en", **extra}
    assert shutil.which("python3", path=env["PATH"]) is None and shutil.which("python", path=env["PATH"]) is None
    return env


@contextmanager
def desktop_app(root: Path, home: Path, name: str, path_first=()):
    """The unpacked desktop app, started by a WebDriver of its own with the clean
    environment (the shared one carries the test venv's PATH), past the welcome."""
    env = clean_env(root, home, path_first, DISPLAY=os.environ["DISPLAY"], DBUS_SESSION_BUS_ADDRESS=os.environ["DBUS_SESSION_BUS_ADDRESS"],
                    TAURI_WEBVIEW_AUTOMATION="true", WEBKIT_DISABLE_COMPOSITING_MODE="1",
                    # The light embedder, as in the other end-to-end tests: "automatic" would
                    # start EmbeddingGemma's server beside every launch here (the package's
                    # CLI test runs it).
                    SIDECAR_EMBEDDINGS="local")
    port = free_port()
    driver = subprocess.Popen(["/usr/bin/WebKitWebDriver", f"--port={port}"], env=env,
                              stdout=open(ARTIFACTS / f"{name}-webdriver.log", "w"), stderr=subprocess.STDOUT)
    session = None
    try:
        wait_until(lambda: port_open(port), 10, "WebKitWebDriver not listening")
        data = home / ".local/share/sidecar"
        data.mkdir(parents=True, exist_ok=True)
        (data / "welcome.done").touch()
        session = Session(f"http://127.0.0.1:{port}", str(root / "usr/bin/sidecar-desktop"))
        yield session
    finally:
        if session:
            session.quit()
        driver.terminate()
        driver.wait(10)
        end_app(root / "usr/bin/sidecar-desktop")
