import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { emit } from "@tauri-apps/api/event";
import type { Reminder, ReminderSetting, RemindersOverview, ReminderView, SentencePreview, WhenPreview } from "../../api";
import { SHOW_MESSAGE } from "../../api";
import { defaultProactiveStatus, FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";

/** A reminder as the lists show it (its zone named by the zone's id unless given). */
function reminder(id: number, message: string, extra: Partial<ReminderView> = {}): ReminderView {
  const zone = extra.zone ?? "Europe/Madrid";
  return {
    id,
    message,
    due_at: "2026-11-23T08:00:00.000Z",
    zone,
    zone_words: zone,
    rrule: null,
    rule_words: null,
    next: [],
    series_start: null,
    all_day: false,
    state: "pending",
    attempt_started_at: null,
    delivered_at: null,
    late: false,
    created_at: "2026-11-22T08:00:00.000Z",
    shown_attempts: 0,
    from_incognito: false,
    description: null,
    ...extra,
  };
}

function setting(reminder: Reminder, twin: Reminder | null = null): ReminderSetting {
  return { reminder, note: null, twin, already_set: false, event: null };
}

const overview: RemindersOverview = {
  upcoming: [reminder(1, "call mum")],
  recurring: [
    reminder(2, "weekly review", {
      rrule: "FREQ=WEEKLY;BYDAY=MO",
      rule_words: "every Monday at 09:00",
      next: ["2026-11-23T08:00:00Z", "2026-11-30T08:00:00Z", "2026-12-07T08:00:00Z"],
    }),
  ],
  late: [reminder(3, "water the plants", { state: "delivered", late: true })],
  delivered: [reminder(4, "stretch", { state: "delivered" })],
  failed: [],
  zone: "Europe/Madrid",
  zone_words: "Madrid time",
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
    // The rule in the core's words, and its next three dates.
    expect(screen.getByTestId("group-recurring")).toHaveTextContent("every Monday at 09:00");
    expect(within(screen.getByTestId("group-recurring")).getByTestId("next-dates")).toHaveTextContent(
      "next: Mon 23 Nov, 09:00 · Mon 30 Nov, 09:00 · Mon 7 Dec, 09:00",
    );
    expect(screen.getByTestId("group-late")).toHaveTextContent("shown late: Sidecar was not running");
    expect(screen.getByTestId("group-delivered")).toHaveTextContent("stretch");
    // The zone as the core says it, not the database's name.
    expect(screen.getByText(/Times are in Madrid time\./)).toBeInTheDocument();
  });

  it("says what to do when there are none", async () => {
    new FakeCore();
    renderApp("es");
    await userEvent.setup().click(screen.getByTestId("nav-reminders"));
    expect(await screen.findByTestId("reminders-empty")).toHaveTextContent("Aún no hay recordatorios");
  });

  it("shows the parsed time as the user types and adds only a time it understood", async () => {
    const core = new FakeCore();
    core.handlers.preview_reminder_when = (args) => {
      const text = (args as { text: string }).text;
      const preview: WhenPreview = text.includes("mañana a las 9")
        ? { status: "ok", local: "Monday 2026-11-23 09:00 (Europe/Madrid, UTC+01:00)", utc: "2026-11-23T08:00:00.000Z", zone: "Europe/Madrid", rrule: null, rule_words: null, next: [], all_day: false, note: null }
        : { status: "error", kind: "missing_day", error: "\"a las 3\" has no day.", suggestion: "Say \"mañana a las 3\"." };
      return preview;
    };
    core.handlers.add_reminder = (args) => setting(reminder(9, (args as { message: string }).message));
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    // The two-field form is one click away from the quick-add sentence.
    await user.click(await screen.findByTestId("toggle-form"));
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
    expect(screen.getByTestId("reminders-message")).not.toHaveTextContent("both are kept");
    expect(screen.getByTestId("reminder-when")).toHaveValue("");
    expect(screen.getByTestId("when-preview")).toBeEmptyDOMElement();
  });

  it("splits one sentence into what and when as it is typed, and adds it", async () => {
    const core = new FakeCore();
    core.handlers.preview_sentence = (args) => {
      const text = (args as { text: string }).text;
      const preview: SentencePreview = text.endsWith("tomorrow at 9")
        ? {
            what: "Call mum",
            when_text: "tomorrow at 9",
            when: { status: "ok", local: "Thursday 19 November 2026, 09:00 (Europe/Madrid)", utc: "", zone: "Europe/Madrid", rrule: null, rule_words: null, next: [], all_day: false, note: null },
          }
        : { what: "", when_text: "", when: { status: "error", kind: "no_date", error: `I found no time in "${text}".`, suggestion: "Add when." } };
      return preview;
    };
    // The same words at the same time were already set: both are kept, and the page says so.
    core.handlers.add_reminder_sentence = () => setting(reminder(9, "Call mum"), reminder(8, "Call mum"));
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.type(await screen.findByTestId("quick-add"), "Call mum");
    await waitFor(() => expect(screen.getByTestId("quick-preview")).toHaveTextContent('I found no time in "Call mum". Add when.'));
    expect(screen.getByTestId("quick-add-button")).toBeDisabled();
    await user.type(screen.getByTestId("quick-add"), " tomorrow at 9");
    await waitFor(() => expect(screen.getByTestId("split-what")).toHaveTextContent("What: Call mum"));
    expect(screen.getByTestId("split-when")).toHaveTextContent("When: Thursday 19 November 2026, 09:00 (Europe/Madrid)");
    await user.click(screen.getByTestId("quick-add-button"));
    expect(core.invoked("add_reminder_sentence")[0].args).toEqual({ sentence: "Call mum tomorrow at 9" });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('Reminder set: "Call mum"');
    expect(screen.getByTestId("reminders-message")).toHaveTextContent("both are kept");
    expect(screen.getByTestId("quick-add")).toHaveValue("");
  });

  it("a double click sends one request", async () => {
    const core = new FakeCore();
    core.handlers.preview_sentence = () => ({
      what: "take pill A",
      when_text: "in 5 minutes",
      when: { status: "ok", local: "Wednesday 18 November 2026, 10:05 (Europe/Madrid)", utc: "", zone: "Europe/Madrid", rrule: null, note: null },
    });
    core.handlers.add_reminder_sentence = () => new Promise((done) => setTimeout(() => done(setting(reminder(9, "take pill A"))), 50));
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.type(await screen.findByTestId("quick-add"), "take pill A in 5 minutes");
    await waitFor(() => expect(screen.getByTestId("quick-add-button")).toBeEnabled());
    await user.dblClick(screen.getByTestId("quick-add-button"));
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('Reminder set: "take pill A"');
    expect(core.invoked("add_reminder_sentence")).toHaveLength(1);
  });

  it("a repeating sentence shows its rule and next three dates before it is added", async () => {
    const core = new FakeCore();
    core.handlers.preview_sentence = () => ({
      what: "pagar el alquiler",
      when_text: "el 1 de cada mes",
      when: {
        status: "ok",
        local: "martes 1 de diciembre de 2026, 09:00 (Europe/Madrid)",
        utc: "",
        zone: "Europe/Madrid",
        rrule: "FREQ=MONTHLY;BYMONTHDAY=1",
        rule_words: "el día 1 de cada mes a las 09:00",
        next: ["2026-12-01T08:00:00Z", "2027-01-01T08:00:00Z", "2027-02-01T08:00:00Z"],
        note: null,
      },
    });
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.type(await screen.findByTestId("quick-add"), "pagar el alquiler el 1 de cada mes");
    await waitFor(() => expect(screen.getByTestId("split-when")).toHaveTextContent("el día 1 de cada mes a las 09:00"));
    expect(screen.getByTestId("split-when")).toHaveTextContent("próximos: mar, 1 dic, 09:00 · vie, 1 ene, 09:00 · lun, 1 feb, 09:00");
  });

  it("exports and imports calendar files", async () => {
    const core = new FakeCore();
    core.handlers.export_reminders_ics = () => "/home/ana/Downloads/sidecar-reminders.ics";
    core.handlers.import_reminders_ics = () => ({ added: 2, past: 1, unreadable: [] });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.click(await screen.findByTestId("export-ics"));
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent("Saved your reminders to /home/ana/Downloads/sidecar-reminders.ics");
    const file = new File(["BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"], "cal.ics", { type: "text/calendar" });
    await user.upload(screen.getByTestId("import-ics"), file);
    await waitFor(() => expect(screen.getByTestId("reminders-message")).toHaveTextContent("Imported 2 reminders. 1 past event was skipped."));
    expect(core.invoked("import_reminders_ics")[0].args).toEqual({ text: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" });
  });

  it("shows an import's progress, stops it, and says what was left out and why", async () => {
    const core = new FakeCore();
    let finish: (report: unknown) => void = () => {};
    core.handlers.import_reminders_ics = () => new Promise((resolve) => (finish = resolve));
    core.handlers.stop_reminders_import = () => {
      finish({ added: 0, stopped: true, past: 0, unreadable: [], shortened: 0 });
      return true;
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    const file = new File(["BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"], "big.ics", { type: "text/calendar" });
    await user.upload(screen.getByTestId("import-ics"), file);
    expect(await screen.findByTestId("import-progress")).toHaveTextContent("Reading the calendar…");
    await core.event({ type: "calendar_import", saved: 2500, total: 10000, done: false });
    await waitFor(() => expect(screen.getByTestId("import-progress")).toHaveTextContent("Importing 2,500 of 10,000 events…"));
    expect(screen.queryByTestId("import-ics")).toBeNull();
    await user.click(screen.getByTestId("stop-import"));
    await waitFor(() => expect(screen.getByTestId("reminders-message")).toHaveTextContent("Import stopped. Nothing was imported"));
    expect(screen.queryByTestId("import-progress")).toBeNull();
    // Again, to the end: what was cut and what was skipped, each with why.
    const unreadable = Array.from({ length: 7 }, (_, i) => `"standup ${i}": repeats more often than every 15 minutes (FREQ=MINUTELY)`);
    core.handlers.import_reminders_ics = () => ({ added: 40, stopped: false, past: 0, unreadable, shortened: 1 });
    await user.upload(screen.getByTestId("import-ics"), file);
    const details = await screen.findByTestId("import-details");
    expect(details).toHaveTextContent("1 title was too long for a notification and was cut; the rest is in the reminder's notes.");
    expect(within(details).getAllByRole("listitem")).toHaveLength(5);
    expect(details).toHaveTextContent("standup 0");
    expect(details).toHaveTextContent("…and 2 more.");
  });

  it("shows times in the user's zone and names the zone a reminder was set in", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => ({ ...overview, zone: "America/New_York", upcoming: [reminder(1, "call mum", { zone_words: "Madrid time" }), reminder(5, "standup", { zone: "America/New_York" })] });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    const rows = await screen.findAllByTestId("reminder-upcoming");
    // 08:00 UTC: 03:00 in New York, 09:00 in Madrid where "call mum" was set.
    expect(within(rows[0]).getByTestId("reminder-when")).toHaveTextContent(/03:00 · 09:00 in Madrid time, where it was set/);
    expect(within(rows[1]).getByTestId("reminder-when")).toHaveTextContent(/03:00$/);
  });

  it("shows a reminder's notes when it has some", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => ({ ...overview, upcoming: [reminder(1, "dentist…", { description: "…with the X-rays\n\nBring the card" })] });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    const notes = await screen.findByTestId("reminder-notes");
    expect(notes).toHaveTextContent("Notes");
    expect(notes).toHaveTextContent("Bring the card");
    expect(screen.getAllByTestId("reminder-notes")).toHaveLength(1);
  });

  it("snoozes and cancels from the page", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => overview;
    core.handlers.snooze_reminder = (args) => {
      const id = (args as { id: number }).id;
      return { reminder: reminder(id, "stretch"), original_kept: id === 1 };
    };
    core.handlers.cancel_reminder = (args) => reminder((args as { id: number }).id, "call mum", { state: "cancelled" });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    const delivered = await screen.findByTestId("reminder-delivered");
    expect(within(delivered).getByTestId("snooze-120")).toHaveTextContent("2 h");
    await user.click(within(delivered).getByTestId("snooze-15"));
    expect(core.invoked("snooze_reminder")[0].args).toEqual({ id: 4, minutes: 15 });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('"stretch" will come again in 15 minutes.');
    // One still to come keeps its time: the snooze is an extra, and the page says so.
    const upcoming = screen.getByTestId("reminder-upcoming");
    expect(upcoming).toHaveTextContent("Also remind me in");
    await user.click(within(upcoming).getByTestId("snooze-15"));
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent("its own time stays as it was");
    await user.click(within(screen.getByTestId("reminder-upcoming")).getByTestId("cancel-reminder"));
    expect(core.invoked("cancel_reminder")[0].args).toEqual({ id: 1 });
    // A cancel can be undone from its note (the first hour's m12).
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('Cancelled "call mum". Undo');
    core.handlers.restore_reminder = (args) => reminder((args as { id: number }).id, "call mum");
    await user.click(screen.getByTestId("undo-cancel"));
    expect(core.invoked("restore_reminder")[0].args).toEqual({ id: 1 });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('"call mum" is back.');
    expect(screen.queryByTestId("undo-cancel")).toBeNull();
  });

  it("shows a failure as one, not in the success box", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => overview;
    core.handlers.cancel_reminder = () => {
      throw { message: "the reminder 1 is not pending", retryable: false };
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.click(within((await screen.findAllByTestId("reminder-upcoming"))[0]).getByTestId("cancel-reminder"));
    const said = await screen.findByTestId("reminders-message");
    expect(said).toHaveTextContent("The reminder 1 is not pending");
    expect(said).toHaveAttribute("role", "alert");
    expect(said).toHaveClass("problems");
    expect(screen.queryByTestId("undo-cancel")).toBeNull();
  });

  it("edits a reminder's words in place, its time kept unless a new one is said and read", async () => {
    const core = new FakeCore();
    core.handlers.reminders_overview = () => overview;
    core.handlers.preview_reminder_when = (args) =>
      (args as { text: string }).text.includes("tomorrow at 8")
        ? { status: "ok", local: "Tuesday 2026-12-01 08:00", utc: "2026-12-01T07:00:00Z", zone: "Europe/Madrid", rrule: null, rule_words: null, note: null }
        : { status: "error", error: '"soonish" is not a time.', suggestion: 'Say "tomorrow at 8".' };
    core.handlers.edit_reminder = (args) => reminder((args as { id: number }).id, (args as { message: string }).message);
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-reminders"));
    await user.click(within((await screen.findAllByTestId("reminder-upcoming"))[0]).getByTestId("edit-reminder"));
    const what = screen.getByTestId("edit-what");
    expect(what).toHaveValue("call mum");
    await user.clear(what);
    await user.type(what, "call mum and dad");
    await user.type(screen.getByTestId("edit-when"), "soonish");
    expect(await screen.findByText(/"soonish" is not a time/)).toBeInTheDocument();
    expect(screen.getByTestId("save-reminder")).toBeDisabled();
    await user.clear(screen.getByTestId("edit-when"));
    await user.type(screen.getByTestId("edit-when"), "tomorrow at 8");
    await waitFor(() => expect(screen.getByTestId("save-reminder")).toBeEnabled());
    await user.click(screen.getByTestId("save-reminder"));
    expect(core.invoked("edit_reminder")[0].args).toEqual({ id: 1, message: "call mum and dad", when: "tomorrow at 8" });
    expect(await screen.findByTestId("reminders-message")).toHaveTextContent('Saved "call mum and dad".');
    expect(screen.queryByTestId("reminder-edit")).toBeNull();
  });
});

describe("proactive messages in the chat", () => {
  it("marks reminders and spontaneous messages, and a clicked notification highlights its message", async () => {
    const core = new FakeCore();
    core.history = [
      message({ id: 7, conversation_id: 1, role: "assistant", content: "Reminder: stretch", status: "complete", finish_reason: null, created_at: "", meta: { command: true, proactive: "reminder" } }),
      message({ id: 8, conversation_id: 1, role: "assistant", content: "¡Buenos días!", status: "complete", finish_reason: null, created_at: "", meta: { proactive: "greeting" } }),
    ];
    renderApp();
    const tags = await screen.findAllByTestId("proactive-tag");
    expect(tags.map((t) => t.textContent)).toEqual(["Reminder", "Spoke first"]);
    await act(() => emit(SHOW_MESSAGE, 8));
    await waitFor(() => expect(document.querySelector('[data-key="m8"]')).toHaveClass("highlighted"));
  });
});

describe("proactivity settings", () => {
  it("saves the level, quiet hours and sinks, and leaves the time zone to General", async () => {
    const core = new FakeCore();
    core.handlers.save_proactive_config = (args) => (args as { config: unknown }).config;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    expect(await screen.findByTestId("quiet-line")).toHaveTextContent("Today: 1 of 4 spontaneous messages.");
    await user.click(screen.getByTestId("level-high"));
    await user.selectOptions(screen.getByTestId("sink-notification"), "reminders-only");
    expect(within(screen.getByTestId("proactive-settings")).queryByTestId("timezone")).toBeNull();
    await user.click(screen.getByTestId("save-proactive"));
    await waitFor(() => expect(core.invoked("save_proactive_config")).toHaveLength(1));
    const saved = core.invoked("save_proactive_config")[0].args as { config: ReturnType<typeof defaultProactiveStatus>["config"] };
    expect(saved.config.level).toBe("high");
    expect(saved.config.sinks.notification).toBe("reminders-only");
    expect(core.invoked("set_timezone")).toHaveLength(0);
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
