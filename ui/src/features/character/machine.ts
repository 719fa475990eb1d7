// The character's state: a pure machine from the core's events to what the character
// shows. The character decides nothing itself; it only renders what the core said.
import type { Channel, CharacterStart, CoreEvent, QuietNow } from "../../api";

export type Mood = "idle" | "listening" | "thinking" | "speaking" | "asking" | "sleeping";

/** How long the character listens after the last keystroke in the chat. */
export const LISTEN_MS = 4_000;
/** How long a speech bubble stays when nobody clicks it. */
export const SPEAK_MS = 120_000;
/** A reply that sends nothing for this long is no longer shown as thinking (a lost event). */
export const THINK_MS = 10 * 60_000;

/** What the character says in its bubble. */
export interface Speech {
  text: string;
  messageId: number;
  /** A reminder's bubble can be snoozed with a double-click. */
  reminder: boolean;
  until: number;
}

export interface CharacterState {
  listeningUntil: number;
  /** When the running reply last said something; null when none runs. */
  thinkingSince: number | null;
  speech: Speech | null;
  /** Permission questions waiting for the user's answer. */
  asking: number[];
  /** Asked at start, before the question's id is known: one waits. */
  askingAtStart: boolean;
  quiet: QuietNow;
  /** Phone channels down long enough to have been announced. */
  down: Channel[];
}

export type Input =
  | { kind: "start"; start: CharacterStart }
  | { kind: "core"; event: CoreEvent }
  | { kind: "quiet"; quiet: QuietNow }
  /** The user clicked the bubble (or it was snoozed): it goes. */
  | { kind: "heard" };

export const initial: CharacterState = {
  listeningUntil: 0,
  thinkingSince: null,
  speech: null,
  asking: [],
  askingAtStart: false,
  quiet: { quiet: false, reason: null, changes_at: null },
  down: [],
};

export function step(state: CharacterState, input: Input, now: number): CharacterState {
  switch (input.kind) {
    case "start":
      return { ...state, quiet: input.start.quiet, down: input.start.down, askingAtStart: input.start.asking };
    case "quiet":
      return { ...state, quiet: input.quiet };
    case "heard":
      return { ...state, speech: null };
    case "core":
      return onEvent(state, input.event, now);
  }
}

function onEvent(state: CharacterState, event: CoreEvent, now: number): CharacterState {
  switch (event.type) {
    case "user_typing":
      return { ...state, listeningUntil: now + LISTEN_MS };
    case "turn_started":
      return { ...state, thinkingSince: now, listeningUntil: 0 };
    case "delta":
    case "tool_started":
    case "tool_finished":
    case "plan_updated":
    case "notice":
      // Still at work: the reply goes on.
      return state.thinkingSince === null ? state : { ...state, thinkingSince: now };
    case "turn_finished":
    case "turn_failed":
      return { ...state, thinkingSince: null };
    case "spontaneous_message":
      return { ...state, speech: { text: event.first_line, messageId: event.message_id, reminder: false, until: now + SPEAK_MS } };
    case "reminder_delivered":
      return { ...state, speech: { text: event.first_line, messageId: event.message_id, reminder: true, until: now + SPEAK_MS } };
    case "permission_asked":
      return state.asking.includes(event.question.id) ? state : { ...state, asking: [...state.asking, event.question.id] };
    case "permission_settled":
      return { ...state, asking: state.asking.filter((id) => id !== event.id), askingAtStart: false };
    case "quiet_changed":
      return { ...state, quiet: event.quiet };
    case "channel_alert":
      return event.down
        ? { ...state, down: state.down.includes(event.channel) ? state.down : [...state.down, event.channel] }
        : { ...state, down: state.down.filter((c) => c !== event.channel) };
    default:
      return state;
  }
}

function isQuiet(quiet: QuietNow, now: number): boolean {
  return quiet.quiet && (quiet.changes_at === null || now < Date.parse(quiet.changes_at));
}

/** What the character shows now. A question waiting beats a bubble, a bubble beats a
 * reply being written, which beats listening; sleep only when nothing else is going on
 * (a reminder still speaks in quiet hours, as it still arrives). */
export function mood(state: CharacterState, now: number): Mood {
  if (state.asking.length > 0 || state.askingAtStart) return "asking";
  if (speechNow(state, now)) return "speaking";
  if (state.thinkingSince !== null && now - state.thinkingSince < THINK_MS) return "thinking";
  if (now < state.listeningUntil) return "listening";
  if (isQuiet(state.quiet, now)) return "sleeping";
  return "idle";
}

/** The bubble showing now, if any. */
export function speechNow(state: CharacterState, now: number): Speech | null {
  return state.speech && now < state.speech.until ? state.speech : null;
}

/** When the mood may change with no event (a timeout, the quiet ending), so the page
 * looks again then; null when only an event can change it. */
export function nextChange(state: CharacterState, now: number): number | null {
  const times = [
    state.listeningUntil,
    state.speech?.until ?? 0,
    state.thinkingSince === null ? 0 : state.thinkingSince + THINK_MS,
    state.quiet.changes_at ? Date.parse(state.quiet.changes_at) : 0,
  ].filter((t) => t > now);
  return times.length ? Math.min(...times) : null;
}
