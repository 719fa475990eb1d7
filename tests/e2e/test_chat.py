"""The real app under Xvfb: chat with the offline model, streamed; history after restart."""
import time

import pytest


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("chat-data")


def wait_ready(session, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        badge = session.script("return document.querySelector('[data-testid=model-badge]').className")
        if "ready" in badge:
            return
        if "unavailable" in badge:
            raise AssertionError("model unavailable: " + session.script(
                "return document.querySelector('[data-testid=model-badge]').title"))
        time.sleep(0.1)
    raise TimeoutError("the offline model did not become ready")


def test_a_message_gets_a_streamed_reply_from_the_offline_model(desktop, data_dir):
    session = desktop.launch(data_dir)
    try:
        session.wait_for("[data-testid=empty-state]", 10)  # a fresh install shows the empty state
        wait_ready(session)
        composer = session.find("[data-testid=composer]")
        session.send_keys(composer, "Hello! Tell me a short fact about the sea.")
        session.send_keys(composer, "\ue007")  # Enter

        # Watch the reply grow: a streamed reply is seen at several lengths. The offline
        # model shares two cores with the other suites under `make test`: a wait, not a
        # measure of its speed (that is `make figures`).
        lengths = set()
        deadline = time.time() + 180
        while time.time() < deadline:
            streaming = session.texts("[data-testid=streaming-message] .content")
            if streaming:
                lengths.add(len(streaming[0]))
            elif session.find_all("[data-testid=message-assistant]"):
                break
            time.sleep(0.02)
        replies = session.texts("[data-testid=message-assistant] .content")
        assert len(replies) == 1 and replies[0].strip(), f"one non-empty reply, got {replies!r}"
        grown = {n for n in lengths if n > 0}
        assert len(grown) >= 3, f"the reply should appear piece by piece; saw lengths {sorted(lengths)}"
        assert session.texts("[data-testid=message-user] .content") == [
            "Hello! Tell me a short fact about the sea."
        ]
        session.screenshot(str(desktop.notify_log.parent / "chat.png"))
    finally:
        desktop.close(session)


def test_the_conversation_is_still_there_after_a_restart(desktop, data_dir):
    session = desktop.launch(data_dir)
    try:
        session.wait_for("[data-testid=message-assistant]", 30)
        users = session.texts("[data-testid=message-user] .content")
        assert users == ["Hello! Tell me a short fact about the sea."]
        assert len(session.texts("[data-testid=message-assistant] .content")) == 1
        assert not session.find_all("[data-testid=empty-state]")
    finally:
        desktop.close(session)
