"""The app lock in the real app: turned on in Settings → Your data, Lock now shows the
lock screen and the core refuses the window's commands; a wrong passphrase is refused,
the right one opens the window again."""
from conftest import wait_until
from test_agent import write_settings


def open_lock_settings(session):
    """Settings → Your data, scrolled to the app lock once it has loaded."""
    session.settings("data", 20)
    session.wait_for("[data-testid=lock-settings]", 10)
    session.script("document.querySelector('[data-testid=lock-settings]').scrollIntoView({block: 'center'})")


def test_the_app_lock_locks_the_window_and_only_its_passphrase_opens_it(desktop, tmp_path):
    # A settings file of its own: the lock's minutes must not reach the tests after it.
    config = write_settings(tmp_path / "settings.toml", [])
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        open_lock_settings(session)
        session.send_keys(session.wait_for("[data-testid=lock-new]", 10), "girasol amarillo")
        session.click(session.find("[data-testid=lock-turn-on]"))
        wait_until(lambda: "On: the window locks after 5 idle minutes" in " ".join(session.texts("[data-testid=lock-state]")), 10, "not on")
        session.click(session.find("[data-testid=lock-now]"))
        session.wait_for("[data-testid=lock-screen]", 10)
        assert not session.find_all("[data-testid=nav-memory]"), "nothing behind the lock is shown"
        desktop.screenshot("lock-screen")
        session.send_keys(session.find("[data-testid=lock-passphrase]"), "margarita\ue007")
        wait_until(lambda: session.find_all("[data-testid=lock-error]"), 10, "a wrong passphrase was not refused")
        assert "not the lock's passphrase" in session.texts("[data-testid=lock-error]")[0]
        session.send_keys(session.find("[data-testid=lock-passphrase]"), "girasol amarillo\ue007")
        session.click(session.wait_for("[data-testid=nav-memory]", 20))
        session.wait_for("[data-testid=facts-panel]", 10)
        assert not session.find_all("[data-testid=lock-screen]")
        assert "lock_after_minutes = 5" in config.read_text()
        # Off again, with its passphrase: the keychain keeps no hash for the tests after.
        open_lock_settings(session)
        session.send_keys(session.wait_for("[data-testid=lock-current]", 10), "girasol amarillo")
        session.click(session.find("[data-testid=lock-turn-off]"))
        wait_until(lambda: "The app lock is off." in " ".join(session.texts("[data-testid=lock-state]")), 10, "not off")
        assert "lock_after_minutes = 0" in config.read_text()
    finally:
        desktop.close(session)
