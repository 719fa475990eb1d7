// The core's types for the rest of the window: reminders, proactivity, phone channels,
// local models, chats, preferences, updates, the character and web search. Generated
// from the core's Rust types (./core.ts, `make ui-types`); this file names them as the
// UI knows them.
import type { CommandError, HotkeyError, IcsImportReport, KindLearned, Limits, Offer, Overview, QuietNow, Run, Setting, Signal, WindowFacts, Channel } from "./core";
import type { CatalogueView } from "./core";

export type {
  FolderSync,
  MailAccount,
  MailFolder,
  MailSecurity,
  MailServer,
  MailView,
  SenderSuggestion,
  CalendarView,
  CatchUp,
  Channel,
  ChannelsView,
  ChatListView,
  ChatSummary,
  CommandHelp,
  DownloadState,
  FoundServer,
  Grown,
  HealthView,
  HubView,
  InstalledModel,
  LanguageChoice,
  Level,
  Link,
  MirrorReport,
  PackageFormat,
  PreferencesView,
  Preset,
  ProactiveConfig,
  ProactiveStatus,
  QuietNow,
  Reminder,
  ReminderState,
  ReminderView,
  ReplyVersions,
  RestoreNote,
  SearchBackend,
  SearchResult,
  SearchView,
  SentencePreview,
  SinkId,
  SinkPreference,
  Snoozed,
  StoredCalendar,
  Switched,
  SyncReport,
  TaskRequest,
  TaskView,
  TasksPage,
  TelegramView,
  Theme,
  TokenSource,
  UpdateState,
  UpdatesView,
  WhatsappView,
  WhenPreview,
  WindowFacts
} from "./core";

/** What setting a reminder did. */
export type ReminderSetting = Setting;
/** The Reminders page: each list as it shows it (rule and zone in words). */
export type RemindersOverview = Overview;
export type IcsImport = IcsImportReport;
/** The limits the core enforces, for the settings to state. */
export type ProactiveLimits = Limits;
/** How welcome one kind of spontaneous message has been on one channel. */
export type LearnedKind = KindLearned;
export type SpontaneousSignal = Signal;
export type CatalogueModel = CatalogueView;
export type UpdateOffer = Offer;
/** One run of a task, newest first in its list. */
export type TaskRun = Run;
/** Why a shortcut was refused. */
export type HotkeyRefusal = HotkeyError | CommandError;

/** What the character's page needs when it opens (the shell's `character_start`, of
 * generated parts). */
export interface CharacterStart {
  window: WindowFacts;
  quiet: QuietNow;
  /** Phone channels down long enough to have been announced. */
  down: Channel[];
  /** A tool waits for the user's Allow. */
  asking: boolean;
}
