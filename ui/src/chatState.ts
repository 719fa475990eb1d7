// The chat view's state as a pure reducer: every change the view shows goes through
// here, so it is tested without a webview.
import type { CommandError, Message, MessageStatus, TurnOutcome } from "./api";

/** A message as shown; `pending` ones are not yet confirmed by the core. */
export interface ShownMessage {
  key: string;
  role: "user" | "assistant";
  content: string;
  status: MessageStatus;
  finishReason: string | null;
}

export interface ChatState {
  messages: ShownMessage[];
  /** The reply being streamed, if a turn is running. */
  streaming: ShownMessage | null;
  error: CommandError | null;
  loaded: boolean;
}

export type ChatAction =
  | { type: "history_loaded"; messages: Message[] }
  | { type: "send"; text: string; localId: number }
  | { type: "retry" }
  | { type: "delta"; text: string }
  | { type: "finished"; outcome: TurnOutcome }
  | { type: "failed"; error: CommandError }
  | { type: "dismiss_error" };

export const initialChat: ChatState = { messages: [], streaming: null, error: null, loaded: false };

const STREAMING_KEY = "streaming";

function fromStored(m: Message): ShownMessage | null {
  if (m.role !== "user" && m.role !== "assistant") return null;
  // A stopped turn with nothing streamed leaves an empty reply: nothing to show.
  if (m.role === "assistant" && m.content === "" && m.status !== "complete") return null;
  return {
    key: `m${m.id}`,
    role: m.role,
    content: m.content,
    status: m.status,
    finishReason: m.finish_reason,
  };
}

function emptyReply(): ShownMessage {
  return { key: STREAMING_KEY, role: "assistant", content: "", status: "complete", finishReason: null };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "history_loaded":
      return {
        ...state,
        loaded: true,
        messages: action.messages.map(fromStored).filter((m): m is ShownMessage => m !== null),
      };
    case "send":
      return {
        ...state,
        error: null,
        messages: [
          ...state.messages,
          {
            key: `local${action.localId}`,
            role: "user",
            content: action.text,
            status: "complete",
            finishReason: null,
          },
        ],
        streaming: emptyReply(),
      };
    case "retry":
      return { ...state, error: null, streaming: emptyReply() };
    case "delta":
      if (!state.streaming) return state; // late delta after the turn ended
      return { ...state, streaming: { ...state.streaming, content: state.streaming.content + action.text } };
    case "finished": {
      const { outcome } = action;
      const reply: ShownMessage = {
        key: `m${outcome.message_id}`,
        role: "assistant",
        content: outcome.reply,
        status: outcome.status,
        finishReason: outcome.finish_reason,
      };
      const keep = outcome.reply !== "" || outcome.status === "complete";
      return { ...state, streaming: null, messages: keep ? [...state.messages, reply] : state.messages };
    }
    case "failed": {
      // What streamed before the failure stays on screen, marked as interrupted
      // (the core stored it the same way).
      const partial = state.streaming && state.streaming.content !== ""
        ? [{ ...state.streaming, key: `partial${state.messages.length}`, status: "interrupted" as const }]
        : [];
      return { ...state, streaming: null, error: action.error, messages: [...state.messages, ...partial] };
    }
    case "dismiss_error":
      return { ...state, error: null };
  }
}
