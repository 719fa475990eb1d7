import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { describe, expect, it } from "vitest";
import { FOCUS_COMPOSER } from "./api";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";
import { message } from "./test/fixtures";


async function typeAndSend(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByTestId("composer"), text);
  await user.keyboard("{Enter}");
  return user;
}

describe("chat view", () => {
  it("shows the empty state, then streams a reply token by token and renders markdown", async () => {
    const core = new FakeCore();
    renderApp();
    expect(await screen.findByTestId("empty-state")).toBeInTheDocument();

    await typeAndSend("hello there");
    expect(core.invoked("send_message")[0].args).toEqual({ text: "hello there" });
    expect(screen.getByText("hello there")).toBeInTheDocument();
    expect(screen.getByTestId("stop")).toBeInTheDocument();
    expect(within(screen.getByTestId("streaming-message")).getByText("Thinking…")).toBeInTheDocument();

    await act(() => core.delta("Hi, "));
    expect(screen.getByTestId("streaming-message")).toHaveTextContent("Hi,");
    await act(() => core.delta("**friend**"));
    expect(screen.getByTestId("streaming-message")).toHaveTextContent("Hi, friend");

    await act(async () => core.finish("Hi, **friend**"));
    await waitFor(() => expect(screen.queryByTestId("streaming-message")).not.toBeInTheDocument());
    const replies = screen.getAllByTestId("message-assistant");
    expect(replies).toHaveLength(1);
    // Markdown is rendered, not shown raw.
    expect(within(replies[0]).getByText("friend").tagName).toBe("STRONG");
    expect(screen.getByTestId("send")).toBeInTheDocument();
  });

  it("Shift+Enter adds a new line instead of sending", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const box = screen.getByTestId("composer");
    await user.type(box, "line one{Shift>}{Enter}{/Shift}line two");
    expect(box).toHaveValue("line one\nline two");
    expect(core.invoked("send_message")).toHaveLength(0);
    await user.keyboard("{Enter}");
    expect(core.invoked("send_message")[0].args).toEqual({ text: "line one\nline two" });
    expect(box).toHaveValue("");
  });

  it("Stop cancels the reply and keeps what was streamed, marked as stopped", async () => {
    const core = new FakeCore();
    core.onStop = () => core.finish("Once upon", "stopped", null);
    renderApp();
    const user = await typeAndSend("tell me a story");
    await act(() => core.delta("Once upon"));

    await user.click(screen.getByTestId("stop"));
    expect(core.invoked("stop_reply")).toHaveLength(1);
    const reply = await screen.findByTestId("message-assistant");
    expect(reply).toHaveTextContent("Once upon");
    expect(reply).toHaveAttribute("data-status", "stopped");
    expect(within(reply).getByText("Stopped")).toBeInTheDocument();
    expect(screen.getByTestId("send")).toBeInTheDocument();
  });

  it("Escape stops a reply too", async () => {
    const core = new FakeCore();
    core.onStop = () => core.finish("", "stopped", null);
    renderApp();
    const user = await typeAndSend("long question");
    await user.keyboard("{Escape}");
    expect(core.invoked("stop_reply")).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId("send")).toBeInTheDocument());
    // Nothing had streamed, so no empty bubble is left behind.
    expect(screen.queryByTestId("message-assistant")).not.toBeInTheDocument();
  });

  it("an error shows a banner with Retry, and Retry answers without resending the message", async () => {
    const core = new FakeCore();
    renderApp();
    const user = await typeAndSend("are you there?");
    await act(() => core.delta("Par"));
    await act(async () =>
      core.fail({ message: "the model server answered HTTP 500: boom", retryable: true }),
    );

    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("HTTP 500: boom");
    // The partial text stays visible, marked interrupted.
    expect(screen.getByTestId("message-assistant")).toHaveAttribute("data-status", "interrupted");

    await user.click(within(banner).getByTestId("retry"));
    expect(core.invoked("retry_reply")).toHaveLength(1);
    expect(core.invoked("send_message")).toHaveLength(1);
    expect(screen.queryByTestId("error-banner")).not.toBeInTheDocument();
    await act(async () => core.finish("Yes, I am here."));
    expect(await screen.findByText("Yes, I am here.")).toBeInTheDocument();
  });

  it("a message no reply followed is marked so, until one does", async () => {
    const core = new FakeCore();
    renderApp();
    const user = await typeAndSend("are you there?");
    await act(async () => core.fail({ message: "Sidecar's instructions take 448 tokens, more than this model's window leaves room for", retryable: true }));
    const mine = screen.getByTestId("message-user");
    expect(within(mine).getByTestId("markers")).toHaveTextContent("Not answered: send it again, or Retry");
    await user.click(within(await screen.findByTestId("error-banner")).getByTestId("retry"));
    await act(async () => core.finish("Yes, I am here."));
    expect(await screen.findByText("Yes, I am here.")).toBeInTheDocument();
    expect(within(screen.getByTestId("message-user")).queryByTestId("markers")).toBeNull();
  });

  it("an error that retrying cannot fix has no Retry button", async () => {
    const core = new FakeCore();
    renderApp();
    await typeAndSend("hi");
    await act(async () => core.fail({ message: "the message is empty", retryable: false }));
    const banner = await screen.findByTestId("error-banner");
    expect(within(banner).queryByTestId("retry")).not.toBeInTheDocument();
  });

  it("shows the stored conversation on start", async () => {
    const core = new FakeCore();
    core.history = [
      message({ id: 1, conversation_id: 1, role: "user", content: "remember me?", status: "complete", finish_reason: null, created_at: "" }),
      message({ id: 2, conversation_id: 1, role: "assistant", content: "Of course.", status: "complete", finish_reason: "stop", created_at: "" }),
    ];
    renderApp();
    expect(await screen.findByText("remember me?")).toBeInTheDocument();
    expect(screen.getByText("Of course.")).toBeInTheDocument();
    expect(screen.queryByTestId("empty-state")).not.toBeInTheDocument();
  });

  it("links in a reply open in the browser, and unsafe links do nothing", async () => {
    const core = new FakeCore();
    core.history = [
      message({
        id: 1, conversation_id: 1, role: "assistant", status: "complete", finish_reason: "stop", created_at: "",
        content: "See [the docs](https://example.org/docs) or [this](javascript:alert(1)).",
      }),
    ];
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByText("the docs"));
    expect(core.invoked("plugin:opener|open_url").map((c) => (c.args as { url: string }).url)).toEqual([
      "https://example.org/docs",
    ]);
    await user.click(screen.getByText("this"));
    expect(core.invoked("plugin:opener|open_url")).toHaveLength(1);
  });

  it("speaks Spanish", async () => {
    new FakeCore();
    renderApp("es");
    expect(await screen.findByText("Saluda")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enviar" })).toBeInTheDocument();
  });
});

describe("the window summoned by the hotkey", () => {
  it("comes back where the user was, and on the chat with the cursor in the message box", async () => {
    new FakeCore();
    renderApp();
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    await user.click(screen.getByTestId("nav-settings"));
    await screen.findByTestId("settings-view");
    await act(() => emit(FOCUS_COMPOSER, null));
    expect(screen.getByTestId("settings-view")).toBeInTheDocument();

    await user.click(screen.getByTestId("nav-chat"));
    const box = await screen.findByTestId("composer");
    box.blur();
    await act(() => emit(FOCUS_COMPOSER, null));
    expect(box).toHaveFocus();
  });
});

describe("the keyboard", () => {
  it("reaches the message box from the first Tab, through the skip link", async () => {
    new FakeCore();
    renderApp("es");
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    // From the top of the page (the window opens with the cursor in the box).
    (document.activeElement as HTMLElement | null)?.blur();
    await user.tab();
    const skip = screen.getByTestId("skip-to-composer");
    expect(skip).toHaveFocus();
    expect(skip).toHaveTextContent("Saltar al cuadro de mensaje");
    await user.keyboard("{Enter}");
    expect(screen.getByTestId("composer")).toHaveFocus();
  });
});
