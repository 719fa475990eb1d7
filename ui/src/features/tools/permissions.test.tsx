import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Grant, McpView, PermissionQuestion } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

const question = (extra: Partial<PermissionQuestion> = {}): PermissionQuestion => ({
  id: 7,
  title: "Sidecar wants to run write_file from files",
  server: "files",
  tool: "write_file",
  called_as: "mcp__files__write_file",
  description: "Writes a file.",
  arguments: { path: "/home/ana/notes/todo.md", content: "buy bread" },
  changed: [],
  conversation_id: 1,
  channel: null,
  after_strangers: false,
  choices: ["allow_once", "allow_in_chat", "always_tool", "always_server", "deny"],
  ...extra,
});

describe("permission before every action", () => {
  it("asks with the server, the tool and the full arguments, and sends the answer", async () => {
    const core = new FakeCore();
    core.handlers.answer_permission = () => true;
    renderApp();
    await act(() => core.event({ type: "permission_asked", question: question() }));
    const card = await screen.findByTestId("permission-card");
    expect(card).toHaveTextContent("Sidecar wants to run write_file from files");
    expect(within(card).getByTestId("permission-arguments")).toHaveTextContent('"path": "/home/ana/notes/todo.md"');
    expect(within(card).getByTestId("permission-arguments")).toHaveTextContent('"content": "buy bread"');
    expect(within(card).queryByTestId("permission-changed")).toBeNull();
    const user = userEvent.setup();
    await user.click(within(card).getByTestId("permission-always_tool"));
    expect(core.invoked("answer_permission")[0].args).toEqual({ id: 7, choice: "always_tool" });
    expect(screen.queryByTestId("permission-card")).toBeNull();
  });

  it("after a mail was read, offers this once or no, never always", async () => {
    const core = new FakeCore();
    core.handlers.answer_permission = () => true;
    renderApp("es");
    const title = "Este chat acaba de leer un correo, que puede escribir cualquiera: Sidecar quiere ejecutar set_reminder de sidecar. Permítelo solo si lo pediste tú";
    await act(() => core.event({ type: "permission_asked", question: question({ after_strangers: true, choices: ["allow_once", "deny"], title, server: "sidecar", tool: "set_reminder" }) }));
    const card = await screen.findByTestId("permission-card");
    expect(card).toHaveTextContent("acaba de leer un correo");
    expect(within(card).queryByTestId("permission-always_tool")).toBeNull();
    expect(within(card).queryByTestId("permission-always_server")).toBeNull();
    expect(within(card).queryByTestId("permission-allow_in_chat")).toBeNull();
    await userEvent.setup().click(within(card).getByTestId("permission-allow_once"));
    expect(core.invoked("answer_permission")[0].args).toEqual({ id: 7, choice: "allow_once" });
  });

  it("says what changed in a tool allowed before, in Spanish too, and goes when settled elsewhere", async () => {
    const core = new FakeCore();
    renderApp("es");
    await act(() => core.event({ type: "permission_asked", question: question({ changed: ["description"], title: "Sidecar quiere ejecutar write_file de files" }) }));
    const card = await screen.findByTestId("permission-card");
    expect(card).toHaveTextContent("Sidecar quiere ejecutar write_file de files");
    expect(within(card).getByTestId("permission-changed")).toHaveTextContent("cambió desde que la permitiste (description)");
    expect(within(card).getByTestId("permission-deny")).toHaveTextContent("Denegar");
    await act(() => core.event({ type: "permission_settled", id: 7 }));
    expect(screen.queryByTestId("permission-card")).toBeNull();
  });

  it("shows a denied call as denied in its chip", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    await user.type(screen.getByTestId("composer"), "write it down");
    await user.keyboard("{Enter}");
    await act(() => core.toolStarted("c1", "mcp__files__write_file", "{}"));
    await act(() => core.event({ type: "tool_finished", conversation_id: 1, call_id: "c1", name: "mcp__files__write_file", is_error: true, denied: true, result: '{"error":"the user denied files/write_file","permission":"not given"}' }));
    const chip = screen.getByTestId("tool-chip");
    expect(chip).toHaveAttribute("data-state", "denied");
    expect(chip).toHaveTextContent("not allowed");
  });
});

describe("settings → tools and permissions", () => {
  const running: McpView = {
    config_path: "/home/ana/.config/sidecar/mcp.json",
    servers: [
      { name: "time", summary: "uvx mcp-server-time", enabled: true, state: "running", form: { line: "uvx mcp-server-time", fields: [{ name: "TZ_KEY", value: null, secret: true }, { name: "LOCAL", value: "es", secret: false }] }, tools: [{ name: "get_current_time", description: "Current time in a zone", input_schema: {}, read_only: true }] },
      { name: "broken", summary: "npx nothing-here", enabled: true, state: "failed", form: { line: "npx nothing-here", fields: [] }, error: "the server stopped or refused to start (it exited)", stderr: ["npm ERR! 404 nothing-here"], retry_in_secs: 4, tools: [] },
    ],
  };

  it("starts empty, adds a server from one typed line with a secret, and shows a failing one with its last words", async () => {
    const core = new FakeCore();
    let view: McpView = { config_path: running.config_path, servers: [] };
    core.handlers.mcp_servers = () => view;
    core.handlers.mcp_save = () => {
      view = running;
      return view;
    };
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "tools");
    expect(await screen.findByTestId("mcp-none")).toHaveTextContent("No MCP servers yet");
    await user.type(screen.getByTestId("mcp-name"), "time");
    await user.type(screen.getByTestId("mcp-line"), "uvx mcp-server-time");
    await user.click(screen.getByTestId("mcp-field-add"));
    await user.type(screen.getByTestId("mcp-field-name"), "TZ_KEY");
    await user.click(screen.getByTestId("mcp-field-secret"));
    expect(screen.getByTestId("mcp-field-value")).toHaveAttribute("type", "password");
    await user.type(screen.getByTestId("mcp-field-value"), "k-123");
    await user.click(screen.getByTestId("mcp-add"));
    expect(core.invoked("mcp_save")[0].args).toEqual({ name: "time", form: { line: "uvx mcp-server-time", fields: [{ name: "TZ_KEY", value: "k-123", secret: true }] } });
    const cards = await screen.findAllByTestId("mcp-server");
    expect(cards[0]).toHaveTextContent("Running · 1 tool");
    expect(within(cards[1]).getByTestId("mcp-failure")).toHaveTextContent("npm ERR! 404 nothing-here");
    expect(cards[1]).toHaveTextContent("trying again in 4 s");
    expect(screen.getByTestId("mcp-name")).toHaveValue("");

    // Editing shows the kept secret without its value; left empty, it is sent as kept.
    await user.click(within(cards[0]).getByTestId("mcp-edit"));
    const editor = within(cards[0]).getByTestId("mcp-editor");
    expect(within(editor).getByTestId("mcp-line")).toHaveValue("uvx mcp-server-time");
    const values = within(editor).getAllByTestId("mcp-field-value");
    expect(values[0]).toHaveValue("");
    expect(values[0]).toHaveAttribute("placeholder", "Kept in the keychain · type to replace");
    await user.clear(within(editor).getByTestId("mcp-line"));
    await user.type(within(editor).getByTestId("mcp-line"), "uvx mcp-server-time --local-timezone=Europe/Madrid");
    await user.click(within(editor).getByTestId("mcp-save"));
    expect(core.invoked("mcp_save")[1].args).toEqual({
      name: "time",
      form: { line: "uvx mcp-server-time --local-timezone=Europe/Madrid", fields: [{ name: "TZ_KEY", value: null, secret: true }, { name: "LOCAL", value: "es", secret: false }] },
    });
  });

  it("lists grants and revokes one", async () => {
    const core = new FakeCore();
    let grants: Grant[] = [{ id: 1, server: "time", identity: "{}", tool: null, allow: true, created_at: "2026-11-25T10:00:00Z" }];
    core.handlers.list_grants = () => grants;
    core.handlers.revoke_grant = () => {
      grants = [];
      return grants;
    };
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "permissions");
    const grant = await screen.findByTestId("grant");
    expect(grant).toHaveTextContent("time / every tool · allowed");
    await user.click(within(grant).getByTestId("grant-revoke"));
    expect(core.invoked("revoke_grant")[0].args).toEqual({ server: "time", tool: null });
    await waitFor(() => expect(screen.getByTestId("grants-none")).toBeInTheDocument());
  });
});

describe("settings → notes and the read-only switch", () => {
  it("uses a typed folder, says when the configured one cannot be used, and forgets it", async () => {
    const core = new FakeCore();
    core.handlers.notes_view = () => ({ folder: null, problem: "\"/gone\" does not exist in the notes folder" });
    core.handlers.choose_notes_folder = (args) => ({ folder: (args as { folder: string | null }).folder, problem: null });
    renderApp("es");
    const user = userEvent.setup();
    await openSettingsSection(user, "notes");
    expect(await screen.findByTestId("notes-problem")).toHaveTextContent("no se puede usar");
    expect(screen.getByTestId("notes-none")).toHaveTextContent("No hay carpeta de notas elegida.");
    await user.type(screen.getByTestId("notes-path"), "/home/ana/Obsidian");
    await user.click(screen.getByTestId("notes-use"));
    expect(await screen.findByTestId("notes-folder")).toHaveTextContent("Carpeta de notas: /home/ana/Obsidian");
    expect(screen.queryByTestId("notes-problem")).toBeNull();
    await user.click(screen.getByTestId("notes-forget"));
    expect(core.invoked("choose_notes_folder").at(-1)?.args).toEqual({ folder: null });
    expect(await screen.findByTestId("notes-none")).toBeInTheDocument();
  });

  it("turns on running read-only tools without asking", async () => {
    const core = new FakeCore();
    core.handlers.auto_allow_read_only = () => false;
    core.handlers.set_auto_allow_read_only = (args) => (args as { on: boolean }).on;
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "permissions");
    const toggle = await screen.findByTestId("auto-read-only");
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(core.invoked("set_auto_allow_read_only")[0].args).toEqual({ on: true });
    await waitFor(() => expect(toggle).toBeChecked());
  });
});
