// The core's types for the chat: messages, turns, events, permission questions, MCP
// servers and connections, as the IPC commands and events carry them.
import type { HomeLinkState } from "./devices";
import type { BudgetStanding, Category, ContextMeter, MalformedLine, PlanItem } from "./settings";
import type { Channel, DownloadState, QuietNow, UpdatesView } from "./world";

export type Role = "system" | "user" | "assistant" | "tool";
export type MessageStatus = "complete" | "stopped" | "interrupted" | "incomplete" | "error";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What is shown under a reply: who answered, markers, cost. */
export interface MessageMeta {
  provider?: string;
  model?: string;
  fallback_from?: string;
  /** Why it did not answer, when that was no failure (its budget is spent). */
  fallback_reason?: string;
  continued?: number;
  corrected?: boolean;
  iteration_cap?: boolean;
  usage?: Usage;
  cost_usd?: number;
  /** The answer to a chat command such as /checkpoint. */
  command?: boolean;
  /** Sidecar carried out the request itself (a reminder set, a fact kept). */
  intent?: boolean;
  /** Said by Sidecar on its own: "reminder", "greeting", "checkin" or "contextual". */
  proactive?: string;
  /** The reminder a reminder message is about (its Snooze and Done act on it). */
  reminder_id?: number;
  /** The user answered the reminder message already. */
  handled?: boolean;
  /** Files attached to a user's message (their text is in the content, for the model). */
  attachments?: AttachedFile[];
  /** What the user typed, when files were attached. */
  typed?: string;
  /** The turn worked on a plan: every step closed, or some left. */
  plan?: "finished" | "abandoned";
  /** A checkpoint Sidecar saved on its own during this turn. */
  checkpoint?: number;
  /** The scheduled task this message ran for (in the Tasks conversation). */
  task?: number;
  /** A morning brief: thumbs up and down teach the next ones. */
  brief?: boolean;
  /** Times the model was told to go on with open steps. */
  plan_nudges?: number;
  /** The context guard cut turns or messages to fit. */
  truncated?: boolean;
  /** The tool rules were said again (a long conversation). */
  reinforced?: boolean;
}

/** A file attached to a stored message, as its chip shows it. */
export interface AttachedFile {
  name: string;
  kind: string;
  /** Only its start and end were sent. */
  cut: boolean;
}

/** A file read for the next message (the core cut it to the context budget). */
export interface Attachment {
  name: string;
  kind: "text" | "pdf" | "docx" | "image";
  text: string;
  cut: boolean;
  tokens: number;
  /** An image: where the core keeps it (sent back as is). */
  image?: { media_type: string; file: string } | null;
}

export interface Message {
  id: number;
  conversation_id: number;
  role: Role;
  content: string;
  status: MessageStatus;
  finish_reason: string | null;
  created_at: string;
  tool_calls?: ToolCall[] | null;
  tool_call_id?: string | null;
  is_error?: boolean;
  meta?: MessageMeta | null;
  /** Where it was said or shown (older messages: unknown). */
  channel?: Channel | null;
}

export interface TurnOutcome {
  conversation_id: number;
  /** The user message answered (0 for none). */
  user_message_id?: number;
  /** The turn moved on to another conversation (`/clear`). */
  conversation_changed?: boolean;
  message_id: number;
  reply: string;
  status: MessageStatus;
  finish_reason: string | null;
  usage: Usage | null;
  meta: MessageMeta;
}

export type Notice =
  | { kind: "retrying"; provider: string; attempt: number; delay_ms: number; reason: string }
  | { kind: "falling_back"; from: string; to: string; reason: string }
  | { kind: "continued"; attempt: number }
  | { kind: "corrected"; check: string }
  | { kind: "iteration_cap" }
  | { kind: "timed_out" }
  | { kind: "summarizing" }
  | { kind: "plan_goes_on"; done: number; total: number };

export type ModelStatus =
  | { state: "idle" }
  | { state: "starting" }
  | { state: "ready"; provider: string; model: string; /** The tiny built-in model. */ demo?: boolean }
  /** `down` is not answering (`reason`); the offline `model` answers meanwhile. */
  | { state: "standing_in"; down: string; reason: string; model: string; demo: boolean }
  | { state: "unavailable"; message: string };

export type CoreEvent =
  | { type: "home_link"; state: HomeLinkState | "left"; said?: string; waiting?: number }
  | { type: "device_notification"; title: string; body: string }
  | { type: "voice_listening" }
  | { type: "voice_level"; level: number }
  | { type: "voice_heard"; text: string }
  | { type: "voice_transcribing" }
  | { type: "voice_done"; text: string | null; problem: string | null }
  | { type: "voice_speaking"; on: boolean; problem: string | null }
  | { type: "turn_started"; conversation_id: number; user_message_id: number; channel?: Channel; dequeued?: string }
  | { type: "queue"; items: QueuedMessage[] }
  | { type: "delta"; conversation_id: number; text: string }
  | { type: "tool_started"; conversation_id: number; call_id: string; name: string; arguments: string }
  | { type: "tool_finished"; conversation_id: number; call_id: string; name: string; is_error: boolean; denied?: boolean; result: string }
  | { type: "permission_asked"; question: PermissionQuestion }
  | { type: "permission_settled"; id: number }
  | { type: "mcp_servers"; servers: McpServer[] }
  | { type: "connection_waiting"; name: string; title: string; body: string }
  | { type: "notice"; conversation_id: number; notice: Notice }
  | {
      type: "turn_finished";
      conversation_id: number;
      message_id: number;
      channel?: Channel;
      status: MessageStatus;
      finish_reason: string | null;
      usage: Usage | null;
      meta: MessageMeta;
    }
  | { type: "turn_failed"; conversation_id: number; message: string; retryable: boolean }
  | { type: "plan_updated"; conversation_id: number; items: PlanItem[] }
  | ({ type: "context_usage"; conversation_id: number } & ContextMeter)
  | { type: "checkpoint_saved"; conversation_id: number; checkpoint_id: number; trigger: string }
  | { type: "reminder_delivered"; conversation_id: number; message_id: number; reminder_id: number; late: boolean; first_line: string }
  | { type: "reminders_changed" }
  | { type: "tasks_changed" }
  | { type: "task_run_started"; task_id: number; run_id: number }
  | { type: "task_run_finished"; task_id: number; run_id: number; conversation_id: number; message_id: number | null; ok: boolean }
  | { type: "task_asks"; task_id: number; conversation_id: number; message_id: number }
  | { type: "channels_changed" }
  | { type: "channel_alert"; channel: Channel; title: string; body: string; down: boolean }
  | { type: "spontaneous_message"; conversation_id: number; message_id: number; message_type: string; first_line: string }
  | { type: "quiet_changed"; quiet: QuietNow }
  | { type: "user_typing" }
  | { type: "knowledge_changed"; problems: MalformedLine[]; error: string | null }
  | { type: "proactive_learned"; said: string }
  | { type: "budget_reached"; reached: BudgetStanding & { percent: number }; currency: string; usd_rate: number; more_usd: number; said: string }
  | { type: "memory_indexing"; embedded: number; total: number }
  | { type: "calendar_import"; saved: number; total: number; done: boolean }
  | { type: "facts_noticed"; conversation_id: number; message_id: number; suggestions: { text: string; category: Category }[]; saved: boolean }
  | ({ type: "model_status" } & ModelStatus)
  | ({ type: "model_download" } & DownloadState)
  | ({ type: "update" } & UpdatesView)
  | { type: "update_found"; title: string; body: string };

/** A tool that acts waits for the user's answer (a card in the chat). */
export interface PermissionQuestion {
  id: number;
  /** What the card says first, in the user's language ("Sidecar wants to schedule a task"). */
  title: string;
  server: string;
  tool: string;
  called_as: string;
  description: string;
  /** The full arguments, as the tool would receive them. */
  arguments: unknown;
  /** What changed since the user last allowed this tool; empty for a first ask. */
  changed: string[];
  conversation_id: number | null;
}

export type PermissionChoice = "allow_once" | "allow_in_chat" | "always_tool" | "always_server" | "deny";

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: unknown;
  read_only: boolean;
}

export type McpServerState =
  | { state: "off" }
  | { state: "starting" }
  | { state: "running" }
  | { state: "failed"; error: string; stderr: string[]; retry_in_secs: number };

/** One environment variable (or header); a kept secret comes without its value. */
export interface McpField {
  name: string;
  value: string | null;
  secret: boolean;
}

/** A server as Settings edits it: its command line or address, and its fields. */
export interface McpServerForm {
  line: string;
  fields: McpField[];
}

export type McpServer = { name: string; summary: string; enabled: boolean; tools: ToolDefinition[]; form: McpServerForm } & McpServerState;

export type ConnectionScope = "read_memory" | "write_memory" | "reminders" | "messages" | "health" | "chat";

/** A program that uses Sidecar as a server, with its latest calls. */
export interface Connection {
  name: string;
  state: "pending" | "allowed" | "revoked";
  scopes: ConnectionScope[];
  first_seen: string;
  changed_at: string;
  activity: { action: string; allowed: boolean; at: string }[];
  has_token: boolean;
}

/** A local API token just made, and where it is kept. */
export interface IssuedToken {
  token: string;
  storage: { kind: "keychain" | "session" | "environment" | "none"; reason?: string };
}

/** The MCP endpoint over HTTP: where it listens, or why it does not. */
export interface EndpointView {
  url: string | null;
  problem: string | null;
}

export interface McpView {
  config_path: string;
  servers: McpServer[];
}

export interface McpImportReport {
  added: string[];
  kept: string[];
  refused: [string, string][];
}

/** Settings → Notes: the folder the note tools use, and why a configured one is not usable. */
export interface NotesView {
  folder: string | null;
  problem: string | null;
}

/** A standing answer: a tool (or, with `tool` null, every tool of a server) allowed or denied. */
export interface Grant {
  id: number;
  server: string;
  identity: string;
  tool: string | null;
  allow: boolean;
  created_at: string;
}

/** What a failed command rejects with. */
export interface CommandError {
  message: string;
  retryable: boolean;
  /** A queued message was cancelled before its turn: nothing went wrong. */
  cancelled?: boolean;
}

/** A message waiting for the reply being written. */
export interface QueuedMessage {
  id: number;
  text: string;
  channel: string;
}
