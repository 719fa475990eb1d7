#!/usr/bin/env python3
"""Prints Sidecar's measured figures (run by `make figures`, under dbus-run-session):

- idle footprint: PSS of the release app and its WebKit processes after 12 s idle,
  beside an empty Tauri window built and measured in the same run, and the offline
  model server's own PSS;
- launch to interactive: from starting the app to the composer being in the page with
  the conversation loaded, median of several launches (WebDriver).

No assertions: these are figures to read.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/e2e"))
os.environ.setdefault("SIDECAR_APP", str(ROOT / "target/release/sidecar-desktop"))
import conftest  # noqa: E402
from conftest import Desktop  # noqa: E402
from webdriver import Session  # noqa: E402

conftest.ARTIFACTS = ROOT / ".figures"
conftest.ARTIFACTS.mkdir(exist_ok=True)


def pss_kb(pid):
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid):
    """pid and all its descendants, with their command names."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,comm="], capture_output=True, text=True).stdout
    children, names = {}, {}
    for line in out.splitlines():
        p, pp, comm = line.split(None, 2)
        children.setdefault(int(pp), []).append(int(p))
        names[int(p)] = comm
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append((p, names.get(p, "?")))
        todo.extend(children.get(p, []))
    return found


def footprint(binary, env, args, settle=12):
    proc = subprocess.Popen([binary, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(settle)
    parts = {}
    for pid, name in tree(proc.pid):
        key = "python (offline model)" if name.startswith("python") else name
        parts[key] = parts.get(key, 0) + pss_kb(pid)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return parts


def show(title, parts):
    print(title)
    ui_total = 0
    for name, kb in sorted(parts.items()):
        print(f"  {name:<28} {kb / 1024:7.1f} MB")
        if not name.startswith("python"):
            ui_total += kb
    print(f"  {'app + WebKit total':<28} {ui_total / 1024:7.1f} MB")
    return ui_total


def launch_times(desktop, rounds=5):
    times = []
    for i in range(rounds):
        data = Path(tempfile.mkdtemp())
        started = time.perf_counter()
        session = Session(f"http://127.0.0.1:{desktop.webdriver_port}", desktop.binary, ["--data-dir", str(data)])
        while not session.script(
            "return !!document.querySelector('[data-testid=composer]') && "
            "!!document.querySelector('[data-testid=empty-state],[data-testid=message-list]')"
        ):
            time.sleep(0.005)
        times.append(time.perf_counter() - started)
        desktop.close(session)
    return times


def main():
    desktop = Desktop(Path(tempfile.mkdtemp()))
    try:
        env = dict(desktop.env)
        env.pop("WEBKIT_DISABLE_COMPOSITING_MODE", None)  # measure the default
        data = Path(tempfile.mkdtemp())
        baseline_bin = str(ROOT / "target/release/empty-window")
        print("Idle footprint (PSS after 12 s; release build; Xvfb):")
        base = show("empty Tauri window (baseline, Tauri's defaults):", footprint(baseline_bin, env, []))
        # Sidecar draws without GPU compositing (window::render_in_software); the same
        # empty window drawn that way shows what Sidecar itself adds.
        flat = show("empty Tauri window, compositing off too:", footprint(baseline_bin, dict(env, WEBKIT_DISABLE_COMPOSITING_MODE="1"), []))
        (data / "welcome.done").touch()  # the chat, as a returning user leaves it open
        app = show("Sidecar on the chat (offline model running):", footprint(desktop.binary, env, ["--data-dir", str(data)]))
        print(f"Sidecar against the empty window: {app / base:.2f}x ({(app - base) / 1024:+.1f} MB); "
              f"against the same window without compositing: {app / flat:.2f}x ({(app - flat) / 1024:+.1f} MB)")
        times = launch_times(desktop)
        print(
            f"Launch to interactive (composer shown, conversation loaded), {len(times)} launches: "
            f"median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms (includes WebDriver session start)"
        )
    finally:
        for pid in desktop.app_pids():
            os.kill(pid, 15)
        desktop.stop()


if __name__ == "__main__":
    main()
