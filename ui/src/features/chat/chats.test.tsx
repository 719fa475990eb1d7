import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ChatSummary, Message } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { message as stored } from "../../test/fixtures";
import { renderApp } from "../../test/renderApp";

const chat = (id: number, title: string | null, count: number): ChatSummary => ({
  id,
  title,
  renamed: false,
  created_at: "2026-11-20T09:00:00Z",
  updated_at: "2026-11-20T09:00:00Z",
  message_count: count,
  archived: false,
  pinned: false,
  matched: null,
});

const message = (id: number, content: string): Message => stored({ id, role: "user", content, created_at: "2026-11-20T09:00:00Z" });

function withChats() {
  const core = new FakeCore();
  core.chats = { current: 2, incognito: false, chats: [chat(2, "Plan a weekend in Lisbon", 2), chat(1, "My sister's new job", 4)], undo_seconds: 30 };
  return core;
}

describe("the conversation list", () => {
  it("lists past conversations with titles, searches them and opens one", async () => {
    const core = withChats();
    core.handlers.open_chat = () => {
      core.history = [message(1, "My sister started a new job at the bakery")];
      return null;
    };
    const user = userEvent.setup();
    renderApp();
    const rows = await screen.findAllByTestId("chat-row");
    expect(rows.map((r) => r.querySelector(".chat-title")?.textContent)).toEqual(["Plan a weekend in Lisbon", "My sister's new job"]);
    expect(rows[0]).toHaveAttribute("aria-current", "true");
    expect(rows[1]).toHaveTextContent("4 messages");

    const listed = core.chats;
    core.handlers.list_chats = (args) =>
      (args as { query: string | null }).query === "bakery"
        ? { ...listed, chats: [{ ...chat(1, "My sister's new job", 4), matched: "…she started at the [bakery] on Main Street" }] }
        : listed;
    await user.type(screen.getByTestId("chat-search"), "bakery");
    const match = await screen.findByTestId("chat-match", {}, { timeout: 2000 });
    expect(match).toHaveTextContent("…she started at the bakery on Main Street");
    expect(within(match).getByText("bakery").tagName).toBe("MARK");
    await user.clear(screen.getByTestId("chat-search"));
    await waitFor(() => expect(screen.getAllByTestId("chat-row")).toHaveLength(2));
    expect(screen.queryByTestId("chat-match")).not.toBeInTheDocument();

    await user.click(within(rows[1]).getByText("My sister's new job"));
    expect(core.invoked("open_chat")[0].args).toEqual({ id: 1 });
    expect(await screen.findByText("My sister started a new job at the bakery")).toBeInTheDocument();
  });

  it("renames with Enter, deletes without a dialog and can undo", async () => {
    const core = withChats();
    const user = userEvent.setup();
    renderApp();
    const rows = await screen.findAllByTestId("chat-row");
    await user.click(within(rows[1]).getByRole("button", { name: "Rename" }));
    const input = screen.getByTestId("chat-rename-input");
    await user.clear(input);
    await user.type(input, "Ana's sister{Enter}");
    expect(core.invoked("rename_chat")[0].args).toEqual({ id: 1, title: "Ana's sister" });

    // Asked once at most: no dialog, and Undo right there.
    const confirm = vi.spyOn(window, "confirm");
    await user.click(within((await screen.findAllByTestId("chat-row"))[1]).getByRole("button", { name: "Delete" }));
    expect(confirm).not.toHaveBeenCalled();
    expect(core.invoked("delete_chat")[0].args).toEqual({ id: 1 });
    const undo = await screen.findByTestId("chat-undo");
    expect(undo).toHaveTextContent(`Deleted "My sister's new job".`);
    await user.click(within(undo).getByRole("button", { name: "Undo" }));
    expect(core.invoked("undelete_chat")[0].args).toEqual({ id: 1 });
    confirm.mockRestore();
  });

  it("takes one Tab per other conversation, whose actions are F2 and Delete", async () => {
    const core = withChats();
    const user = userEvent.setup();
    renderApp();
    const rows = await screen.findAllByTestId("chat-row");
    const other = within(rows[1]);
    expect(other.getByRole("button", { name: "Rename" })).toHaveAttribute("tabindex", "-1");
    expect(within(rows[0]).getByRole("button", { name: "Rename" })).toHaveAttribute("tabindex", "0");
    const open = other.getByText("My sister's new job").closest("button") as HTMLButtonElement;
    open.focus();
    await user.keyboard("{F2}");
    await user.clear(screen.getByTestId("chat-rename-input"));
    await user.type(screen.getByTestId("chat-rename-input"), "Sister{Enter}");
    expect(core.invoked("rename_chat")[0].args).toEqual({ id: 1, title: "Sister" });
    ((await screen.findAllByTestId("chat-row"))[1].querySelector(".chat-open") as HTMLButtonElement).focus();
    await user.keyboard("{Delete}");
    expect(core.invoked("delete_chat")[0].args).toEqual({ id: 1 });
  });

  it("points a search of words to Memory's search by meaning, with the same words", async () => {
    const core = withChats();
    const listed = core.chats;
    core.handlers.list_chats = (args) => ((args as { query: string | null }).query ? { ...listed, chats: [] } : listed);
    const user = userEvent.setup();
    renderApp("es");
    await screen.findAllByTestId("chat-row");
    await user.type(screen.getByTestId("chat-search"), "gatito");
    expect(await screen.findByText("Ninguna conversación coincide.")).toBeInTheDocument();
    await user.click(screen.getByTestId("chats-by-meaning"));
    expect(await screen.findByTestId("memory-search")).toHaveValue("gatito");
  });

  it("can be hidden, and says so when there is nothing yet", async () => {
    new FakeCore();
    const user = userEvent.setup();
    renderApp("es");
    expect(await screen.findByText("Aún no hay conversaciones.")).toBeInTheDocument();
    await user.click(screen.getByTestId("toggle-sidebar"));
    expect(screen.queryByTestId("chat-sidebar")).not.toBeInTheDocument();
  });

  it("a memory search result opens its conversation at the message", async () => {
    const core = withChats();
    core.handlers.memory_report = () => ({ facts: [], problems: [], categories: [] });
    core.handlers.search_memory = () => ({
      hits: [{ source: "message", id: 7, label: "user", snippet: "my sister got [promoted]", timestamp: "2026-11-20T09:00:00Z", external_id: null, score: 0.03, beside: false }],
      more: 0,
      weaker: 0,
      words_only: null,
    });
    core.handlers.open_chat_at = () => {
      core.history = [message(7, "my sister got promoted")];
      return 1;
    };
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByTestId("nav-memory"));
    await user.type(await screen.findByTestId("memory-search"), "promoted");
    await user.click(await screen.findByTestId("open-hit"));
    expect(core.invoked("open_chat_at")[0].args).toEqual({ messageId: 7 });
    expect(await screen.findByText("my sister got promoted")).toBeInTheDocument();
  });

  it("exports one conversation as Markdown and says where", async () => {
    const core = withChats();
    core.handlers.export_chat = () => "/home/ana/.local/share/sidecar/exports/sidecar-chat-1.md";
    const user = userEvent.setup();
    renderApp();
    const rows = await screen.findAllByTestId("chat-row");
    await user.click(within(rows[1]).getByTestId("chat-export"));
    expect(core.invoked("export_chat")[0].args).toEqual({ id: 1 });
    expect(await screen.findByTestId("chat-exported")).toHaveTextContent("Saved to /home/ana/.local/share/sidecar/exports/sidecar-chat-1.md.");
  });

  it("pins a conversation to the top and unpins it", async () => {
    const core = withChats();
    core.handlers.pin_chat = (args) => {
      const { id, pinned } = args as { id: number; pinned: boolean };
      core.chats = { ...core.chats, chats: core.chats.chats.map((c) => (c.id === id ? { ...c, pinned } : c)).sort((a, b) => Number(Boolean(b.pinned)) - Number(Boolean(a.pinned))) };
      return null;
    };
    const user = userEvent.setup();
    renderApp();
    const rows = await screen.findAllByTestId("chat-row");
    // A hollow star offers to pin; a filled one shows it is pinned (drawn, no emoji font needed).
    expect(within(rows[1]).getByTestId("chat-pin").querySelector("svg")).toHaveAttribute("fill", "none");
    await user.click(within(rows[1]).getByTestId("chat-pin"));
    expect(core.invoked("pin_chat")[0].args).toEqual({ id: 1, pinned: true });
    await waitFor(() => expect(screen.getAllByTestId("chat-row")[0]).toHaveTextContent("My sister's new job"));
    const pinned = within(screen.getAllByTestId("chat-row")[0]).getByTestId("chat-pin");
    expect(pinned).toHaveAttribute("aria-label", "Unpin");
    expect(pinned.querySelector("svg")).toHaveAttribute("fill", "currentColor");
  });
});
