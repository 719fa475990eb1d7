import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { chatReducer, initialChat } from "./chatState";
import { FakeCore } from "../../test/fakeCore";
import { turnOutcome } from "../../test/fixtures";
import { renderApp } from "../../test/renderApp";

const shownTexts = () => screen.getAllByTestId(/^message-/).map((m) => m.textContent ?? "");

describe("the message queue", () => {
  it("queues what is sent while a reply streams, cancels one, and answers the rest after", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.type(composer, "tell me a story{Enter}");
    await act(() => core.delta("Once"));

    await user.type(composer, "second{Enter}");
    expect(core.invoked("send_message")).toHaveLength(2);
    await act(() => core.event({ type: "queue", items: [{ id: 1, text: "second", channel: "desktop" }] }));
    await user.type(composer, "third{Enter}");
    await act(() =>
      core.event({ type: "queue", items: [{ id: 1, text: "second", channel: "desktop" }, { id: 2, text: "third", channel: "desktop" }] }),
    );
    const queued = screen.getAllByTestId("queued-item");
    expect(queued.map((q) => q.textContent)).toEqual(["Queuedsecond" + "Cancel", "Queuedthird" + "Cancel"]);
    expect(screen.getByTestId("stop")).toBeInTheDocument();

    await user.click(within(queued[0]).getByTestId("cancel-queued"));
    expect(core.invoked("cancel_queued").at(-1)?.args).toEqual({ id: 1 });
    await act(() => core.event({ type: "queue", items: [{ id: 2, text: "third", channel: "desktop" }] }));

    await act(async () => core.finish("Once upon a time"));
    await act(async () => core.fail({ message: "the queued message was cancelled before its turn", retryable: false, cancelled: true }));
    await act(() => core.event({ type: "turn_started", conversation_id: 1, user_message_id: 7, channel: "desktop", dequeued: "third" }));
    await act(() => core.event({ type: "queue", items: [] }));
    await act(() => core.delta("Third"));
    await act(async () => core.finish("Third answer"));

    expect(screen.queryByTestId("queued-list")).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(shownTexts().join(" | ")).toMatch(/tell me a story.*\| .*Once upon a time.*\| .*third.*\| .*Third answer/);
    expect(shownTexts().some((t) => t.includes("second"))).toBe(false);
  });

  it("a queued turn that starts before the last reply's outcome arrives keeps both in order", () => {
    let state = chatReducer(initialChat, { type: "send", text: "first", localId: 1 });
    state = chatReducer(state, { type: "delta", text: "One" });
    state = chatReducer(state, { type: "dequeued", text: "second", localId: 2 });
    state = chatReducer(state, { type: "delta", text: "Tw" });
    const outcome = turnOutcome({ message_id: 10, reply: "One." });
    state = chatReducer(state, { type: "finished", outcome });
    expect(state.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "first"],
      ["assistant", "One."],
      ["user", "second"],
    ]);
    expect(state.streaming?.content).toBe("Tw");
    state = chatReducer(state, { type: "finished", outcome: { ...outcome, message_id: 12, reply: "Two." } });
    expect(state.messages.map((m) => m.content)).toEqual(["first", "One.", "second", "Two."]);
    expect(state.streaming).toBeNull();
  });

  it("a message sent as the reply before it ends starts at once and shows with its tools", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.type(composer, "first{Enter}");
    await act(() => core.delta("One"));
    // Sent while the window still shows the first reply; the core had finished it, so
    // the turn starts at once (no `dequeued`), before the first outcome reaches the window.
    await user.type(composer, "second{Enter}");
    await act(() => core.event({ type: "turn_started", conversation_id: 1, user_message_id: 3, channel: "desktop" }));
    await act(() => core.toolStarted("call_2", "echo", "{}"));
    await act(() => core.toolFinished("call_2", "echo", "echoed"));
    await act(async () => core.finish("One."));
    await act(async () => core.finish("Two."));

    expect(shownTexts().join(" | ")).toMatch(/first.*\| .*One\..*\| .*second.*\| .*Two\./);
    const chips = screen.getAllByTestId("tool-chip");
    expect(chips.map((c) => c.dataset.state)).toEqual(["done"]);
    expect(within(screen.getAllByTestId("message-assistant").at(-1)!).getByTestId("tool-chip")).toBeInTheDocument();
  });

  it("a command sent while a reply streams is answered beside it", async () => {
    const core = new FakeCore();
    core.handlers.send_message = (args) => {
      const text = (args as { text: string }).text;
      if (text === "/quiet") return { conversation_id: 1, message_id: 50, reply: "Quiet until 15:00.", status: "complete", finish_reason: null, usage: null, meta: { command: true } };
      return new Promise(() => undefined);
    };
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.type(composer, "tell me a story{Enter}");
    await act(() => core.delta("Once"));
    await user.type(composer, "/quiet{Enter}");
    expect(await screen.findByText("Quiet until 15:00.")).toBeInTheDocument();
    expect(screen.getByTestId("stop")).toBeInTheDocument();
  });
});
