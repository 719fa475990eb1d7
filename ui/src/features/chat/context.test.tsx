import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";

const checkpoint: Checkpoint = {
  id: 7,
  conversation_id: 2,
  status: "paused",
  trigger: "manual",
  body: {
    title: "Trip to Lisbon",
    current_work: "Choosing a hotel",
    completed: ["Flights booked"],
    pending: ["Book the hotel"],
    decisions: [{ what: "Stay in Alfama", why: "quiet streets", when: "2026-11-21T10:00:00Z", confidence: 0.8 }],
    failed_approaches: [],
    user_preferences: [],
    critical_info: ["Allergic to peanuts"],
    successful_approaches: [],
    blockers: [],
    metadata: { model: null, tokens: null, touched: [] },
  },
  created_at: "2026-11-21T10:00:00Z",
  updated_at: "2026-11-21T10:00:00Z",
};

describe("context around the chat", () => {
  it("shows the plan and the context meter as the core reports them", async () => {
    const core = new FakeCore();
    renderApp();
    await waitFor(() => expect(core.invoked("load_history")).toHaveLength(1));
    expect(screen.queryByTestId("plan")).toBeNull();
    await core.event({
      type: "plan_updated",
      conversation_id: 1,
      items: [
        { text: "Find flights", status: "done" },
        { text: "Compare hotels", status: "in_progress" },
        { text: "Book the cheapest", status: "pending", after: [2] },
      ],
    });
    const plan = await screen.findByTestId("plan");
    expect(within(plan).getByTestId("plan-progress")).toHaveTextContent("1 of 3");
    expect(plan).toHaveTextContent("Book the cheapest (after step 2)");
    expect(within(plan).getByText(/Compare hotels/).closest("li")).toHaveAttribute("data-status", "in_progress");
    await core.event({
      type: "plan_updated",
      conversation_id: 1,
      items: [
        { text: "Find flights", status: "done", result: "IB3170 at 08:05" },
        { text: "Compare hotels", status: "failed", result: "no rooms left" },
        { text: "Book", status: "in_progress" },
      ],
    });
    await waitFor(() => expect(within(plan).getByTestId("plan-progress")).toHaveTextContent("2 of 3"));
    expect(plan).toHaveTextContent("Find flights — IB3170 at 08:05");
    expect(within(plan).getByText(/Compare hotels/).closest("li")).toHaveAttribute("data-status", "failed");
    // The model's notes show beside the plan, and go when it clears them.
    await core.event({ type: "scratchpad_updated", conversation_id: 1, text: "Hotel Baixa: 95 € a night" });
    expect(await within(plan).findByTestId("plan-notes")).toHaveTextContent("Notes Sidecar keeps while it works" + "Hotel Baixa: 95 € a night");
    await core.event({ type: "scratchpad_updated", conversation_id: 1, text: "" });
    await waitFor(() => expect(within(plan).queryByTestId("plan-notes")).toBeNull());
    // A plan whose steps are all closed leaves the composer's space once no reply is written.
    await core.event({ type: "plan_updated", conversation_id: 1, items: [{ text: "Find flights", status: "done" }] });
    await waitFor(() => expect(screen.queryByTestId("plan")).toBeNull());
    await core.event({ type: "context_usage", conversation_id: 1, used: 4200, budget: 5000, window: 6000, tools: 900, summarized_turns: true, level: "high" });
    const meter = await screen.findByTestId("context-meter");
    expect(meter).toHaveTextContent("Context: 4,200 of 5,000 tokens");
    expect(meter).toHaveClass("high");
    expect(meter.getAttribute("title")).toContain("summarised");
    expect(meter.getAttribute("title")).toContain("tools take 900 of them");
  });

  it("shows the new chat when the core closes the one left idle, with the offer to continue it", async () => {
    const core = new FakeCore();
    core.history = [message({ id: 1, role: "user", content: "Estoy organizando la mudanza" })];
    renderApp();
    expect(await screen.findByText("Estoy organizando la mudanza")).toBeInTheDocument();
    core.history = [];
    core.handlers.continuation_offer = () => ({ ...checkpoint, id: 8, trigger: "idle", body: { ...checkpoint.body, title: "La mudanza" } });
    await core.event({ type: "conversation_closed", conversation_id: 1, opened: 2, checkpoint_id: 8 });
    await waitFor(() => expect(screen.queryByText("Estoy organizando la mudanza")).toBeNull());
    expect(await screen.findByTestId("continue-offer")).toHaveTextContent("La mudanza");
    expect(core.invoked("load_history").length).toBeGreaterThanOrEqual(2);
  });

  it("offers to continue an open checkpoint and brings it in on Continue", async () => {
    const core = new FakeCore();
    core.handlers.continuation_offer = () => checkpoint;
    core.handlers.continue_checkpoint = () => ({ ...checkpoint, status: "resumed" });
    renderApp();
    const offer = await screen.findByTestId("continue-offer");
    expect(offer).toHaveTextContent("Continue where you left off: Trip to Lisbon?");
    expect(offer).toHaveTextContent("Pending: Book the hotel");
    await userEvent.setup().click(screen.getByTestId("offer-continue"));
    expect(core.invoked("continue_checkpoint")[0].args).toEqual({ id: 7 });
    expect(await screen.findByTestId("resumed")).toHaveTextContent("Continuing: Trip to Lisbon");
    expect(screen.queryByTestId("continue-offer")).toBeNull();
  });

  it("starts a new chat from the button and with Ctrl+N", async () => {
    const core = new FakeCore();
    core.history = [message({ id: 1, conversation_id: 1, role: "user", content: "old message", status: "complete", finish_reason: null, created_at: "" })];
    core.handlers.new_conversation = () => {
      core.history = [];
      return 2;
    };
    renderApp();
    expect(await screen.findByText("old message")).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("new-chat"));
    await waitFor(() => expect(screen.queryByText("old message")).toBeNull());
    await user.keyboard("{Control>}n{/Control}");
    await waitFor(() => expect(core.invoked("new_conversation")).toHaveLength(2));
  });

  it("starts an incognito chat that says so all the while, and leaving it starts a new chat", async () => {
    const core = new FakeCore();
    core.history = [message({ id: 1, conversation_id: 1, role: "user", content: "old message", status: "complete", finish_reason: null, created_at: "" })];
    core.handlers.new_incognito = () => {
      core.history = [];
      core.chats = { ...core.chats, current: 2, incognito: true };
      return 2;
    };
    core.handlers.new_conversation = () => {
      core.chats = { ...core.chats, current: 3, incognito: false };
      return 3;
    };
    renderApp();
    expect(await screen.findByText("old message")).toBeInTheDocument();
    expect(screen.queryByTestId("incognito-banner")).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("new-incognito"));
    const banner = await screen.findByTestId("incognito-banner");
    expect(banner).toHaveTextContent("Nothing here is remembered, searched or backed up");
    expect(screen.getByTestId("new-incognito")).toBeDisabled();
    await user.click(screen.getByTestId("leave-incognito"));
    await waitFor(() => expect(screen.queryByTestId("incognito-banner")).toBeNull());
    expect(core.invoked("new_conversation")).toHaveLength(1);
    // Ctrl+Shift+N, as in a browser.
    await user.keyboard("{Control>}{Shift>}n{/Shift}{/Control}");
    await waitFor(() => expect(core.invoked("new_incognito")).toHaveLength(2));
    expect(await screen.findByTestId("incognito-banner")).toBeInTheDocument();
  });
});

describe("memory tabs", () => {
  it("lists checkpoints with their status, marks one done and exports it", async () => {
    const core = new FakeCore();
    core.handlers.list_checkpoints = () => [checkpoint];
    core.handlers.set_checkpoint_status = () => ({ ...checkpoint, status: "completed" });
    core.handlers.export_checkpoint = () => "/data/exports/checkpoint-7.md";
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("memory-tab-checkpoints"));
    const item = await screen.findByTestId("checkpoint");
    expect(item).toHaveTextContent("#7 Trip to Lisbon");
    expect(within(item).getByTestId("checkpoint-status")).toHaveTextContent("paused");
    expect(item).toHaveTextContent("Critical: Allergic to peanuts");
    // A decision says why, when and how sure (anti-compaction 5).
    expect(within(item).getByTestId("checkpoint-decisions")).toHaveTextContent("Stay in Alfama — because quiet streets (21 Nov 2026");
    expect(within(item).getByTestId("checkpoint-decisions")).toHaveTextContent("80% sure)");
    await user.click(within(item).getByTestId("checkpoint-done"));
    expect(core.invoked("set_checkpoint_status")[0].args).toEqual({ id: 7, status: "completed" });
    await user.click(within(item).getByTestId("checkpoint-export"));
    expect(await screen.findByTestId("checkpoint-message")).toHaveTextContent("Saved to /data/exports/checkpoint-7.md");
  });

  it("shows what worked beside what failed and exports every checkpoint at once", async () => {
    const core = new FakeCore();
    const tried = { ...checkpoint, body: { ...checkpoint.body, successful_approaches: ["Filter by quiet rooms"], failed_approaches: ["The map view"] } };
    core.handlers.list_checkpoints = () => [tried, { ...checkpoint, id: 6, body: { ...checkpoint.body, title: "Garden" } }];
    core.handlers.export_checkpoints = () => [2, "/data/exports/checkpoints-2026-11-29-160000.md"];
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("memory-tab-checkpoints"));
    const [item] = await screen.findAllByTestId("checkpoint");
    expect(within(item).getByTestId("checkpoint-successful_approaches")).toHaveTextContent("Approaches that worked: Filter by quiet rooms");
    expect(within(item).getByTestId("checkpoint-failed_approaches")).toHaveTextContent("Approaches that failed: The map view");
    await user.click(screen.getByTestId("checkpoints-export-all"));
    expect(core.invoked("export_checkpoints")).toHaveLength(1);
    expect(await screen.findByTestId("checkpoint-message")).toHaveTextContent("All 2 checkpoints were saved to /data/exports/checkpoints-2026-11-29-160000.md");
  });

  it("edits a checkpoint's observations, one per line, and shows its metadata", async () => {
    const core = new FakeCore();
    const withMeta = { ...checkpoint, body: { ...checkpoint.body, blockers: ["Waiting for the hotel"], metadata: { model: "gpt-4o-mini", tokens: 5200, touched: ["plan.pdf"] } } };
    // The list is read once; read again after the save, it never answers: the saved
    // checkpoint shows without waiting for it.
    let reads = 0;
    core.handlers.list_checkpoints = () => (reads++ === 0 ? [withMeta] : new Promise(() => {}));
    core.handlers.edit_checkpoint = (args) => ({ ...withMeta, body: (args as { body: Checkpoint["body"] }).body });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("memory-tab-checkpoints"));
    const item = await screen.findByTestId("checkpoint");
    expect(within(item).getByTestId("checkpoint-blockers")).toHaveTextContent("Blockers: Waiting for the hotel");
    expect(within(item).getByTestId("checkpoint-meta")).toHaveTextContent("Model: gpt-4o-mini · 5,200 tokens of context · Touched: plan.pdf");
    await user.click(within(item).getByTestId("checkpoint-edit"));
    const pending = within(item).getByTestId("checkpoint-pending");
    expect(pending).toHaveValue("Book the hotel");
    await user.clear(pending);
    await user.type(pending, "Book the hotel{Enter}  {Enter}Buy the train tickets");
    await user.type(within(item).getByTestId("checkpoint-title"), "{Control>}{Enter}{/Control}");
    const sent = core.invoked("edit_checkpoint")[0].args as { id: number; body: Checkpoint["body"] };
    expect(sent.id).toBe(7);
    expect(sent.body.pending).toEqual(["Book the hotel", "Buy the train tickets"]);
    expect(sent.body.critical_info).toEqual(["Allergic to peanuts"]);
    // The decision went through the editor as "what — why", keeping when and how sure.
    expect(sent.body.decisions).toEqual([{ what: "Stay in Alfama", why: "quiet streets", when: "2026-11-21T10:00:00Z", confidence: 0.8 }]);
    expect(await screen.findByTestId("checkpoint-message")).toHaveTextContent("Checkpoint #7 saved.");
    expect(screen.queryByTestId("checkpoint-editor")).toBeNull();
    expect(screen.getByTestId("checkpoint")).toHaveTextContent("Pending: Book the hotel · Buy the train tickets");
  });

  it("says under a reply that a checkpoint was saved on its own, with its id", async () => {
    const core = new FakeCore();
    core.handlers.load_history = () => [
      { id: 1, conversation_id: 1, role: "user", content: "one more idea", status: "complete", finish_reason: null, created_at: "2026-11-25T10:00:00Z", tool_calls: null, tool_call_id: null, is_error: false, meta: null, channel: null },
      { id: 2, conversation_id: 1, role: "assistant", content: "ok", status: "complete", finish_reason: "stop", created_at: "2026-11-25T10:00:01Z", tool_calls: null, tool_call_id: null, is_error: false, meta: { checkpoint: 12 }, channel: null },
    ];
    renderApp("es");
    expect(await screen.findByText(/Punto de control #12 guardado automáticamente/)).toHaveTextContent("Checkpoint ID: 12");
  });

  it("edits user.md with its version and shows a refusal when the file changed", async () => {
    const core = new FakeCore();
    core.handlers.read_profile = (args) =>
      (args as { file: string }).file === "user" ? { text: "# Profile\n", version: "v1" } : { text: "# Sidecar\n", version: "s1" };
    let refuse = false;
    core.handlers.save_profile = () => {
      if (refuse) throw { message: "user.md changed on disk since it was opened; reload it and make the change again", retryable: false };
      return "v2";
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("memory-tab-profile"));
    await user.click(await screen.findByTestId("profile-view-files"));
    const editor = await screen.findByTestId("profile-user");
    await waitFor(() => expect(editor).toHaveValue("# Profile\n"));
    await user.type(editor, "- Name: Ana");
    await user.click(screen.getByTestId("profile-user-save"));
    expect(core.invoked("save_profile")[0].args).toEqual({ file: "user", text: "# Profile\n- Name: Ana", version: "v1" });
    expect(await screen.findByTestId("profile-user-message")).toHaveTextContent("Saved.");
    refuse = true;
    await user.type(editor, "!");
    await user.click(screen.getByTestId("profile-user-save"));
    expect(await screen.findByTestId("profile-user-message")).toHaveTextContent("changed on disk");
  });
});

describe("hand edits of learnings.md", () => {
  it("reports unreadable lines from the chat and leads to the Memory view", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => ({ facts: [], problems: [{ line: 12, text: "- [weight:x] broken", reason: "bad weight" }] });
    renderApp();
    await waitFor(() => expect(core.invoked("load_history")).toHaveLength(1));
    await core.event({ type: "knowledge_changed", problems: [{ line: 12, text: "- [weight:x] broken", reason: "bad weight" }], error: null });
    const alert = await screen.findByTestId("knowledge-alert");
    expect(alert).toHaveTextContent("learnings.md was edited and 1 line could not be read; it is kept as written.");
    await userEvent.setup().click(within(alert).getByText("Memory"));
    expect(await screen.findByTestId("memory-problems")).toHaveTextContent("line 12");
  });
});

describe("reminders in the chat", () => {
  it("shows a delivered reminder when the core posts it", async () => {
    const core = new FakeCore();
    renderApp();
    await waitFor(() => expect(core.invoked("load_history")).toHaveLength(1));
    core.history = [message({ id: 9, conversation_id: 1, role: "assistant", content: "Reminder: stretch", status: "complete", finish_reason: null, created_at: "", meta: { command: true } })];
    await core.event({ type: "reminder_delivered", conversation_id: 1, message_id: 9, reminder_id: 1, late: false, first_line: "⏰" });
    expect(await screen.findByText("Reminder: stretch")).toBeInTheDocument();
  });

  it("shows a reminder that fires while a reply is being written, at once and before the reply", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId("composer"), "tell me a long story{Enter}");
    await act(() => core.delta("Once upon"));
    core.history = [
      message({ id: 1, conversation_id: 1, role: "user", content: "tell me a long story", status: "complete", finish_reason: null, created_at: "", meta: null }),
      message({ id: 2, conversation_id: 1, role: "assistant", content: "Reminder: take the pizza out", status: "complete", finish_reason: null, created_at: "", meta: { proactive: "reminder" } }),
    ];
    await act(() => core.event({ type: "reminder_delivered", conversation_id: 1, message_id: 2, reminder_id: 1, late: false, first_line: "⏰" }));
    await waitFor(() => expect(screen.getByText("Reminder: take the pizza out")).toBeInTheDocument());
    const texts = screen.getAllByTestId(/^(message-(user|assistant)|streaming-message)$/).map((m) => m.textContent ?? "");
    const reminder = texts.findIndex((t) => t.includes("take the pizza out"));
    const story = texts.findIndex((t) => t.includes("Once upon"));
    expect(reminder).toBeGreaterThan(-1);
    expect(story).toBeGreaterThan(reminder);
    expect(texts.filter((t) => t.includes("tell me a long story"))).toHaveLength(1);
  });

  it("a reminder in the chat carries Snooze and Done, like the notification", async () => {
    const core = new FakeCore();
    core.handlers.answer_reminder_message = () => null;
    core.history = [
      message({ id: 9, conversation_id: 1, role: "assistant", content: "Reminder: stretch", status: "complete", finish_reason: null, created_at: "", meta: { proactive: "reminder", reminder_id: 3 } }),
      message({ id: 10, conversation_id: 1, role: "assistant", content: "Reminder: water", status: "complete", finish_reason: null, created_at: "", meta: { proactive: "reminder", reminder_id: 4, handled: true } }),
    ];
    renderApp();
    const user = userEvent.setup();
    const actions = await screen.findByTestId("reminder-actions");
    expect(screen.getAllByTestId("reminder-actions")).toHaveLength(1);
    await user.click(await within(actions).findByTestId("chat-snooze-15"));
    expect(core.invoked("answer_reminder_message").at(-1)?.args).toEqual({ messageId: 9, minutes: 15 });
    expect(await screen.findByTestId("reminder-answered")).toHaveTextContent("Snoozed: it comes again in 15 minutes.");
    expect(screen.getByText("Answered")).toBeInTheDocument();
  });
});
