"""The real app with an MCP server added in Settings: the chat asks before each call,
Allow once runs it, Deny does not, and Settings → Permissions revokes what was allowed."""
import json
import sys
from pathlib import Path

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply, tool_reply

FIXTURE = Path(__file__).resolve().parents[1] / "mcp" / "fixture_server.py"
ECHO = ("mcp__fixture__echo", '{"message": "hola desde el chat"}')


def write_settings(path, url):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[[providers]]\nid = "primary"\nbase_url = "{url}"\nmodel = "gpt-4o-mini"\n'
                    '[llm]\nmax_retries = 0\n[user]\ntimezone = "Europe/Madrid"\n')
    return path


def ask(session, text):
    session.tap("[data-testid=nav-chat]")
    composer = session.wait_for("[data-testid=composer]")
    session.send_keys(composer, text + "\ue007")
    return session.wait_for("[data-testid=permission-card]", 30)


def chip_states(session):
    return session.script(
        "return Array.from(document.querySelectorAll('[data-testid=tool-chip]')).map(e => e.dataset.state)")


def test_a_server_added_in_settings_asks_before_each_call_and_its_grant_can_be_revoked(desktop, tmp_path):
    llm = ScriptedLlm([
        tool_reply(("call_1", *ECHO)), text_reply("It echoed."),
        tool_reply(("call_2", *ECHO)), text_reply("I did not run it."),
        tool_reply(("call_3", *ECHO)), text_reply("Done, and I will not ask again."),
    ])
    config = write_settings(tmp_path / "config" / "settings.toml", llm.base_url)
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        session.settings("tools")
        session.wait_for("[data-testid=mcp-none]")
        session.send_keys(session.find("[data-testid=mcp-name]"), "fixture")
        session.send_keys(session.find("[data-testid=mcp-line]"), f"{sys.executable} {FIXTURE}")
        session.tap("[data-testid=mcp-add]")
        wait_until(lambda: "Running · 4 tools" in " ".join(session.texts("[data-testid=mcp-state]")), 30,
                   "the server did not start")
        assert (config.parent / "mcp.json").exists()
        desktop.screenshot("tools-settings")

        # Edited: a secret variable goes to the keychain, the file keeps a reference.
        session.tap("[data-testid=mcp-edit]")
        session.tap("[data-testid=mcp-field-add]")
        session.send_keys(session.wait_for("[data-testid=mcp-field-name]"), "FIXTURE_TOKEN")
        session.tap("[data-testid=mcp-field-secret]")
        session.send_keys(session.find("[data-testid=mcp-field-value]"), "tok-e2e-secret")
        desktop.screenshot("tools-edit")
        session.tap("[data-testid=mcp-save]")
        wait_until(lambda: "FIXTURE_TOKEN" in (config.parent / "mcp.json").read_text(), 30, "the edit was not saved")
        saved = (config.parent / "mcp.json").read_text()
        assert "${keychain:mcp/fixture/FIXTURE_TOKEN}" in saved and "tok-e2e-secret" not in saved, saved
        wait_until(lambda: "Running · 4 tools" in " ".join(session.texts("[data-testid=mcp-state]")), 30,
                   "the edited server did not start again")

        card = ask(session, "Echo this, please")
        assert "Sidecar wants to run echo from fixture" in session.text(card)
        assert '"message": "hola desde el chat"' in session.texts("[data-testid=permission-arguments]")[0]
        desktop.screenshot("permission-card")
        session.tap("[data-testid=permission-allow_once]")
        wait_until(lambda: chip_states(session) == ["done"], 30, "allowed once, the tool ran")
        session.wait_for("[data-testid=message-assistant]", 30)
        wait_until(lambda: len(llm.requests) == 2, 30, "the result went back to the model")
        assert "hola desde el chat" in llm.requests[1]["messages"][-1]["content"]

        ask(session, "Again")
        session.tap("[data-testid=permission-deny]")
        wait_until(lambda: chip_states(session)[-1:] == ["denied"], 30, "the denied call shows as denied")
        wait_until(lambda: len(llm.requests) == 4, 30, "the model was told")
        assert "denied fixture/echo" in llm.requests[3]["messages"][-1]["content"]

        ask(session, "Once more, and always")
        session.tap("[data-testid=permission-always_tool]")
        wait_until(lambda: chip_states(session)[-1:] == ["done"], 30, "always allowed, it ran")

        session.settings("permissions")
        grant = session.wait_for("[data-testid=grant]")
        assert "fixture / echo · allowed" in session.text(grant), session.text(grant)
        session.tap("[data-testid=grant-revoke]")
        session.wait_for("[data-testid=grants-none]", 10)
    finally:
        desktop.close(session)
        llm.close()


def test_a_notes_folder_chosen_in_settings_is_written_only_after_the_user_allows_it(desktop, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    note = ("mcp_note", "create_note", '{"path": "Inbox/bread.md", "content": "Buy bread, see [[Shopping]]"}')
    llm = ScriptedLlm([tool_reply(note), text_reply("Saved in your notes.")])
    config = write_settings(tmp_path / "config" / "settings.toml", llm.base_url)
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        session.settings("notes")
        session.wait_for("[data-testid=notes-none]")
        session.send_keys(session.find("[data-testid=notes-path]"), str(vault))
        session.tap("[data-testid=notes-use]")
        session.wait_for("[data-testid=notes-folder]", 10)
        assert f'notes_folder = "{vault}"' in config.read_text()
        desktop.screenshot("notes-settings")

        card = ask(session, "Note that I must buy bread")
        assert "Sidecar wants to run create_note from notes" in session.text(card)
        assert not (vault / "Inbox" / "bread.md").exists(), "nothing is written before the answer"
        session.tap("[data-testid=permission-allow_once]")
        wait_until(lambda: chip_states(session) == ["done"], 30, "the note tool ran")
        assert (vault / "Inbox" / "bread.md").read_text() == "Buy bread, see [[Shopping]]"
    finally:
        desktop.close(session)
        llm.close()


def test_a_program_that_connects_waits_in_settings_until_allowed(desktop, tmp_path):
    """Sidecar as a server: a program that connects through `sidecar mcp serve` gets
    nothing and waits in Settings → Connections; allowed there, its next call is served."""
    import json
    import os
    import subprocess

    llm = ScriptedLlm([text_reply("ok")])
    config = write_settings(tmp_path / "config" / "settings.toml", llm.base_url)
    # Any free port: a fixed one might be taken on the machine running the tests.
    config.write_text(config.read_text() + "[connections]\nhttp_port = 0\n")
    data = tmp_path / "data"
    cli = str(Path(desktop.binary).with_name("sidecar"))
    client = Path(__file__).resolve().parents[1] / "mcp" / "sidecar_client.py"
    env = {**os.environ, "SIDECAR_DATA_DIR": str(data), "SIDECAR_CONFIG": str(config)}

    def connect():
        out = subprocess.run([sys.executable, str(client), cli, "claude-desktop", json.dumps([["recall", {"query": "hola"}]])],
                             env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)["results"][0]

    session = desktop.launch(data, ["--config", str(config)])
    try:
        refused = connect()
        assert refused["error"] and "sidecar connections allow claude-desktop" in refused["text"], refused
        # The desktop says so (an OS notification over D-Bus), without the window asking.
        wait_until(lambda: "A program wants to use Sidecar" in desktop.notifications(), 15, "no notification for the waiting program")
        session.settings("connections")
        card = session.wait_for("[data-testid=connection]", 10)
        assert "Waiting for you" in session.text(card)
        assert '"mcp",' in session.text(session.find("[data-testid=connection-config]"))
        session.tap("[data-testid=scope-reminders]")
        session.tap("[data-testid=connection-allow]")
        wait_until(lambda: "Allowed" in " ".join(session.texts("[data-testid=connection-state]")), 30, "not allowed")
        served = connect()
        assert not served["error"], served
        # The HTTP endpoint, switched on here, is saved and says where it listens.
        session.tap("[data-testid=endpoint-switch]")
        url = session.wait_for("[data-testid=endpoint-url]", 10)
        assert "http://127.0.0.1:" in session.text(url)
        assert "serve_http = true" in config.read_text()
        desktop.screenshot("connections-settings")
    finally:
        desktop.close(session)
        llm.close()


def test_a_token_made_in_settings_lets_an_openai_client_chat_with_sidecar(desktop, tmp_path):
    """The local API: Settings → Connections names a program, gives it the chat scope and
    a token; the official OpenAI client with that token talks to Sidecar itself, and the
    turn shows in the window's chat as said over the local API."""
    import time

    import openai

    llm = ScriptedLlm([text_reply("You asked me over the API.")])
    config = write_settings(tmp_path / "config" / "settings.toml", llm.base_url)
    config.write_text(config.read_text() + "[connections]\nhttp_port = 0\n")
    data = tmp_path / "data"
    session = desktop.launch(data, ["--config", str(config)])
    try:
        session.settings("connections")
        session.tap("[data-testid=endpoint-switch]")
        url = session.text(session.wait_for("[data-testid=endpoint-url]", 10)).split("Listening at ")[-1].strip()
        base = url.removesuffix("/mcp")
        form = session.wait_for("[data-testid=api-client-form]", 10)
        assert f"{base}/v1/openapi.json" in session.text(form)
        session.send_keys(session.find("[data-testid=api-client-name]"), "my-script")
        session.tap("[data-testid=api-scope-read_memory]")  # off: chat is what it needs
        session.tap("[data-testid=api-scope-chat]")
        session.tap("[data-testid=api-make-token]")
        token = session.text(session.wait_for("[data-testid=api-token]", 10)).strip()
        assert token.startswith("sk-sidecar-"), token
        wait_until(lambda: "my-script" in " ".join(session.texts("[data-testid=connection] h3")), 30, "the program is not listed")
        # The same token reaches the MCP endpoint: the entry to paste says so.
        pasted = json.loads(session.text(session.wait_for("[data-testid=api-http-config]", 10)))
        assert pasted["mcpServers"]["sidecar"] == {"type": "http", "url": url, "headers": {"Authorization": f"Bearer {token}"}}, pasted
        session.script("document.querySelector('[data-testid=api-token-box]').scrollIntoView({block: 'center'})")
        time.sleep(0.5)  # the window repaints before X is read
        desktop.screenshot("connections-api-token")

        client = openai.OpenAI(base_url=f"{base}/v1", api_key=token, max_retries=0, timeout=60)
        reply = client.chat.completions.create(model="sidecar", messages=[{"role": "user", "content": "Hello from my script"}])
        assert reply.choices[0].message.content == "You asked me over the API."

        session.tap("[data-testid=nav-chat]")
        wait_until(lambda: any("Hello from my script" in t for t in session.texts("[data-testid=message-user]")), 15, "the API turn is not in the chat")
        assert "over the local API" in " ".join(session.texts("[data-testid=channel-tag]"))
        assert "A program" in session.text(session.find("[data-testid=message-user]")), "the program spoke, not the user"
        desktop.screenshot("chat-api-turn")
    finally:
        desktop.close(session)
        llm.close()
