import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { TaskRequest, TaskView, TasksPage, WhenPreview } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";

function page(tasks: TaskView[], demo_only = false): TasksPage {
  return {
    demo_only,
    tasks,
    tools: [
      ["get_weather", "Weather"],
      ["web_search", "Search the web"],
    ],
    default_skip_minutes: 120,
    tokens_today: [1234, 56, 2],
    notified_today: [3, 12],
    zone: "Europe/Madrid",
    brief_at: null,
    brief_default: "07:30",
    brief_place: null,
    brief_weather: false,
    waiting_for_power: null,
  };
}

function task(over: Partial<TaskView> = {}): TaskView {
  return {
    id: 1,
    kind: "prompt",
    title: "Weather",
    prompt: "Check the weather in Madrid",
    when: "every weekday at 08:00",
    next: "2026-12-01T07:00:00Z",
    tools: ["get_weather"],
    catch_up: { kind: "skip_older_than", minutes: 120 },
    always_deliver: false,
    paused: null,
    asked: false,
    runs: [{ id: 3, task_id: 1, occurrence: "2026-11-30T07:00:00Z", state: "done", outcome: "Sunny", message_id: 40, prompt_tokens: 812, completion_tokens: 41 }],
    ...over,
  };
}

async function openTasks(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId("nav-settings"));
  await user.click(await screen.findByTestId("settings-nav-tasks"));
}

describe("Settings → Tasks", () => {
  it("says on the demo model that tasks cannot run, and what to do, in the user's language", async () => {
    const core = new FakeCore();
    core.handlers.tasks_page = () => page([], true);
    const user = userEvent.setup();
    renderApp();
    await openTasks(user);
    expect(await screen.findByTestId("tasks-demo")).toHaveTextContent("The demo model can't run tasks");
    expect(screen.getByTestId("tasks-demo")).toHaveTextContent("Settings → Model providers");
  });

  it("says nothing of the demo when a model that can run tasks answers", async () => {
    const core = new FakeCore();
    core.handlers.tasks_page = () => page([]);
    const user = userEvent.setup();
    renderApp();
    await openTasks(user);
    await screen.findByTestId("tasks-empty");
    expect(screen.queryByTestId("tasks-demo")).toBeNull();
  });

  it("starts empty with what to do, and adds a task read as it is typed with the tools chosen", async () => {
    const core = new FakeCore();
    let tasks: TaskView[] = [];
    core.handlers.tasks_page = () => page(tasks);
    core.handlers.preview_when = (args) => {
      const text = (args as { text: string }).text;
      const preview: WhenPreview = text.includes("weekday at 8")
        ? { status: "ok", local: "Tuesday 2026-12-01 08:00 (Europe/Madrid, UTC+01:00)", utc: "2026-12-01T07:00:00Z", zone: "Europe/Madrid", rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", rule_words: "every weekday at 08:00", next: [], all_day: false, note: null }
        : { status: "error", kind: "missing_day", error: '"at 8" has no day.', suggestion: 'Say "tomorrow at 8".' };
      return preview;
    };
    core.handlers.add_task = (args) => {
      const request = (args as { request: TaskRequest }).request;
      tasks = [task({ title: request.title ?? request.prompt, tools: request.tools, runs: [] })];
      return 1;
    };
    renderApp();
    const user = userEvent.setup();
    await openTasks(user);
    expect(await screen.findByTestId("tasks-empty")).toHaveTextContent("No tasks yet");
    expect(screen.getByTestId("tasks-today")).toHaveTextContent("Today: 2 runs, 1,234 prompt and 56 reply tokens.");
    expect(screen.getByTestId("tasks-today")).toHaveTextContent("Notifications today: 3 of 12");
    await user.type(screen.getByTestId("task-prompt"), "Check the weather in Madrid");
    await user.type(screen.getByTestId("task-when"), "at 8");
    await waitFor(() => expect(screen.getByTestId("task-when-preview")).toHaveTextContent('Say "tomorrow at 8"'));
    expect(screen.getByTestId("task-add")).toBeDisabled();
    await user.clear(screen.getByTestId("task-when"));
    await user.type(screen.getByTestId("task-when"), "every weekday at 8");
    await waitFor(() => expect(screen.getByTestId("task-when-preview")).toHaveTextContent("every weekday at 08:00"));
    // Tools by what a person calls them, not by function name.
    expect(screen.getByRole("checkbox", { name: "Weather" })).toBe(screen.getByTestId("task-tool-get_weather"));
    expect(screen.getByTestId("task-form")).not.toHaveTextContent("get_weather");
    await user.click(screen.getByTestId("task-tool-get_weather"));
    await user.selectOptions(screen.getByTestId("task-missed"), "ask");
    expect(screen.getByTestId("task-missed")).toHaveTextContent("Skip it when more than 2 h late");
    await user.click(screen.getByTestId("task-add"));
    expect(core.invoked("add_task")[0].args).toEqual({
      request: { title: null, prompt: "Check the weather in Madrid", when: "every weekday at 8", tools: ["get_weather"], catch_up: { kind: "ask" }, always_deliver: false },
    });
    expect(await screen.findByTestId("tasks-note")).toHaveTextContent("Added “Check the weather in Madrid”.");
    expect(await screen.findByTestId("task-row")).toHaveTextContent("every weekday at 08:00");
    expect(screen.getByTestId("task-tools")).toHaveTextContent("Weather");
  });

  it("shows each task's next time, last runs with tokens, and runs, pauses and resumes it", async () => {
    const core = new FakeCore();
    let shown = task();
    core.handlers.tasks_page = () => page([shown]);
    core.handlers.run_task_now = () => 41;
    core.handlers.pause_task = () => {
      shown = task({ paused: "Paused by you.", next: null });
    };
    core.handlers.resume_task = () => {
      shown = task();
    };
    renderApp();
    const user = userEvent.setup();
    await openTasks(user);
    const row = await screen.findByTestId("task-row");
    expect(within(row).getByTestId("task-status")).toHaveTextContent("Next: Tue 1 Dec, 08:00");
    expect(within(row).getByTestId("task-runs")).toHaveTextContent("done · 812 + 41 tokens");
    await user.click(within(row).getByTestId("task-run"));
    expect(core.invoked("run_task_now")[0].args).toEqual({ id: 1 });
    await user.click(within(row).getByTestId("task-pause"));
    await waitFor(() => expect(screen.getByTestId("task-status")).toHaveTextContent("Paused. Paused by you."));
    await user.click(screen.getByTestId("task-resume"));
    await waitFor(() => expect(screen.getByTestId("task-status")).toHaveTextContent("Next:"));
    // A run ending elsewhere (the scheduler) shows without a reload.
    shown = task({ runs: [{ ...task().runs[0], id: 4, state: "failed", prompt_tokens: null }] });
    await act(() => core.event({ type: "task_run_finished", task_id: 1, run_id: 4, conversation_id: 9, message_id: null, ok: false }));
    await waitFor(() => expect(screen.getByTestId("task-runs")).toHaveTextContent("failed"));
  });

  it("turns the morning brief on at the time offered, and a brief's thumbs teach it", async () => {
    const core = new FakeCore();
    let briefAt: string | null = null;
    const brief = task({ id: 2, kind: "brief", title: "Morning brief", tools: [], runs: [] });
    core.handlers.tasks_page = () => ({ ...page(briefAt ? [brief] : []), brief_at: briefAt });
    core.handlers.set_brief = (args) => {
      briefAt = (args as { at: string | null }).at;
    };
    renderApp();
    const user = userEvent.setup();
    await openTasks(user);
    expect(await screen.findByTestId("brief-time")).toHaveValue("07:30");
    await user.click(screen.getByTestId("brief-on"));
    expect(core.invoked("set_brief")[0].args).toEqual({ at: "07:30" });
    expect(await screen.findByTestId("tasks-note")).toHaveTextContent("The brief comes every day at 07:30.");
    await waitFor(() => expect(screen.getByTestId("brief-on")).toBeChecked());
    // Its row in the list is not a second way to stop it: no Pause, no Delete.
    const row = await screen.findByTestId("task-row");
    expect(within(row).queryByTestId("task-remove")).toBeNull();
    expect(within(row).queryByTestId("task-pause")).toBeNull();
    expect(within(row).getByTestId("task-brief-note")).toHaveTextContent("Turned on and off by the morning brief setting above.");
    await user.click(screen.getByTestId("brief-on"));
    expect(core.invoked("set_brief")[1].args).toEqual({ at: null });
  });

  it("asks where the brief's weather is for, and says the weather is left out without it", async () => {
    const core = new FakeCore();
    let place: string | null = null;
    const brief = task({ id: 2, kind: "brief", title: "Morning brief", tools: ["get_weather"], runs: [] });
    core.handlers.tasks_page = () => ({ ...page([brief]), brief_at: "07:30", brief_place: place, brief_weather: true });
    core.handlers.set_brief_place = (args) => {
      place = (args as { place: string }).place;
    };
    renderApp();
    const user = userEvent.setup();
    await openTasks(user);
    expect(await screen.findByTestId("brief-no-place")).toHaveTextContent("without one it leaves the weather out");
    await user.type(screen.getByRole("textbox", { name: "Weather for" }), "Zaragoza{Enter}");
    expect(core.invoked("set_brief_place")[0].args).toEqual({ place: "Zaragoza" });
    expect(await screen.findByTestId("tasks-note")).toHaveTextContent("The brief's weather is for Zaragoza.");
    await waitFor(() => expect(screen.queryByTestId("brief-no-place")).toBeNull());
    // No weather tool: the page says the weather is left out instead of asking.
    core.handlers.tasks_page = () => ({ ...page([brief]), brief_at: "07:30", brief_place: null, brief_weather: false });
    await act(() => core.event({ type: "tasks_changed" }));
    expect(await screen.findByTestId("brief-no-weather")).toHaveTextContent("No weather tool is available");
  });

  it("speaks Spanish", async () => {
    const core = new FakeCore();
    core.handlers.tasks_page = () => page([task({ paused: "En pausa tras tres ejecuciones fallidas seguidas (la última: sin red).", next: null, when: "cada día laborable a las 08:00" })]);
    renderApp("es");
    const user = userEvent.setup();
    await openTasks(user);
    expect(await screen.findByTestId("task-status")).toHaveTextContent("En pausa. En pausa tras tres ejecuciones fallidas");
    expect(screen.getByTestId("task-resume")).toHaveTextContent("Reanudar");
    expect(screen.getByTestId("task-add")).toHaveTextContent("Añadir tarea");
    expect(screen.getByTestId("tasks-today")).toHaveTextContent("Hoy: 2 ejecuciones");
    expect(screen.getByTestId("tasks-today")).toHaveTextContent("Avisos hoy: 3 de 12");
  });
});

describe("the Tasks conversation", () => {
  it("marks a task's prompt, answers a missed time once, and takes a thumb on a brief", async () => {
    const core = new FakeCore();
    core.history = [
      message({ id: 20, conversation_id: 3, role: "user", content: "Write the user's morning brief in English…", status: "complete", finish_reason: null, created_at: "", meta: { task: 2, typed: "Morning brief" } }),
      message({ id: 21, conversation_id: 3, role: "assistant", content: "Today: call Ana at 18:00.", status: "complete", finish_reason: null, created_at: "", meta: { task: 2, brief: true } }),
      message({ id: 22, conversation_id: 3, role: "assistant", content: "“Weekly summary” was due Sunday at 21:00. Run it now?", status: "complete", finish_reason: null, created_at: "", meta: { task: 5, command: true } }),
    ];
    core.handlers.rate_brief = () => undefined;
    core.handlers.decline_task = () => true;
    renderApp();
    const user = userEvent.setup();
    expect(await screen.findByTestId("task-tag")).toHaveTextContent("Scheduled task");
    expect(screen.getByText("Morning brief")).toBeInTheDocument();
    expect(screen.queryByText(/Write the user's morning brief/)).not.toBeInTheDocument();
    await user.click(screen.getByTestId("brief-bad"));
    expect(core.invoked("rate_brief")[0].args).toEqual({ messageId: 21, liked: false });
    expect(await screen.findByTestId("brief-rated")).toHaveTextContent("Noted: the next briefs will change.");
    await user.click(screen.getByTestId("chat-task-decline"));
    expect(core.invoked("decline_task")[0].args).toEqual({ id: 5 });
    expect(await screen.findByTestId("task-answered")).toHaveTextContent("Skipped.");
  });
});
