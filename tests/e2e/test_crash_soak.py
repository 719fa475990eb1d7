"""Crash soak: the real `sidecar daemon` killed with SIGKILL over and over (at random
points, and right after it calls Notify) while 20 reminders fall due. Notifications are
counted per reminder from the D-Bus traffic of the real notification service (dunst,
logged by dbus-monitor); chat lines per occurrence from the database.

Exactly-once is what physics allows: a kill between the notification and the
database record shows that reminder again at the next start, marked as possibly
repeated. Never more than MAX_SHOWS starts, never lost, never twice in the chat.
The figures go to .e2e/crash-soak.txt.
"""
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import time
from pathlib import Path

from conftest import ARTIFACTS, soon, wait_until

KILLS = 100
REMINDERS = 20
MAX_SHOWS = 3  # sidecar::reminders::scheduler::MAX_SHOWS


def notify_calls(log: str, tag: str):
    """The reminder number of each Notify call that carries `tag`."""
    shows = []
    for block in log.split("method call")[1:]:
        if "member=Notify" not in block.split("\n", 1)[0]:
            continue
        found = re.search(re.escape(tag) + r"-(\d\d)", block)
        if found:
            shows.append(int(found.group(1)))
    return shows


def test_reminders_survive_a_hundred_kills_shown_at_most_three_times_never_lost(desktop, tmp_path):
    cli = str(Path(desktop.binary).with_name("sidecar"))
    data = tmp_path / "soak"
    env = dict(os.environ, SIDECAR_DATA_DIR=str(data), SIDECAR_CONFIG=str(tmp_path / "absent.toml"),
               SIDECAR_LANG="en", RUST_LOG="info,sqlx=warn")
    env["SIDECAR_RUNTIME"] = "off"
    env.pop("SIDECAR_LLM_BASE_URL", None)
    tag = f"soak{random.randrange(10**6):06d}"
    for i in range(REMINDERS):
        subprocess.run([cli, "remind", soon(4 + 2 * i), f"{tag}-{i:02d}"], env=env, check=True, capture_output=True)

    rng = random.Random(11)
    daemon_log = open(ARTIFACTS / "crash-soak-daemon.log", "w")
    kills, after_notify = 0, 0
    while kills < KILLS:
        shown = notify_calls(desktop.notifications(), tag)
        seen = len(shown)
        daemon = subprocess.Popen([cli, "daemon"], env=env, stdout=subprocess.DEVNULL, stderr=daemon_log)
        # Once every reminder has been shown, no Notify is coming to be killed after:
        # the rest of the kills land at random points (waiting 3 s for none took a
        # third of the soak's time).
        if rng.random() < 0.4 and len(set(shown)) < REMINDERS:
            # Right after a Notify call reaches the notification service.
            deadline = time.time() + 3
            while time.time() < deadline and len(notify_calls(desktop.notifications(), tag)) == seen:
                time.sleep(0.002)
            after_notify += len(notify_calls(desktop.notifications(), tag)) > seen
        else:
            time.sleep(rng.uniform(0.0, 1.2))
        daemon.send_signal(signal.SIGKILL)
        daemon.wait()
        kills += 1

    # A last run, left alone, settles what the kills left behind.
    daemon = subprocess.Popen([cli, "daemon"], env=env, stdout=subprocess.DEVNULL, stderr=daemon_log)

    def states():
        db = sqlite3.connect(data / "sidecar.db")
        try:
            return dict(db.execute("SELECT message, state FROM reminders WHERE message LIKE ?", (f"{tag}-%",)).fetchall())
        finally:
            db.close()

    try:
        wait_until(lambda: len(states()) == REMINDERS and all(s in ("delivered", "failed") for s in states().values()),
                   90, "reminders still pending or attempting")
        time.sleep(0.5)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(10)
        daemon_log.close()

    final = states()
    shows = notify_calls(desktop.notifications(), tag)
    per_reminder = {i: shows.count(i) for i in range(REMINDERS)}
    failed = [m for m, s in final.items() if s == "failed"]
    lost = [i for i, n in per_reminder.items() if n == 0 and f"{tag}-{i:02d}" not in failed]
    duplicated = [i for i, n in per_reminder.items() if n > 1]
    db = sqlite3.connect(data / "sidecar.db")
    chat_lines = {i: db.execute("SELECT COUNT(*) FROM messages WHERE content = ?", (f"Reminder: {tag}-{i:02d}",)).fetchone()[0]
                  + db.execute("SELECT COUNT(*) FROM messages WHERE content LIKE ?",
                               (f"Reminder: {tag}-{i:02d} (late%",)).fetchone()[0]
                  for i in range(REMINDERS)}
    told = db.execute("SELECT COUNT(*) FROM messages WHERE content LIKE ?", (f"I could not show you the reminder \"{tag}-%",)).fetchone()[0]
    db.close()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", (ARTIFACTS / "crash-soak-daemon.log").read_text(errors="replace"))
    windows = [int(w) for w in re.findall(r"window_us=(\d+)", plain)] or [0]
    figures = (
        f"crash soak: {kills} SIGKILLs ({after_notify} right after a Notify), {REMINDERS} reminders, "
        f"{len(lost)} lost, {len(duplicated)} shown more than once, {len(failed)} failed (user told: {told}), "
        f"largest number of shows of one reminder {max(per_reminder.values())}, "
        f"chat lines per occurrence at most {max(chat_lines.values())}\n"
        f"show→record window: median {statistics.median(windows) / 1000:.2f} ms, max {max(windows) / 1000:.2f} ms "
        f"over {len(windows)} recorded deliveries\n"
    )
    (ARTIFACTS / "crash-soak.txt").write_text(figures)
    print(figures)
    assert kills >= KILLS
    assert not lost, f"lost: {lost}\n{figures}"
    assert max(per_reminder.values()) <= MAX_SHOWS, f"{per_reminder}\n{figures}"
    assert max(chat_lines.values()) <= 1, f"a reminder twice in the chat: {chat_lines}"
    assert all(chat_lines[i] == 1 for i in range(REMINDERS) if per_reminder[i] > 0), chat_lines
    assert told == len(failed)
