"""A headless desktop for end-to-end tests of the real app binary: Xvfb, the D-Bus
session (this runs under dbus-run-session), a notification daemon (dunst) whose
traffic is logged by dbus-monitor, a StatusNotifierWatcher for the tray, and
WebKitWebDriver to drive the webview.

Artifacts (logs, screenshots) go to .e2e/ in the repository.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from webdriver import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# `E2E_SHARD` names one of the suites `make test-e2e` runs side by side: each has its own
# D-Bus session, display, artifacts and app processes.
SHARD = os.environ.get("E2E_SHARD", "")
ARTIFACTS = ROOT / ".e2e" / SHARD


# Where the header's tabs and its controls sit: one row when their tops meet.
HEADER_ROWS = """
const h = document.querySelector('header');
const nav = h.querySelector('nav').getBoundingClientRect();
const right = h.querySelector('.header-right').getBoundingClientRect();
return {nav: Math.round(nav.top), right: Math.round(right.top), height: Math.round(h.getBoundingClientRect().height), width: window.innerWidth};
"""


def one_header_row(found):
    return abs(found["nav"] - found["right"]) < 12 and found["height"] < 64


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def soon(seconds):
    """An RFC 3339 instant `seconds` from now, as the "when" of a reminder."""
    import datetime
    at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def add_reminder_on_page(session, what, seconds):
    """Sets a reminder due in `seconds` through the Reminders page, once the page shows
    the time it read."""
    session.click(session.wait_for("[data-testid=nav-reminders]", 20))
    session.wait_for("[data-testid=reminders-view]", 20)  # the page's code loads on first open
    # The two-field form. A window that reloads onto a home core late shows the page
    # anew with the one-sentence form: the switch is pressed again until the field shows.
    deadline = time.time() + 20
    while not session.find_all("[data-testid=reminder-what]"):
        if time.time() > deadline:
            raise TimeoutError("the two-field reminder form did not show after 20s")
        toggles = session.find_all("[data-testid=toggle-form]")
        if toggles:
            session.click(toggles[0])
        time.sleep(0.5)
    session.send_keys(session.wait_for("[data-testid=reminder-what]", 10), what)
    session.send_keys(session.find("[data-testid=reminder-when]"), soon(seconds))
    wait_until(lambda: session.find_all("[data-testid=when-preview] .ok-text"), 10, "no parsed time shown")
    session.click(session.find("[data-testid=add-reminder]"))


def wait_until(check, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise TimeoutError(f"{what} after {timeout}s")


def app_pids(binary) -> list[int]:
    """The processes running the app binary at this path on this run's display (another
    shard's apps are not this one's)."""
    return pids_on_display(["-f", f"^{binary}"])


def pids_on_display(pgrep_args) -> list[int]:
    """The processes `pgrep` finds with these arguments that run on this run's display."""
    out = subprocess.run(["pgrep", *pgrep_args], capture_output=True, text=True)
    display = os.environ.get("DISPLAY", "")
    return [int(p) for p in out.stdout.split() if on_display(int(p), display)]


def on_display(pid, display):
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    return not display or f"DISPLAY={display}".encode() in environ


def end_app(binary):
    """Makes sure the app is gone once its WebDriver session ended: the driver does not
    always take it along, and one left running keeps the single-instance lock, so every
    later test's app would only focus it."""
    try:
        wait_until(lambda: not app_pids(binary), 5, "app still running")
    except TimeoutError:
        for pid in app_pids(binary):
            os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not app_pids(binary), 10, "app ignored SIGTERM")


class Desktop:
    """The running headless session and how to launch the app into it."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs = []
        self.binary = os.environ.get("SIDECAR_APP") or str(ROOT / "target/debug/sidecar-desktop")
        if not Path(self.binary).exists():
            pytest.exit(f"app binary {self.binary} not built (run make build)", 2)
        if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
            pytest.exit("run under dbus-run-session (make test-e2e does)", 2)
        self.display = f":{free_display()}"
        os.environ["DISPLAY"] = self.display
        self.start("xvfb", ["Xvfb", self.display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        wait_until(lambda: Path(f"/tmp/.X11-unix/X{self.display[1:]}").exists(), 10, "Xvfb not up")
        self.notify_log = ARTIFACTS / "notify.log"
        # Calls and signals of the notification service, and its answers (the ids a
        # test needs to press a notification's button).
        self.start("dbus-monitor", ["dbus-monitor", "interface=org.freedesktop.Notifications",
                                    "type=method_return,sender=org.freedesktop.Notifications"],
                   stdout=open(self.notify_log, "w"))
        self.start("dunst", ["dunst"])
        # A real keychain (Secret Service), unlocked, with its files in this run's tmp.
        keyring_home = tmp / "keyring-home"
        keyring_home.mkdir()
        keyring_env = dict(os.environ, HOME=str(keyring_home), XDG_DATA_HOME=str(keyring_home / "share"))
        subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"], input=b"e2e-password\n",
                       env=keyring_env, capture_output=True, timeout=20, check=True)
        watcher_log = ARTIFACTS / "watcher.log"
        self.start("watcher", [sys.executable, "-u", str(Path(__file__).parent / "sni_watcher.py")],
                   stdout=open(watcher_log, "w"))
        wait_until(lambda: "watcher ready" in watcher_log.read_text(), 10, "tray watcher not ready")
        # Everything the app reads from the environment is pinned to this run.
        env = dict(os.environ)
        env.update({
            "TAURI_WEBVIEW_AUTOMATION": "true",
            "XDG_CONFIG_HOME": str(tmp / "config"),
            # Launch at login writes ~/.config/autostart: this run's, not the machine's.
            "HOME": str(tmp / "home"),
            "XDG_DATA_HOME": str(tmp / "data"),
            "SIDECAR_CONFIG": str(tmp / "config/no-settings.toml"),
            "SIDECAR_LANG": "en",
            "WEBKIT_DISABLE_COMPOSITING_MODE": "1",
            # "Automatic" would be EmbeddingGemma on a computer with 8 GB: a 1 GB server
            # beside every launch that chats. Tests about it launch with `env=`.
            "SIDECAR_EMBEDDINGS": "local",
        })
        self.env = env
        self.webdriver_port = free_port()
        self.start("webdriver", ["WebKitWebDriver", f"--port={self.webdriver_port}"], env=env)
        wait_until(lambda: port_open(self.webdriver_port), 10, "WebKitWebDriver not listening")

    def start(self, name, argv, stdout=None, env=None):
        log = stdout or open(ARTIFACTS / f"{name}.log", "w")
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.procs.append(proc)
        return proc

    def launch(self, data_dir: Path, extra_args=(), first_launch=False, env=None) -> Session:
        """Starts the app on `data_dir` and returns a WebDriver session on its window.
        Unless `first_launch`, the user has been here before (the welcome is done).
        `env` changes the app's environment (through a WebDriver of its own, which the
        app inherits it from)."""
        data_dir.mkdir(parents=True, exist_ok=True)
        if not first_launch:
            (data_dir / "welcome.done").touch()
        port = self.webdriver_port
        if env:
            port = free_port()
            self.start(f"webdriver-{port}", ["WebKitWebDriver", f"--port={port}"], env={**self.env, **env})
            wait_until(lambda: port_open(port), 10, "WebKitWebDriver not listening")
        session = Session(f"http://127.0.0.1:{port}", self.binary,
                          ["--data-dir", str(data_dir), *extra_args])
        session.wait_for("[data-testid=welcome]" if first_launch else "[data-testid=composer]", 30)
        return session

    def app_pids(self):
        return app_pids(self.binary)

    def close(self, session: Session):
        """Ends the session and makes sure the app process is gone."""
        session.quit()
        end_app(self.binary)

    def visible_windows(self, name="^Sidecar$"):
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name],
                             capture_output=True, text=True)
        return out.stdout.split()

    def key(self, combo):
        subprocess.run(["xdotool", "key", combo], check=True)

    def notifications(self):
        return self.notify_log.read_text(errors="replace")

    def last_notification_id(self):
        """The id the notification service gave the last Notify call, once it answered."""
        import re
        log = self.notifications()
        call = log.rfind("member=Notify")
        if call < 0:
            return None
        line = log[log.rfind("\n", 0, call) + 1:call]
        caller, serial = re.search(r"sender=(\S+)", line), re.search(r" serial=(\d+)", line)
        if not (caller and serial):
            return None
        # Serials are per connection: the answer is the one to this caller.
        answer = re.search(r"method return [^\n]*destination=%s [^\n]*reply_serial=%s\n\s+uint32 (\d+)"
                           % (re.escape(caller.group(1)), serial.group(1)), log[call:])
        return int(answer.group(1)) if answer else None

    def press_notification_button(self, notification_id, action):
        """What the desktop sends when the user presses a notification's button."""
        subprocess.run(["dbus-send", "--session", "--type=signal", "/org/freedesktop/Notifications",
                        "org.freedesktop.Notifications.ActionInvoked", f"uint32:{notification_id}", f"string:{action}"],
                       check=True)

    def screenshot(self, name):
        path = ARTIFACTS / f"{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], check=False)
        return path

    def stop(self):
        for proc in reversed(self.procs):
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()


def free_display():
    first = 99 + 50 * (ord(SHARD[0]) - ord("a")) if SHARD else 99
    for n in range(first, first + 50):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number")


def port_open(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="session")
def desktop(tmp_path_factory):
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    d = Desktop(tmp_path_factory.mktemp("desktop"))
    yield d
    for pid in d.app_pids():
        os.kill(pid, signal.SIGTERM)
    d.stop()


LATE_OPEN = "\n\n<turn_context>\n"


def said(message):
    """What a message of a model request said, without the per-turn block Sidecar adds to
    the newest user message (the time, the plan, corrections)."""
    content = message.get("content") or ""
    return content.split(LATE_OPEN)[0] if content.endswith("\n</turn_context>") else content


def late_block(request):
    """The per-turn block of a model request's newest user message that carries one (a turn's
    own message; Sidecar's "go on with your plan" after it carries none)."""
    blocks = [m.get("content") or "" for m in request["messages"] if m["role"] == "user" and LATE_OPEN in (m.get("content") or "")]
    return blocks[-1].split(LATE_OPEN, 1)[1] if blocks else ""


def daytime_zone():
    """A zone where it is about 13:00 now: quiet hours (22:00–08:00 by default) would
    put the character to sleep, or hold a spontaneous message, whenever CI runs."""
    import datetime
    offset = (13 - datetime.datetime.now(datetime.timezone.utc).hour + 12) % 24 - 12
    return "Etc/GMT" + ("-" if offset > 0 else "+") + str(abs(offset))
