import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { emit } from "@tauri-apps/api/event";
import type { Reminder, RemindersOverview, WhenPreview } from "./api";
import { SHOW_MESSAGE } from "./api";
import { defaultProactiveStatus, FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

function reminder(id: number, message: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id,
    message,
    due_at: "2026-11-23T08:00:00.000Z",
    zone: "Europe/Madrid",
    rrule: null,
    state: "pending",
    delivered_at: null,
    late: false,
    created_at: "2026-11-22T08:00:00.000Z",
    ...extra,
  };
}

const overview: RemindersOverview = {
  upcoming: [reminder(1, "call mum")],
  recurring: [reminder(2, "weekly review", { rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0" })],
  late: [reminder(3, "water the plants", { state: "delivered", late: true })],
  delivered: [reminder(4, "stretch", { state: "delivered" })],
  zone: "Europe/Madrid",
  // Not the usual choices: the buttons follow what the core offers.
  snooze_choices: [5, 15, 120],
};

describe("reminders page", () => {
  it("groups reminders, reads repeating rules in words, and shows the zone", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => overview;
    renderApp();
    await userEvent.setup().click(screen.getByTestId("nav-reminders"));
    expect(await screen.findByTestId("group-upcoming")).toHaveTextContent("call mum");
    expect(screen.getByTestId("group-upcoming")).toHaveTextContent("Mon 23 Nov, 09:00");
    expect(screen.getByTestId("group-recurring")).toHaveTextContent("every Monday at 09:00");
    expect(screen.getByTestId("group-late")).toHaveTextContent("shown late: Sidecar was not running");
    expect(screen.getByTestId("group-delivered")).toHaveTextContent("stretch");
    expect(screen.getByText(/Times are in Europe\/Madrid/)).toBeInTheDocument();
  });

  it("says what to do when there are none", async () => {
    new FakeCore();
    renderApp("es");
    await userEvent.setup().click(screen.getByTestId("nav-reminders"));
    expect(await screen.findByTestId("reminders-empty")).toHaveTextContent("Aún no hay recordatorios");
  });

  it("shows the parsed time as the user types and adds only a time it understood", async () => {
    const core = new FakeCore();
    core.handlers.preview_when = (args) => {
      const text = (args as { text: string }).text;
      const preview: WhenPreview = text.includes("mañana a las 9")
        ? { status: "ok", local: "Monday 2026-11-23 09:00 (Europe/Madrid, UTC+01:00)", utc: "2026-11-23T08:00:00.000Z", zone: "Europe/Madrid", rrule: null, note: null }
        : { status: "error", error: "\"a las 3\" has no day.", suggestion: "Say \"mañana a las 3\"." };
      return preview;
    };
    core.handlers.add_reminder = (args) => reminder(9, (args as { message: string }).message);
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.type(await screen.findByTestId("reminder-what"), "call mum");
    await user.type(screen.getByTestId("reminder-when"), "a las 3");
    await waitFor(() => expect(screen.getByTestId("when-preview")).toHaveTextContent("Say \"mañana a las 3\""));
    expect(screen.getByTestId("add-reminder")).toBeDisabled();
    await user.clear(screen.getByTestId("reminder-when"));
    await user.type(screen.getByTestId("reminder-when"), "mañana a las 9");
    await waitFor(() => expect(screen.getByTestId("when-preview")).toHaveTextContent("Monday 2026-11-23 09:00 (Europe/Madrid"));
    await user.click(screen.getByTestId("add-reminder"));
    expect(core.invoked("add_reminder")[0].args).toEqual({ message: "call mum", when: "mañana a las 9" });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('Reminder set: "call mum"');
    expect(screen.getByTestId("reminder-when")).toHaveValue("");
    expect(screen.getByTestId("when-preview")).toBeEmptyDOMElement();
  });

  it("snoozes and cancels from the page", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => overview;
    core.handlers.snooze_reminder = (args) => reminder((args as { id: number }).id, "stretch");
    core.handlers.cancel_reminder = (args) => reminder((args as { id: number }).id, "call mum", { state: "cancelled" });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    const delivered = await screen.findByTestId("reminder-delivered");
    expect(within(delivered).getByTestId("snooze-120")).toHaveTextContent("2 h");
    await user.click(within(delivered).getByTestId("snooze-15"));
    expect(core.invoked("snooze_reminder")[0].args).toEqual({ id: 4, minutes: 15 });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('"stretch" will come again in 15 minutes.');
    await user.click(within(screen.getByTestId("reminder-upcoming")).getByTestId("cancel-reminder"));
    expect(core.invoked("cancel_reminder")[0].args).toEqual({ id: 1 });
  });
});

describe("proactive messages in the chat", () => {
  it("marks reminders and spontaneous messages, and a clicked notification highlights its message", async () => {
    const core = new FakeCore();
    core.history = [
      { id: 7, conversation_id: 1, role: "assistant", content: "Reminder: stretch", status: "complete", finish_reason: null, created_at: "", meta: { command: true, proactive: "reminder" } },
      { id: 8, conversation_id: 1, role: "assistant", content: "¡Buenos días!", status: "complete", finish_reason: null, created_at: "", meta: { proactive: "greeting" } },
    ];
    renderApp();
    const tags = await screen.findAllByTestId("proactive-tag");
    expect(tags.map((t) => t.textContent)).toEqual(["Reminder", "Spoke first"]);
    await act(() => emit(SHOW_MESSAGE, 8));
    await waitFor(() => expect(document.querySelector('[data-key="m8"]')).toHaveClass("highlighted"));
  });
});

describe("proactivity settings", () => {
  it("saves the level, quiet hours, sinks and a new time zone", async () => {
    const core = new FakeCore();
    core.handlers.save_proactive_config = (args) => (args as { config: unknown }).config;
    core.handlers.set_timezone = (args) => (args as { zone: string }).zone;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    expect(await screen.findByTestId("quiet-line")).toHaveTextContent("Today: 1 of 4 spontaneous messages.");
    await user.click(screen.getByTestId("level-high"));
    await user.selectOptions(screen.getByTestId("sink-notification"), "reminders-only");
    await user.clear(screen.getByTestId("timezone"));
    await user.type(screen.getByTestId("timezone"), "America/Argentina/Buenos_Aires");
    await user.click(screen.getByTestId("save-proactive"));
    await waitFor(() => expect(core.invoked("save_proactive_config")).toHaveLength(1));
    const saved = core.invoked("save_proactive_config")[0].args as { config: ReturnType<typeof defaultProactiveStatus>["config"] };
    expect(saved.config.level).toBe("high");
    expect(saved.config.sinks.notification).toBe("reminders-only");
    expect(core.invoked("set_timezone")[0].args).toEqual({ zone: "America/Argentina/Buenos_Aires" });
    expect(await screen.findByText("Saved. It applies now.")).toBeInTheDocument();
  });

  it("quiets for an hour from the settings", async () => {
    const core = new FakeCore();
    const until = new Date(Date.now() + 3600_000).toISOString();
    core.handlers.set_quiet = () => ({ ...defaultProactiveStatus(), quiet_until: until });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await user.click(await screen.findByTestId("quiet-hour"));
    expect(core.invoked("set_quiet")[0].args).toEqual({ minutes: 60 });
    expect(await screen.findByTestId("quiet-line")).toHaveTextContent("Quiet until");
  });
});
