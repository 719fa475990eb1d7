// The core's types for the chat: messages, turns, events, permission questions, MCP
// servers and connections, as the IPC commands and events carry them.
import type { HomeLinkState } from "./devices";
import type { Channel, CoreEvent as CoreSent, Field, MessageMeta, Question, ServerForm, ServerStatus, Usage } from "./core";

// Generated from the core's Rust types (./core.ts, `make ui-types`), under the names the
// UI knows them by.
export type { AttachedFile, MessageMeta, ModelStatus, Notice, QueuedMessage, ToolDefinition, Usage } from "./core";
export type PermissionQuestion = Question;
export type McpField = Field;
export type McpServerForm = ServerForm;
export type McpServer = ServerStatus;

/** What the core says to the window: its events, and the two the link to a home core
 * sends the window itself (`src/companion/home.rs`, not yet typed in Rust). */
export type CoreEvent =
  | CoreSent
  | { type: "home_link"; state: HomeLinkState | "left"; said?: string; waiting?: number }
  | { type: "device_notification"; title: string; body: string };

export type Role = "system" | "user" | "assistant" | "tool";
export type MessageStatus = "complete" | "stopped" | "interrupted" | "incomplete" | "error";


export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
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





export type PermissionChoice = "allow_once" | "allow_in_chat" | "always_tool" | "always_server" | "deny";






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

