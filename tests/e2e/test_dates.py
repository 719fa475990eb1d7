"""Dates as people say them, in the real app: the Reminders page's quick-add field
splits a sentence live and adds the right reminder, a monthly repeat shows its next
three dates, and the offline model's chat sets a reminder from a plain sentence (the
deterministic intent runs before the model)."""
import datetime
import sqlite3

from conftest import wait_until


def reminders_rows(data):
    return sqlite3.connect(data / "sidecar.db").execute(
        "SELECT message, due_at, rrule, state FROM reminders ORDER BY id").fetchall()


def test_quick_add_splits_a_sentence_and_a_monthly_repeat_shows_its_next_dates(desktop, tmp_path):
    data = tmp_path / "quick"
    session = desktop.launch(data)
    try:
        session.click(session.wait_for("[data-testid=nav-reminders]", 20))
        field = session.wait_for("[data-testid=quick-add]", 10)
        session.send_keys(field, "Call mum tomorrow at 9")
        wait_until(lambda: "Call mum" in session.text(session.find("[data-testid=quick-preview]")), 30, "no split shown")
        when = session.text(session.find("[data-testid=split-when]"))
        assert "09:00" in when, when
        desktop.screenshot("quick-add-split")
        session.click(session.find("[data-testid=quick-add-button]"))
        wait_until(lambda: session.find_all("[data-testid=reminder-upcoming]"), 30, "the reminder is not listed")
        message, due_at, rrule, state = reminders_rows(data)[0]
        assert (message, rrule, state) == ("Call mum", None, "pending")
        # The machine's zone is UTC here: tomorrow at 09:00.
        tomorrow = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).date()
        assert due_at.startswith(f"{tomorrow.isoformat()}T09:00:00"), due_at

        session.send_keys(field, "Pay the rent on the 1st of every month")
        wait_until(lambda: "every month" in session.text(session.find("[data-testid=quick-preview]")), 30, "no rule shown")
        preview = session.text(session.find("[data-testid=split-when]"))
        assert "on the 1st of every month at 09:00" in preview and "next:" in preview, preview
        session.click(session.find("[data-testid=quick-add-button]"))
        wait_until(lambda: session.find_all("[data-testid=reminder-recurring]"), 30, "the repeat is not listed")
        row = session.text(session.find("[data-testid=reminder-recurring]"))
        assert "Pay the rent" in row and "on the 1st of every month at 09:00" in row, row
        next_dates = session.text(session.find("[data-testid=reminder-recurring] [data-testid=next-dates]"))
        assert next_dates.startswith("next:") and next_dates.count("·") == 2 and next_dates.count(" 1 ") == 3, next_dates
        assert reminders_rows(data)[1][2] == "FREQ=MONTHLY;BYMONTHDAY=1"
        desktop.screenshot("reminders-quick-add")
    finally:
        desktop.close(session)


def test_the_offline_model_chat_sets_reminders_said_in_a_sentence(desktop, tmp_path):
    data = tmp_path / "chat"
    session = desktop.launch(data)
    try:
        composer = session.find("[data-testid=composer]")
        for sentence, answer in [
            ("Remind me to call mum tomorrow at 9", 'Done: I\'ll remind you to "call mum"'),
            ("Recuérdame regar las plantas el viernes a las 18", 'Hecho: te recordaré "regar las plantas"'),
            # A date with no hour is asked about; the hour alone completes it. ("El próximo
            # lunes" is next week's whatever the day: "el próximo martes" said on a Monday
            # asks which week.)
            ("Recuérdame llamar a Ana el próximo lunes", "¿A qué hora el lunes"),
            ("a las 10", 'Hecho: te recordaré "llamar a Ana"'),
        ]:
            session.send_keys(composer, sentence)
            session.send_keys(composer, "\ue007")  # Enter
            wait_until(lambda: any(answer in t for t in session.texts("[data-testid=message-assistant] .content")), 20,
                       f"no answer to {sentence!r}")
        desktop.screenshot("chat-reminder-intent")
        session.click(session.find("[data-testid=nav-reminders]"))
        wait_until(lambda: len(session.find_all("[data-testid=reminder-upcoming]")) == 3, 30, "the reminders are not listed")
        listed = session.text(session.find("[data-testid=group-upcoming]"))
        assert "call mum" in listed and "regar las plantas" in listed and "llamar a Ana" in listed, listed
        assert [r[0] for r in reminders_rows(data)] == ["call mum", "regar las plantas", "llamar a Ana"]
    finally:
        desktop.close(session)
