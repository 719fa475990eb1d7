#!/usr/bin/env python3
"""Prints Sidecar's measured figures (run by `make figures`, under dbus-run-session):

- idle footprint: PSS of the release app and its WebKit processes after 12 s idle,
  beside an empty Tauri window built and measured in the same run, and the offline
  model server's own PSS;
- launch to interactive: from starting the app to the composer being in the page with
  the conversation loaded, median of several launches (WebDriver);
- the character on the desktop: the app's PSS and idle CPU with the character hidden
  and shown (see-through, with a compositor running).

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


def cpu_ticks(pid):
    """utime + stime of one process, in clock ticks."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def is_model(name):
    """The offline model's worker (llama.cpp's server), counted apart from the app."""
    return name.startswith("llama-server")


def idle_with_cpu(binary, env, args, settle=12, window=0):
    """PSS per process name after `settle` s, and the CPU the app and WebKit used over
    the next `window` s, in % of one core (the offline model's server left out)."""
    proc = subprocess.Popen([binary, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(settle)
    ours = [(pid, name) for pid, name in tree(proc.pid) if not is_model(name)]
    before = sum(cpu_ticks(pid) for pid, _ in ours)
    time.sleep(window)
    used = sum(cpu_ticks(pid) for pid, _ in ours) - before
    parts = {}
    for pid, name in tree(proc.pid):
        key = "llama-server (offline model)" if is_model(name) else name
        parts[key] = parts.get(key, 0) + pss_kb(pid)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return parts, 100.0 * used / (os.sysconf("SC_CLK_TCK") * window) if window else 0.0


def footprint(binary, env, args, settle=12):
    return idle_with_cpu(binary, env, args, settle)[0]


def character_figures(desktop, env, rounds=3):
    """The app idle on the chat with the character hidden, then shown, with a compositor
    running (the character is see-through and animates). Launches alternate, after one
    to warm the caches; medians of `rounds` each."""
    compositor = subprocess.Popen(["xcompmgr"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def launch(shown, window=30):
        data = Path(tempfile.mkdtemp())
        (data / "welcome.done").touch()
        config = data / "settings.toml"
        config.write_text(f"[desktop]\ncharacter = {'true' if shown else 'false'}\n")
        parts, cpu = idle_with_cpu(desktop.binary, env, ["--data-dir", str(data), "--config", str(config)], window=window)
        return sum(kb for name, kb in parts.items() if not is_model(name)) / 1024, cpu

    try:
        launch(False, window=1)
        results = {False: [], True: []}
        for _ in range(rounds):
            for shown in (False, True):
                results[shown].append(launch(shown))
        print(f"The character on the desktop (release build; Xvfb with xcompmgr; idle on the chat, 12 s settle, CPU over 30 s; median of {rounds}):")
        medians = {}
        for shown, runs in results.items():
            mb, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            medians[shown] = (mb, cpu)
            each = ", ".join(f"{r[0]:.0f} MB/{r[1]:.2f}%" for r in runs)
            print(f"  character {'shown ' if shown else 'hidden'}: app + WebKit {mb:6.1f} MB PSS, CPU {cpu:4.2f}% of one core  ({each})")
        print(f"  the character adds {medians[True][0] - medians[False][0]:+.1f} MB and {medians[True][1] - medians[False][1]:+.2f} points of CPU "
              "(goals: at most 25 MB, 1%)")
    finally:
        compositor.terminate()
        compositor.wait(5)


def show(title, parts):
    print(title)
    ui_total = 0
    for name, kb in sorted(parts.items()):
        print(f"  {name:<28} {kb / 1024:7.1f} MB")
        if not is_model(name):
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
        character_figures(desktop, env)
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
