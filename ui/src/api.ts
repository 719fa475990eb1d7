// The UI's only door to the core: typed wrappers over Tauri IPC commands and events.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { openUrl } from "@tauri-apps/plugin-opener";

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

export type ProviderKind = "openai" | "anthropic";

export type KeyStorage =
  | { kind: "keychain" }
  | { kind: "session"; reason: string }
  | { kind: "environment"; variable: string }
  | { kind: "none" };

export interface ProviderView {
  id: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  api_key_env: string | null;
  tools: boolean;
  context_window?: number | null;
  sampling?: Sampling;
  /** As set; null follows the model's name. */
  vision?: boolean | null;
  /** Whether the model is sent images, as the core decided. */
  sees_images?: boolean;
  key: KeyStorage;
}

/** How a model samples; an absent value is the model's default. */
export interface Sampling {
  temperature?: number | null;
  top_p?: number | null;
  repeat_penalty?: number | null;
  max_tokens?: number | null;
}
export interface SamplingLimits {
  temperature: [number, number];
  top_p: [number, number];
  repeat_penalty: [number, number];
  max_tokens: [number, number];
}
/** The local model's sampling and window, with what applies when nothing is set. */
export interface TuningView {
  model: string;
  sampling: Sampling;
  defaults: Sampling;
  context_tokens: number | null;
  context_default: number;
  limits: SamplingLimits;
}

export interface ProviderInput {
  id: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  api_key?: string | null;
  api_key_env?: string | null;
  tools: boolean;
  context_window?: number | null;
  sampling?: Sampling;
  vision?: boolean | null;
}

export interface SavedProvider {
  provider: ProviderView;
  warning: string | null;
}

export interface ConnectionTest {
  ok: boolean;
  latency_ms: number;
  message: string;
}

export interface ModelTotals {
  provider: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface UsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
  by_model: ModelTotals[];
  by_purpose: PurposeTotals[];
  /** How the model's turns went (absent from an older core). */
  turns?: TurnMeasures;
}

/** The four measures of the model's turns over a period. */
export interface TurnMeasures {
  turns: number;
  truncated: number;
  claimed_without_acting: number;
  reinforced: number;
  plans_finished: number;
  plans_abandoned: number;
}

/** What a model call was for: replies, summaries, the spontaneous decision, extraction. */
export type Purpose = "chat" | "summarize" | "proactive" | "extract";

export interface PurposeTotals {
  purpose: Purpose;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface UsageReport {
  today: UsageTotals;
  all_time: UsageTotals;
}

/** What a budget limit covers, over which period, and how it stands. */
export interface BudgetStanding {
  scope: "all" | "background" | "provider";
  provider?: string;
  period: "day" | "month";
  usd: number;
  spent_usd: number;
  reserved_usd: number;
  /** The limit with today's extra allowance. */
  allowed_usd: number;
}

export interface BudgetView {
  limits: BudgetStanding[];
  /** The share of a limit (in percent) at which the user is warned. */
  warn_percent: number;
  allowance_usd: number;
  currency: string;
  usd_rate: number;
  allow_unpriced: boolean;
}

/** The budget's limits as Settings edits them, in the user's currency; null is no limit. */
export interface BudgetLimits {
  daily: number | null;
  monthly: number | null;
  background_daily: number | null;
  currency: string;
  usd_rate: number;
  allow_unpriced: boolean;
  providers: { id: string; daily: number | null; monthly: number | null }[];
}

export interface Spend {
  cost_usd: number;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  unpriced_calls: number;
}

export interface UsageDay {
  day: string;
  total: Spend;
  by_model: Record<string, Spend>;
  by_purpose: Record<string, Spend>;
}

export interface UsageSpan {
  total: Spend;
  by_model: Record<string, Spend>;
  by_purpose: Record<string, Spend>;
}

/** The last 30 days, a day at a time, and the month's projection. */
export interface UsageHistory {
  days: UsageDay[];
  last_7_days: UsageSpan;
  last_30_days: UsageSpan;
  month_to_date_usd: number;
  month_projection_usd: number;
  currency: string;
  usd_rate: number;
}

export type Category = "Health" | "Preferences" | "Work" | "Relationships" | "Schedule" | "Goals" | "General";
export const CATEGORIES: Category[] = ["Health", "Preferences", "Work", "Relationships", "Schedule", "Goals", "General"];

export interface ListedFact {
  line: number;
  category: Category;
  weight: number;
  text: string;
  learned: string;
  confirmed: string;
  /** When a newer fact replaced it (kept as history, not sent as current). */
  superseded?: string | null;
  /** What it is about when that changes (home, job, favourite:band…). */
  slot?: string | null;
}

/** A new Health fact that may contradict an older one: the user decides. */
export interface FactConflict {
  older: ListedFact;
  newer: ListedFact;
}

export interface MalformedLine {
  line: number;
  text: string;
  reason: string;
}

export interface MemoryReport {
  facts: ListedFact[];
  problems: MalformedLine[];
  conflicts?: FactConflict[];
}

export type SaveOutcome =
  | { action: "new"; category: Category }
  | { action: "reinforced"; category: Category; weight: number }
  | { action: "moved"; from: Category; to: Category; weight: number }
  | { action: "kept_in_health"; requested: Category; weight: number }
  | { action: "superseded"; category: Category; old: string }
  | { action: "needs_confirmation"; category: Category; old: string }
  | { action: "rate_limited" }
  | { action: "rejected"; reason: string };

export type PlanStatus = "pending" | "in_progress" | "done" | "failed";
export interface PlanItem {
  text: string;
  status: PlanStatus;
  /** What the step produced (or why it failed). */
  result?: string;
}

/** Tokens of the last prompt, of the budget it must fit (window minus the reply reserve). */
export interface ContextMeter {
  used: number;
  budget: number;
  window: number;
  summarized_turns: boolean;
  /** Against the fold rule: "high" from the threshold at which older turns are folded. */
  level: "low" | "mid" | "high";
}

export type CheckpointStatus = "in_progress" | "paused" | "resumed" | "completed" | "abandoned";
export interface Checkpoint {
  id: number;
  conversation_id: number;
  status: CheckpointStatus;
  trigger: "manual" | "auto";
  body: {
    title: string;
    current_work: string;
    completed: string[];
    pending: string[];
    decisions: string[];
    failed_approaches: string[];
    user_preferences: string[];
    critical_info: string[];
    blockers?: string[];
    /** Written by Sidecar: the model, the context's size, what the work touched. */
    metadata?: { model: string | null; tokens: number | null; touched: string[] };
  };
  created_at: string;
  updated_at: string;
}

export type ProfileFile = "soul" | "user";
export interface ProfileText {
  text: string;
  version: string;
}

/** The profile as a form: lines and sections of user.md and SOUL.md, read by the core. */
export interface ProfileFields {
  name: string;
  address_as: string;
  about: string;
  answer_style: string;
}
export interface ProfileView {
  fields: ProfileFields;
  user_version: string;
  soul_version: string;
}

export interface RecallHit {
  source: "message" | "fact" | "summary" | "checkpoint";
  id: number;
  label: string;
  snippet: string;
  timestamp: string;
  external_id: string | null;
  /** For a fact a newer one replaced: since when. */
  superseded?: string | null;
  /** Fused score, higher is better. */
  score: number;
  /** A turn shown for context beside a hit rather than found itself. */
  beside: boolean;
}

/** One page of the Memory view's search: the matches that clear the core's relevance cut. */
export interface MemoryPage {
  hits: RecallHit[];
  /** Matches beyond the pages asked for. */
  more: number;
  /** Weaker matches the relevance cut left out (0 once asked for). */
  weaker: number;
  /** Set when only words were searched: why meaning could not be used. */
  words_only: string | null;
}

export type EmbeddingsBackend = "local" | "openai" | "off";

export type MeaningState =
  | { state: "idle" }
  | { state: "ready"; model: string }
  | { state: "unavailable"; reason: string }
  | { state: "off" };

export type MeaningStatus = MeaningState & { embedded: number; total: number };

export interface MeaningView {
  backend: EmbeddingsBackend;
  url: string | null;
  model: string | null;
  has_key: boolean;
  status: MeaningStatus;
}

export interface BackupInfo {
  path: string;
  bytes: number;
  files: number;
  created_at: string;
}

export interface ChatImport {
  from: string;
  conversations: number;
  messages: number;
  problems: [number, string][];
  /** Messages already in Sidecar (imported before): not stored again. */
  already: number;
}

export type ReminderState = "pending" | "attempting" | "delivered" | "cancelled" | "failed";
/** What a snooze did: `original_kept` when the reminder still comes at its own time. */
export interface Snoozed {
  reminder: Reminder;
  original_kept: boolean;
}

export interface Reminder {
  id: number;
  message: string;
  /** The (next) occurrence, RFC 3339 UTC. */
  due_at: string;
  zone: string;
  rrule: string | null;
  /** The repeat rule in words, from the core ("every weekday at 09:00"). */
  rule_words?: string | null;
  /** The next three occurrences of a repeating reminder, RFC 3339 UTC. */
  next?: string[];
  all_day?: boolean;
  state: ReminderState;
  delivered_at: string | null;
  late: boolean;
  created_at: string;
  /** What the text leaves out: an imported event's cut title and its notes. */
  description?: string | null;
}
/** What setting a reminder did (the core's `Setting`). */
export interface ReminderSetting {
  reminder: Reminder;
  note: string | null;
  /** A pending reminder with the same words at the same time: both are kept. */
  twin: Reminder | null;
  already_set: boolean;
}
export interface RemindersOverview {
  upcoming: Reminder[];
  recurring: Reminder[];
  delivered: Reminder[];
  late: Reminder[];
  /** Given up: Sidecar stopped again and again while showing them. */
  failed?: Reminder[];
  zone: string;
  /** Snooze choices in minutes, as the core offers them. Snoozing one still to come
   * never moves it: the core adds a one-off copy and says so in `Snoozed`. */
  snooze_choices: number[];
}
export type WhenPreview =
  | {
      status: "ok";
      local: string;
      utc: string;
      zone: string;
      rrule: string | null;
      rule_words?: string | null;
      /** The first three occurrences, RFC 3339. */
      next?: string[];
      all_day?: boolean;
      note: string | null;
    }
  | { status: "error"; kind?: string; error: string; suggestion: string | null };
/** A quick-add sentence split into what and when. */
export interface SentencePreview {
  what: string;
  when_text: string;
  when: WhenPreview;
}
/** How a restore asked for in Settings went (the core's `RestoreNote`). */
export type RestoreNote =
  | { outcome: "restored"; files: number; created_at: string; aside: string }
  | { outcome: "refused"; file: string; why: string };

export interface IcsImport {
  added: number;
  /** Stopped before the end: nothing was stored. */
  stopped?: boolean;
  past: number;
  unreadable: string[];
  /** Titles cut to fit a notification; the rest went to the description. */
  shortened?: number;
}
export type Level = "low" | "medium" | "high";
export type SinkId = "chat" | "notification" | "tray" | "console" | "telegram" | "whatsapp";
export type SinkPreference = "all" | "reminders-only" | "none";
export interface ProactiveConfig {
  level: Level;
  quiet_hours: { start: string; end: string };
  tick_minutes: number;
  sinks: {
    primary: SinkId;
    chat: SinkPreference;
    notification: SinkPreference;
    tray: SinkPreference;
    console: SinkPreference;
    telegram: SinkPreference;
    whatsapp: SinkPreference;
    /** Phones hear Sidecar speak first once the desktop has been idle this long. */
    phone_when_idle_minutes: number;
  };
}
/** The limits the core enforces, for the settings to state. */
export interface ProactiveLimits {
  max_per_hour: number;
  cooldown_minutes: number;
  user_active_minutes: number;
  max_per_day: Record<Level, number>;
  quiet_minutes: number;
}

/** How welcome one kind of spontaneous message has been on one channel. */
export interface LearnedKind {
  kind: string;
  channel: Channel;
  /** 1 is whole; each unwelcome sign halves it. */
  allowance: number;
  unwelcome_in_a_row: number;
  paused_until: string | null;
  last_sent: string | null;
  welcome: number;
  unwelcome: number;
}

export type SpontaneousSignal = "answered" | "opened" | "thumbs_up" | "ignored" | "dismissed" | "thumbs_down";

export interface ProactiveStatus {
  limits: ProactiveLimits;
  config: ProactiveConfig;
  state: {
    count_today: number;
    count_this_hour: number;
    circuit_open_until: string | null;
    last_spontaneous_at: string | null;
    last_active_channel: Channel | null;
    learned?: { kinds: LearnedKind[] };
  };
  zone: string;
  sinks: [SinkId, Channel, boolean][];
  /** Spontaneous messages allowed today at this level. */
  max_today: number;
  /** Until when Sidecar is quiet, if it is now. */
  quiet_until: string | null;
}

export type Channel = "desktop" | "cli" | "telegram" | "whatsapp" | "api";

/** A phone channel's link, as the core tracks it. */
export type Link =
  | { state: "connecting" }
  | { state: "connected"; since: string }
  | { state: "down"; since: string; reason: string }
  | { state: "needs_setup"; what: string };

export interface HealthView {
  channel: Channel;
  link: Link;
  last_message_at: string | null;
}

export type TokenSource = { kind: "environment"; variable: string } | { kind: "keychain" } | { kind: "missing" };

export interface TelegramView {
  enabled: boolean;
  token: TokenSource;
  /** Null when Telegram does not run in this process. */
  health: HealthView | null;
  paired_chats: number[];
  pairing_code: string | null;
  pairing_expires_at: string | null;
}

export interface WhatsappView {
  enabled: boolean;
  health: HealthView | null;
  /** The linked number (its "message yourself" chat talks to Sidecar). */
  own_number: string | null;
  /** The pairing QR code to scan, drawn by the core. */
  qr: { svg: string; expires_at: string; expired_before: number } | null;
  allowed_numbers: string[];
}

export interface ChannelsView {
  /** This window's process runs the channels (not another Sidecar). */
  owner: boolean;
  telegram: TelegramView;
  whatsapp: WhatsappView;
}

/** A chat command the core answers itself, from its one table. */
export interface CommandHelp {
  command: string;
  arguments: string;
  description: string;
}

/** A provider fill-in the core offers (the welcome and the provider form). */
export interface Preset {
  id: string;
  label: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  context_window: number;
  key_env: string | null;
  local: boolean;
}

/** A model server found running on this machine. */
export interface FoundServer {
  id: string;
  label: string;
  base_url: string;
  models: string[];
  context_window: number;
}

export interface CatalogueModel {
  id: string;
  title: string;
  file: string;
  url: string;
  size_bytes: number;
  sha256: string | null;
  licence: string;
  min_ram_gb: number;
  context_tokens: number;
  fits: boolean;
  installed: boolean;
  partial_bytes: number | null;
  downloading: boolean;
}

export interface InstalledModel {
  name: string;
  path: string;
  size_bytes: number;
  context_tokens: number | null;
  chat_template: boolean;
}

export interface HubView {
  catalogue: CatalogueModel[];
  installed: InstalledModel[];
  partials: { file: string; received_bytes: number }[];
  /** The model the local server runs; null: the built-in demo. */
  active: string | null;
  memory_bytes: number;
  recommended: string | null;
  folder: string;
}

export interface DownloadState {
  file: string;
  received_bytes: number;
  total_bytes: number | null;
  phase: "running" | "paused" | "failed" | "done";
  message: string | null;
}

export interface Switched {
  active: string | null;
  context_tokens: number;
  restart_ms: number | null;
  warning: string | null;
}

/** A past conversation in the sidebar. */
export interface ChatSummary {
  id: number;
  title: string | null;
  renamed: boolean;
  created_at: string;
  updated_at: string;
  message_count: number;
  archived: boolean;
  /** Kept at the top of the list. */
  pinned?: boolean;
  /** With a search: the latest matching message, cut around the match, words in [brackets]. */
  matched?: string | null;
}

export interface ChatListView {
  current: number;
  chats: ChatSummary[];
  undo_seconds: number;
}

/** The versions of the last reply (Regenerate keeps the one it replaced). */
export interface ReplyVersions {
  user_message_id: number;
  count: number;
  /** The one shown, from 1; 0 when none is. */
  current: number;
}

export type Theme = "system" | "light" | "dark";
export type LanguageChoice = "system" | "en" | "es";

/** Theme, language and the global shortcut, as the core keeps them. */
export interface PreferencesView {
  theme: Theme;
  language: LanguageChoice;
  /** The language the choice means (the system's, for "system"). */
  chosen_lang: "en" | "es";
  /** Sidecar's own messages switch at the next start. */
  restart_for_language: boolean;
  hotkey: string;
  default_hotkey: string;
  /** The character on the desktop is shown. */
  character: boolean;
  character_hotkey: string;
  default_character_hotkey: string;
}

/** How this copy was installed; null: built from source. */
export type PackageFormat = "deb" | "rpm" | "appimage" | "other";

/** A newer version an update manifest offers. */
export interface UpdateOffer {
  version: string;
  published: string | null;
  /** What changed. */
  notes: string;
}

/** Where looking for an update or installing one stands. */
export type UpdateState =
  | { state: "idle" }
  | { state: "looking" }
  | { state: "up_to_date" }
  | { state: "available"; offer: UpdateOffer }
  | { state: "installing"; offer: UpdateOffer; received: number; total: number | null }
  | { state: "installed"; version: string }
  | { state: "failed"; message: string; offer: UpdateOffer | null };

/** Settings → About, as the core keeps it. */
export interface UpdatesView {
  version: string;
  format: PackageFormat | null;
  /** Why this copy cannot look for updates or install them, when it cannot. */
  cannot: string | null;
  address: string | null;
  own_address: boolean;
  /** The build has an address of its own to go back to. */
  built_address: boolean;
  own_key: boolean;
  daily: boolean;
  last_looked: string | null;
  state: UpdateState;
}

/** Why a shortcut was refused. */
export type HotkeyRefusal =
  | { kind: "taken"; hotkey: string }
  | { kind: "same_as_other"; hotkey: string }
  | { kind: "no_modifier" }
  | { kind: "unknown"; text: string }
  | CommandError;

/** Whether Sidecar is quiet everywhere now, and when that changes by itself. */
export interface QuietNow {
  quiet: boolean;
  reason: "asked" | "quiet_hours" | null;
  changes_at: string | null;
}

/** What the character's page needs when it opens. */
export interface CharacterStart {
  /** false: no compositor, so the character sits on a small card. */
  window: { transparent: boolean; rest: [number, number] };
  quiet: QuietNow;
  down: Channel[];
  asking: boolean;
}

/** The character's window grown for a bubble or its menu: where the character stays in it. */
export interface Grown {
  window: { x: number; y: number };
  right: boolean;
  bottom: boolean;
}

export type SearchBackend = "duckduckgo" | "searxng" | "brave";
/** Which service web search asks. */
export interface SearchView {
  backend: SearchBackend;
  url: string | null;
  /** A Brave key is saved (never the key itself). */
  has_key: boolean;
}
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export const CORE_EVENT = "sidecar://event";
export const SHOW_MESSAGE = "sidecar://show-message";
export const FOCUS_COMPOSER = "sidecar://focus-composer";
export const OPEN_SETTINGS = "sidecar://open-settings";

export function toCommandError(error: unknown): CommandError {
  if (error && typeof error === "object" && "message" in error) {
    const e = error as Partial<CommandError>;
    return { message: String(e.message), retryable: Boolean(e.retryable), cancelled: Boolean(e.cancelled) };
  }
  return { message: String(error), retryable: true };
}

export const api = {
  sendMessage: (text: string) => invoke<TurnOutcome>("send_message", { text }),
  sendWithFiles: (text: string, attachments: Attachment[]) => invoke<TurnOutcome>("send_with_files", { text, attachments }),
  attachFile: (path: string) => invoke<Attachment>("attach_file", { path }),
  /** The system's file picker for files to attach; empty when nothing was chosen. */
  chooseAttachments: async (): Promise<string[]> => {
    const { open } = await import("@tauri-apps/plugin-dialog");
    const chosen = await open({ multiple: true, directory: false });
    return Array.isArray(chosen) ? chosen : typeof chosen === "string" ? [chosen] : [];
  },
  /** Files dropped on the window (the shell takes the drop and gives their paths). */
  onFilesDropped: (handler: (paths: string[]) => void): Promise<UnlistenFn> =>
    listen<{ paths: string[] }>("tauri://drag-drop", (e) => handler(e.payload.paths ?? [])),
  retryReply: () => invoke<TurnOutcome>("retry_reply"),
  preferences: () => invoke<PreferencesView>("preferences"),
  setTheme: (theme: Theme) => invoke<PreferencesView>("set_theme", { theme }),
  setLanguage: (language: LanguageChoice) => invoke<PreferencesView>("set_language", { language }),
  setHotkey: (hotkey: string) => invoke<PreferencesView>("set_hotkey", { hotkey }),
  setCharacter: (on: boolean) => invoke<PreferencesView>("set_character", { on }),
  setCharacterHotkey: (hotkey: string) => invoke<PreferencesView>("set_character_hotkey", { hotkey }),
  characterStart: () => invoke<CharacterStart>("character_start"),
  /** Whether the character is see-through; null until it was first shown. */
  characterTransparent: () => invoke<boolean | null>("character_transparent"),
  characterFit: (width: number, height: number) => invoke<Grown>("character_fit", { width, height }),
  characterDrag: (dx: number, dy: number) => invoke<void>("character_drag", { dx, dy }),
  characterDrop: (dx: number, dy: number) => invoke<{ x: number; y: number }>("character_drop", { dx, dy }),
  characterOpen: (messageId: number | null) => invoke<void>("character_open", { messageId }),
  characterSettings: () => invoke<void>("character_settings"),
  quietForAnHour: () => invoke<QuietNow>("quiet_for_an_hour"),
  quietNow: () => invoke<QuietNow>("quiet_now"),
  /** The user is typing in the chat (the character listens). */
  userTyping: () => invoke<void>("user_typing"),
  onOpenSettings: (handler: (section: string) => void): Promise<UnlistenFn> => listen<string>(OPEN_SETTINGS, (e) => handler(e.payload)),
  launchAtLogin: () => invoke<boolean>("launch_at_login"),
  updates: () => invoke<UpdatesView>("updates"),
  lookForUpdate: () => invoke<UpdatesView>("look_for_update"),
  /** Only after the user said yes to this version. */
  installUpdate: () => invoke<UpdatesView>("install_update"),
  setUpdateAddress: (address: string | null) => invoke<UpdatesView>("set_update_address", { address }),
  setDailyUpdates: (daily: boolean) => invoke<UpdatesView>("set_daily_updates", { daily }),
  restartApp: () => invoke<void>("restart_app"),
  webSearchSetup: () => invoke<SearchView>("web_search_setup"),
  saveWebSearch: (input: { backend: SearchBackend; url: string | null; api_key: string | null }) => invoke<SearchView>("save_web_search", { input }),
  tryWebSearch: (query: string) => invoke<SearchResult[]>("try_web_search", { query }),
  setLaunchAtLogin: (on: boolean) => invoke<boolean>("set_launch_at_login", { on }),
  regenerateReply: () => invoke<TurnOutcome>("regenerate_reply"),
  replyVersions: () => invoke<ReplyVersions | null>("reply_versions"),
  showReplyVersion: (number: number) => invoke<ReplyVersions>("show_reply_version", { number }),
  editMessage: (id: number, text: string) => invoke<TurnOutcome>("edit_message", { id, text }),
  stopReply: () => invoke<boolean>("stop_reply"),
  cancelQueued: (id: number) => invoke<boolean>("cancel_queued", { id }),
  loadHistory: (limit = 200) => invoke<Message[]>("load_history", { limit }),
  modelStatus: () => invoke<ModelStatus>("model_status"),
  listProviders: () => invoke<ProviderView[]>("list_providers"),
  saveProvider: (input: ProviderInput) => invoke<SavedProvider>("save_provider", { input }),
  removeProvider: (id: string) => invoke<string | null>("remove_provider", { id }),
  orderProviders: (ids: string[]) => invoke<string | null>("order_providers", { ids }),
  testProvider: (input: ProviderInput) => invoke<ConnectionTest>("test_provider", { input }),
  localTuning: () => invoke<TuningView>("local_tuning"),
  setLocalTuning: (sampling: Sampling, contextTokens: number | null) =>
    invoke<TuningView>("set_local_tuning", { input: { sampling, context_tokens: contextTokens } }),
  usageReport: () => invoke<UsageReport>("usage_report"),
  usageHistory: () => invoke<UsageHistory>("usage_history"),
  budget: () => invoke<BudgetView>("budget_view"),
  /** `amount` more today, in the budget's currency. */
  allowMoreToday: (amount: number) => invoke<BudgetView>("allow_more_today", { amount }),
  budgetLimits: () => invoke<BudgetLimits>("budget_limits"),
  saveBudgetLimits: (form: BudgetLimits) => invoke<BudgetView>("save_budget_limits", { form }),
  pinnedModel: () => invoke<string | null>("pinned_model"),
  pinModel: (id: string | null) => invoke<void>("pin_model", { id }),
  memoryReport: () => invoke<MemoryReport>("memory_report"),
  rememberFact: (text: string, category: Category) => invoke<SaveOutcome>("remember_fact", { text, category }),
  editFact: (line: number, expected: string, text: string, category: Category) =>
    invoke<void>("edit_fact", { line, expected, text, category }),
  deleteFact: (line: number, expected: string) => invoke<void>("delete_fact", { line, expected }),
  supersedeFact: (line: number, expected: string) => invoke<void>("supersede_fact", { line, expected }),
  autoRemember: () => invoke<boolean>("auto_remember"),
  setAutoRemember: (on: boolean) => invoke<boolean>("set_auto_remember", { on }),
  searchMemory: (query: string, pages: number, weaker: boolean) => invoke<MemoryPage>("search_memory", { query, pages, weaker }),
  meaningSetup: () => invoke<MeaningView>("meaning_setup"),
  saveMeaning: (input: { backend: EmbeddingsBackend; url: string | null; model: string | null; api_key: string | null }) =>
    invoke<MeaningView>("save_meaning", { input }),
  backUpNow: () => invoke<BackupInfo>("back_up_now"),
  automaticBackups: () => invoke<[string, string][]>("automatic_backups"),
  /** Restores `path` at a restart the core asks for at once. */
  restoreAtRestart: (path: string) => invoke<void>("restore_at_restart", { path }),
  /** How the last restore asked for here went, once. */
  restoreNote: () => invoke<RestoreNote | null>("restore_note"),
  exportData: (format: "markdown" | "json") => invoke<string>("export_data", { format }),
  /** One conversation as Markdown in the exports folder; the file. */
  exportChat: (id: number) => invoke<string>("export_chat", { id }),
  importChatExport: (text: string) => invoke<ChatImport>("import_chat_export", { text }),
  revealPath: (path: string) => invoke<void>("reveal_path", { path }),
  readProfile: (file: ProfileFile) => invoke<ProfileText>("read_profile", { file }),
  saveProfile: (file: ProfileFile, text: string, version: string) => invoke<string>("save_profile", { file, text, version }),
  profileFields: () => invoke<ProfileView>("profile_fields"),
  saveProfileFields: (fields: ProfileFields, userVersion: string, soulVersion: string) =>
    invoke<ProfileView>("save_profile_fields", { fields, userVersion, soulVersion }),
  listCheckpoints: () => invoke<Checkpoint[]>("list_checkpoints"),
  setCheckpointStatus: (id: number, status: CheckpointStatus) => invoke<Checkpoint>("set_checkpoint_status", { id, status }),
  exportCheckpoint: (id: number) => invoke<string>("export_checkpoint", { id }),
  editCheckpoint: (id: number, body: Checkpoint["body"]) => invoke<Checkpoint>("edit_checkpoint", { id, body }),
  newConversation: () => invoke<number>("new_conversation"),
  continuationOffer: () => invoke<Checkpoint | null>("continuation_offer"),
  continueCheckpoint: (id: number) => invoke<Checkpoint>("continue_checkpoint", { id }),
  dismissOffer: () => invoke<void>("dismiss_offer"),
  currentPlan: () => invoke<PlanItem[]>("current_plan"),
  contextMeter: () => invoke<ContextMeter>("context_meter"),
  onCoreEvent: (handler: (event: CoreEvent) => void): Promise<UnlistenFn> =>
    listen<CoreEvent>(CORE_EVENT, (e) => handler(e.payload)),
  /** Opens a web or mail link in the system's handler, never inside Sidecar's window. */
  openExternal: (url: string) => openUrl(url),
  openLogsFolder: () => invoke<void>("open_logs_folder"),
  /** Problems found at start that the user should fix (a bad time zone in settings). */
  coreWarnings: () => invoke<string[]>("core_warnings"),
  remindersOverview: () => invoke<RemindersOverview>("reminders_overview"),
  previewWhen: (text: string) => invoke<WhenPreview>("preview_when", { text }),
  addReminder: (message: string, when: string) => invoke<ReminderSetting>("add_reminder", { message, when }),
  previewSentence: (text: string) => invoke<SentencePreview>("preview_sentence", { text }),
  addReminderSentence: (sentence: string) => invoke<ReminderSetting>("add_reminder_sentence", { sentence }),
  exportRemindersIcs: () => invoke<string>("export_reminders_ics"),
  importRemindersIcs: (text: string) => invoke<IcsImport>("import_reminders_ics", { text }),
  stopRemindersImport: () => invoke<boolean>("stop_reminders_import"),
  snoozeChoices: () => invoke<number[]>("snooze_choices"),
  /** The system's file picker for a .gguf model; null when nothing was chosen. */
  chooseModelFile: async (filterName: string): Promise<string | null> => {
    const { open } = await import("@tauri-apps/plugin-dialog");
    const chosen = await open({ multiple: false, directory: false, filters: [{ name: filterName, extensions: ["gguf"] }] });
    return typeof chosen === "string" ? chosen : null;
  },
  /** Snooze (minutes) or Done (null) on a reminder posted in the chat. */
  answerReminderMessage: (messageId: number, minutes: number | null) => invoke<Snoozed | null>("answer_reminder_message", { messageId, minutes }),
  cancelReminder: (id: number) => invoke<Reminder>("cancel_reminder", { id }),
  snoozeReminder: (id: number, minutes: number) => invoke<Snoozed>("snooze_reminder", { id, minutes }),
  proactiveStatus: () => invoke<ProactiveStatus>("proactive_status"),
  spontaneousFeedback: (messageId: number, signal: SpontaneousSignal) => invoke<void>("spontaneous_feedback", { messageId, signal }),
  forgetLearned: () => invoke<ProactiveStatus>("forget_learned"),
  saveProactiveConfig: (config: ProactiveConfig) => invoke<ProactiveConfig>("save_proactive_config", { config }),
  setTimezone: (zone: string) => invoke<string>("set_timezone", { zone }),
  setQuiet: (minutes: number | null) => invoke<ProactiveStatus>("set_quiet", { minutes }),
  commandTable: () => invoke<CommandHelp[]>("command_table"),
  timeZones: () => invoke<string[]>("time_zones"),
  channelsView: () => invoke<ChannelsView>("channels_view"),
  setTelegramToken: (token: string) => invoke<ChannelsView>("set_telegram_token", { token }),
  setTelegramEnabled: (enabled: boolean) => invoke<ChannelsView>("set_telegram_enabled", { enabled }),
  newTelegramCode: () => invoke<ChannelsView>("new_telegram_code"),
  unpairTelegram: (chat: number) => invoke<ChannelsView>("unpair_telegram", { chat }),
  setWhatsappEnabled: (enabled: boolean) => invoke<ChannelsView>("set_whatsapp_enabled", { enabled }),
  unlinkWhatsapp: () => invoke<ChannelsView>("unlink_whatsapp"),
  mcpServers: () => invoke<McpView>("mcp_servers"),
  mcpSave: (name: string, form: McpServerForm) => invoke<McpView>("mcp_save", { name, form }),
  listConnections: () => invoke<Connection[]>("list_connections"),
  allowConnection: (name: string, scopes: ConnectionScope[]) => invoke<Connection[]>("allow_connection", { name, scopes }),
  revokeConnection: (name: string) => invoke<Connection[]>("revoke_connection", { name }),
  makeApiToken: (name: string, scopes: ConnectionScope[]) => invoke<IssuedToken>("make_api_token", { name, scopes }),
  showApiToken: (name: string) => invoke<string | null>("show_api_token", { name }),
  connectionConfig: () => invoke<string>("connection_config"),
  connectionHttpConfig: (token: string) => invoke<string | null>("connection_http_config", { token }),
  connectionEndpoint: () => invoke<EndpointView>("connection_endpoint"),
  setConnectionEndpoint: (on: boolean) => invoke<EndpointView>("set_connection_endpoint", { on }),
  mcpRemove: (name: string) => invoke<McpView>("mcp_remove", { name }),
  mcpSetEnabled: (name: string, enabled: boolean) => invoke<McpView>("mcp_set_enabled", { name, enabled }),
  mcpImport: () => invoke<[string, McpImportReport][]>("mcp_import"),
  permissionQuestions: () => invoke<PermissionQuestion[]>("permission_questions"),
  answerPermission: (id: number, choice: PermissionChoice) => invoke<boolean>("answer_permission", { id, choice }),
  listGrants: () => invoke<Grant[]>("list_grants"),
  notesView: () => invoke<NotesView>("notes_view"),
  chooseNotesFolder: (folder: string | null) => invoke<NotesView>("choose_notes_folder", { folder }),
  /** The system's folder picker; null when nothing was chosen. */
  pickFolder: async (): Promise<string | null> => {
    const { open } = await import("@tauri-apps/plugin-dialog");
    const chosen = await open({ multiple: false, directory: true });
    return typeof chosen === "string" ? chosen : null;
  },
  autoAllowReadOnly: () => invoke<boolean>("auto_allow_read_only"),
  setAutoAllowReadOnly: (on: boolean) => invoke<boolean>("set_auto_allow_read_only", { on }),
  revokeGrant: (server: string, tool: string | null) => invoke<Grant[]>("revoke_grant", { server, tool }),
  listChats: (query: string | null = null) => invoke<ChatListView>("list_chats", { query }),
  openChat: (id: number) => invoke<void>("open_chat", { id }),
  openChatAt: (messageId: number) => invoke<number>("open_chat_at", { messageId }),
  renameChat: (id: number, title: string) => invoke<void>("rename_chat", { id, title }),
  pinChat: (id: number, pinned: boolean) => invoke<void>("pin_chat", { id, pinned }),
  deleteChat: (id: number) => invoke<void>("delete_chat", { id }),
  undeleteChat: (id: number) => invoke<boolean>("undelete_chat", { id }),
  welcomeNeeded: () => invoke<boolean>("welcome_needed"),
  finishWelcome: () => invoke<void>("finish_welcome"),
  providerPresets: () => invoke<Preset[]>("provider_presets"),
  listProviderModels: (input: ProviderInput) => invoke<string[]>("list_provider_models", { input }),
  localServers: () => invoke<FoundServer[]>("local_servers"),
  modelHub: () => invoke<HubView>("model_hub"),
  pullModel: (what: string, sha256: string | null = null) => invoke<string>("pull_model", { what, sha256 }),
  pauseDownload: (file: string) => invoke<boolean>("pause_download", { file }),
  discardDownload: (file: string) => invoke<HubView>("discard_download", { file }),
  importModel: (path: string) => invoke<HubView>("import_model", { path }),
  useLocalModel: (name: string | null) => invoke<Switched>("use_local_model", { name }),
  removeLocalModel: (name: string) => invoke<HubView>("remove_local_model", { name }),
  /** A notification was clicked: the window came up on this message. */
  onShowMessage: (handler: (messageId: number) => void): Promise<UnlistenFn> =>
    listen<number>(SHOW_MESSAGE, (e) => handler(e.payload)),
  onFocusComposer: (handler: () => void): Promise<UnlistenFn> =>
    listen(FOCUS_COMPOSER, () => handler()),
};
