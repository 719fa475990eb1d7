// The UI's only door to the core: typed wrappers over Tauri IPC commands and events.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { openUrl } from "@tauri-apps/plugin-opener";

export type Role = "system" | "user" | "assistant" | "tool";
export type MessageStatus = "complete" | "stopped" | "interrupted" | "error";

export interface Message {
  id: number;
  conversation_id: number;
  role: Role;
  content: string;
  status: MessageStatus;
  finish_reason: string | null;
  created_at: string;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export interface TurnOutcome {
  conversation_id: number;
  message_id: number;
  reply: string;
  status: MessageStatus;
  finish_reason: string | null;
  usage: Usage | null;
}

export type ModelStatus =
  | { state: "idle" }
  | { state: "starting" }
  | { state: "ready"; provider: string; model: string }
  | { state: "unavailable"; message: string };

export type CoreEvent =
  | { type: "turn_started"; conversation_id: number; user_message_id: number }
  | { type: "delta"; conversation_id: number; text: string }
  | {
      type: "turn_finished";
      conversation_id: number;
      message_id: number;
      status: MessageStatus;
      finish_reason: string | null;
      usage: Usage | null;
    }
  | { type: "turn_failed"; conversation_id: number; message: string; retryable: boolean }
  | ({ type: "model_status" } & ModelStatus);

/** What a failed command rejects with. */
export interface CommandError {
  message: string;
  retryable: boolean;
}

export const CORE_EVENT = "sidecar://event";
export const FOCUS_COMPOSER = "sidecar://focus-composer";

export function toCommandError(error: unknown): CommandError {
  if (error && typeof error === "object" && "message" in error) {
    const e = error as Partial<CommandError>;
    return { message: String(e.message), retryable: Boolean(e.retryable) };
  }
  return { message: String(error), retryable: true };
}

export const api = {
  sendMessage: (text: string) => invoke<TurnOutcome>("send_message", { text }),
  retryReply: () => invoke<TurnOutcome>("retry_reply"),
  stopReply: () => invoke<boolean>("stop_reply"),
  loadHistory: (limit = 200) => invoke<Message[]>("load_history", { limit }),
  modelStatus: () => invoke<ModelStatus>("model_status"),
  uiLanguage: () => invoke<string>("ui_language"),
  onCoreEvent: (handler: (event: CoreEvent) => void): Promise<UnlistenFn> =>
    listen<CoreEvent>(CORE_EVENT, (e) => handler(e.payload)),
  /** Opens a web or mail link in the system's handler, never inside Sidecar's window. */
  openExternal: (url: string) => openUrl(url),
  onFocusComposer: (handler: () => void): Promise<UnlistenFn> =>
    listen(FOCUS_COMPOSER, () => handler()),
};
