"""Scheduled tasks in the real app (issue 46): a task proposed in the chat is confirmed on
its card, runs by itself at its time with a real MCP server's tool it was given (no
question asked), and its result is in the Tasks conversation and in a D-Bus notification;
Settings → Tasks shows its run and its tokens."""
import json
import sqlite3
import sys
from pathlib import Path

from conftest import daytime_zone, wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply

TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


def test_a_task_made_in_the_chat_runs_at_its_time_with_its_mcp_tool_and_lands_in_tasks(desktop, tmp_path):
    proposal = json.dumps({"prompt": "Tell me the time in Tokyo", "when": "in 25 seconds", "title": "Tokyo time",
                           "tools": ["mcp__time__get_current_time"], "if_missed": "run"})
    llm = ScriptedLlm([
        tool_reply(("t1", "schedule_task", proposal)), text_reply("Scheduled: in 25 seconds I will tell you."),
        tool_reply(("t2", "mcp__time__get_current_time", json.dumps({"timezone": "Asia/Tokyo"}))),
        text_reply("In Tokyo it is the time the tool said.", usage=(640, 12)),
    ])
    config = tmp_path / "config" / "settings.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{llm.base_url}"\nmodel = "gpt-4o-mini"\n'
                      f'[llm]\nmax_retries = 0\n[user]\ntimezone = "{daytime_zone()}"\n')
    (config.parent / "mcp.json").write_text(json.dumps({"mcpServers": {"time": {"command": str(TIME_SERVER), "args": ["--local-timezone", "UTC"]}}}))
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        session.settings("tools")
        wait_until(lambda: "Running" in " ".join(session.texts("[data-testid=mcp-state]")), 30, "the time server did not start")
        session.tap("[data-testid=nav-chat]")
        session.send_keys(session.wait_for("[data-testid=composer]"), "In 25 seconds tell me the time in Tokyo\ue007")
        card = session.wait_for("[data-testid=permission-card]", 30)
        assert "Sidecar wants to schedule a task" in session.text(card)
        assert '"when": "in 25 seconds"' in session.texts("[data-testid=permission-arguments]")[0]
        desktop.screenshot("task-confirm")
        session.tap("[data-testid=permission-allow_once]")
        wait_until(lambda: "Scheduled" in " ".join(session.texts("[data-testid=message-assistant]")), 30, "no answer")
        result = next(m for m in llm.requests[1]["messages"] if m.get("tool_call_id") == "t1")["content"]
        assert result.startswith('Task 1 scheduled: "Tokyo time"'), result
        before = desktop.notifications().count("member=Notify")

        # At its time it runs alone: its own prompt, its one tool, which asks nothing.
        wait_until(lambda: len(llm.requests) == 4, 90, "the task did not run")
        run = llm.requests[2]
        assert [t["function"]["name"] for t in run["tools"]] == ["mcp__time__get_current_time"], run["tools"]
        assert [m["role"] for m in run["messages"]] == ["system", "user"], run["messages"]
        tool_result = next(m for m in llm.requests[3]["messages"] if m.get("tool_call_id") == "t2")["content"]
        assert "Asia/Tokyo" in tool_result, tool_result
        assert not session.find_all("[data-testid=permission-card]"), "its granted tool asked"
        wait_until(lambda: desktop.notifications().count("member=Notify") > before, 30, "no notification")
        log = desktop.notifications()
        assert "Tokyo time" in log[log.rfind("member=Notify"):] and "In Tokyo it is" in log[log.rfind("member=Notify"):]

        # The user's chat did not move; Tasks has the run.
        assert "In Tokyo it is" not in " ".join(session.texts("[data-testid=message-assistant]"))
        # A narrow window (as an earlier test may have left it) hides the list: show it.
        if not session.find_all("[data-testid=chat-sidebar]"):
            session.tap("[data-testid=toggle-sidebar]")
        wait_until(lambda: "Tasks" in " ".join(session.texts("[data-testid=chat-row] .chat-title")), 30, "no Tasks conversation in the list")
        session.script("[...document.querySelectorAll('[data-testid=chat-row]')].find(r => r.innerText.includes('Tasks'))"
                       ".querySelector('.chat-open').click()")
        wait_until(lambda: "In Tokyo it is the time the tool said." in " ".join(session.texts("[data-testid=message-assistant]")), 20,
                   "the result is not in Tasks")
        assert session.find_all("[data-testid=task-tag]"), "the task's prompt is marked"
        desktop.screenshot("tasks-conversation")

        session.settings("tasks")
        row = session.wait_for("[data-testid=task-row]", 10)
        assert "Tokyo time" in session.text(row)
        session.script("document.querySelector('[data-testid=task-runs]').open = true")
        wait_until(lambda: "done" in session.text(session.find("[data-testid=task-runs]")), 10, "no run shown")
        assert "640 + 12 tokens" in session.text(session.find("[data-testid=task-runs]")) or "1,540" in session.text(session.find("[data-testid=task-runs]"))
        desktop.screenshot("tasks-settings")
        # The morning brief, turned on at the time offered.
        session.tap("[data-testid=brief-on]")
        wait_until(lambda: "The brief comes every day at 07:30." in " ".join(session.texts("[data-testid=tasks-note]")), 10, "brief not on")
        # Its weather asks for a place, and is kept in the settings file (m8).
        place = session.wait_for("[data-testid=brief-place]", 10)
        assert "leaves the weather out" in session.text(session.find("[data-testid=brief-no-place]"))
        session.send_keys(place, "Zaragoza\ue007")
        wait_until(lambda: "The brief's weather is for Zaragoza." in " ".join(session.texts("[data-testid=tasks-note]")), 10, "place not kept")
        desktop.screenshot("tasks-brief")
        assert 'place = "Zaragoza"' in config.read_text(), config.read_text()
        db = sqlite3.connect(tmp_path / "data" / "sidecar.db")
        assert db.execute("SELECT title, kind, always_deliver FROM tasks WHERE kind = 'brief'").fetchall() == [("Morning brief", "brief", 1)]
        assert db.execute("SELECT state, prompt_tokens FROM task_runs").fetchall() == [("done", 900 + 640)]
    finally:
        desktop.close(session)
        llm.close()
