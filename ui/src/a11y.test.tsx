import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { describe, expect, it } from "vitest";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

/** What axe finds against WCAG 2.1 A and AA in the page as it is now. Colour contrast
 * needs a real layout engine: the e2e checks it in the app's own WebKit. */
async function violations(): Promise<string[]> {
  const found = await axe.run(document.body, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    rules: { "color-contrast": { enabled: false } },
  });
  return found.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim()}`));
}

/** Lets the fake core's answers land. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 100)));

describe("a window anyone can use", () => {
  it("every screen and every Settings section has no WCAG 2.1 AA violation axe can see", async () => {
    // axe measures icon ligatures on a canvas, which jsdom has not.
    HTMLCanvasElement.prototype.getContext = () => null;
    const core = new FakeCore();
    const totals = { calls: 1, input_tokens: 10, output_tokens: 5, cached_tokens: 0, cost_usd: 0.01, unpriced_calls: 0, by_model: [], by_purpose: [] };
    core.handlers.usage_report = () => ({ today: totals, all_time: totals });
    renderApp();
    const user = userEvent.setup();
    // A chat with an exchange in it, so the messages' actions are looked at too.
    await user.type(await screen.findByTestId("composer"), "hello{Enter}");
    await act(async () => core.finish("Hi, **friend**"));
    await screen.findByTestId("message-assistant");
    const found: Record<string, string[]> = {};
    found.chat = await violations();
    for (const view of ["reminders", "memory", "usage"]) {
      await user.click(screen.getByTestId(`nav-${view}`));
      await screen.findByTestId(`${view}-view`);
      await settle();
      found[view] = await violations();
    }
    await user.click(screen.getByTestId("nav-settings"));
    await screen.findByTestId("settings-view");
    await settle();
    const sections = [...document.querySelectorAll<HTMLButtonElement>("[data-testid^=settings-nav-]")];
    for (const button of sections) {
      await user.click(button);
      await settle();
      found[button.dataset.testid ?? ""] = await violations();
    }
    const all = Object.entries(found).flatMap(([where, list]) => list.map((v) => `${where}: ${v}`));
    expect(all).toEqual([]);
  }, 60_000);

  it("the welcome, in Spanish, has none either", async () => {
    HTMLCanvasElement.prototype.getContext = () => null;
    const core = new FakeCore();
    core.welcome = true;
    renderApp("es");
    await screen.findByTestId("welcome");
    await settle();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Moonshot (Kimi)" }));
    expect(await violations()).toEqual([]);
  });

  it("tells a screen reader a reply once it has ended, and a reminder that arrived", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const announcer = await screen.findByTestId("announcer");
    expect(announcer).toHaveAttribute("aria-live", "polite");
    await user.type(await screen.findByTestId("composer"), "hello{Enter}");
    await act(() => core.delta("Hi, "));
    expect(announcer).toHaveTextContent("");
    // The conversation is not read out token by token.
    expect(screen.getByTestId("message-list")).toHaveAttribute("aria-live", "off");
    await act(async () => core.finish("Hi, **friend**"));
    await screen.findByTestId("message-assistant");
    expect(announcer).toHaveTextContent("Sidecar replied: Hi, friend");
    await act(() => core.event({ type: "reminder_delivered", conversation_id: 1, message_id: 9, reminder_id: 1, late: false, first_line: "⏰ Call Ana" }));
    expect(announcer).toHaveTextContent("Reminder: ⏰ Call Ana");
  });
});
