import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { LearnedKind } from "../../api";
import { FakeCore, defaultProactiveStatus } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

const kind = (over: Partial<LearnedKind>): LearnedKind => ({
  kind: "checkin", channel: "telegram", allowance: 1, unwelcome_in_a_row: 0, paused_until: null, last_sent: null, welcome: 0, unwelcome: 0, ...over,
});

describe("speaking first that learns", () => {
  it("asks under a spontaneous message whether it was welcome and tells the core", async () => {
    const core = new FakeCore();
    core.history = [
      { id: 41, role: "assistant", content: "¿Qué tal va el día?", created_at: "2026-11-26T10:00:00Z", meta: { proactive: "checkin" } },
      { id: 42, role: "assistant", content: "Reminder: water", created_at: "2026-11-26T10:05:00Z", meta: { proactive: "reminder", reminder_id: 3 } },
    ] as typeof core.history;
    let given: unknown = null;
    core.handlers.spontaneous_feedback = (args) => {
      given = args;
      return null;
    };
    renderApp();
    const feedback = await screen.findAllByTestId("spontaneous-feedback");
    expect(feedback).toHaveLength(1);
    await userEvent.setup().click(within(feedback[0]).getByTestId("thumbs-down"));
    expect(given).toEqual({ messageId: 41, signal: "thumbs_down" });
    expect(await screen.findByText("Noted: fewer of these.")).toBeInTheDocument();
  });

  it("shows what was learned per kind and channel, and resets it", async () => {
    const core = new FakeCore();
    const status = defaultProactiveStatus();
    const paused = new Date(Date.now() + 3 * 86_400_000).toISOString();
    status.state.learned = { kinds: [kind({ paused_until: paused, unwelcome: 5, unwelcome_in_a_row: 5, allowance: 1 / 16 }), kind({ kind: "greeting", channel: "desktop", allowance: 0.25, welcome: 3, unwelcome: 2 })], pending: [] };
    core.handlers.proactive_status = () => status;
    let reset = false;
    core.handlers.forget_learned = () => {
      reset = true;
      return { ...status, state: { ...status.state, learned: { kinds: [] } } };
    };
    renderApp();
    const user = userEvent.setup();
    await act(() => user.click(screen.getByTestId("nav-settings")));
    const rows = await screen.findAllByTestId("learned-row");
    expect(rows[0]).toHaveTextContent("Check-ins");
    expect(rows[0]).toHaveTextContent("Telegram");
    expect(rows[0]).toHaveTextContent("paused until");
    expect(rows[1]).toHaveTextContent("4× less often");
    await user.click(screen.getByTestId("learned-reset"));
    expect(reset).toBe(true);
    expect(await screen.findByText(/Nothing yet/)).toBeInTheDocument();
  });

  it("says once in the chat that a kind of message pauses", async () => {
    const core = new FakeCore();
    renderApp();
    await core.event({ type: "proactive_learned", said: "The last check-ins on telegram went unanswered, so I'll stop sending them there until 2026-12-03." });
    expect(await screen.findByTestId("learned-note")).toHaveTextContent("stop sending them there");
  });
});
