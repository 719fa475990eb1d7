// The core's types for the rest of the window: reminders, proactivity, phone channels,
// local models, chats, preferences, updates, the character and web search.
import type { CommandError } from "./chat";
import type { ProviderKind } from "./settings";
// Generated from the core's Rust types (./core.ts).
import type { Channel, DownloadState, QuietNow, UpdatesView } from "./core";
export type { Channel, DownloadState, QuietNow, UpdatesView };

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
  /** Its zone as people say it ("Madrid time"), in the page's lists. */
  zone_words?: string;
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
  /** The zone as people say it ("Madrid time", "UTC"). */
  zone_words: string;
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
export type SinkId = "chat" | "notification" | "tray" | "console" | "telegram" | "whatsapp" | "devices";
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
  /** Where the provider hands out keys (none for a server on this machine). */
  key_page: string | null;
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
  talk_hotkey: string;
  default_talk_hotkey: string;
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


/** Why a shortcut was refused. */
export type HotkeyRefusal =
  | { kind: "taken"; hotkey: string }
  | { kind: "same_as_other"; hotkey: string }
  | { kind: "no_modifier" }
  | { kind: "unknown"; text: string }
  | CommandError;


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
/** What a time a scheduled task missed becomes (the core's `CatchUp`). */
export type CatchUp = { kind: "run_now" } | { kind: "ask" } | { kind: "skip_older_than"; minutes: number };
/** One run of a task, newest first in its list. */
export interface TaskRun {
  id: number;
  task_id: number;
  occurrence: string;
  state: "attempting" | "done" | "failed" | "skipped" | "asked";
  outcome: string | null;
  message_id: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
}
/** A scheduled task as the core lists it. */
export interface TaskView {
  id: number;
  kind: "prompt" | "brief";
  title: string;
  prompt: string;
  /** Its time in words, in the window's language. */
  when: string;
  next: string | null;
  tools: string[];
  catch_up: CatchUp;
  always_deliver: boolean;
  paused: string | null;
  asked: boolean;
  runs: TaskRun[];
}
/** Settings → Tasks in one read. */
export interface TasksPage {
  tasks: TaskView[];
  /** The tools a task can be given: the name a task keeps, and what a person calls it. */
  tools: [string, string][];
  default_skip_minutes: number;
  /** Prompt tokens, completion tokens and runs since midnight. */
  tokens_today: [number, number, number];
  /** The user's zone, which the next times are shown in. */
  zone: string;
  /** The morning brief's time ("07:30") when it is on. */
  brief_at: string | null;
  /** The time offered when it is turned on. */
  brief_default: string;
  /** Where the brief looks up the weather, when the user said. */
  brief_place?: string | null;
  /** There is a weather tool for the brief to use. */
  brief_weather?: boolean;
  /** Task notifications sent today, and the most a day (the rest wait in Tasks). */
  notified_today: [number, number];
  /** Only the demo model answers: tasks cannot run. */
  demo_only: boolean;
}
/** A task as the user asks for it. */
export interface TaskRequest {
  title: string | null;
  prompt: string;
  when: string;
  tools: string[];
  catch_up: CatchUp;
  always_deliver: boolean;
}
/** A calendar of the connected account, as the core keeps it. */
export interface StoredCalendar {
  id: number;
  href: string;
  name: string | null;
  color: string | null;
  read: boolean;
  writable: boolean;
  synced_at: string | null;
  /** What went wrong at the last sync, in the user's language; null when it went well. */
  problem: string | null;
  /** "caldav": the account's; "ics": a feed subscribed by its address (read only). */
  source: "caldav" | "ics";
}
/** Settings → Calendar. */
export interface CalendarView {
  /** [address, user name] when an account is connected. */
  account: [string, string] | null;
  calendars: StoredCalendar[];
  /** The user's zone, in which sync times are shown. */
  zone: string;
  /** Reminders are mirrored as to-dos in the calendar Sidecar writes. */
  mirror_reminders: boolean;
}
/** What mirroring the reminders wrote. */
export interface MirrorReport {
  created: number;
  updated: number;
  removed: number;
  /** Reminders whose to-do was changed on the calendar: the calendar's version was kept. */
  kept_theirs: number[];
}
export interface SyncReport {
  added: number;
  changed: number;
  removed: number;
  unchanged: boolean;
  unreadable: string[];
}
