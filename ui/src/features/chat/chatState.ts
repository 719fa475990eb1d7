// The chat view's state as a pure reducer: every change the view shows goes through
// here, so it is tested without a webview.
import type { AttachedFile, Channel, CommandError, Message, MessageMeta, MessageStatus, Notice, QueuedMessage, TurnOutcome } from "../../api";

/** A tool call as a chip under a reply. `result` is null while it runs. */
export interface ToolChip {
  id: string;
  name: string;
  arguments: string;
  result: string | null;
  isError: boolean;
  /** The user did not allow it: it never ran. */
  denied?: boolean;
}

/** A stored tool result the permission gate wrote: the call never ran. */
export function wasDenied(content: string): boolean {
  try {
    return JSON.parse(content)?.permission === "not given";
  } catch {
    return false;
  }
}

/** A message as shown. */
export interface ShownMessage {
  key: string;
  role: "user" | "assistant";
  content: string;
  status: MessageStatus;
  finishReason: string | null;
  tools: ToolChip[];
  meta: MessageMeta | null;
  /** While streaming: what the user should know right now (retrying, fallback…). */
  notice: Notice | null;
  /** A reply ended (the next queued turn began) before its outcome arrived. */
  awaitingOutcome?: boolean;
  /** Said on a phone channel, by a program over the local API, on another device, or
   * (on a computer using another's Sidecar) at the home computer: the chat says where. */
  phone?: "telegram" | "whatsapp" | "api" | "device" | "desktop";
}

export interface ChatState {
  messages: ShownMessage[];
  /** The reply being streamed, if a turn is running. */
  streaming: ShownMessage | null;
  error: CommandError | null;
  loaded: boolean;
  /** Messages waiting for the reply being written, as the core lists them. */
  queued: QueuedMessage[];
}

export type ChatAction =
  | { type: "history_loaded"; messages: Message[] }
  | { type: "send"; text: string; localId: number; files?: AttachedFile[] }
  | { type: "retry" }
  | { type: "delta"; text: string }
  | { type: "tool_started"; id: string; name: string; arguments: string }
  | { type: "tool_finished"; id: string; result: string; isError: boolean; denied?: boolean }
  | { type: "notice"; notice: Notice }
  | { type: "finished"; outcome: TurnOutcome }
  | { type: "failed"; error: CommandError }
  | { type: "dismiss_error" }
  | { type: "synced"; messages: Message[] }
  | { type: "regenerate" }
  | { type: "edit"; key: string; text: string; localId: number }
  | { type: "queue"; items: QueuedMessage[] }
  | { type: "dequeued"; text: string; localId: number }
  | { type: "answered_aside"; text: string; localId: number; outcome: TurnOutcome };

export const initialChat: ChatState = { messages: [], streaming: null, error: null, loaded: false, queued: [] };

const STREAMING_KEY = "streaming";

function shown(partial: Partial<ShownMessage> & Pick<ShownMessage, "key" | "role" | "content">): ShownMessage {
  return { status: "complete", finishReason: null, tools: [], meta: null, notice: null, ...partial };
}

/** The channel this window's own messages are said on: "desktop", or "device" on a
 * computer using another's Sidecar (its home core), where "desktop" is the home's. */
let here: "desktop" | "device" = "desktop";

export function setHereChannel(channel: "desktop" | "device") {
  here = channel;
}

export function hereChannel(): "desktop" | "device" {
  return here;
}

/** Said over a phone channel, the local API or another window than this one. */
export function saidElsewhere(channel: Channel | null | undefined): channel is NonNullable<ShownMessage["phone"]> {
  if (channel === here) return false;
  return channel === "telegram" || channel === "whatsapp" || channel === "api" || channel === "device" || channel === "desktop";
}

function phoneOf(m: Message): ShownMessage["phone"] {
  return saidElsewhere(m.channel) ? m.channel : undefined;
}

/**
 * Folds stored messages into what the chat shows: tool calls and their results
 * become chips on the reply that followed them (whose text already includes what
 * the model said before calling the tools).
 */
export function foldHistory(messages: Message[]): ShownMessage[] {
  const out: ShownMessage[] = [];
  let chips: ToolChip[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      chips = [];
      out.push(shown({ key: `m${m.id}`, role: "user", content: m.content, meta: m.meta ?? null, phone: phoneOf(m) }));
    } else if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) {
      chips.push(...m.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, result: null, isError: false })));
    } else if (m.role === "tool") {
      const chip = chips.find((c) => c.id === m.tool_call_id);
      if (chip) {
        chip.result = m.content;
        chip.isError = Boolean(m.is_error);
        if (wasDenied(m.content)) chip.denied = true;
      }
    } else if (m.role === "assistant") {
      // A stopped turn with nothing streamed leaves an empty reply: nothing to show.
      if (m.content === "" && m.status !== "complete" && chips.length === 0) continue;
      out.push(
        shown({
          key: `m${m.id}`,
          role: "assistant",
          content: m.content,
          status: m.status,
          finishReason: m.finish_reason,
          tools: chips,
          meta: m.meta ?? null,
          phone: phoneOf(m),
        }),
      );
      chips = [];
    }
  }
  return out;
}

function emptyReply(): ShownMessage {
  return shown({ key: STREAMING_KEY, role: "assistant", content: "" });
}

/** The user message a turn answered, shown under a local key until its id is known. */
function keyAnswered(messages: ShownMessage[], before: number, outcome: TurnOutcome): ShownMessage[] {
  if (!outcome.user_message_id) return messages;
  let at = before - 1;
  while (at >= 0 && messages[at].role !== "user") at--;
  if (at < 0 || !messages[at].key.startsWith("local")) return messages;
  return messages.map((m, i) => (i === at ? { ...m, key: `m${outcome.user_message_id}` } : m));
}

function updateStreaming(state: ChatState, change: (s: ShownMessage) => ShownMessage): ChatState {
  return state.streaming ? { ...state, streaming: change(state.streaming) } : state;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "history_loaded":
      return { ...state, loaded: true, messages: foldHistory(action.messages) };
    case "synced": {
      // The stored history changed (a reminder posted, a turn's ids now known). While
      // a reply streams it lags the screen: only what Sidecar posted on its own (a
      // reminder that fired, a check-in) joins now, before the reply being written.
      if (!state.streaming) return { ...state, messages: foldHistory(action.messages) };
      const onScreen = new Set(state.messages.map((m) => m.key));
      const posted = foldHistory(action.messages).filter((m) => m.meta?.proactive && !onScreen.has(m.key));
      return posted.length ? { ...state, messages: [...state.messages, ...posted] } : state;
    }
    case "regenerate": {
      // The reply being written again leaves the screen (the core keeps it as a version).
      const last = state.messages.findLastIndex((m) => m.role === "assistant" && !m.meta?.proactive);
      const messages = last >= 0 && last === state.messages.length - 1 ? state.messages.slice(0, last) : state.messages;
      return { ...state, error: null, messages, streaming: emptyReply() };
    }
    case "edit": {
      // The edited message and what followed leave the screen; Sidecar's own posts stay.
      const at = state.messages.findIndex((m) => m.key === action.key);
      if (at < 0) return state;
      const kept = state.messages.slice(at + 1).filter((m) => m.meta?.proactive);
      return {
        ...state,
        error: null,
        messages: [...state.messages.slice(0, at), ...kept, shown({ key: `local${action.localId}`, role: "user", content: action.text })],
        streaming: emptyReply(),
      };
    }
    case "send":
      return {
        ...state,
        error: null,
        messages: [
          ...state.messages,
          shown({
            key: `local${action.localId}`,
            role: "user",
            content: action.text,
            meta: action.files?.length ? { attachments: action.files, typed: action.text } : null,
          }),
        ],
        streaming: emptyReply(),
      };
    case "queue":
      return { ...state, queued: action.items };
    case "dequeued": {
      // A queued message's turn began. If the reply before it is still on screen as
      // streaming (its outcome not back yet), it is set aside until the outcome comes.
      const previous = state.streaming ? [{ ...state.streaming, key: `awaiting${action.localId}`, notice: null, awaitingOutcome: true }] : [];
      return {
        ...state,
        messages: [...state.messages, ...previous, shown({ key: `local${action.localId}`, role: "user", content: action.text })],
        streaming: emptyReply(),
      };
    }
    case "answered_aside": {
      // A command answered while a reply streams: shown before the reply in progress.
      const { outcome } = action;
      const question = shown({ key: outcome.user_message_id ? `m${outcome.user_message_id}` : `local${action.localId}`, role: "user", content: action.text });
      const answer = shown({ key: `m${outcome.message_id}`, role: "assistant", content: outcome.reply, status: outcome.status, meta: outcome.meta ?? null });
      return { ...state, messages: [...state.messages, question, answer] };
    }
    case "retry":
      return { ...state, error: null, streaming: emptyReply() };
    case "delta":
      // Text arriving means any retry or fallback notice is over.
      return updateStreaming(state, (s) => ({ ...s, content: s.content + action.text, notice: null }));
    case "tool_started":
      return updateStreaming(state, (s) => ({
        ...s,
        tools: [...s.tools, { id: action.id, name: action.name, arguments: action.arguments, result: null, isError: false }],
      }));
    case "tool_finished":
      return updateStreaming(state, (s) => ({
        ...s,
        tools: s.tools.map((t) => (t.id === action.id ? { ...t, result: action.result, isError: action.isError, denied: action.denied } : t)),
      }));
    case "notice":
      return updateStreaming(state, (s) =>
        action.notice.kind === "corrected"
          ? // The claim shown so far is replaced by the corrected answer.
            { ...s, content: "", notice: action.notice }
          : { ...s, notice: action.notice },
      );
    case "finished": {
      const { outcome } = action;
      const waiting = state.messages.findIndex((m) => m.awaitingOutcome);
      if (waiting >= 0) {
        const settled = { ...state.messages[waiting], key: `m${outcome.message_id}`, content: outcome.reply, status: outcome.status, finishReason: outcome.finish_reason, meta: outcome.meta ?? null, awaitingOutcome: false };
        return { ...state, messages: keyAnswered(state.messages.map((m, i) => (i === waiting ? settled : m)), waiting, outcome) };
      }
      const reply = shown({
        key: `m${outcome.message_id}`,
        role: "assistant",
        content: outcome.reply,
        status: outcome.status,
        finishReason: outcome.finish_reason,
        tools: state.streaming?.tools ?? [],
        meta: outcome.meta ?? null,
      });
      const keep = outcome.reply !== "" || outcome.status === "complete" || reply.tools.length > 0;
      const messages = keyAnswered(state.messages, state.messages.length, outcome);
      return { ...state, streaming: null, messages: keep ? [...messages, reply] : messages };
    }
    case "failed": {
      const waiting = state.messages.findIndex((m) => m.awaitingOutcome);
      if (waiting >= 0) {
        const settled = { ...state.messages[waiting], status: "interrupted" as const, awaitingOutcome: false };
        return { ...state, error: action.error, messages: state.messages.map((m, i) => (i === waiting ? settled : m)) };
      }
      // What streamed before the failure stays on screen, marked as interrupted
      // (the core stored it the same way).
      const s = state.streaming;
      const partial =
        s && (s.content !== "" || s.tools.length > 0)
          ? [{ ...s, key: `partial${state.messages.length}`, status: "interrupted" as const, notice: null }]
          : [];
      return { ...state, streaming: null, error: action.error, messages: [...state.messages, ...partial] };
    }
    case "dismiss_error":
      return { ...state, error: null };
  }
}
