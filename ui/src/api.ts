// The UI's only door to the core: typed wrappers over its commands and events (Tauri's
// IPC in the app, the core's link in a browser: `transport`).
import { openUrl } from "@tauri-apps/plugin-opener";
import { cancelRecording, finishRecording, startRecording } from "./features/voice/browserMic";
import { inBrowser, invoke, listen, type UnlistenFn } from "./transport";
import { ended } from "./format";
import type { Attachment, CommandError, Connection, ConnectionScope, CoreEvent, EndpointView, ForgottenExchange, Grant, IssuedToken, McpImportReport, McpServerForm, McpView, Message, ModelStatus, NotesView, PermissionChoice, PermissionQuestion, TurnOutcome } from "./types/chat";
import type { AboutSomeone, BackupInfo, BroughtFact, BroughtSaved, KeptFact, BackupSeal, BudgetLimits, BudgetView, Category, ChatImport, Checkpoint, CheckpointStatus, ConnectionTest, ContextMeter, DatabaseEncryption, EmbeddingsBackend, ForgetChosen, ForgottenAbout, HeldInBackups, KnowledgeFile, LockView, MeaningView, MemoryPage, MemoryReport, PlanItem, ProfileFields, ProfileFile, ProfileText, ProfileView, ProviderInput, ProviderView, Review, Sampling, SaveOutcome, SavedProvider, TuningView, UsageHistory, UsageReport } from "./types/settings";
import type { FolderSync, MailSecurity, MailServer, MailView, SenderSuggestion, CalendarView, ChannelsView, MirrorReport, CharacterStart, ChatListView, CommandHelp, FoundServer, Grown, HubView, IcsImport, LanguageChoice, PreferencesView, Preset, ProactiveConfig, ProactiveStatus, QuietNow, Reminder, ReminderSetting, RemindersOverview, ReplyVersions, RestoreNote, SearchBackend, SearchResult, SearchView, SentencePreview, Snoozed, SpontaneousSignal, Switched, SyncReport, TaskRequest, TasksPage, Theme, UpdatesView, WhenPreview } from "./types/world";
import type { DevicesView, HomeView } from "./types/devices";
import type { RetentionSettings, RetentionView, TidyReport } from "./features/memory/retention.strings";
import type { Heard, SpeakReplies, VoiceSwitch, VoiceView } from "./features/voice/voice.strings";

export * from "./types/chat";
export * from "./types/settings";
export * from "./types/world";
export * from "./types/devices";

export const CORE_EVENT = "sidecar://event";
export const SHOW_MESSAGE = "sidecar://show-message";
export const FOCUS_COMPOSER = "sidecar://focus-composer";
export const TALK = "sidecar://talk";
export const OPEN_SETTINGS = "sidecar://open-settings";

export function toCommandError(error: unknown): CommandError {
  if (error && typeof error === "object" && "message" in error) {
    const e = error as Partial<CommandError>;
    return { message: sentence(String(e.message)), retryable: Boolean(e.retryable), cancelled: Boolean(e.cancelled) };
  }
  return { message: sentence(String(error)), retryable: true };
}

/** The core's errors read as parts of a sentence ("the calendar server …"); shown on
 * their own they start with a capital and end with a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  // Only a plain word is capitalised: "cat.png is an image" keeps its file's name.
  const first = trimmed.split(/\s/, 1)[0];
  return ended(/^\p{Ll}+$/u.test(first) ? trimmed.charAt(0).toLocaleUpperCase() + trimmed.slice(1) : trimmed);
}

export const api = {
  /** Settings → Devices: where other devices reach this Sidecar, the code, the paired devices. */
  devicesView: () => invoke<DevicesView>("devices_view"),
  setDevicesListen: (addresses: string[]) => invoke<DevicesView>("set_devices_listen", { addresses }),
  openPairingCode: () => invoke<DevicesView>("open_pairing_code"),
  revokeDevice: (id: number) => invoke<DevicesView>("revoke_device", { id }),
  /** This computer using another's Sidecar (its home): which, and how the link is. */
  homeView: () => invoke<HomeView | null>("home_view"),
  attachHome: (address: string, code: string) => invoke<HomeView>("attach_home", { address, code }),
  leaveHome: () => invoke<void>("leave_home"),
  /** The window came to the front: the user is here (on an attached computer, the
   * home's next notification shows on this one). */
  devicePresent: () => invoke<void>("device_present"),
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
  /** Push-to-talk: opens the microphone (states and level arrive as core events). The
   * app's microphone is the core's; a browser records with its own and the core writes
   * the clip down (`transcribe_clip`). */
  voiceStart: (): Promise<void> => (inBrowser() ? startRecording() : invoke<void>("voice_start")),
  /** Stops listening; the words said. */
  voiceFinish: (): Promise<Heard> => (inBrowser() ? invoke<Heard>("transcribe_clip", { clip: finishRecording() }) : invoke<Heard>("voice_finish")),
  voiceCancel: (): Promise<void> => (inBrowser() ? Promise.resolve(cancelRecording()) : invoke<void>("voice_cancel")),
  /** Stops saying a reply aloud. */
  voiceHush: () => invoke<void>("voice_hush"),
  voiceView: () => invoke<VoiceView>("voice_view"),
  setSpeakReplies: (which: SpeakReplies) => invoke<VoiceView>("set_speak_replies", { which }),
  speaksHere: () => invoke<boolean>("speaks_here"),
  setSpeaksHere: (on: boolean) => invoke<boolean>("set_speaks_here", { on }),
  setVoiceSwitch: (which: VoiceSwitch, on: boolean) => invoke<VoiceView>("set_voice_switch", { which, on }),
  setInputDevice: (name: string | null) => invoke<VoiceView>("set_input_device", { name }),
  setOutputDevice: (name: string | null) => invoke<VoiceView>("set_output_device", { name }),
  setVoicing: (spanish: string, english: string, speed: number) => invoke<VoiceView>("set_voicing", { spanish, english, speed }),
  /** Listens for three seconds; what was heard (sent nowhere). */
  voiceTestMicrophone: () => invoke<string>("voice_test_microphone"),
  voiceTestSpeaking: () => invoke<void>("voice_test_speaking"),
  setTalkHotkey: (hotkey: string) => invoke<PreferencesView>("set_talk_hotkey", { hotkey }),
  /** Push-to-talk's global shortcut was pressed (the shell shows the window first). */
  onTalk: (handler: () => void): Promise<UnlistenFn> => listen(TALK, () => handler()),
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
  rememberFact: (text: string, category: Category, from?: number) => invoke<SaveOutcome>("remember_fact", { text, category, from }),
  editFact: (line: number, expected: string, text: string, category: Category) =>
    invoke<void>("edit_fact", { line, expected, text, category }),
  deleteFact: (line: number, expected: string) => invoke<void>("delete_fact", { line, expected }),
  supersedeFact: (line: number, expected: string) => invoke<void>("supersede_fact", { line, expected }),
  /** A line held for reading as instructions is the user's own: it enters the prompt. */
  keepSuspect: (text: string) => invoke<void>("keep_suspect", { text }),
  removeSuspect: (file: KnowledgeFile, line: number, expected: string) => invoke<void>("remove_suspect", { file, line, expected }),
  aboutSomeone: (name: string) => invoke<AboutSomeone>("about_someone", { name }),
  forgetAbout: (chosen: ForgetChosen) => invoke<ForgottenAbout>("forget_about", { chosen }),
  memoryReview: () => invoke<Review>("memory_review"),
  answerTidy: (key: string, apply: boolean) => invoke<void>("answer_tidy", { key, apply }),
  setTidyAlone: (on: boolean) => invoke<boolean>("set_tidy_alone", { on }),
  previewBrought: (text: string) => invoke<BroughtFact[]>("preview_brought", { text }),
  bringFacts: (kept: KeptFact[]) => invoke<BroughtSaved>("bring_facts", { kept }),
  heldInBackups: () => invoke<HeldInBackups>("held_in_backups"),
  databaseEncryption: () => invoke<DatabaseEncryption>("database_encryption"),
  setDatabaseEncryption: (on: boolean) => invoke<DatabaseEncryption>("set_database_encryption", { on }),
  forgetInBackups: () => invoke<number>("forget_in_backups"),
  lockView: () => invoke<LockView>("lock_view"),
  lockApp: () => invoke<LockView>("lock_app"),
  unlockApp: (passphrase: string) => invoke<LockView>("unlock_app", { passphrase }),
  turnOnLock: (current: string | null, passphrase: string, minutes: number) => invoke<LockView>("turn_on_lock", { current, passphrase, minutes }),
  turnOffLock: (passphrase: string) => invoke<LockView>("turn_off_lock", { passphrase }),
  markFactImportant: (line: number, expected: string, important: boolean) => invoke<void>("mark_fact_important", { line, expected, important }),
  autoRemember: () => invoke<boolean>("auto_remember"),
  setAutoRemember: (on: boolean) => invoke<boolean>("set_auto_remember", { on }),
  searchMemory: (query: string, pages: number, weaker: boolean) => invoke<MemoryPage>("search_memory", { query, pages, weaker }),
  meaningSetup: () => invoke<MeaningView>("meaning_setup"),
  saveMeaning: (input: { backend: EmbeddingsBackend; url: string | null; model: string | null; api_key: string | null }) =>
    invoke<MeaningView>("save_meaning", { input }),
  backUpNow: () => invoke<BackupInfo>("back_up_now"),
  /** What is kept and how often Sidecar tidies, with the choices the core offers. */
  retention: () => invoke<RetentionView>("retention"),
  setRetention: (retention: RetentionSettings) => invoke<void>("set_retention", { retention }),
  tidyNow: () => invoke<TidyReport>("tidy_now"),
  automaticBackups: () => invoke<[string, string][]>("automatic_backups"),
  /** Restores `path` at a restart the core asks for at once. */
  restoreAtRestart: (path: string, passphrase: string | null = null) => invoke<void>("restore_at_restart", { path, passphrase }),
  /** Whether backups are sealed with a passphrase, and where it is kept. */
  backupSeal: () => invoke<BackupSeal>("backup_seal"),
  /** Seals every backup from now on with `passphrase` ("" makes them plain again). */
  sealBackups: (passphrase: string) => invoke<BackupSeal>("seal_backups", { passphrase }),
  backupIsSealed: (path: string) => invoke<boolean>("backup_is_sealed", { path }),
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
  /** Every checkpoint into one Markdown file: how many, and where. */
  exportCheckpoints: () => invoke<[number, string]>("export_checkpoints"),
  editCheckpoint: (id: number, body: Checkpoint["body"]) => invoke<Checkpoint>("edit_checkpoint", { id, body }),
  /** Forgets message `id`'s exchange for good: how many messages went, what was learned from them. */
  forgetMessage: (id: number) => invoke<ForgottenExchange>("forget_message", { id }),
  newConversation: () => invoke<number>("new_conversation"),
  /** An incognito chat: nothing said in it is remembered; leaving it forgets it. */
  newIncognito: () => invoke<number>("new_incognito"),
  chatIsIncognito: () => invoke<boolean>("chat_is_incognito"),
  continuationOffer: () => invoke<Checkpoint | null>("continuation_offer"),
  continueCheckpoint: (id: number) => invoke<Checkpoint>("continue_checkpoint", { id }),
  dismissOffer: () => invoke<void>("dismiss_offer"),
  currentPlan: () => invoke<PlanItem[]>("current_plan"),
  currentScratchpad: () => invoke<string>("current_scratchpad"),
  contextMeter: () => invoke<ContextMeter>("context_meter"),
  onCoreEvent: (handler: (event: CoreEvent) => void): Promise<UnlistenFn> =>
    listen<CoreEvent>(CORE_EVENT, (e) => handler(e.payload)),
  /** Opens a web or mail link in the system's handler, never inside Sidecar's window. */
  openExternal: (url: string): Promise<void> => {
    if (!inBrowser()) return openUrl(url);
    window.open(url, "_blank", "noopener,noreferrer");
    return Promise.resolve();
  },
  openLogsFolder: () => invoke<void>("open_logs_folder"),
  /** Problems found at start that the user should fix (a bad time zone in settings). */
  coreWarnings: () => invoke<string[]>("core_warnings"),
  remindersOverview: () => invoke<RemindersOverview>("reminders_overview"),
  previewWhen: (text: string) => invoke<WhenPreview>("preview_when", { text }),
  /** A reminder's time, which may also be "15 minutes before my 10:00 with Ana". */
  previewReminderWhen: (text: string) => invoke<WhenPreview>("preview_reminder_when", { text }),
  tasksPage: () => invoke<TasksPage>("tasks_page"),
  calendarView: () => invoke<CalendarView>("calendar_view"),
  connectCalendar: (url: string, username: string, password: string) => invoke<CalendarView>("connect_calendar", { url, username, password }),
  chooseCalendars: (read: number[], writable: number | null) => invoke<CalendarView>("choose_calendars", { read, writable }),
  syncCalendars: () => invoke<SyncReport[]>("sync_calendars"),
  disconnectCalendar: () => invoke<CalendarView>("disconnect_calendar"),
  subscribeCalendar: (url: string) => invoke<CalendarView>("subscribe_calendar", { url }),
  unsubscribeCalendar: (id: number) => invoke<CalendarView>("unsubscribe_calendar", { id }),
  mailView: () => invoke<MailView>("mail_view"),
  mailPreset: (address: string) => invoke<MailServer | null>("mail_preset", { address }),
  connectMail: (account: { address: string; host: string; port: number; security: MailSecurity; username: string; password: string }) => invoke<MailView>("connect_mail", account),
  chooseMailFolders: (read: string[]) => invoke<MailView>("choose_mail_folders", { read }),
  setWhoMatters: (people: string[]) => invoke<MailView>("set_who_matters", { people }),
  mailSuggestions: () => invoke<SenderSuggestion[]>("mail_suggestions"),
  syncMail: () => invoke<[string, FolderSync][]>("sync_mail"),
  disconnectMail: () => invoke<MailView>("disconnect_mail"),
  mirrorReminders: (on: boolean) => invoke<[CalendarView, MirrorReport]>("mirror_reminders", { on }),
  addTask: (request: TaskRequest) => invoke<number>("add_task", { request }),
  pauseTask: (id: number) => invoke<void>("pause_task", { id }),
  resumeTask: (id: number) => invoke<void>("resume_task", { id }),
  removeTask: (id: number) => invoke<void>("remove_task", { id }),
  /** Runs a task now (or the late time it asked about); its reply's message id. */
  runTaskNow: (id: number) => invoke<number | null>("run_task_now", { id }),
  declineTask: (id: number) => invoke<boolean>("decline_task", { id }),
  /** Turns the morning brief on at "HH:MM", moves it, or turns it off (null). */
  setBrief: (at: string | null) => invoke<void>("set_brief", { at }),
  setBriefPlace: (place: string) => invoke<void>("set_brief_place", { place }),
  rateBrief: (messageId: number, liked: boolean) => invoke<void>("rate_brief", { messageId, liked }),
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
  restoreReminder: (id: number) => invoke<Reminder>("restore_reminder", { id }),
  editReminder: (id: number, message: string, when: string | null) => invoke<Reminder>("edit_reminder", { id, message, when }),
  snoozeReminder: (id: number, minutes: number) => invoke<Snoozed>("snooze_reminder", { id, minutes }),
  proactiveStatus: () => invoke<ProactiveStatus>("proactive_status"),
  spontaneousFeedback: (messageId: number, signal: SpontaneousSignal) => invoke<void>("spontaneous_feedback", { messageId, signal }),
  forgetLearned: () => invoke<ProactiveStatus>("forget_learned"),
  saveProactiveConfig: (config: ProactiveConfig) => invoke<ProactiveConfig>("save_proactive_config", { config }),
  setTimezone: (zone: string) => invoke<string>("set_timezone", { zone }),
  setQuiet: (minutes: number | null) => invoke<ProactiveStatus>("set_quiet", { minutes }),
  commandTable: () => invoke<CommandHelp[]>("command_table"),
  timeZones: () => invoke<string[]>("time_zones"),
  timeZone: () => invoke<string>("time_zone"),
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
