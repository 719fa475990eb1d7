import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Connection } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

const waiting: Connection = {
  name: "claude-desktop",
  state: "pending",
  scopes: [],
  first_seen: "2026-11-26T10:00:00Z",
  changed_at: "2026-11-26T10:00:00Z",
  activity: [{ action: "recall", allowed: false, at: "2026-11-26T10:00:01Z" }],
  has_token: false,
};

describe("settings → connections", () => {
  it("shows the configuration to paste, allows a waiting program with the scopes ticked, and revokes it", async () => {
    const core = new FakeCore();
    let clients: Connection[] = [waiting];
    core.handlers.list_connections = () => clients;
    core.handlers.connection_config = () => '{ "mcpServers": { "sidecar": { "command": "/opt/sidecar", "args": ["mcp", "serve"] } } }';
    core.handlers.connection_endpoint = () => ({ url: null, problem: null });
    core.handlers.set_connection_endpoint = (args) => ((args as { on: boolean }).on ? { url: "http://127.0.0.1:47100/mcp", problem: null } : { url: null, problem: null });
    core.handlers.allow_connection = (args) => {
      const { scopes } = args as { scopes: Connection["scopes"] };
      clients = [{ ...waiting, state: "allowed", scopes, changed_at: "2026-11-26T10:01:00Z" }];
      return clients;
    };
    core.handlers.revoke_connection = () => {
      clients = [{ ...waiting, state: "revoked", changed_at: "2026-11-26T10:02:00Z" }];
      return clients;
    };
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "connections");
    expect(await screen.findByTestId("connection-config")).toHaveTextContent('"args": ["mcp", "serve"]');
    // The HTTP endpoint is off until switched on, then says where it listens.
    const endpoint = await screen.findByTestId("endpoint-switch");
    expect(endpoint).not.toBeChecked();
    await user.click(endpoint);
    expect(core.invoked("set_connection_endpoint")[0].args).toEqual({ on: true });
    expect(await screen.findByTestId("endpoint-url")).toHaveTextContent("Listening at http://127.0.0.1:47100/mcp");
    const card = await screen.findByTestId("connection");
    expect(within(card).getByTestId("connection-state")).toHaveTextContent("Waiting for you");
    expect(within(card).getByTestId("connection-activity")).toHaveTextContent("recall · refused");
    // Reading memory is offered ticked; the user adds reminders and allows.
    expect(within(card).getByTestId("scope-read_memory")).toBeChecked();
    expect(within(card).getByTestId("scope-health")).not.toBeChecked();
    await user.click(within(card).getByTestId("scope-reminders"));
    await user.click(within(card).getByTestId("connection-allow"));
    expect(core.invoked("allow_connection")[0].args).toEqual({ name: "claude-desktop", scopes: ["read_memory", "reminders"] });
    await waitFor(() => expect(screen.getByTestId("connection-state")).toHaveTextContent("Allowed"));
    await user.click(screen.getByTestId("connection-revoke"));
    await waitFor(() => expect(screen.getByTestId("connection-state")).toHaveTextContent("Revoked"));
  });

  it("says so when no program has connected, in Spanish too", async () => {
    const core = new FakeCore();
    core.handlers.list_connections = () => [];
    core.handlers.connection_config = () => "{}";
    core.handlers.connection_endpoint = () => ({ url: null, problem: "el puerto 47100 no se pudo usar" });
    renderApp("es");
    const user = userEvent.setup();
    await openSettingsSection(user, "connections");
    expect(await screen.findByTestId("connections-none")).toHaveTextContent("Todavía no se ha conectado ningún programa.");
    expect(screen.getByTestId("endpoint-switch")).toBeChecked();
    expect(screen.getByTestId("endpoint-problem")).toHaveTextContent("47100");
  });

  it("makes a token for a program that uses the local API, shows it to copy, and shows it again later", async () => {
    const core = new FakeCore();
    let clients: Connection[] = [];
    core.handlers.list_connections = () => clients;
    core.handlers.connection_config = () => "{}";
    core.handlers.connection_endpoint = () => ({ url: "http://127.0.0.1:47100/mcp", problem: null });
    core.handlers.make_api_token = (args) => {
      const { name, scopes } = args as { name: string; scopes: Connection["scopes"] };
      clients = [{ ...waiting, name, state: "allowed", scopes, has_token: true, activity: [] }];
      return { token: "sk-sidecar-abc123", storage: { kind: "keychain" } };
    };
    core.handlers.show_api_token = () => "sk-sidecar-abc123";
    core.handlers.connection_http_config = (args) =>
      `{ "mcpServers": { "sidecar": { "type": "http", "url": "http://127.0.0.1:47100/mcp", "headers": { "Authorization": "Bearer ${(args as { token: string }).token}" } } } }`;
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "connections");
    const form = await screen.findByTestId("api-client-form");
    expect(form).toHaveTextContent("http://127.0.0.1:47100/v1/openapi.json");
    // No name: said, and nothing is made.
    await user.click(within(form).getByTestId("api-make-token"));
    expect(within(form).getByRole("alert")).toHaveTextContent("Give the program a name first.");
    expect(core.invoked("make_api_token")).toHaveLength(0);
    await user.type(within(form).getByTestId("api-client-name"), "home-assistant");
    await user.click(within(form).getByTestId("api-scope-messages"));
    await user.click(within(form).getByTestId("api-make-token"));
    expect(core.invoked("make_api_token")[0].args).toEqual({ name: "home-assistant", scopes: ["read_memory", "messages"] });
    expect(await within(form).findByTestId("api-token")).toHaveTextContent("sk-sidecar-abc123");
    // A program that connects to the address over MCP presents the same token.
    expect(await within(form).findByTestId("api-http-config")).toHaveTextContent('"Authorization": "Bearer sk-sidecar-abc123"');
    const card = await screen.findByTestId("connection");
    expect(within(card).getByTestId("connection-has-token")).toHaveTextContent("Has an API token");
    await user.click(within(card).getByTestId("api-show-token"));
    expect(await within(card).findByTestId("api-token")).toHaveTextContent("sk-sidecar-abc123");
  });
});
