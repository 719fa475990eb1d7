// What tests build the core's answers from: each type as the core sends it (the
// generated `types/core.ts`), with what a test does not look at left empty.
import type { Message, TurnOutcome } from "../types/chat";

/** A stored message: `id`, `role` and `content` given, the rest as a plain finished one. */
export function message(fields: Pick<Message, "id" | "role" | "content"> & Partial<Message>): Message {
  return {
    conversation_id: 1,
    status: "complete",
    finish_reason: null,
    created_at: "",
    tool_calls: null,
    tool_call_id: null,
    is_error: false,
    meta: null,
    channel: null,
    ...fields,
  };
}

/** A finished turn's outcome: `message_id` and `reply` given, the rest a plain reply. */
export function turnOutcome(fields: Pick<TurnOutcome, "message_id" | "reply"> & Partial<TurnOutcome>): TurnOutcome {
  const none = { secs: 0, nanos: 0 };
  return {
    conversation_id: 1,
    user_message_id: 0,
    status: "complete",
    finish_reason: "stop",
    usage: null,
    meta: {},
    timings: { total: none, model: none, tools: none, to_first_request: none },
    ...fields,
  };
}
