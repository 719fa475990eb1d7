import { describe, expect, it } from "vitest";
import type { CoreEvent } from "../../api";
import { initial, LISTEN_MS, mood, nextChange, SPEAK_MS, speechNow, step, THINK_MS, type CharacterState, type Input } from "./machine";

const T0 = Date.parse("2027-01-10T12:00:00Z");
const core = (event: CoreEvent): Input => ({ kind: "core", event });
const run = (inputs: Input[], now = T0, from: CharacterState = initial) => inputs.reduce((s, i) => step(s, i, now), from);

const typing = core({ type: "user_typing" });
const started = core({ type: "turn_started", conversation_id: 1, user_message_id: 2, channel: "desktop" });
const finished = core({
  type: "turn_finished",
  conversation_id: 1,
  message_id: 3,
  channel: "desktop",
  status: "complete",
  finish_reason: "stop",
  usage: null,
  meta: {} as never,
});
const failed = core({ type: "turn_failed", conversation_id: 1, message: "down", retryable: true });
const spoke = core({ type: "spontaneous_message", conversation_id: 1, message_id: 7, message_type: "greeting", first_line: "Good morning!" });
const reminded = core({ type: "reminder_delivered", conversation_id: 1, message_id: 8, reminder_id: 4, late: false, first_line: "⏰ Call Ana" });
const asked = (id: number) =>
  core({ type: "permission_asked", question: { id, title: "Sidecar wants to run write from notes", server: "notes", tool: "write", called_as: "write", description: "", arguments: {}, changed: [], conversation_id: 1, channel: null, after_strangers: false, choices: ["allow_once", "deny"] } });
const settled = (id: number) => core({ type: "permission_settled", id });
const quietFor = (minutes: number) =>
  core({ type: "quiet_changed", quiet: { quiet: true, reason: "asked", changes_at: new Date(T0 + minutes * 60_000).toISOString() } });
const awake = core({ type: "quiet_changed", quiet: { quiet: false, reason: null, changes_at: null } });
const down = core({ type: "channel_alert", channel: "telegram", title: "Telegram is down", body: "", down: true });
const back = core({ type: "channel_alert", channel: "telegram", title: "Telegram is back", body: "", down: false });

describe("the character's state", () => {
  it("is idle with nothing going on", () => {
    expect(mood(initial, T0)).toBe("idle");
    expect(nextChange(initial, T0)).toBeNull();
  });

  it("listens while the user types, and goes back to idle after a pause", () => {
    const s = run([typing]);
    expect(mood(s, T0)).toBe("listening");
    expect(nextChange(s, T0)).toBe(T0 + LISTEN_MS);
    expect(mood(s, T0 + LISTEN_MS)).toBe("idle");
  });

  it("thinks from the turn's start to its end, finished or failed", () => {
    const s = run([typing, started]);
    expect(mood(s, T0)).toBe("thinking");
    expect(mood(run([finished], T0 + 5000, s), T0 + 5000)).toBe("idle");
    expect(mood(run([failed], T0 + 5000, s), T0 + 5000)).toBe("idle");
  });

  it("keeps thinking while the reply streams or runs tools, and gives up on a lost end", () => {
    const s = run([started]);
    const later = step(s, core({ type: "delta", conversation_id: 1, text: "Hi" }), T0 + THINK_MS - 1000);
    expect(mood(later, T0 + THINK_MS + 1000)).toBe("thinking");
    expect(mood(s, T0 + THINK_MS)).toBe("idle");
    // A stray delta with no turn running does not start thinking.
    expect(mood(run([core({ type: "delta", conversation_id: 1, text: "x" })]), T0)).toBe("idle");
  });

  it("speaks a spontaneous message's first line until heard or timed out", () => {
    const s = run([spoke]);
    expect(mood(s, T0)).toBe("speaking");
    expect(speechNow(s, T0)).toMatchObject({ text: "Good morning!", messageId: 7, reminder: false });
    expect(mood(s, T0 + SPEAK_MS)).toBe("idle");
    expect(mood(step(s, { kind: "heard" }, T0 + 1), T0 + 1)).toBe("idle");
  });

  it("speaks a reminder, which can be snoozed", () => {
    expect(speechNow(run([reminded]), T0)).toMatchObject({ text: "⏰ Call Ana", messageId: 8, reminder: true });
  });

  it("asks while a tool waits for Allow, until every question is settled", () => {
    const s = run([asked(1), asked(2), asked(2)]);
    expect(s.asking).toEqual([1, 2]);
    expect(mood(s, T0)).toBe("asking");
    expect(mood(run([settled(1)], T0, s), T0)).toBe("asking");
    expect(mood(run([settled(1), settled(2)], T0, s), T0)).toBe("idle");
  });

  it("asks when a question already waited as it opened, until one is settled", () => {
    const s = step(initial, { kind: "start", start: { window: { transparent: true, rest: [112, 112] }, quiet: initial.quiet, down: [], asking: true } }, T0);
    expect(mood(s, T0)).toBe("asking");
    expect(mood(run([settled(9)], T0, s), T0)).toBe("idle");
  });

  it("sleeps while quiet, and wakes when the quiet ends or is lifted", () => {
    const s = run([quietFor(60)]);
    expect(mood(s, T0)).toBe("sleeping");
    expect(nextChange(s, T0)).toBe(T0 + 60 * 60_000);
    expect(mood(s, T0 + 60 * 60_000)).toBe("idle");
    expect(mood(run([awake], T0, s), T0)).toBe("idle");
    // Quiet hours from the start.
    const hours = step(initial, { kind: "quiet", quiet: { quiet: true, reason: "quiet_hours", changes_at: null } }, T0);
    expect(mood(hours, T0)).toBe("sleeping");
  });

  it("puts questions first, then bubbles, then replies, then listening, then sleep", () => {
    const all = run([quietFor(60), typing, started, spoke, asked(1)]);
    expect(mood(all, T0)).toBe("asking");
    expect(mood(run([settled(1)], T0, all), T0)).toBe("speaking");
    expect(mood(run([settled(1), { kind: "heard" }], T0, all), T0)).toBe("thinking");
    expect(mood(run([quietFor(60), started, typing]), T0)).toBe("thinking");
    expect(mood(run([quietFor(60), typing]), T0)).toBe("listening");
    // A reminder still speaks in quiet hours, as it still arrives.
    expect(mood(run([quietFor(60), reminded]), T0)).toBe("speaking");
  });

  it("wears a badge while a phone channel is down, whatever its mood", () => {
    const s = run([down, down, spoke]);
    expect(s.down).toEqual(["telegram"]);
    expect(mood(s, T0)).toBe("speaking");
    expect(run([back], T0, s).down).toEqual([]);
  });

  it("takes what stood when it opened", () => {
    const s = step(initial, { kind: "start", start: { window: { transparent: false, rest: [112, 112] }, quiet: { quiet: true, reason: "asked", changes_at: null }, down: ["whatsapp"], asking: false } }, T0);
    expect(mood(s, T0)).toBe("sleeping");
    expect(s.down).toEqual(["whatsapp"]);
  });

  it("ignores events that say nothing about its state", () => {
    const s = run([core({ type: "reminders_changed" }), core({ type: "channels_changed" }), core({ type: "memory_indexing", embedded: 1, total: 2 })]);
    expect(s).toEqual(initial);
  });

  it("looks again at the earliest timeout", () => {
    const s = run([quietFor(60), typing, spoke]);
    expect(nextChange(s, T0)).toBe(T0 + LISTEN_MS);
    expect(nextChange(s, T0 + LISTEN_MS)).toBe(T0 + SPEAK_MS);
  });
});
