// The core's types for the chat: messages, turns, events, permission questions, MCP
// servers and connections, as the IPC commands and events carry them. Every one is
// generated from the core's Rust types (./core.ts, `make ui-types`); this file names
// them as the UI knows them.
import type {
  Choice,
  ConnectionView,
  CoreEvent as CoreSent,
  DeviceNotification,
  Field,
  HomeLinkChanged,
  Issued,
  Question,
  Scope,
  ServerForm,
  ServerStatus,
} from "./core";

export type {
  AttachedFile,
  Attachment,
  CommandError,
  EndpointView,
  ForgottenExchange,
  Grant,
  McpImportReport,
  McpView,
  Message,
  MessageMeta,
  MessageStatus,
  ModelStatus,
  NotesView,
  Notice,
  QueuedMessage,
  Role,
  ToolCall,
  ToolDefinition,
  TurnOutcome,
  Usage,
} from "./core";
export type PermissionQuestion = Question;
export type PermissionChoice = Choice;
export type McpField = Field;
export type McpServerForm = ServerForm;
export type McpServer = ServerStatus;
/** A program that uses Sidecar as a server, with its latest calls. */
export type Connection = ConnectionView;
export type ConnectionScope = Scope;
/** A local API token just made, and where it is kept. */
export type IssuedToken = Issued;

/** What the core says to the window: its events, and the two the link to a home core
 * sends the window itself (`src/companion/home.rs`, `devices_sink.rs`). */
export type CoreEvent =
  | CoreSent
  | ({ type: "home_link" } & HomeLinkChanged)
  | ({ type: "device_notification" } & DeviceNotification);
