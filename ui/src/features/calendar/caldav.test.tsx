import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { CalendarView } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

const connected = (writable: number | null): CalendarView => ({
  account: ["https://cloud.example.com/dav", "ana"],
  calendars: [
    { id: 1, href: "/ana/work/", name: "Work", color: "#3a429cff", read: true, ctag: null, writable: writable === 1, synced_at: "2026-11-30T11:00:00Z", problem: null, source: "caldav" },
    { id: 2, href: "/ana/home/", name: "Home", color: null, read: true, ctag: null, writable: writable === 2, synced_at: null, problem: "the calendar server could not be reached: check that it is running and that this computer is online; the last copy is used until it answers", source: "caldav" },
  ],
  zone: "Europe/Madrid",
  mirror_reminders: false,
});

async function openCalendar(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId("nav-settings"));
  await user.click(await screen.findByTestId("settings-nav-calendar"));
}

describe("Settings → Calendar", () => {
  it("connects an account, refusing a wrong password with what to do, then shows its calendars", async () => {
    const core = new FakeCore();
    core.handlers.calendar_view = () => ({ account: null, calendars: [], zone: "Europe/Madrid", mirror_reminders: false });
    let tries = 0;
    core.handlers.connect_calendar = () => {
      tries += 1;
      if (tries === 1) throw { message: "the calendar server refused the user name or password; check them, or use an app password", retryable: false };
      return connected(null);
    };
    renderApp();
    const user = userEvent.setup();
    await openCalendar(user);
    expect(await screen.findByTestId("caldav-none")).toHaveTextContent("No calendar connected.");
    await user.type(screen.getByTestId("caldav-url"), "https://cloud.example.com/dav");
    await user.type(screen.getByTestId("caldav-user"), "ana");
    await user.type(screen.getByTestId("caldav-password"), "wrong");
    await user.click(screen.getByTestId("caldav-connect"));
    expect(await screen.findByTestId("caldav-error")).toHaveTextContent("use an app password");
    expect(screen.getByTestId("caldav-password")).toHaveValue("");
    await user.type(screen.getByTestId("caldav-password"), "secret");
    await user.click(screen.getByTestId("caldav-connect"));
    expect(core.invoked("connect_calendar")[1].args).toEqual({ url: "https://cloud.example.com/dav", username: "ana", password: "secret" });
    expect(await screen.findByTestId("caldav-account")).toHaveTextContent("Connected to https://cloud.example.com/dav as ana.");
    const statuses = screen.getAllByTestId("caldav-status").map((s) => s.textContent);
    expect(statuses[0]).toMatch(/^Synced /);
    expect(statuses[1]).toBe("Not synced yet");
    expect(screen.getAllByTestId("caldav-problem").map((p) => p.textContent)).toEqual([expect.stringMatching(/^The calendar server could not be reached: .* the last copy is used until it answers\.$/)]);
  });

  it("says a server that is down once, in the user's words, and keeps each calendar's last copy time", async () => {
    const core = new FakeCore();
    const down = "no se pudo llegar al servidor del calendario: comprueba que está en marcha y que este ordenador tiene conexión; se usa la última copia hasta que responda";
    const view = connected(1);
    view.calendars = view.calendars.map((c) => ({ ...c, synced_at: "2026-11-30T11:00:00Z", problem: down }));
    core.handlers.calendar_view = () => view;
    core.handlers.sync_calendars = () => {
      throw { message: down, retryable: true };
    };
    renderApp("es");
    const user = userEvent.setup();
    await openCalendar(user);
    // Said as a sentence of its own: a capital, a full stop.
    const shown = `N${down.slice(1)}.`;
    expect(await screen.findByTestId("caldav-account-problem")).toHaveTextContent(shown);
    expect(screen.queryAllByTestId("caldav-problem")).toHaveLength(0);
    expect(screen.getAllByTestId("caldav-status").map((s) => s.textContent)).toEqual([
      "Sin actualizar; la última copia es de lun, 30 nov, 12:00",
      "Sin actualizar; la última copia es de lun, 30 nov, 12:00",
    ]);
    await user.click(screen.getByTestId("caldav-sync"));
    await waitFor(() => expect(core.invoked("calendar_view").length).toBeGreaterThan(1));
    expect(screen.queryByTestId("caldav-note")).toBeNull();
    expect(screen.getByTestId("caldav-settings").textContent?.split(down.slice(1))).toHaveLength(2);
  });

  it("chooses the calendar Sidecar may write in, and syncs now", async () => {
    const core = new FakeCore();
    let view = connected(null);
    core.handlers.calendar_view = () => view;
    core.handlers.choose_calendars = (args) => {
      view = connected((args as { writable: number | null }).writable);
      return view;
    };
    core.handlers.sync_calendars = () => [{ added: 2, changed: 1, removed: 0, unchanged: false, unreadable: [] }];
    renderApp("es");
    const user = userEvent.setup();
    await openCalendar(user);
    await user.click(await screen.findByTestId("caldav-write-1"));
    expect(core.invoked("choose_calendars")[0].args).toEqual({ read: [1, 2], writable: 1 });
    await waitFor(() => expect(screen.getByTestId("caldav-write-1")).toBeChecked());
    await user.click(screen.getByTestId("caldav-sync"));
    expect(await screen.findByTestId("caldav-note")).toHaveTextContent("Al día: 2 nuevos, 1 cambiados, 0 quitados.");
    // The reminders on the calendar too, once one is chosen to write in.
    core.handlers.mirror_reminders = () => [{ ...view, mirror_reminders: true }, { created: 3, updated: 0, removed: 0, kept_theirs: [4] }];
    await user.click(screen.getByTestId("caldav-mirror"));
    expect(core.invoked("mirror_reminders")[0].args).toEqual({ on: true });
    expect(await screen.findByTestId("caldav-note")).toHaveTextContent("3 tareas escritas, 0 quitadas. 1 cambiada en tu calendario: se conservó tu versión.");
    await waitFor(() => expect(screen.getByTestId("caldav-mirror")).toBeChecked());
  });

  it("subscribes to a feed by its address, shows its sync in the user's zone, refuses a bad address with what to do, and removes it", async () => {
    const core = new FakeCore();
    const feed = { id: 7, href: "webcal://example.com/festivos.ics", name: "Festivos", color: null, read: true, ctag: null, writable: false, synced_at: "2026-11-30T11:00:00Z", problem: null, source: "ics" as const };
    let view: CalendarView = { account: null, calendars: [], zone: "America/Argentina/Buenos_Aires", mirror_reminders: false };
    core.handlers.calendar_view = () => view;
    core.handlers.subscribe_calendar = (args) => {
      const { url } = args as { url: string };
      if (!url.includes(".ics")) throw { message: `"${url}" is not a calendar subscription's address; it starts with webcal://, https:// or http://`, retryable: false };
      view = { ...view, calendars: [feed] };
      return view;
    };
    core.handlers.unsubscribe_calendar = () => {
      view = { ...view, calendars: [] };
      return view;
    };
    renderApp();
    const user = userEvent.setup();
    await openCalendar(user);
    await user.type(await screen.findByTestId("caldav-feed-url"), "holidays");
    await user.click(screen.getByTestId("caldav-subscribe"));
    expect(await screen.findByTestId("caldav-feed-error")).toHaveTextContent("it starts with webcal://");
    await user.clear(screen.getByTestId("caldav-feed-url"));
    await user.type(screen.getByTestId("caldav-feed-url"), "webcal://example.com/festivos.ics");
    await user.click(screen.getByTestId("caldav-subscribe"));
    const row = await screen.findByTestId("caldav-feed");
    expect(row).toHaveTextContent("Festivos");
    // 11:00 UTC is 08:00 in the user's zone (Buenos Aires), whatever the browser's is.
    expect(row).toHaveTextContent("08:00");
    expect(screen.queryByTestId("caldav-write-7")).toBeNull();
    expect(screen.getByTestId("caldav-feed-url")).toHaveValue("");
    await user.click(screen.getByTestId("caldav-unsubscribe-7"));
    expect(screen.getByTestId("caldav-unsubscribe-7-confirm")).toHaveTextContent("Remove");
    await user.click(screen.getByTestId("caldav-unsubscribe-7-yes"));
    await waitFor(() => expect(screen.queryByTestId("caldav-feed")).toBeNull());
    expect(core.invoked("unsubscribe_calendar")[0].args).toEqual({ id: 7 });
  });
});
