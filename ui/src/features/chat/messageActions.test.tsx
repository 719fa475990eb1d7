import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Message } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";

const said = (id: number, role: "user" | "assistant", content: string): Message => (message({
  id,
  conversation_id: 1,
  role,
  content,
  status: "complete",
  finish_reason: null,
  created_at: "2026-11-20T09:00:00Z",
}));

const CODE_REPLY = "Here it is:\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```";

describe("message actions", () => {
  it("copies a message and a code block, which is highlighted", async () => {
    const core = new FakeCore();
    core.history = [said(1, "user", "Show me hello world in Rust"), said(2, "assistant", CODE_REPLY)];
    const user = userEvent.setup();
    renderApp();
    const reply = await screen.findByTestId("message-assistant");
    const block = within(reply).getByTestId("code-block");
    expect(block).toHaveTextContent("rust");
    // The highlighter loads once code is on screen.
    await waitFor(() => expect(block.querySelector(".hljs-keyword")?.textContent).toBe("fn"));

    await user.click(within(block).getByTestId("copy-code"));
    expect(await navigator.clipboard.readText()).toBe('fn main() {\n    println!("hi");\n}\n');
    expect(within(block).getByTestId("copy-code")).toHaveTextContent("Copied");

    await user.click(within(screen.getByTestId("message-user")).getByTestId("copy-message"));
    expect(await navigator.clipboard.readText()).toBe("Show me hello world in Rust");
  });

  it("regenerates the last reply and flips between its versions", async () => {
    const core = new FakeCore();
    core.history = [said(1, "user", "Name a colour"), said(2, "assistant", "Blue")];
    core.versions = { user_message_id: 1, count: 1, current: 1 };
    const user = userEvent.setup();
    renderApp();
    const first = await screen.findByTestId("message-assistant");
    expect(within(first).queryByTestId("versions")).toBeNull();
    expect(within(screen.getByTestId("message-user")).queryByTestId("regenerate")).toBeNull();

    await user.click(within(first).getByTestId("regenerate"));
    expect(core.invoked("regenerate_reply")).toHaveLength(1);
    expect(screen.queryByText("Blue")).toBeNull();
    expect(screen.getByTestId("streaming-message")).toBeInTheDocument();
    expect(screen.queryByTestId("regenerate"), "nothing to regenerate while writing").toBeNull();

    await core.delta("Green");
    core.versions = { user_message_id: 1, count: 2, current: 2 };
    // What the core stored: Blue set aside, Green shown.
    core.history = [said(1, "user", "Name a colour"), said(3, "assistant", "Green")];
    core.finish("Green");
    const second = await screen.findByText("Green");
    const bubble = second.closest("article")!;
    await waitFor(() => expect(within(bubble).getByTestId("version-position")).toHaveTextContent("2 / 2"));
    expect(within(bubble).getByRole("button", { name: "Next version" })).toBeDisabled();

    core.handlers.show_reply_version = (args) => {
      expect(args).toEqual({ number: 1 });
      core.history = [said(1, "user", "Name a colour"), said(2, "assistant", "Blue")];
      return { user_message_id: 1, count: 2, current: 1 };
    };
    await user.click(within(bubble).getByRole("button", { name: "Previous version" }));
    expect(await screen.findByText("Blue")).toBeInTheDocument();
    expect(screen.queryByText("Green")).toBeNull();
    expect(screen.getByTestId("version-position")).toHaveTextContent("1 / 2");
  });

  it("edits a sent message in place and sends it again", async () => {
    const core = new FakeCore();
    core.history = [said(1, "user", "I live in Lisbn"), said(2, "assistant", "Nice city!"), said(3, "user", "Weather there?"), said(4, "assistant", "Sunny")];
    const user = userEvent.setup();
    renderApp();
    const typo = (await screen.findByText("I live in Lisbn")).closest("article")!;
    await user.click(within(typo).getByTestId("edit-message"));
    const box = within(typo).getByTestId("edit-text");
    expect(box).toHaveValue("I live in Lisbn");

    await user.keyboard("{Escape}");
    expect(within(typo).queryByTestId("edit-text")).toBeNull();

    await user.click(within(typo).getByTestId("edit-message"));
    await user.clear(within(typo).getByTestId("edit-text"));
    await user.type(within(typo).getByTestId("edit-text"), "I live in Lisbon{Enter}");
    expect(core.invoked("edit_message")[0].args).toEqual({ id: 1, text: "I live in Lisbon" });
    expect(screen.queryByText("Nice city!")).toBeNull();
    expect(screen.queryByText("Weather there?"), "what followed is set aside").toBeNull();
    expect(screen.getByText("I live in Lisbon")).toBeInTheDocument();

    core.history = [said(9, "user", "I live in Lisbon"), said(10, "assistant", "Lisbon it is.")];
    core.finish("Lisbon it is.", "complete", "stop", {}, 9);
    expect(await screen.findByText("Lisbon it is.")).toBeInTheDocument();
    // The new message has its stored id: it can be edited again.
    const edited = screen.getByText("I live in Lisbon").closest("article")!;
    expect(edited).toHaveAttribute("data-key", "m9");
    expect(within(edited).getByTestId("edit-message")).toBeInTheDocument();
  });

  it("deletes a message with its reply for good, after asking", async () => {
    const core = new FakeCore();
    core.history = [said(1, "user", "My neighbour keeps the key under the pot"), said(2, "assistant", "Noted."), said(3, "user", "Hello"), said(4, "assistant", "Hi!")];
    core.handlers.forget_message = () => {
      core.history = core.history.slice(2);
      return { messages: 2, learned: [{ line: 4, category: "Relationships", text: "Her neighbour keeps her key", weight: 1, learned: "2026-11-20", confirmed: "2026-11-20", superseded: null, critical: false, slot: null }] };
    };
    core.handlers.delete_fact = () => null;
    const user = userEvent.setup();
    renderApp();
    const mine = (await screen.findByText("My neighbour keeps the key under the pot")).closest("article")!;
    await user.click(within(mine).getByTestId("forget-message"));
    expect(within(mine).getByTestId("forget-confirm")).toHaveTextContent("Delete this message and its reply for good?");
    expect(core.invoked("forget_message")).toHaveLength(0);
    await user.click(within(mine).getByTestId("forget-yes"));
    expect(core.invoked("forget_message")[0].args).toEqual({ id: 1 });
    await waitFor(() => expect(screen.queryByText("My neighbour keeps the key under the pot")).toBeNull());
    expect(screen.queryByText("Noted.")).toBeNull();
    // What Sidecar had learned from it is named, to forget too.
    expect(await screen.findByTestId("forget-learned")).toHaveTextContent("Sidecar had learned from it: “Her neighbour keeps her key”. Forget that too?");
    await user.click(screen.getByTestId("forget-learned-yes"));
    expect(core.invoked("delete_fact")[0].args).toEqual({ line: 4, expected: "Her neighbour keeps her key" });
    await waitFor(() => expect(screen.queryByTestId("forget-learned")).toBeNull());
    // A reply asks its own question, and Cancel keeps everything.
    const reply = screen.getByText("Hi!").closest("article")!;
    await user.click(within(reply).getByTestId("forget-message"));
    expect(within(reply).getByTestId("forget-confirm")).toHaveTextContent("Your message stays.");
    await user.click(within(reply).getByRole("button", { name: "Cancel" }));
    expect(within(reply).queryByTestId("forget-confirm")).toBeNull();
    expect(core.invoked("forget_message")).toHaveLength(1);
  });

  it("speaks Spanish", async () => {
    const core = new FakeCore();
    core.history = [said(1, "user", "Di un color"), said(2, "assistant", "Azul")];
    core.versions = { user_message_id: 1, count: 1, current: 1 };
    renderApp("es");
    const reply = await screen.findByTestId("message-assistant");
    expect(within(reply).getByTestId("copy-message")).toHaveTextContent("Copiar");
    await waitFor(() => expect(within(reply).getByTestId("regenerate")).toHaveTextContent("Regenerar"));
    expect(within(screen.getByTestId("message-user")).getByTestId("edit-message")).toHaveTextContent("Editar");
  });
});
