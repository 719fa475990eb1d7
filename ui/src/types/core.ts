// What the core sends the window, generated from its Rust types by ts-rs.
// Do not edit: run `make ui-types` after changing an event or a view.

/**
 * What names someone, found before anything is deleted.
 */
export type AboutSomeone = { name: string, 
/**
 * Facts that name them, then facts learned in the messages below.
 */
facts: Array<ListedFact>, messages: Array<MessageMention>, notes: Array<NoteMention>, 
/**
 * More messages name them than one list holds: forgetting these, then searching
 * again, finds the rest.
 */
more: boolean, };

/**
 * A file attached to a message, as its chip shows it.
 */
export type AttachedFile = { name: string, 
/**
 * `text`, `pdf` or `docx`.
 */
kind: string, 
/**
 * Only its start and end were sent (it was longer than the budget).
 */
cut: boolean, };

/**
 * A file read for a message: its name, kind and the text the model will get.
 */
export type Attachment = { name: string, kind: AttachmentKind, text: string, 
/**
 * The text was longer than the budget and cut in the middle.
 */
cut: boolean, 
/**
 * Tokens the text costs (an image: what it is counted as).
 */
tokens: number, 
/**
 * An image: where its bytes are kept.
 */
image?: ImageFile, };

/**
 * What kind of file an attachment was.
 */
export type AttachmentKind = "text" | "pdf" | "docx" | "image";

/**
 * A backup written.
 */
export type BackupInfo = { path: string, bytes: number, files: number, created_at: string, };

/**
 * Whether backups are sealed with a passphrase, as Settings → Your data shows it.
 */
export type BackupSeal = { sealed: boolean, 
/**
 * Where the passphrase is kept (the keychain, or this session only).
 */
storage: KeyStorage | null, 
/**
 * The shortest passphrase taken.
 */
min_chars: number, };

/**
 * A fact read from the pasted text, as the review shows it.
 */
export type BroughtFact = { text: string, category: Category, 
/**
 * The saved fact it says again, when Sidecar knows it already.
 */
already: string | null, 
/**
 * The saved fact it would replace (about the same thing, saying otherwise).
 */
replaces: string | null, };

/**
 * What saving the reviewed facts did.
 */
export type BroughtSaved = { new: number, 
/**
 * Already known: confirmed again.
 */
known: number, 
/**
 * Saved, replacing or (Health, important) awaiting the user beside an older fact.
 */
changed: number, 
/**
 * Left out: empty, too long, or over what one save takes.
 */
skipped: number, };

export type BudgetEvent = { "type": "budget_reached", reached: Reached, currency: string, usd_rate: number, more_usd: number, said: string, };

/**
 * The budget as Settings and `sidecar budget` show it.
 */
export type BudgetView = { limits: Array<Standing>, 
/**
 * The share of a limit (in percent) at which the user is warned.
 */
warn_percent: number, allowance_usd: number, currency: string, usd_rate: number, allow_unpriced: boolean, };

/**
 * An embedder that ships with Sidecar, for Settings to describe.
 */
export type BuiltInEmbedder = { backend: EmbeddingsBackend, 
/**
 * What its vectors are stored under, as the index's state names it.
 */
model: string, name: string, licence: string, 
/**
 * Its weights' size; `None` when they are not installed.
 */
size_bytes: number | null, 
/**
 * Memory it takes while it runs, as measured (`embedder_footprint` bench).
 */
memory_mib: number, 
/**
 * The one that suits this computer's memory ([`super::choice::suited`]).
 */
recommended: boolean, };

/**
 * Settings → Calendar.
 */
export type CalendarView = { 
/**
 * The account's address and user name, when one is connected.
 */
account: [string, string] | null, calendars: Array<StoredCalendar>, 
/**
 * The user's zone, in which sync times are shown.
 */
zone: string, 
/**
 * Reminders are mirrored as to-dos in the calendar Sidecar writes.
 */
mirror_reminders: boolean, };

/**
 * A catalogue entry as the model manager shows it.
 */
export type CatalogueView = { 
/**
 * This machine has the memory the model wants.
 */
fits: boolean, installed: boolean, 
/**
 * Bytes of an unfinished download, which Download resumes.
 */
partial_bytes: number | null, downloading: boolean, 
/**
 * Short name for `sidecar models pull ID`.
 */
id: string, title: string, 
/**
 * The file name once downloaded.
 */
file: string, url: string, 
/**
 * The file's size; exact when `sha256` is pinned, otherwise close (the server's
 * own length is what the download checks).
 */
size_bytes: number, sha256: string | null, licence: string, 
/**
 * Memory a machine should have for the model to run with room for the rest.
 */
min_ram_gb: number, 
/**
 * The window the model was trained for.
 */
context_tokens: number, };

/**
 * What a task missed while the computer slept or Sidecar was closed becomes.
 */
export type CatchUp = { "kind": "run_now" } | { "kind": "ask" } | { "kind": "skip_older_than", minutes: number, };

/**
 * The fixed categories. Headings may be written in English or Spanish.
 */
export type Category = "Health" | "Preferences" | "Work" | "Relationships" | "Schedule" | "Goals" | "General";

export type Channel = "desktop" | "cli" | "telegram" | "whatsapp" | "api" | "device";

export type ChannelEvent = { "type": "channels_changed" } | { "type": "channel_alert", channel: Channel, title: string, body: string, down: boolean, } | { "type": "channel_warning", channel: Channel, title: string, body: string, };

export type ChannelsView = { 
/**
 * This process runs the channels (another Sidecar may own the data dir).
 */
owner: boolean, telegram: TelegramView, whatsapp: WhatsappView, };

export type ChatEvent = { "type": "turn_started", conversation_id: number, user_message_id: number, 
/**
 * Where the message was said (a phone's turns show in the window too).
 */
channel: Channel, 
/**
 * The message's text when it waited in the queue and starts only now.
 */
dequeued?: string, } | { "type": "queue", items: Array<QueuedMessage>, } | { "type": "delta", conversation_id: number, text: string, } | { "type": "tool_started", conversation_id: number, call_id: string, name: string, arguments: string, } | { "type": "tool_finished", conversation_id: number, call_id: string, name: string, is_error: boolean, 
/**
 * The user did not allow it: it never ran.
 */
denied: boolean, result: string, } | { "type": "notice", conversation_id: number, notice: Notice, } | { "type": "turn_finished", conversation_id: number, message_id: number, channel: Channel, status: string, finish_reason: string | null, usage: Usage | null, 
/**
 * Boxed: the largest part of the turn's events, which every subscriber clones.
 */
meta: MessageMeta, } | { "type": "turn_failed", conversation_id: number, message: string, retryable: boolean, } | { "type": "plan_updated", conversation_id: number, items: Array<PlanItem>, } | { "type": "scratchpad_updated", conversation_id: number, text: string, } | { "type": "context_usage", conversation_id: number, used: number, budget: number, window: number, 
/**
 * Of `used`, the tool definitions' share.
 */
tools: number, 
/**
 * Older turns are summarised (and searchable with recall).
 */
summarized_turns: boolean, level: MeterLevel, } | { "type": "checkpoint_saved", conversation_id: number, checkpoint_id: number, trigger: string, } | { "type": "conversation_closed", conversation_id: number, opened: number, checkpoint_id: number | null, } | { "type": "facts_noticed", conversation_id: number, message_id: number, said_id: number, suggestions: Array<Suggestion>, saved: boolean, };

/**
 * What an import of another assistant's export did.
 */
export type ChatImport = { 
/**
 * `ChatGPT` or `Claude`.
 */
from: string, conversations: number, messages: number, 
/**
 * Conversations skipped (1-based position) and why, in the user's language.
 */
problems: Array<[number, string]>, 
/**
 * Messages already in Sidecar (imported before, or twice in the file): not stored again.
 */
already: number, };

/**
 * The list as the sidebar shows it.
 */
export type ChatListView = { current: number, 
/**
 * The current conversation is an incognito chat (not in `chats`).
 */
incognito: boolean, chats: Array<ChatSummary>, 
/**
 * How long Undo is offered after a delete.
 */
undo_seconds: number, };

/**
 * A conversation as the sidebar lists it.
 */
export type ChatSummary = { id: number, 
/**
 * The user's title, else the start of the first thing the user said.
 */
title: string | null, 
/**
 * The user renamed it.
 */
renamed: boolean, created_at: string, 
/**
 * When something was last said there.
 */
updated_at: string, message_count: number, 
/**
 * Imported history (searchable, read-only).
 */
archived: boolean, 
/**
 * Kept at the top of the list.
 */
pinned: boolean, 
/**
 * With a search: the latest message that matches it (whole; the service cuts it).
 */
matched: string | null, };

/**
 * A stored checkpoint.
 */
export type Checkpoint = { id: number, conversation_id: number, status: CheckpointStatus, 
/**
 * "manual" (`/checkpoint`) or "auto" (the context neared its limit).
 */
trigger: string, body: CheckpointBody, created_at: string, updated_at: string, };

/**
 * What a checkpoint records (the seed's seven parts).
 */
export type CheckpointBody = { title: string, current_work: string, completed: Array<string>, pending: Array<string>, 
/**
 * What was decided, why, when and how sure (the seed's part 5).
 */
decisions: Array<Decision>, 
/**
 * What was tried and worked, kept beside what failed so neither is tried blind again.
 */
successful_approaches: Array<string>, failed_approaches: Array<string>, user_preferences: Array<string>, critical_info: Array<string>, 
/**
 * What stops the work now (a missing answer, an error, a decision to take).
 */
blockers: Array<string>, 
/**
 * Written by Sidecar, not the model: what the work ran on and touched.
 */
metadata: Metadata, };

export type CheckpointStatus = "in_progress" | "paused" | "resumed" | "completed" | "abandoned";

/**
 * What the user answered for one call.
 */
export type Choice = "allow_once" | "allow_in_chat" | "always_tool" | "always_server" | "deny";

/**
 * A fact chosen to forget, as the list showed it.
 */
export type ChosenFact = { line: number, text: string, };

export type ClientState = "pending" | "allowed" | "revoked";

/**
 * An error as the window receives it: what to show, and whether Retry makes sense.
 */
export type CommandError = { message: string, retryable: boolean, 
/**
 * A queued message was cancelled before its turn.
 */
cancelled?: boolean, };

/**
 * One command as a person sees it.
 */
export type CommandHelp = { 
/**
 * What to type ("/quiet").
 */
command: string, 
/**
 * Its arguments, if any ("30m | 2h | off | here").
 */
arguments: string, description: string, };

export type ConnectionEvent = { "type": "connection_waiting", name: string, title: string, body: string, };

/**
 * What "Test connection" found.
 */
export type ConnectionTest = { ok: boolean, latency_ms: number, message: string, };

/**
 * What a client card shows: the client and its latest calls.
 */
export type ConnectionView = { activity: Array<Logged>, 
/**
 * It has a token for the local API.
 */
has_token: boolean, name: string, state: ClientState, scopes: Array<Scope>, first_seen: string, changed_at: string, };

/**
 * How full the context is, for the meter in the chat. Its whole is the window less the
 * reply's reserve, the same for every call to one model; the tool definitions sent
 * beside the prompt count as used, so the whole does not shrink when they go along.
 */
export type ContextMeter = { used: number, budget: number, window: number, 
/**
 * Of `used`, the tool definitions' share.
 */
tools: number, 
/**
 * Older turns are summarised (and searchable with recall).
 */
summarized_turns: boolean, level: MeterLevel, };

/**
 * Something the core did that a subscriber may want to show.
 */
export type CoreEvent = { "type": "user_typing" } | ModelEvent | ReminderEvent | UpdateEvent | BudgetEvent | ConnectionEvent | McpEvent | PermissionEvent | LocalModelEvent | ChannelEvent | MemoryEvent | ProactiveEvent | ChatEvent | VoiceEvent | TaskEvent;

/**
 * Where the database stands, as Settings → Your data shows it.
 */
export type DatabaseEncryption = { encrypted: boolean, 
/**
 * What the next start does.
 */
pending: EncryptionChange | null, 
/**
 * Why the last start could not convert it (the database was left as it was).
 */
failed: string | null, };

/**
 * Why a date could not be read. The kind is stable (tests, the tools); the text is
 * for people.
 */
export type DateErrorKind = "empty" | "no_date" | "not_understood" | "ambiguous_hour" | "vague" | "missing_day" | "missing_time" | "invalid_date" | "past" | "two_dates" | "out_of_range" | "too_frequent" | "ambiguous_day" | "wrong_weekday" | "vague_hour" | "partly_read";

/**
 * One day.
 */
export type Day = { 
/**
 * YYYY-MM-DD, the user's date.
 */
day: string, total: Spend, by_model: { [key in string]: Spend }, by_purpose: { [key in string]: Spend }, };

export type Decision = { what: string, 
/**
 * The reason given for it.
 */
why: string | null, 
/**
 * When it was first recorded (RFC 3339).
 */
when: string | null, 
/**
 * How sure the model said it was, from 0 to 1.
 */
confidence: number | null, };

/**
 * A paired device, as Settings → Devices lists it.
 */
export type Device = { id: number, name: string, paired_at: string, last_seen: string | null, };

/**
 * What the home core tells the device the user is at (`"type": "device_notification"`).
 */
export type DeviceNotification = { title: string, body: string, reminderId: number | null, messageId: number | null, spontaneous: boolean, };

/**
 * Settings → Devices.
 */
export type DevicesView = { 
/**
 * Where other devices reach this Sidecar now.
 */
listening: Array<string>, 
/**
 * Addresses that could not be listened on, and why.
 */
problems: Array<string>, 
/**
 * The certificate's SHA-256, to compare with what a device shows when it pairs.
 */
fingerprint: string | null, 
/**
 * The open pairing code, while it can be typed.
 */
code: PairingCode | null, devices: Array<Device>, 
/**
 * Where a phone's browser opens the web app, each with its QR code (SVG).
 */
web: Array<WebPage>, };

export type DownloadPhase = "running" | "paused" | "failed" | "done";

/**
 * A download's progress, as events carry it.
 */
export type DownloadState = { file: string, received_bytes: number, total_bytes: number | null, phase: DownloadPhase, 
/**
 * What stopped it, said so the user knows what to do.
 */
message: string | null, };

/**
 * Which embedder recall by meaning uses.
 */
export type EmbeddingsBackend = "auto" | "local" | "gemma" | "openai" | "off";

export type EncryptionChange = "encrypt" | "decrypt";

/**
 * What Settings shows: whether it runs, and where.
 */
export type EndpointView = { 
/**
 * `http://127.0.0.1:PORT/mcp` while it runs.
 */
url: string | null, 
/**
 * Why it is not running although it is on (the port taken…).
 */
problem: string | null, };

export type ExportFormat = "markdown" | "json";

/**
 * A newer Health fact that may contradict an older one: only the user decides.
 */
export type FactConflict = { older: ListedFact, newer: ListedFact, };

/**
 * The message a fact was learned from, for the Memory page to open it.
 */
export type FactOrigin = { 
/**
 * The fact's line, as in [`ListedFact::line`].
 */
line: number, message_id: number, };

/**
 * One environment variable or header.
 */
export type Field = { name: string, 
/**
 * `None` for a secret already kept (shown as kept; left empty, it stays).
 */
value: string | null, secret: boolean, };

/**
 * What one folder's sync did.
 */
export type FolderSync = { added: number, removed: number, 
/**
 * Nothing was fetched: the folder had not moved.
 */
unchanged: boolean, 
/**
 * The server's UIDVALIDITY changed: everything was read again.
 */
read_again: boolean, };

/**
 * What the user kept ticked in the list.
 */
export type ForgetChosen = { facts: Array<ChosenFact>, messages: Array<number>, notes: Array<NoteMention>, };

/**
 * What went.
 */
export type ForgottenAbout = { facts: number, 
/**
 * Messages removed: those chosen, with the rest of their exchanges.
 */
messages: number, 
/**
 * Summaries and checkpoints removed, those quoting a message removed included.
 */
notes: number, 
/**
 * Facts that changed since the list was shown, left as they are now.
 */
changed: number, };

/**
 * What Delete under a message forgot, and what Sidecar had learned from it (asked about).
 */
export type ForgottenExchange = { messages: number, 
/**
 * Current facts first learned from the messages deleted.
 */
learned: Array<ListedFact>, };

/**
 * A local server that answered, with the models it offers.
 */
export type FoundServer = { 
/**
 * The preset it matches (`ollama`, `lmstudio`, `llamacpp`).
 */
id: string, label: string, base_url: string, models: Array<string>, context_window: number, };

export type Grant = { id: number, server: string, identity: string, 
/**
 * `None`: every tool of the server.
 */
tool: string | null, 
/**
 * `false` is a standing denial.
 */
allow: boolean, created_at: string, };

export type GreetingKind = "morning" | "afternoon" | "evening";

/**
 * The character's window grown for a speech bubble or its menu: where the window goes,
 * and in which corner of it the character stays put.
 */
export type Grown = { window: Spot, 
/**
 * The character is at the window's right edge (the window grew leftwards).
 */
right: boolean, 
/**
 * The character is at the window's bottom edge (the window grew upwards).
 */
bottom: boolean, };

/**
 * What Settings → Channels shows for one channel.
 */
export type HealthView = { channel: Channel, link: Link, last_message_at: string | null, };

/**
 * What push-to-talk heard.
 */
export type Heard = { text: string, 
/**
 * Put in the message box to read over, not sent.
 */
review: boolean, };

/**
 * The backups in `backups/` made before something was last deleted for good: they may
 * still hold it.
 */
export type HeldInBackups = { 
/**
 * When something was last deleted for good (RFC 3339), if ever.
 */
since: string | null, backups: Array<string>, };

/**
 * The event the window hears when the link changes (`"type": "home_link"`).
 */
export type HomeLinkChanged = { state: HomeLinkState, 
/**
 * The state in words, with what to do (not when left).
 */
said?: string, waiting?: number, };

/**
 * How the link to the home core is, as the window names it.
 */
export type HomeLinkState = "connecting" | "up" | "down" | "refused" | "left";

/**
 * Settings → Devices on a device: which home, and how the link is.
 */
export type HomeView = { address: string, 
/**
 * This device's name on the home core.
 */
name: string, fingerprint: string, state: HomeLinkState, 
/**
 * The state in words, with what to do.
 */
said: string, 
/**
 * Calls made while the link was down, waiting to be sent.
 */
waiting: number, };

/**
 * Why a shortcut cannot be used.
 */
export type HotkeyError = { "kind": "unknown", text: string, } | { "kind": "no_modifier" } | { "kind": "taken", hotkey: string, } | { "kind": "same_as_other", hotkey: string, };

/**
 * Everything the model manager shows.
 */
export type HubView = { catalogue: Array<CatalogueView>, installed: Array<InstalledModel>, 
/**
 * Unfinished downloads that are not in the catalogue (a pasted link).
 */
partials: Array<PartialModel>, 
/**
 * The model the local server runs; `None`: the built-in demo model.
 */
active: string | null, memory_bytes: number, 
/**
 * The catalogue entry this machine runs best.
 */
recommended: string | null, folder: string, };

/**
 * What an `.ics` import did.
 */
export type IcsImportReport = { added: number, 
/**
 * Stopped by the user before the end: nothing was stored.
 */
stopped: boolean, 
/**
 * One-off events already over.
 */
past: number, 
/**
 * Events that could not be read, with why.
 */
unreadable: Array<string>, 
/**
 * Titles longer than a reminder's text may be, cut (with "…").
 */
shortened: number, };

/**
 * Where an image attachment's bytes are, and what they are.
 */
export type ImageFile = { media_type: string, 
/**
 * The file's name in the attachments folder (its SHA-256 and extension).
 */
file: string, };

/**
 * Why a line reads as instructions from somewhere else.
 */
export type Injection = "override" | "reveal" | "secrecy" | "exfiltration" | "role_markup" | "hidden";

/**
 * A model file ready to run.
 */
export type InstalledModel = { 
/**
 * The file name without `.gguf`: what `sidecar models use NAME` takes.
 */
name: string, path: string, size_bytes: number, 
/**
 * The window the model was trained for, from its header.
 */
context_tokens: number | null, 
/**
 * It carries a chat template (tool calling and roles work with llama.cpp).
 */
chat_template: boolean, };

/**
 * A token just made, and where it is kept.
 */
export type Issued = { token: string, storage: KeyStorage, };

export type ItemStatus = "pending" | "in_progress" | "done" | "failed";

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * A fact the user kept in the review, maybe with another category.
 */
export type KeptFact = { text: string, category: Category, };

/**
 * Where a provider's key lives.
 */
export type KeyStorage = { "kind": "keychain" } | { "kind": "session", reason: string, } | { "kind": "environment", variable: string, } | { "kind": "none" };

/**
 * One kind of message on one channel.
 */
export type KindLearned = { kind: MessageType, channel: Channel, 
/**
 * 1 is whole; each unwelcome sign halves it.
 */
allowance: number, 
/**
 * Unwelcome signs in a row.
 */
unwelcome_in_a_row: number, paused_until: string | null, last_sent: string | null, welcome: number, unwelcome: number, };

/**
 * One of the three knowledge files.
 */
export type KnowledgeFile = "soul" | "user" | "learnings";

export type Lang = "en" | "es";

/**
 * The language Sidecar speaks.
 */
export type LanguageChoice = "system" | "en" | "es";

export type Learned = { kinds: Array<KindLearned>, pending: Array<Pending>, };

/**
 * How talkative Sidecar is.
 */
export type Level = "low" | "medium" | "high";

/**
 * The limits the rules enforce, as numbers the settings can show.
 */
export type Limits = { max_per_hour: number, cooldown_minutes: number, user_active_minutes: number, 
/**
 * Spontaneous messages a day at each level.
 */
max_per_day: { [key in string]: number }, 
/**
 * What "Quiet for 1 hour" in the settings and the tray sets.
 */
quiet_minutes: number, };

/**
 * `[budget]` in the user's currency.
 */
export type LimitsForm = { daily: number | null, monthly: number | null, background_daily: number | null, 
/**
 * ISO 4217 code ("EUR").
 */
currency: string, 
/**
 * Units of `currency` one US dollar is.
 */
usd_rate: number, allow_unpriced: boolean, providers: Array<ProviderLimits>, };

export type Link = { "state": "connecting" } | { "state": "connected", since: string, } | { "state": "down", since: string, reason: string, } | { "state": "needs_setup", what: string, };

/**
 * A fact as the UI and CLI list it.
 */
export type ListedFact = { 
/**
 * 1-based line in learnings.md, to address the fact in edits.
 */
line: number, category: Category, 
/**
 * What it is about when that changes (`home`, `job`, `favourite:band`…), so the
 * Memory view can show a fact's history.
 */
slot: string | null, weight: number, text: string, learned: string, confirmed: string, 
/**
 * When a newer fact replaced it: kept and searchable, never sent as current.
 */
superseded?: string, 
/**
 * Marked important by the user (the seeds' critical flag, D6): like a Health fact,
 * never cut from the prompt and never replaced or moved without asking.
 */
critical: boolean, };

export type LocalModelEvent = { "type": "model_download" } & DownloadState;

/**
 * The lock as Settings and the lock screen show it.
 */
export type LockView = { on: boolean, after_minutes: number, locked: boolean, min_chars: number, min_minutes: number, max_minutes: number, };

/**
 * One thing a client did, or was refused.
 */
export type Logged = { action: string, allowed: boolean, at: string, };

/**
 * The connected account, without its password (that is in the keychain).
 */
export type MailAccount = { address: string, server: MailServer, username: string, 
/**
 * How far back the first sync reads.
 */
first_days: number, };

/**
 * A folder of the account, as Settings → Mail shows it.
 */
export type MailFolder = { id: number, name: string, read: boolean, mails: number, synced_at: string | null, problem: string | null, };

/**
 * How the connection to the server is secured.
 */
export type MailSecurity = "tls" | "start_tls" | "plain";

/**
 * A mail server as Settings → Mail fills it in.
 */
export type MailServer = { host: string, port: number, security: MailSecurity, 
/**
 * Words for Settings: what this provider asks for (an app password, the Bridge).
 */
hint: string | null, };

/**
 * Settings → Mail.
 */
export type MailView = { account: MailAccount | null, folders: Array<MailFolder>, 
/**
 * Senders and domains whose mail Sidecar reads to the model and speaks of.
 */
who_matters: Array<string>, };

/**
 * A line the parser could not read, for the UI and the logs.
 */
export type Malformed = { 
/**
 * 1-based.
 */
line: number, text: string, reason: string, };

export type McpEvent = { "type": "mcp_servers", servers: Array<ServerStatus>, };

export type McpImportReport = { added: Array<string>, 
/**
 * Already in Sidecar's file under that name: left as it is.
 */
kept: Array<string>, 
/**
 * Could not be taken, with why.
 */
refused: Array<[string, string]>, };

export type McpView = { config_path: string, servers: Array<ServerStatus>, };

/**
 * A change from Settings.
 */
export type MeaningInput = { backend: EmbeddingsBackend, url: string | null, model: string | null, 
/**
 * A new key; empty keeps the saved one.
 */
api_key: string | null, };

export type MeaningStatus = { 
/**
 * Items with a vector, and items that should have one.
 */
embedded: number, total: number, } & ({ "state": "idle" } | { "state": "ready", model: string, } | { "state": "unavailable", reason: string, } | { "state": "off" });

export type MeaningView = { backend: EmbeddingsBackend, url: string | null, model: string | null, 
/**
 * A key is saved for the endpoint; never the key itself.
 */
has_key: boolean, status: MeaningStatus, 
/**
 * The embedders that run on this computer, as installed here.
 */
built_in: Array<BuiltInEmbedder>, 
/**
 * The built-in embedder "automatic" stands for here (`local` or `gemma`): the one
 * running when automatic is in use and loaded, else the one it would choose.
 */
automatic: EmbeddingsBackend, 
/**
 * Automatic runs the light embedder because EmbeddingGemma, which suits this
 * computer, did not start.
 */
automatic_stands_in: boolean, };

export type MemoryEvent = { "type": "knowledge_changed", problems: Array<Malformed>, error: string | null, } | { "type": "knowledge_suspect", lines: Array<SuspectLine>, } | { "type": "memory_indexing", embedded: number, total: number, };

/**
 * One page of the Memory view's search.
 */
export type MemoryPage = { 
/**
 * Best first, each cut around its match.
 */
hits: Array<RecallHit>, 
/**
 * How many more matches there are beyond this page (the view's "more").
 */
more: number, 
/**
 * How many weaker matches the relevance cut left out (0 once they were asked for).
 */
weaker: number, 
/**
 * Set when only words were searched: why meaning could not be used.
 */
words_only: string | null, };

/**
 * Facts by category and the lines of learnings.md that could not be read.
 */
export type MemoryReport = { facts: Array<ListedFact>, problems: Array<Malformed>, conflicts: Array<FactConflict>, 
/**
 * The message each fact was learned from, where it is known and still kept.
 */
origins: Array<FactOrigin>, 
/**
 * Lines of the knowledge files held out of the prompt for reading as instructions.
 */
suspects: Array<SuspectLine>, };

export type Message = { id: number, conversation_id: number, role: Role, content: string, status: MessageStatus, finish_reason: string | null, created_at: string, tool_calls: Array<ToolCall> | null, tool_call_id: string | null, is_error: boolean, meta: MessageMeta | null, 
/**
 * Where it was said or shown; `None` for messages from before channels were kept.
 */
channel: Channel | null, };

/**
 * A message that names them.
 */
export type MessageMention = { message_id: number, conversation_id: number, role: string, 
/**
 * Where it names them, the words marked `[like this]` as search results are.
 */
excerpt: string, at: string, };

/**
 * What the UI shows under a reply.
 */
export type MessageMeta = { provider?: string, model?: string, 
/**
 * The provider that should have answered, when a fallback did.
 */
fallback_from?: string, 
/**
 * Why it did not answer, when that was no failure (its budget is spent).
 */
fallback_reason?: string, 
/**
 * Continuations after a length cut.
 */
continued?: number, 
/**
 * A claimed-but-not-done action was corrected.
 */
corrected?: boolean, 
/**
 * The turn stopped at the per-turn step limit.
 */
iteration_cap?: boolean, 
/**
 * All model calls of the turn.
 */
usage?: Usage, 
/**
 * Their cost in US dollars; `None` when a model's price is unknown.
 */
cost_usd?: number, 
/**
 * The answer to a chat command (`/checkpoint`…), not the model's: never sent back
 * to the model.
 */
command?: boolean, 
/**
 * Sidecar carried out the request itself, before the model (a reminder set, a
 * fact kept): the model sees it as said, and may add its words after it.
 */
intent?: boolean, 
/**
 * Said by Sidecar on its own: "reminder", or a spontaneous message's type
 * (greeting, checkin, contextual).
 */
proactive?: string, 
/**
 * The reminder a posted reminder message is about (its Snooze and Done act on it).
 */
reminder_id?: number, 
/**
 * The user answered a reminder message (Done, or snoozed it from the chat).
 */
handled?: boolean, 
/**
 * Files attached to a user's message (their text is in the content, for the model).
 */
attachments?: Array<AttachedFile>, 
/**
 * What the user typed, when files were attached (the chat shows this and chips).
 */
typed?: string, 
/**
 * The turn worked on a plan: how it ended.
 */
plan?: PlanOutcome, 
/**
 * Times the model was told to go on with open plan steps.
 */
plan_nudges?: number, 
/**
 * The context's fit had to drop turns or cut messages to fit a call of this turn.
 */
truncated?: boolean, 
/**
 * The tool rules were said again late in the prompt (a long conversation).
 */
reinforced?: boolean, 
/**
 * On a user's message: the per-turn block its turn was sent with (the time, the plan…),
 * sent with it again in later prompts so they start as the last one did.
 */
late?: string, 
/**
 * A checkpoint Sidecar saved on its own during this turn: the chat says so under
 * the reply, with its id.
 */
checkpoint?: number, 
/**
 * The scheduled task this message ran for (its prompt, or its result), in the
 * Tasks conversation.
 */
task?: number, 
/**
 * A morning brief: the window offers thumbs up and down on it.
 */
brief?: boolean, };

/**
 * How a stored message came to an end.
 */
export type MessageStatus = "complete" | "stopped" | "interrupted" | "incomplete" | "error";

export type MessageType = "greeting" | "checkin" | "contextual";

/**
 * The circumstances of a checkpoint, for whoever picks it up.
 */
export type Metadata = { 
/**
 * The model that was answering.
 */
model: string | null, 
/**
 * Tokens of the conversation's context when it was written.
 */
tokens: number | null, 
/**
 * Files attached, reminders set and notes written in the turns it covers.
 */
touched: Array<string>, };

/**
 * Where the meter stands against the fold rule: `High` from the threshold at which
 * older turns are folded, `Mid` from the level a fold brings the history down to.
 */
export type MeterLevel = "low" | "mid" | "high";

/**
 * What a reconciliation wrote.
 */
export type MirrorReport = { created: number, updated: number, removed: number, 
/**
 * To-dos changed on the calendar since Sidecar wrote them (their reminders' ids):
 * the calendar's version was kept.
 */
kept_theirs: Array<number>, };

export type ModelEvent = { "type": "model_status" } & ModelStatus;

/**
 * How ready the chat model is to answer.
 */
export type ModelStatus = { "state": "idle" } | { "state": "starting" } | { "state": "ready", provider: string, model: string, demo: boolean, } | { "state": "standing_in", down: string, reason: string, model: string, demo: boolean, } | { "state": "unavailable", message: string, };

export type ModelTotals = { provider: string, model: string, calls: number, input_tokens: number, output_tokens: number, cost_usd: number, };

/**
 * A running summary or a checkpoint that names them.
 */
export type NoteMention = { 
/**
 * `summary` or `checkpoint`.
 */
kind: string, id: number, excerpt: string, };

export type NotesView = { folder: string | null, 
/**
 * The folder in settings that could not be opened, and why.
 */
problem: string | null, };

/**
 * Notices shown while a turn runs.
 */
export type Notice = { "kind": "retrying", provider: string, attempt: number, delay_ms: number, reason: string, } | { "kind": "falling_back", from: string, to: string, reason: string, } | { "kind": "continued", attempt: number, } | { "kind": "corrected", check: string, } | { "kind": "iteration_cap" } | { "kind": "timed_out" } | { "kind": "summarizing" } | { "kind": "plan_goes_on", done: number, total: number, };

/**
 * A newer version the manifest offers.
 */
export type Offer = { version: string, 
/**
 * When it was published, if the manifest says.
 */
published: string | null, 
/**
 * What changed, as the release notes put it.
 */
notes: string, };

/**
 * The reminders a Reminders page shows, in its groups.
 */
export type Overview = { 
/**
 * One-off reminders still to come, soonest first.
 */
upcoming: Array<ReminderView>, 
/**
 * Repeating reminders, by their next occurrence.
 */
recurring: Array<ReminderView>, 
/**
 * Shown on time, most recent first.
 */
delivered: Array<ReminderView>, 
/**
 * Shown after their time (Sidecar was closed or crashed), most recent first.
 */
late: Array<ReminderView>, 
/**
 * Given up: Sidecar stopped again and again while showing them.
 */
failed: Array<ReminderView>, 
/**
 * The user's zone, in which the times are shown.
 */
zone: string, 
/**
 * The same as people say it ("Madrid time", "UTC").
 */
zone_words: string, 
/**
 * The snooze choices, in minutes (the same as a notification's buttons).
 */
snooze_choices: Array<number>, };

/**
 * How this copy of Sidecar was installed, which decides whether it can update itself.
 */
export type PackageFormat = "deb" | "rpm" | "appimage" | "other";

/**
 * A code to show: its digits, grouped for reading aloud, and when it stops working.
 */
export type PairingCode = { code: string, expires_at: string, };

/**
 * A download that stopped before the end and can resume.
 */
export type PartialModel = { file: string, received_bytes: number, };

/**
 * A message sent and not yet taken one way or another.
 */
export type Pending = { message_id: number | null, kind: MessageType, channel: Channel, sent_at: string, };

export type Period = "day" | "month";

export type PermissionEvent = { "type": "permission_asked", question: Question, } | { "type": "permission_settled", id: number, };

export type PlanItem = { 
/**
 * One step, short.
 */
text: string, 
/**
 * pending, in_progress, done or failed.
 */
status: ItemStatus, 
/**
 * What the step produced (or why it failed), in a few words, once it is done or failed.
 */
result?: string, 
/**
 * The earlier steps (by number, from 1) this one waits for: it starts only once
 * they are done.
 */
after?: Array<number>, };

/**
 * How a turn that worked on a plan ended.
 */
export type PlanOutcome = "finished" | "abandoned";

/**
 * The preferences as Settings shows them.
 */
export type PreferencesView = { theme: Theme, language: LanguageChoice, 
/**
 * The language the choice means (the system's, for "system").
 */
chosen_lang: Lang, 
/**
 * Sidecar's own messages (reminders, command answers) switch at the next start.
 */
restart_for_language: boolean, hotkey: string, default_hotkey: string, 
/**
 * The character on the desktop is shown.
 */
character: boolean, character_hotkey: string, default_character_hotkey: string, 
/**
 * Push-to-talk's shortcut.
 */
talk_hotkey: string, default_talk_hotkey: string, };

export type Preset = { 
/**
 * The provider id it is saved under.
 */
id: string, label: string, kind: ProviderKind, base_url: string, model: string, context_window: number, 
/**
 * The environment variable people usually keep its key in.
 */
key_env: string | null, 
/**
 * Where the provider hands out keys, for a newcomer who has none yet.
 */
key_page: string | null, 
/**
 * Runs on this machine (no key, no cost).
 */
local: boolean, };

/**
 * The user's choices, persisted in the database.
 */
export type ProactiveConfig = { level: Level, quiet_hours: QuietHours, 
/**
 * How often the spontaneous loop asks itself whether to speak.
 */
tick_minutes: number, sinks: SinkPreferences, };

export type ProactiveEvent = { "type": "spontaneous_message", conversation_id: number, message_id: number, message_type: string, first_line: string, } | { "type": "quiet_changed", quiet: QuietNow, } | { "type": "proactive_learned", said: string, };

export type ProactiveState = { last_spontaneous_at: string | null, count_today: number, count_this_hour: number, 
/**
 * The local day `count_today` counts ("2026-11-22").
 */
day_of_count: string | null, 
/**
 * The local hour `count_this_hour` counts ("2026-11-22T09"): day and hour, so the
 * same hour tomorrow is a new hour.
 */
hour_of_count: string | null, consecutive_ticks_with_message: number, circuit_open_until: string | null, 
/**
 * `/quiet` or "be quiet": no spontaneous messages until then, on every channel.
 */
quiet_until: string | null, 
/**
 * `/quiet here`: silenced on one channel only.
 */
quiet_channel: Channel | null, last_user_message_at: string | null, last_active_channel: Channel | null, 
/**
 * The last sign of the user at the desk (a message from the window or the
 * terminal, the window focused): phones take over once it is old enough.
 */
last_desk_activity_at: string | null, 
/**
 * Greetings sent on `greeted_day` (local), with their times: one of each kind a day.
 */
greeted_day: string | null, greeted: Array<[GreetingKind, string]>, 
/**
 * How welcome each kind of message has been, per channel.
 */
learned: Learned, };

/**
 * What `/proactive status` and the Proactivity settings show.
 */
export type ProactiveStatus = { config: ProactiveConfig, state: ProactiveState, zone: string, sinks: Array<[SinkId, Channel, boolean]>, 
/**
 * Spontaneous messages allowed today at this level.
 */
max_today: number, 
/**
 * Until when Sidecar is quiet (`/quiet`, "be quiet", the tray), if it is now.
 */
quiet_until: string | null, 
/**
 * The fixed limits, for the settings to state (never restated by the UI).
 */
limits: Limits, };

/**
 * The profile's fields, as the form shows them.
 */
export type ProfileFields = { name: string, 
/**
 * How Sidecar addresses the user ("Ana", "tú", "Dr. Ruiz").
 */
address_as: string, 
/**
 * What Sidecar should know about them, in their words.
 */
about: string, 
/**
 * How Sidecar should answer (length, tone, language habits).
 */
answer_style: string, };

/**
 * The two free-text knowledge files the user edits directly.
 */
export type ProfileFile = "soul" | "user";

/**
 * SOUL.md or user.md, with the version to send back when saving.
 */
export type ProfileText = { text: string, version: string, };

/**
 * The profile form's fields with the versions of the files they were read from.
 */
export type ProfileView = { fields: ProfileFields, user_version: string, soul_version: string, };

/**
 * One change the tidy proposes.
 */
export type Proposal = { "kind": "merge", key: string, a: ListedFact, b: ListedFact, } | { "kind": "repair", key: string, line: number, raw: string, fixed: string, } | { "kind": "replaced", key: string, old: ListedFact, new: ListedFact, };

/**
 * A provider as the Settings form submits it. `api_key` is a new key to store
 * (absent: keep the stored one).
 */
export type ProviderInput = { id: string, kind?: ProviderKind, base_url: string, model: string, api_key?: string | null, api_key_env?: string | null, tools?: boolean, context_window?: number | null, sampling?: Sampling, vision?: boolean | null, };

/**
 * Which wire format a provider speaks.
 */
export type ProviderKind = "openai" | "anthropic";

/**
 * One provider's limits, in the user's currency; `None` is no limit.
 */
export type ProviderLimits = { id: string, daily: number | null, monthly: number | null, };

/**
 * A provider as the UI sees it: everything but the key.
 */
export type ProviderView = { id: string, kind: ProviderKind, base_url: string, model: string, api_key_env: string | null, tools: boolean, context_window: number | null, sampling: Sampling, 
/**
 * As set: `None` follows the model's name.
 */
vision: boolean | null, 
/**
 * Whether the model is sent images, as decided.
 */
sees_images: boolean, key: KeyStorage, };

export type PurposeTotals = { purpose: string, calls: number, input_tokens: number, output_tokens: number, cost_usd: number, };

/**
 * The QR code to scan, as an image.
 */
export type QrView = { 
/**
 * An SVG document of the code.
 */
svg: string, expires_at: string, 
/**
 * Codes that expired unscanned before this one (W2).
 */
expired_before: number, };

/**
 * One question to the user: may this tool run with these arguments?
 */
export type Question = { id: number, 
/**
 * What the card, the phone and the notification say first ("Sidecar wants to run
 * write_file from files", "Sidecar wants to schedule a task"), in the user's
 * language; set by the asker that shows it ([`crate::permissions::words::title`]).
 */
title: string, server: string, tool: string, 
/**
 * The model-facing name (`mcp__server__tool`), which the chat's chip shows.
 */
called_as: string, description: string, 
/**
 * The full arguments, as the tool would receive them.
 */
arguments: JsonValue, 
/**
 * What changed since the user last approved this tool; empty for a first ask.
 */
changed: Array<string>, conversation_id: number | null, 
/**
 * Where the turn that wants the tool came from: a phone channel is asked there too.
 */
channel: Channel | null, 
/**
 * The turn read a mail first: asked whatever was allowed before, for this call only
 * (the title says why).
 */
after_strangers: boolean, 
/**
 * The answers that mean something for this question, Deny last: after a mail, only
 * "once" (the gate keeps nothing else).
 */
choices: Array<Choice>, };

/**
 * A message waiting for its turn, as the UI lists it.
 */
export type QueuedMessage = { id: number, text: string, channel: Channel, };

/**
 * Hours in which Sidecar never speaks first (reminders still arrive: the user asked
 * for them). `start` later than `end` spans midnight.
 */
export type QuietHours = { start: string, end: string, };

/**
 * Quiet or not, now, and when to look again.
 */
export type QuietNow = { quiet: boolean, reason: QuietReason | null, 
/**
 * When this may change by itself (the quiet ends, or quiet hours begin); `None`
 * when nothing is due to change it.
 */
changes_at: string | null, };

/**
 * Why Sidecar is quiet.
 */
export type QuietReason = "asked" | "quiet_hours";

/**
 * A limit that reached 80% or 100% for the first time in its period.
 */
export type Reached = { 
/**
 * 80 or 100.
 */
percent: number, spent_usd: number, reserved_usd: number, 
/**
 * The limit with today's extra allowance.
 */
allowed_usd: number, period: Period, usd: number, } & ({ "scope": "all" } | { "scope": "background" } | { "scope": "provider", "provider": string });

/**
 * One search result.
 */
export type RecallHit = { 
/**
 * `message`, `fact`, `summary`, `checkpoint` or `mail`.
 */
source: string, 
/**
 * The message, summary, checkpoint or mail id, or the fact's line in learnings.md.
 */
id: number, 
/**
 * For messages: who said it; for facts: the category; for mail: its sender.
 */
label: string, 
/**
 * The text, cut around the first match, with the query's words in [brackets].
 */
snippet: string, 
/**
 * When it was said, or when the fact was last confirmed.
 */
timestamp: string, 
/**
 * The id a message had where it was imported from.
 */
external_id: string | null, 
/**
 * For a fact a newer one replaced: since when (history, not current).
 */
superseded?: string, 
/**
 * Fused score: higher is better. Turns shown beside a hit carry the hit's score.
 */
score: number, 
/**
 * A turn shown for context beside a hit rather than found itself.
 */
beside: boolean, };

export type Reminder = { id: number, message: string, due_at: string, zone: ReminderZone, 
/**
 * RFC 5545 RRULE of a repeating reminder.
 */
rrule: string | null, 
/**
 * The series' first occurrence (its DTSTART).
 */
series_start: string | null, 
/**
 * Said as a date with no hour.
 */
all_day: boolean, state: ReminderState, attempt_started_at: string | null, delivered_at: string | null, late: boolean, created_at: string, 
/**
 * Times a delivery of the due occurrence got as far as showing it, without the
 * delivery being recorded (a crash): 0 for a fresh occurrence.
 */
shown_attempts: number, 
/**
 * What the text leaves out (an imported event's cut title and its notes).
 */
description: string | null, 
/**
 * Set from an incognito chat: kept, since the user asked for it, though the chat
 * it came from is gone.
 */
from_incognito: boolean, };

export type ReminderEvent = { "type": "reminder_delivered", conversation_id: number, message_id: number, reminder_id: number, late: boolean, first_line: string, } | { "type": "reminders_changed" } | { "type": "calendar_import", saved: number, total: number, done: boolean, };

/**
 * Where a reminder is in its life: pending → attempting (being shown) → delivered,
 * or cancelled. A repeating one goes back to pending after each delivery. One whose
 * showing was cut short by crashes too often is failed (the user is told).
 */
export type ReminderState = "pending" | "attempting" | "delivered" | "cancelled" | "missed" | "failed";

/**
 * A reminder as lists show it: its repeat rule in words and its next occurrences.
 */
export type ReminderView = { 
/**
 * "every weekday at 09:00", in the user's language.
 */
rule_words: string | null, 
/**
 * The next three occurrences of a repeating reminder (the due one first).
 */
next: Array<string>, 
/**
 * Its zone as people say it ("Madrid time").
 */
zone_words: string, id: number, message: string, due_at: string, zone: ReminderZone, 
/**
 * RFC 5545 RRULE of a repeating reminder.
 */
rrule: string | null, 
/**
 * The series' first occurrence (its DTSTART).
 */
series_start: string | null, 
/**
 * Said as a date with no hour.
 */
all_day: boolean, state: ReminderState, attempt_started_at: string | null, delivered_at: string | null, late: boolean, created_at: string, 
/**
 * Times a delivery of the due occurrence got as far as showing it, without the
 * delivery being recorded (a crash): 0 for a fresh occurrence.
 */
shown_attempts: number, 
/**
 * What the text leaves out (an imported event's cut title and its notes).
 */
description: string | null, 
/**
 * Set from an incognito chat: kept, since the user asked for it, though the chat
 * it came from is gone.
 */
from_incognito: boolean, };

/**
 * The IANA zone a reminder was set in; its recurrence keeps that zone's wall clock.
 */
export type ReminderZone = string;

/**
 * The versions of the last reply, as the chat offers them.
 */
export type ReplyVersions = { 
/**
 * The user message they answer.
 */
user_message_id: number, count: number, 
/**
 * The one shown, from 1; 0 when none is (the last attempt failed before writing).
 */
current: number, };

/**
 * How a restore asked for from the app went, for the app to say once.
 */
export type RestoreNote = { "outcome": "restored", files: number, created_at: string, aside: string, } | { "outcome": "refused", file: string, why: string, };

/**
 * `[retention]`.
 */
export type RetentionSettings = { 
/**
 * Conversations with nothing said for this many days are deleted (pinned ones and
 * the current one never); unset: everything is kept.
 */
keep_days: number | null, 
/**
 * The database is kept under this many megabytes: past it, the oldest chats go
 * (never a pinned one, the current one, or a fact: facts live in the memory files).
 * Unset (the default): no limit. The seeds' 50 MB is offered first.
 */
max_size_mb: number | null, 
/**
 * The current chat, untouched for this many hours, is closed: a checkpoint sums it
 * up and the next message starts a new chat that offers to continue it. Unset (the
 * default): a chat stays open until the user starts another.
 */
close_idle_hours: number | null, 
/**
 * Tidy every 30 minutes while Sidecar runs (the default); off: once a day.
 */
tidy_often: boolean, };

/**
 * Settings → Your data → Keeping: the user's `[retention]` and the choices offered for
 * each limit (a value set by hand in the file is offered too, so it shows as it is).
 */
export type RetentionView = { settings: RetentionSettings, keep_days: Array<number>, max_size_mb: Array<number>, close_idle_hours: Array<number>, };

/**
 * The tidy's proposals, and what it did alone.
 */
export type Review = { proposals: Array<Proposal>, 
/**
 * Lines it repaired alone just now, as they were and as they are.
 */
repaired: Array<[string, string]>, 
/**
 * Whether the user lets it apply the safe kinds alone.
 */
alone: boolean, };

/**
 * Who said a message.
 */
export type Role = "system" | "user" | "assistant" | "tool";

export type Run = { id: number, task_id: number, occurrence: string, state: RunState, outcome: string | null, 
/**
 * Its reply in the Tasks conversation.
 */
message_id: number | null, prompt_tokens: number | null, completion_tokens: number | null, };

export type RunState = "attempting" | "done" | "failed" | "skipped" | "asked";

export type Sampling = { temperature?: number, top_p?: number, 
/**
 * llama.cpp's `repeat_penalty` (1 = off); only OpenAI-compatible local servers take it.
 */
repeat_penalty?: number, 
/**
 * The longest reply, in tokens.
 */
max_tokens?: number, };

/**
 * The ranges each value may take, as the form and the check use them.
 */
export type SamplingLimits = { temperature: [number, number], top_p: [number, number], repeat_penalty: [number, number], max_tokens: [number, number], };

/**
 * What saving a fact did, as the model and the UI are told.
 */
export type SaveOutcome = { "action": "new", category: Category, } | { "action": "reinforced", category: Category, weight: number, } | { "action": "moved", from: Category, to: Category, weight: number, } | { "action": "kept_in_health", requested: Category, weight: number, } | { "action": "kept_important", kept: Category, requested: Category, weight: number, } | { "action": "superseded", category: Category, old: string, } | { "action": "needs_confirmation", category: Category, old: string, } | { "action": "rate_limited" } | { "action": "said_this_turn", fact: string, } | { "action": "rejected", reason: string, };

/**
 * What saving a provider did with its key.
 */
export type SavedProvider = { provider: ProviderView, 
/**
 * Set when the settings file could not be written (the change still applies
 * for this session).
 */
warning: string | null, };

/**
 * What a client may do. Health facts stay out unless `Health` is given too. `Chat`
 * talks to Sidecar as its user does (the local API's chat completions): its answers
 * draw on everything Sidecar knows, so the user gives it knowing that.
 */
export type Scope = "read_memory" | "write_memory" | "reminders" | "messages" | "health" | "chat";

/**
 * Which web search service `web_search` uses.
 */
export type SearchBackend = "duckduckgo" | "searxng" | "brave";

/**
 * A change from Settings.
 */
export type SearchInput = { backend: SearchBackend, url: string | null, 
/**
 * A new Brave key; empty keeps the saved one.
 */
api_key: string | null, };

/**
 * One search result, the same whatever the backend.
 */
export type SearchResult = { title: string, url: string, snippet: string, };

/**
 * The search service as Settings shows it.
 */
export type SearchView = { backend: SearchBackend, url: string | null, 
/**
 * A Brave key is saved (or its variable is set); never the key itself.
 */
has_key: boolean, };

/**
 * A sender the user may want to add to who matters.
 */
export type SenderSuggestion = { address: string, name: string, 
/**
 * How many of the kept mails they sent.
 */
mails: number, };

/**
 * How a quick-add sentence splits as the user types.
 */
export type SentencePreview = { what: string, 
/**
 * The user's words for the time.
 */
when_text: string, when: WhenPreview, };

export type ServerForm = { 
/**
 * The command with its arguments (quoted as in a shell), or the address.
 */
line: string, 
/**
 * Environment variables for a command, headers for an address.
 */
fields: Array<Field>, };

export type ServerStatus = { name: string, summary: string, enabled: boolean, tools: Array<ToolDefinition>, 
/**
 * What Settings' editor starts from (kept secrets without their value).
 */
form: ServerForm, } & ({ "state": "off" } | { "state": "starting" } | { "state": "running" } | { "state": "failed", error: string, stderr: Array<string>, retry_in_secs: number, });

/**
 * What setting a reminder did.
 */
export type Setting = { 
/**
 * The reminder that will come.
 */
reminder: Reminder, 
/**
 * How the time was read, when that needs saying (a DST shift, moved to tomorrow).
 */
note: string | null, 
/**
 * A pending reminder with the same words at the same time, set before: both are
 * kept, and the answer says so.
 */
twin: Reminder | null, 
/**
 * This chat message's request had already been carried out (Sidecar's own reading
 * of it): nothing new was stored, `reminder` is that one.
 */
already_set: boolean, 
/**
 * The calendar event the reminder is tied to ("15 minutes before my standup"): the
 * note then quotes the event's title, text from outside Sidecar.
 */
event: string | null, };

/**
 * A sign of how a spontaneous message was taken.
 */
export type Signal = "answered" | "opened" | "thumbs_up" | "ignored" | "dismissed" | "thumbs_down";

/**
 * Where a proactive message can reach the user.
 */
export type SinkId = "chat" | "notification" | "tray" | "console" | "telegram" | "whatsapp" | "devices";

/**
 * What a sink receives.
 */
export type SinkPreference = "all" | "reminders-only" | "none";

/**
 * Per-sink preferences and the primary sink (the only one spontaneous messages use).
 */
export type SinkPreferences = { primary: SinkId, chat: SinkPreference, notification: SinkPreference, tray: SinkPreference, console: SinkPreference, telegram: SinkPreference, whatsapp: SinkPreference, 
/**
 * Phone channels get what Sidecar says on its own only once the desktop has seen
 * no activity for this long (0: always), unless a phone is the primary.
 */
phone_when_idle_minutes: number, };

/**
 * What a snooze did.
 */
export type Snoozed = { 
/**
 * The reminder that comes at the snooze time (the original, moved, or a copy).
 */
reminder: Reminder, 
/**
 * The original still comes at its own time: it repeats, or it was not due yet, so
 * moving it would have brought it earlier. The snooze is a one-off copy.
 */
original_kept: boolean, };

/**
 * A span's totals.
 */
export type Span = { total: Spend, by_model: { [key in string]: Spend }, by_purpose: { [key in string]: Spend }, };

/**
 * Which of Sidecar's replies in the window are spoken.
 */
export type SpeakReplies = "off" | "voice_only" | "always";

/**
 * Spending and tokens of a group (a model, a purpose) over a span.
 */
export type Spend = { cost_usd: number, calls: number, input_tokens: number, output_tokens: number, 
/**
 * Calls whose model has no known price (not in `cost_usd`).
 */
unpriced_calls: number, };

/**
 * A top-left corner, in the screen's physical pixels.
 */
export type Spot = { x: number, y: number, };

/**
 * A limit's standing: for Settings and `sidecar budget`, and as the limit a call
 * would cross.
 */
export type Standing = { spent_usd: number, reserved_usd: number, 
/**
 * The limit with today's extra allowance.
 */
allowed_usd: number, period: Period, usd: number, } & ({ "scope": "all" } | { "scope": "background" } | { "scope": "provider", "provider": string });

/**
 * A calendar as Sidecar keeps it.
 */
export type StoredCalendar = { id: number, href: string, name: string | null, color: string | null, read: boolean, writable: boolean, ctag: string | null, synced_at: string | null, problem: string | null, 
/**
 * `caldav`: the account's; `ics`: a feed subscribed by its address (read only).
 */
source: string, };

/**
 * A fact offered to the user.
 */
export type Suggestion = { text: string, category: Category, };

/**
 * A line held out of the prompt until the user looks at it.
 */
export type SuspectLine = { file: KnowledgeFile, 
/**
 * 1-based, as an editor numbers it.
 */
line: number, 
/**
 * The line as written (for a fact, its words).
 */
text: string, reason: Injection, };

/**
 * What choosing a model did.
 */
export type Switched = { 
/**
 * `None`: back to the built-in demo model.
 */
active: string | null, context_tokens: number, 
/**
 * How long the local server took to come back on the new model; `None` when it
 * was not running (it starts on the next message).
 */
restart_ms: number | null, 
/**
 * Set when the settings file could not be written (the choice holds for this run).
 */
warning: string | null, };

/**
 * What a sync did.
 */
export type SyncReport = { added: number, changed: number, removed: number, 
/**
 * The ctag had not moved: nothing was listed or fetched.
 */
unchanged: boolean, 
/**
 * Items kept but not understood (a zone Sidecar does not know…), said as they are.
 */
unreadable: Array<string>, };

export type TaskEvent = { "type": "tasks_changed" } | { "type": "task_run_started", task_id: number, run_id: number, } | { "type": "task_run_finished", task_id: number, run_id: number, conversation_id: number, message_id: number | null, ok: boolean, } | { "type": "task_asks", task_id: number, conversation_id: number, message_id: number, };

/**
 * What a task runs: the user's words, or the morning brief made at each run.
 */
export type TaskKind = "prompt" | "brief";

/**
 * A task as the user asks for it.
 */
export type TaskRequest = { 
/**
 * Its name; the prompt's first words when empty.
 */
title: string | null, 
/**
 * What Sidecar does at its time.
 */
prompt: string, 
/**
 * When, as people say it: "every weekday at 8", "cada domingo a las 21", "in two hours".
 */
when: string, 
/**
 * The tools it may use without asking, fixed now.
 */
tools: Array<string>, catch_up: CatchUp, 
/**
 * Delivered even in quiet hours and after `/quiet`.
 */
always_deliver: boolean, };

/**
 * A task as lists show it.
 */
export type TaskView = { id: number, kind: TaskKind, title: string, prompt: string, 
/**
 * Its schedule in words, in the user's language.
 */
when: string, next: string | null, tools: Array<string>, catch_up: CatchUp, always_deliver: boolean, paused: string | null, 
/**
 * A late occurrence waits for the user's answer (run it now or not).
 */
asked: boolean, 
/**
 * The last runs, newest first.
 */
runs: Array<Run>, };

/**
 * Settings → Tasks: the tasks, the tools one can be given, and what runs took today.
 */
export type TasksPage = { tasks: Array<TaskView>, 
/**
 * The tools a task can be given: the name a task keeps, and what a person calls it
 * (the description is the model's).
 */
tools: Array<[string, string]>, 
/**
 * "Skip it when late" skips past this many minutes unless the user says otherwise.
 */
default_skip_minutes: number, 
/**
 * Prompt tokens, completion tokens and runs of scheduled tasks since midnight.
 */
tokens_today: [number, number, number], 
/**
 * The user's zone, which the next times are shown in.
 */
zone: string, 
/**
 * The morning brief's time ("07:30"), when it is on.
 */
brief_at: string | null, 
/**
 * The time the brief is offered at when it is turned on.
 */
brief_default: string, 
/**
 * Where the brief looks up the weather, when the user said.
 */
brief_place: string | null, 
/**
 * There is a weather tool for the brief to use.
 */
brief_weather: boolean, 
/**
 * Task notifications that went out today, and the most a day (past it, results
 * wait in Tasks and come together the next day).
 */
notified_today: [number, number], 
/**
 * Only the demo model answers: tasks cannot run (the page says so, and what to do).
 */
demo_only: boolean, 
/**
 * On a low battery, not charging: what waits, in the user's language (DT-3).
 */
waiting_for_power: string | null, };

/**
 * What Settings → Channels shows about Telegram.
 */
export type TelegramView = { 
/**
 * `[channels.telegram]` is present and enabled.
 */
enabled: boolean, token: TokenSource, 
/**
 * `None` when it is not running in this process.
 */
health: HealthView | null, paired_chats: Array<number>, pairing_code: string | null, pairing_expires_at: string | null, 
/**
 * Reminders and tasks' results held for the paired chats until the bot is back.
 */
held: number, };

/**
 * The app's colours.
 */
export type Theme = "system" | "light" | "dark";

/**
 * What one tidy did.
 */
export type TidyReport = { 
/**
 * Conversations past the retention, deleted now (removed for good a day later).
 */
conversations_expired: number, 
/**
 * Conversations deleted more than a day ago, removed for good.
 */
conversations_removed: number, 
/**
 * Vectors whose message, summary or checkpoint is gone.
 */
vectors_removed: number, 
/**
 * Self-corrections past their time.
 */
corrections_removed: number, 
/**
 * The oldest chats removed for good to keep the database under the size limit.
 */
conversations_over_size: number, 
/**
 * What the database's rows take after the tidy, in bytes.
 */
used_bytes: number, 
/**
 * A size limit is set and what is left cannot go (pinned chats, the current one,
 * reminders, the mail and calendar kept here): the database stays over it.
 */
still_over_size: boolean, };

/**
 * Where the bot token comes from, never the token itself.
 */
export type TokenSource = { "kind": "environment", variable: string, } | { "kind": "keychain" } | { "kind": "missing" };

/**
 * A tool the model asked to run. `arguments` is the raw JSON text the model wrote:
 * it may be invalid, and that is reported back to the model, not thrown.
 */
export type ToolCall = { id: string, name: string, arguments: string, };

export type ToolDefinition = { name: string, description: string, input_schema: JsonValue, 
/**
 * The server's own hint that the tool changes nothing. A hint only: it can allow a
 * tool without asking only where the user switched that on.
 */
read_only: boolean, };

export type TuningInput = { sampling: Sampling, context_tokens: number | null, };

export type TuningView = { 
/**
 * The model these apply to.
 */
model: string, 
/**
 * What the user set; unset values follow `defaults`.
 */
sampling: Sampling, 
/**
 * What applies to this model when nothing is set (empty: llama.cpp's own).
 */
defaults: Sampling, context_tokens: number | null, context_default: number, limits: SamplingLimits, };

/**
 * The four measures the plans name, over the model's replies in a period.
 */
export type TurnMeasures = { 
/**
 * Replies written by a model.
 */
turns: number, 
/**
 * The context's fit dropped turns or cut messages to fit.
 */
truncated: number, 
/**
 * The reply claimed an action it had not taken (the claims check caught it).
 */
claimed_without_acting: number, 
/**
 * The tool rules were said again late in the prompt.
 */
reinforced: number, plans_finished: number, plans_abandoned: number, };

/**
 * What a finished turn produced.
 */
export type TurnOutcome = { conversation_id: number, 
/**
 * The user message answered (0 for none).
 */
user_message_id: number, message_id: number, reply: string, status: MessageStatus, finish_reason: string | null, usage: Usage | null, meta: MessageMeta, timings: TurnTimings, 
/**
 * The turn moved on to another conversation (`/clear`): what the window shows is
 * stale.
 */
conversation_changed?: boolean, };

/**
 * Where a turn's time went: waiting on models (network included), running tools,
 * and the rest, which is the core's own work (prompt, bookkeeping, storage).
 */
export type TurnTimings = { total: { secs: number, nanos: number }, model: { secs: number, nanos: number }, tools: { secs: number, nanos: number }, 
/**
 * From the user's message arriving to the first model request going out: the
 * core's share of the time to first token.
 */
to_first_request: { secs: number, nanos: number }, };

export type UpdateEvent = { "type": "update" } & UpdatesView | { "type": "update_found", title: string, body: string, };

/**
 * Where a look or an install stands.
 */
export type UpdateState = { "state": "idle" } | { "state": "looking" } | { "state": "up_to_date" } | { "state": "available", offer: Offer, } | { "state": "installing", offer: Offer, received: number, total: number | null, } | { "state": "installed", version: string, } | { "state": "failed", message: string, offer: Offer | null, };

/**
 * Settings → About.
 */
export type UpdatesView = { version: string, format: PackageFormat | null, 
/**
 * Why this copy cannot look or update itself, when it cannot.
 */
cannot: string | null, 
/**
 * The address in use (the user's, else the build's).
 */
address: string | null, 
/**
 * The address is the user's own setting.
 */
own_address: boolean, 
/**
 * The build has an address of its own to go back to.
 */
built_address: boolean, 
/**
 * Updates must carry the user's own key, not the build's.
 */
own_key: boolean, daily: boolean, last_looked: string | null, state: UpdateState, };

/**
 * Token counts reported by the provider for one call.
 */
export type Usage = { input_tokens: number, output_tokens: number, 
/**
 * Input tokens served from the provider's prompt cache (billed lower).
 */
cached_tokens: number, };

export type UsageHistory = { 
/**
 * The last 30 days, oldest first, including days with nothing.
 */
days: Array<Day>, last_7_days: Span, last_30_days: Span, month_to_date_usd: number, 
/**
 * This month's spending if the rest of it goes as it went so far.
 */
month_projection_usd: number, currency: string, usd_rate: number, };

/**
 * Token use and cost today (the user's local midnight) and overall.
 */
export type UsageReport = { today: UsageTotals, all_time: UsageTotals, };

/**
 * Sums over a period, overall and per model.
 */
export type UsageTotals = { calls: number, input_tokens: number, output_tokens: number, cached_tokens: number, cost_usd: number, 
/**
 * Calls whose model has no known price (not in `cost_usd`).
 */
unpriced_calls: number, by_model: Array<ModelTotals>, 
/**
 * Chat, summarize, proactive, extract: what background work costs.
 */
by_purpose: Array<PurposeTotals>, 
/**
 * How the model's turns went.
 */
turns: TurnMeasures, };

/**
 * A voice Settings → Voice offers, named in the window's language.
 */
export type VoiceChoice = { id: string, lang: Lang, name: string, };

/**
 * What push-to-talk is doing, for the window.
 */
export type VoiceEvent = { "type": "voice_listening" } | { "type": "voice_level", level: number, } | { "type": "voice_heard", text: string, } | { "type": "voice_transcribing" } | { "type": "voice_done", text: string | null, problem: string | null, } | { "type": "voice_speaking", on: boolean, problem: string | null, };

/**
 * What hears or speaks, for Settings → Voice.
 */
export type VoiceModel = { role: string, name: string, megabytes: number | null, 
/**
 * SPDX.
 */
licence: string, 
/**
 * Run as a program of its own, never linked into Sidecar (espeak-ng, GPL).
 */
separate_program: boolean, };

/**
 * The `[voice]` switches.
 */
export type VoiceSwitch = "speak_reminders" | "review_before_sending";

/**
 * Settings → Voice.
 */
export type VoiceView = { speak_replies: SpeakReplies, speak_reminders: boolean, review_before_sending: boolean, 
/**
 * The microphones the sound server offers, the default first.
 */
inputs: Array<string>, input_device: string | null, 
/**
 * The speakers and headphones, the default first.
 */
outputs: Array<string>, output_device: string | null, 
/**
 * The voices on offer for each language, and the one in use for each.
 */
voices: Array<VoiceChoice>, spanish_voice: string, english_voice: string, 
/**
 * The pace, 1.0 the voices' usual one, and the slowest and fastest on offer.
 */
speed: number, speeds: [number, number], 
/**
 * Whether the speech model is in the runtime folder.
 */
speech_model: boolean, 
/**
 * What hears and what speaks, with sizes and licences.
 */
models: Array<VoiceModel>, };

/**
 * The web app's address on one listener, and the QR code a phone's camera reads.
 */
export type WebPage = { url: string, qr: string, };

/**
 * What Settings → Channels shows about WhatsApp.
 */
export type WhatsappView = { enabled: boolean, health: HealthView | null, 
/**
 * The linked number (the self chat), once linked.
 */
own_number: string | null, qr: QrView | null, allowed_numbers: Array<string>, 
/**
 * Reminders and tasks' results held for the self chat until WhatsApp is back.
 */
held: number, };

/**
 * How a "when" reads as the user types.
 */
export type WhenPreview = { "status": "ok", local: string, utc: string, zone: string, rrule: string | null, rule_words: string | null, 
/**
 * The first three occurrences (UTC, RFC 3339).
 */
next: Array<string>, all_day: boolean, note: string | null, } | { "status": "error", kind: DateErrorKind, error: string, suggestion: string | null, };

/**
 * What the character's page needs to know about its window.
 */
export type WindowFacts = { 
/**
 * `false`: no compositor, so the character sits on a small card.
 */
transparent: boolean, 
/**
 * The window with the character alone, logical pixels.
 */
rest: [number, number], };
