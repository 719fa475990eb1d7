// What the core sends the window, generated from its Rust types by ts-rs.
// Do not edit: run `make ui-types` after changing an event or a view.

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

export type BudgetEvent = { "type": "budget_reached", reached: Reached, currency: string, usd_rate: number, more_usd: number, said: string, };

/**
 * The fixed categories. Headings may be written in English or Spanish.
 */
export type Category = "Health" | "Preferences" | "Work" | "Relationships" | "Schedule" | "Goals" | "General";

export type Channel = "desktop" | "cli" | "telegram" | "whatsapp" | "api" | "device";

export type ChannelEvent = { "type": "channels_changed" } | { "type": "channel_alert", channel: Channel, title: string, body: string, down: boolean, } | { "type": "channel_warning", channel: Channel, title: string, body: string, };

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
meta: MessageMeta, } | { "type": "turn_failed", conversation_id: number, message: string, retryable: boolean, } | { "type": "plan_updated", conversation_id: number, items: Array<PlanItem>, } | { "type": "context_usage", conversation_id: number, used: number, budget: number, window: number, 
/**
 * Of `used`, the tool definitions' share.
 */
tools: number, 
/**
 * Older turns are summarised (and searchable with recall).
 */
summarized_turns: boolean, level: MeterLevel, } | { "type": "checkpoint_saved", conversation_id: number, checkpoint_id: number, trigger: string, } | { "type": "facts_noticed", conversation_id: number, message_id: number, suggestions: Array<Suggestion>, saved: boolean, };

export type ConnectionEvent = { "type": "connection_waiting", name: string, title: string, body: string, };

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
 * One environment variable or header.
 */
export type Field = { name: string, 
/**
 * `None` for a secret already kept (shown as kept; left empty, it stays).
 */
value: string | null, secret: boolean, };

export type ItemStatus = "pending" | "in_progress" | "done" | "failed";

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type LocalModelEvent = { "type": "model_download" } & DownloadState;

/**
 * A line the parser could not read, for the UI and the logs.
 */
export type Malformed = { 
/**
 * 1-based.
 */
line: number, text: string, reason: string, };

export type McpEvent = { "type": "mcp_servers", servers: Array<ServerStatus>, };

export type MemoryEvent = { "type": "knowledge_changed", problems: Array<Malformed>, error: string | null, } | { "type": "memory_indexing", embedded: number, total: number, };

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
 * The context guard had to drop turns or cut messages to fit a call of this turn.
 */
truncated?: boolean, 
/**
 * The tool rules were said again late in the prompt (a long conversation).
 */
reinforced?: boolean, 
/**
 * On a user's message: the late block its turn was sent with (the time, the plan…),
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
 * Where the meter stands against the fold rule: `High` from the threshold at which
 * older turns are folded, `Mid` from the level a fold brings the history down to.
 */
export type MeterLevel = "low" | "mid" | "high";

export type ModelEvent = { "type": "model_status" } & ModelStatus;

/**
 * How ready the chat model is to answer.
 */
export type ModelStatus = { "state": "idle" } | { "state": "starting" } | { "state": "ready", provider: string, model: string, demo: boolean, } | { "state": "standing_in", down: string, reason: string, model: string, demo: boolean, } | { "state": "unavailable", message: string, };

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
 * How this copy of Sidecar was installed, which decides whether it can update itself.
 */
export type PackageFormat = "deb" | "rpm" | "appimage" | "other";

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

export type ProactiveEvent = { "type": "spontaneous_message", conversation_id: number, message_id: number, message_type: string, first_line: string, } | { "type": "quiet_changed", quiet: QuietNow, } | { "type": "proactive_learned", said: string, };

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
channel: Channel | null, };

/**
 * A message waiting for its turn, as the UI lists it.
 */
export type QueuedMessage = { id: number, text: string, channel: Channel, };

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

export type ReminderEvent = { "type": "reminder_delivered", conversation_id: number, message_id: number, reminder_id: number, late: boolean, first_line: string, } | { "type": "reminders_changed" } | { "type": "calendar_import", saved: number, total: number, done: boolean, };

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
 * A fact offered to the user.
 */
export type Suggestion = { text: string, category: Category, };

export type TaskEvent = { "type": "tasks_changed" } | { "type": "task_run_started", task_id: number, run_id: number, } | { "type": "task_run_finished", task_id: number, run_id: number, conversation_id: number, message_id: number | null, ok: boolean, } | { "type": "task_asks", task_id: number, conversation_id: number, message_id: number, };

export type ToolDefinition = { name: string, description: string, input_schema: JsonValue, 
/**
 * The server's own hint that the tool changes nothing. A hint only: it can allow a
 * tool without asking only where the user switched that on.
 */
read_only: boolean, };

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

/**
 * What push-to-talk is doing, for the window.
 */
export type VoiceEvent = { "type": "voice_listening" } | { "type": "voice_level", level: number, } | { "type": "voice_heard", text: string, } | { "type": "voice_transcribing" } | { "type": "voice_done", text: string | null, problem: string | null, } | { "type": "voice_speaking", on: boolean, problem: string | null, };
