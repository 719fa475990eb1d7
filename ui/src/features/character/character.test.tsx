import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { CharacterStart, PreferencesView } from "../../api";
import { I18nContext, strings } from "../../i18n";
import { Root } from "../../Root";
import { FakeCore } from "../../test/fakeCore";
import { Character } from "./Character";

// jsdom has no PointerEvent: a mouse event carries the same fields the page reads.
if (typeof window.PointerEvent === "undefined") {
  (window as unknown as { PointerEvent: typeof MouseEvent }).PointerEvent = class extends MouseEvent {
    pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  } as unknown as typeof MouseEvent;
}

const START: CharacterStart = { window: { transparent: true, rest: [112, 112] }, quiet: { quiet: false, reason: null, changes_at: null }, down: [], asking: false };

function characterCore(start: Partial<CharacterStart> = {}) {
  const core = new FakeCore();
  core.handlers.character_start = () => ({ ...START, ...start });
  core.handlers.character_fit = () => ({ window: { x: 0, y: 0 }, right: true, bottom: true });
  core.handlers.snooze_choices = () => [10, 60];
  core.handlers.character_open = () => null;
  core.handlers.quiet_for_an_hour = () => ({ quiet: true, reason: "asked", changes_at: new Date(Date.now() + 3_600_000).toISOString() });
  core.handlers.answer_reminder_message = () => ({ what: "Call Ana", minutes: 10 });
  return core;
}

function renderCharacter(lang: "en" | "es" = "en") {
  return render(
    <I18nContext.Provider value={strings[lang]}>
      <Character />
    </I18nContext.Provider>,
  );
}

const moodShown = () => screen.getByTestId("character").dataset.mood;

/** The page asked what stood and listens to the core's events. */
async function opened(core: FakeCore) {
  await waitFor(() => expect(core.invoked("character_start")).toHaveLength(1));
  // Listening starts with the page, a few ticks after it asked.
  await act(() => new Promise((r) => setTimeout(r, 50)));
}

describe("the character's page", () => {
  it("shows the core's events as moods, and grows its window for a bubble", async () => {
    const core = characterCore();
    renderCharacter();
    await opened(core);
    await waitFor(() => expect(moodShown()).toBe("idle"));
    await core.event({ type: "user_typing" });
    await waitFor(() => expect(moodShown()).toBe("listening"));
    await core.event({ type: "turn_started", conversation_id: 1, user_message_id: 2, channel: "desktop" });
    await waitFor(() => expect(moodShown()).toBe("thinking"));
    await core.event({ type: "turn_failed", conversation_id: 1, message: "x", retryable: true });
    await core.event({ type: "reminder_delivered", conversation_id: 1, message_id: 8, reminder_id: 3, late: false, first_line: "Reminder: Call Ana" });
    await waitFor(() => expect(moodShown()).toBe("speaking"));
    expect(await screen.findByTestId("character-bubble")).toHaveTextContent("Reminder: Call Ana");
    await waitFor(() => expect(core.invoked("character_fit").at(-1)?.args).toEqual({ width: 280, height: 212 }));
    expect(screen.getByTestId("character-bubble")).toHaveAttribute("title", "Click to open the chat, double-click to snooze 10 min");
  });

  it("opens the chat on the bubble's message with a click, and back to its size", async () => {
    const core = characterCore();
    renderCharacter();
    await opened(core);
    await core.event({ type: "spontaneous_message", conversation_id: 1, message_id: 7, message_type: "greeting", first_line: "Good morning!" });
    fireEvent.click(await screen.findByTestId("character-bubble"));
    await waitFor(() => expect(core.invoked("character_open")[0]?.args).toEqual({ messageId: 7 }));
    expect(screen.queryByTestId("character-bubble")).toBeNull();
    await waitFor(() => expect(core.invoked("character_fit").at(-1)?.args).toEqual({ width: 112, height: 112 }));
  });

  it("snoozes a reminder with a double-click and says so", async () => {
    const core = characterCore();
    renderCharacter();
    await opened(core);
    await waitFor(() => expect(core.invoked("snooze_choices")).toHaveLength(1));
    await core.event({ type: "reminder_delivered", conversation_id: 1, message_id: 8, reminder_id: 3, late: false, first_line: "Reminder: Call Ana" });
    const bubble = await screen.findByTestId("character-bubble");
    fireEvent.click(bubble);
    fireEvent.click(bubble);
    fireEvent.doubleClick(bubble);
    await waitFor(() => expect(core.invoked("answer_reminder_message")[0]?.args).toEqual({ messageId: 8, minutes: 10 }));
    expect(await screen.findByTestId("character-note")).toHaveTextContent("Snoozed: again in 10 min");
    await new Promise((r) => setTimeout(r, 400));
    expect(core.invoked("character_open"), "a double-click does not open the chat").toHaveLength(0);
  });

  it("a press without a drag opens the chat; a drag moves it and keeps the place", async () => {
    const core = characterCore();
    core.handlers.character_drag = () => null;
    core.handlers.character_drop = () => ({ x: 10, y: 20 });
    renderCharacter();
    await opened(core);
    const figure = screen.getByTestId("character-figure");
    figure.setPointerCapture = () => undefined;
    fireEvent.pointerDown(figure, { button: 0, screenX: 100, screenY: 100, pointerId: 1 });
    fireEvent.pointerUp(figure, { screenX: 101, screenY: 100, pointerId: 1 });
    await waitFor(() => expect(core.invoked("character_open")[0]?.args).toEqual({ messageId: null }));

    fireEvent.pointerDown(figure, { button: 0, screenX: 100, screenY: 100, pointerId: 1 });
    fireEvent.pointerMove(figure, { screenX: 80, screenY: 90, pointerId: 1 });
    fireEvent.pointerMove(figure, { screenX: 40, screenY: 70, pointerId: 1 });
    fireEvent.pointerUp(figure, { screenX: 40, screenY: 70, pointerId: 1 });
    await waitFor(() => expect(core.invoked("character_drop")[0]?.args).toEqual({ dx: -60, dy: -30 }));
    expect(core.invoked("character_drag").map((c) => c.args)).toEqual([
      { dx: -20, dy: -10 },
      { dx: -60, dy: -30 },
    ]);
    expect(core.invoked("character_open"), "a drag is not a click").toHaveLength(1);
  });

  it("has a menu on right-click: quiet for an hour sleeps, Escape closes it", async () => {
    const core = characterCore();
    const user = userEvent.setup();
    renderCharacter();
    await opened(core);
    fireEvent.contextMenu(screen.getByTestId("character-figure"));
    const menu = await screen.findByRole("menu", { name: "Sidecar menu" });
    expect(within(menu).getAllByRole("menuitem").map((b) => b.textContent)).toEqual(["Open", "Quiet for 1 hour", "Hide the character", "Settings"]);
    await waitFor(() => expect(core.invoked("character_fit").at(-1)?.args).toEqual({ width: 220, height: 276 }));
    await user.click(within(menu).getByText("Quiet for 1 hour"));
    await waitFor(() => expect(moodShown()).toBe("sleeping"));
    expect(screen.queryByRole("menu")).toBeNull();

    fireEvent.contextMenu(screen.getByTestId("character-figure"));
    await screen.findByRole("menu");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("starts from what stood: asleep, a channel down (badge), a card without a compositor, in Spanish", async () => {
    characterCore({ quiet: { quiet: true, reason: "quiet_hours", changes_at: null }, down: ["telegram"], window: { transparent: false, rest: [112, 112] } });
    renderCharacter("es");
    await waitFor(() => expect(moodShown()).toBe("sleeping"));
    expect(screen.getByTestId("character-badge")).toBeInTheDocument();
    expect(screen.getByTestId("character").className).toContain("card");
    expect(screen.getByRole("img")).toHaveAccessibleName("Sidecar, dormido (en silencio). Un canal del móvil no funciona");
  });

  it("wakes when the quiet's end comes, asking the core", async () => {
    // Two seconds ahead: the page is asleep before the quiet ends, even on a machine
    // busy building (300 ms was not, under `make test`).
    const core = characterCore({ quiet: { quiet: true, reason: "asked", changes_at: new Date(Date.now() + 2000).toISOString() } });
    core.handlers.quiet_now = () => ({ quiet: false, reason: null, changes_at: null });
    renderCharacter();
    await waitFor(() => expect(moodShown()).toBe("sleeping"));
    await waitFor(() => expect(moodShown()).toBe("idle"), { timeout: 6000 });
    expect(core.invoked("quiet_now")).toHaveLength(1);
  });
});

describe("Settings → the character on the desktop", () => {
  it("turns it on, says when there is no compositor, and refuses the window's shortcut for it", async () => {
    const core = new FakeCore();
    core.handlers.set_character = (args) => (core.preferences = { ...core.preferences, character: (args as { on: boolean }).on });
    core.handlers.character_transparent = () => false;
    core.handlers.set_character_hotkey = () => Promise.reject({ kind: "same_as_other", hotkey: "Ctrl+Shift+Space" });
    const user = userEvent.setup();
    render(<Root />);
    await user.click(await screen.findByTestId("nav-settings"));
    const section = await screen.findByTestId("character-setting");
    expect(within(section).getByTestId("character-shown")).not.toBeChecked();
    expect(within(section).getByTestId("character-hotkey")).toHaveTextContent("Ctrl+Shift+Period");
    await user.click(within(section).getByTestId("character-shown"));
    expect(core.invoked("set_character")[0].args).toEqual({ on: true });
    await waitFor(() => expect(within(section).getByTestId("character-shown")).toBeChecked());
    expect(await within(section).findByTestId("character-no-compositor")).toHaveTextContent("no compositor is running");

    await user.click(within(section).getByTestId("character-hotkey-change"));
    await user.keyboard("{Control>}{Shift>} {/Shift}{/Control}");
    expect(await within(section).findByRole("alert")).toHaveTextContent("Ctrl+Shift+Space is already Sidecar's other shortcut");
  });

  it("is offered once, in the welcome", async () => {
    const core = new FakeCore();
    core.welcome = true;
    core.handlers.set_character = (args): PreferencesView => ({ ...core.preferences, character: (args as { on: boolean }).on });
    const user = userEvent.setup();
    render(<Root />);
    const offer = await screen.findByTestId("welcome-character");
    await user.click(within(offer).getByTestId("welcome-character-shown"));
    expect(core.invoked("set_character")[0].args).toEqual({ on: true });
    await waitFor(() => expect(within(offer).getByTestId("welcome-character-shown")).toBeChecked());
  });

  it("the composer tells the core the user types, at most every second and a half", async () => {
    const core = new FakeCore();
    const user = userEvent.setup();
    render(<Root />);
    await user.type(await screen.findByTestId("composer"), "hello there");
    expect(core.invoked("user_typing")).toHaveLength(1);
  });
});
