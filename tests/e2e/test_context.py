"""Context features in the real app: /checkpoint in the chat, the offer to continue it
in a new conversation, the plan and the context meter, the checkpoint list with
export, and a hand edit of learnings.md picked up while the Memory view is open."""
import json
import re

from conftest import late_block, wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply
from test_agent import write_settings

DIGEST = json.dumps({
    "summary": "Planning a trip to Lisbon",
    "checkpoint": {"title": "Trip to Lisbon", "current_work": "Choosing a hotel near Alfama",
                   "completed": ["Flights booked for 3 May"], "pending": ["Book the hotel"],
                   "decisions": [{"what": "Stay near Alfama", "why": "the streets are quiet", "confidence": 0.8}],
                   "successful_approaches": ["Filtering by quiet rooms"],
                   "failed_approaches": ["The map view: it showed no prices"], "user_preferences": ["Quiet rooms"],
                   "critical_info": ["Allergic to peanuts"]},
    "facts": [],
})
PLAN = json.dumps({"items": [{"text": "Shortlist hotels near Alfama", "status": "done"},
                             {"text": "Compare prices", "status": "in_progress"},
                             {"text": "Book the hotel", "status": "pending"}]})


def assistant_texts(session):
    return session.texts("[data-testid=message-assistant]")


def say(session, text, replies_before):
    session.send_keys(session.find("[data-testid=composer]"), text + "\ue007")
    wait_until(lambda: len(assistant_texts(session)) > replies_before, 30, f"no answer to {text!r}")


def test_checkpoint_continue_plan_meter_and_export(desktop, tmp_path):
    llm = ScriptedLlm([
        text_reply("Flights booked for 3 May. Shall we look at hotels?"),
        text_reply(DIGEST),
        tool_reply(("plan_1", "update_plan", PLAN)),
        text_reply("Comparing prices now."),
        text_reply("Comparing prices now."),
        # The next turn, with the plan open: the model keeps notes beside it.
        tool_reply(("note_1", "write_scratchpad", json.dumps({"text": "Alfama Inn: 120 € a night\nCasa Baixa: 95 € a night"}))),
        text_reply("Noted both prices."),
    ])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o-mini")])
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        say(session, "Book flights to Lisbon for 3 May", 0)
        session.wait_for("[data-testid=context-meter]", 10)
        meter = session.texts("[data-testid=context-meter]")[0]
        # gpt-4o-mini: a 128,000-token window less the reply reserve, the same on every
        # turn; the tool definitions sent count as used (the first hour's m5).
        assert re.fullmatch(r"Context: \d,\d{3} of 126,976 tokens", meter), meter
        say(session, "/checkpoint", 1)
        assert assistant_texts(session)[-1].startswith("Sidecar\nCheckpoint #1 saved: Trip to Lisbon") or \
            "Checkpoint #1 saved: Trip to Lisbon" in assistant_texts(session)[-1], assistant_texts(session)

        session.click(session.find("[data-testid=new-chat]"))
        session.wait_for("[data-testid=continue-offer]", 10)
        offer = session.texts("[data-testid=continue-offer]")[0]
        assert "Continue where you left off: Trip to Lisbon?" in offer and "Book the hotel" in offer, offer
        desktop.screenshot("continue-offer")
        session.click(session.find("[data-testid=offer-continue]"))
        session.wait_for("[data-testid=resumed]", 10)

        say(session, "Let's pick the hotel", 0)
        wait_until(lambda: session.find_all("[data-testid=plan]"), 30, "plan not shown")
        plan = session.texts("[data-testid=plan]")[0]
        assert "Compare prices" in plan and "1 of 3" in plan, plan
        # What changes turn to turn goes late, on the newest message, not in the system prompt.
        late = late_block(llm.requests[-1])
        assert "<resumed_checkpoint>" in late and "Choosing a hotel near Alfama" in late, late
        plan_result = [m["content"] for m in llm.requests[-1]["messages"] if m.get("tool_call_id") == "plan_1"]
        assert "[>] Compare prices" in plan_result[0], "the plan is in the prompt of the call after update_plan"
        assert "<resumed_checkpoint>" not in llm.requests[-1]["messages"][0]["content"]
        # The model stopped to talk with steps open: told to go on, it did nothing, so the
        # reply ends with what is done and what is left.
        wait_until(lambda: "Left to do" in assistant_texts(session)[-1], 20, "no summary of what is left")
        assert "Book the hotel" in assistant_texts(session)[-1], assistant_texts(session)[-1]
        # With the plan open, the model keeps notes beside it; they show in the plan panel.
        say(session, "Note the two prices", len(assistant_texts(session)))
        wait_until(lambda: session.find_all("[data-testid=plan-notes]"), 10, "no notes beside the plan")
        notes = session.texts("[data-testid=plan-notes]")
        assert notes and "Casa Baixa: 95 € a night" in notes[0], notes
        desktop.screenshot("plan-and-meter")

        session.click(session.find("[data-testid=nav-memory]"))
        session.click(session.wait_for("[data-testid=memory-tab-checkpoints]", 10))
        session.wait_for("[data-testid=checkpoint]", 10)
        assert session.texts("[data-testid=checkpoint-status]") == ["resumed"]
        session.click(session.find("[data-testid=checkpoint-export]"))
        wait_until(lambda: session.find_all("[data-testid=checkpoint-message]"), 30, "no export message")
        exported = data / "exports" / "checkpoint-1.md"
        assert exported.read_text().startswith("# Trip to Lisbon")
        # A decision says why, when and how sure.
        decided = session.texts("[data-testid=checkpoint-decisions]")[0]
        assert "Stay near Alfama — because the streets are quiet (" in decided and "80% sure)" in decided, decided
        worked = session.texts("[data-testid=checkpoint-successful_approaches]")[0]
        assert worked == "Approaches that worked: Filtering by quiet rooms", worked
        session.click(session.find("[data-testid=checkpoints-export-all]"))
        wait_until(lambda: "The checkpoint was saved to" in " ".join(session.texts("[data-testid=checkpoint-message]")), 30,
                   "no message for the export of all")
        (everything,) = (data / "exports").glob("checkpoints-*.md")
        text = everything.read_text()
        assert text.startswith("# Checkpoints\n\n1 checkpoint, exported "), text[:80]
        assert "### Approaches that worked\n- Filtering by quiet rooms\n\n### Approaches that failed\n- The map view" in text, text
        desktop.screenshot("checkpoints")
        # Its observations are edited in place.
        session.tap("[data-testid=checkpoint-edit]")
        pending = session.wait_for("[data-testid=checkpoint-pending]", 10)
        session.send_keys(pending, "\ue007Ask for a quiet room")
        desktop.screenshot("checkpoint-editor")
        session.tap("[data-testid=checkpoint-save]")
        wait_until(lambda: "Checkpoint #1 saved." in " ".join(session.texts("[data-testid=checkpoint-message]")), 30, "not saved")
        wait_until(lambda: "Ask for a quiet room" in session.texts("[data-testid=checkpoint]")[0], 10, "the edit is not shown")

        session.tap("[data-testid=nav-usage]")
        session.wait_for("[data-testid=usage-turns]", 10)
        assert "Multi-step tasks finished / left unfinished" in session.texts("[data-testid=usage-turns]")[0]
        desktop.screenshot("usage")
    finally:
        desktop.close(session)
        llm.close()


def test_a_hand_edit_of_learnings_is_picked_up_while_the_view_is_open(desktop, tmp_path):
    data = tmp_path / "data"
    session = desktop.launch(data)
    try:
        learnings = data / "knowledge" / "learnings.md"
        wait_until(learnings.exists, 30, "learnings.md not created")
        session.click(session.find("[data-testid=nav-memory]"))
        session.wait_for("[data-testid=facts-panel]", 10)
        text = learnings.read_text()
        text += "- [weight:2] Plays the cello | learned:2026-11-01 | confirmed:2026-11-20\n- [weight:x] broken line\n"
        tmp = learnings.with_name(".hand-edit")
        tmp.write_text(text)
        tmp.rename(learnings)
        # The watcher polls once a second beside the loops that start with the window (the
        # meaning index among them, loading its model): on CI it once took more than 10 s
        # to report an edit, which the file shows was made.
        wait_until(lambda: session.texts("[data-testid=memory-message]") == ["learnings.md changed on disk and was reloaded."],
                   30, "the edit was not noticed")
        wait_until(lambda: "Plays the cello" in " ".join(session.texts("[data-testid=fact]")), 30, "new fact not listed")
        assert "broken line" in session.texts("[data-testid=memory-problems]")[0]
    finally:
        desktop.close(session)
