// A scripted stand-in for the Rust core behind Tauri's IPC (mockIPC), so component
// tests can drive a turn step by step: stream deltas, finish, fail.
import { mockIPC } from "@tauri-apps/api/mocks";
import { turnOutcome } from "./fixtures";
import { emit } from "@tauri-apps/api/event";
import type { RetentionSettings, RetentionView } from "../features/memory/retention.strings";
import {
  CORE_EVENT,
  type ChannelsView,
  type ChatListView,
  type CommandError,
  type CoreEvent,
  type FoundServer,
  type HubView,
  type Preset,
  type Message,
  type MessageMeta,
  type Notice,
  type ProactiveStatus,
  type PreferencesView,
  type ProviderView,
  type ReplyVersions,
  type SearchView,
  type MeaningView,
  type TurnOutcome,
  type UpdatesView,
} from "../api";

interface Pending {
  resolve: (o: TurnOutcome) => void;
  reject: (e: CommandError) => void;
}

export function defaultProactiveStatus(): ProactiveStatus {
  return {
    config: {
      level: "medium",
      quiet_hours: { start: "22:00", end: "08:00" },
      tick_minutes: 15,
      sinks: { primary: "chat", chat: "all", notification: "all", tray: "all", console: "all", telegram: "all", whatsapp: "all", phone_when_idle_minutes: 10 },
    },
    state: {
      count_today: 1,
      count_this_hour: 0,
      day_of_count: null,
      hour_of_count: null,
      consecutive_ticks_with_message: 0,
      circuit_open_until: null,
      quiet_until: null,
      quiet_channel: null,
      last_spontaneous_at: null,
      last_user_message_at: null,
      last_active_channel: "desktop",
      last_desk_activity_at: null,
      greeted_day: null,
      greeted: [],
      learned: { kinds: [], pending: [] },
    },
    zone: "Europe/Madrid",
    sinks: [["chat", "desktop", true], ["notification", "desktop", true], ["tray", "desktop", true]],
    max_today: 4,
    quiet_until: null,
    limits: { max_per_hour: 2, cooldown_minutes: 30, user_active_minutes: 10, max_per_day: { low: 0, medium: 4, high: 8 }, quiet_minutes: 60 },
  };
}

export class FakeCore {
  calls: { cmd: string; args: unknown }[] = [];
  history: Message[] = [];
  /** Turns asked for and not yet answered, oldest first (later ones were queued). */
  private pending: Pending[] = [];
  private nextId = 100;
  /** Called when the UI invokes stop_reply. */
  onStop: () => void = () => undefined;
  providers: ProviderView[] = [];
  pinned: string | null = null;
  channels: ChannelsView = {
    owner: true,
    telegram: { enabled: false, token: { kind: "missing" }, health: null, paired_chats: [], pairing_code: null, pairing_expires_at: null, held: 0 },
    whatsapp: { enabled: false, health: null, own_number: null, qr: null, allowed_numbers: [], held: 0 },
  };
  welcome = false;
  preferences: PreferencesView = { theme: "system", language: "system", chosen_lang: "en", restart_for_language: false, hotkey: "Ctrl+Shift+Space", default_hotkey: "Ctrl+Shift+Space", character: false, character_hotkey: "Ctrl+Shift+Period", default_character_hotkey: "Ctrl+Shift+Period", talk_hotkey: "Ctrl+Alt+Space", default_talk_hotkey: "Ctrl+Alt+Space" };
  atLogin = false;
  /** Settings → About: an installed .deb unless a test says otherwise. */
  updates: UpdatesView = { version: "0.1.0", format: "deb", cannot: null, address: "https://example.org/latest.json", own_address: false, built_address: true, own_key: false, daily: false, last_looked: null, state: { state: "idle" } };
  search: SearchView = { backend: "duckduckgo", url: null, has_key: false };
  meaning: MeaningView = {
    backend: "local",
    url: null,
    model: null,
    has_key: false,
    status: { state: "ready", model: "multilingual-e5-small-q4:symmetric", embedded: 10, total: 40 },
    built_in: [
      { backend: "local", model: "multilingual-e5-small-q4:symmetric", name: "multilingual-e5-small", licence: "MIT", size_bytes: 71_622_400, memory_mib: 120, recommended: false },
      { backend: "gemma", model: "embeddinggemma-300m-q8_0|prompted", name: "EmbeddingGemma-300M", licence: "Gemma Terms of Use", size_bytes: 333_590_464, memory_mib: 1140, recommended: true },
    ],
    automatic: "gemma",
    automatic_stands_in: false,
  };
  backups: [string, string][] = [];
  /** The last reply's versions, as `reply_versions` answers. */
  versions: ReplyVersions | null = null;
  chats: ChatListView = { current: 1, incognito: false, chats: [], undo_seconds: 30 };
  servers: FoundServer[] = [];
  presets: Preset[] = [
    { id: "moonshot", label: "Moonshot (Kimi)", kind: "openai", base_url: "https://api.moonshot.ai/v1", model: "kimi-k2.5", context_window: 262144, key_env: "MOONSHOT_API_KEY", key_page: "https://platform.moonshot.ai/console/api-keys", local: false },
    { id: "openai", label: "OpenAI", kind: "openai", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini", context_window: 128000, key_env: "OPENAI_API_KEY", key_page: "https://platform.openai.com/api-keys", local: false },
    { id: "ollama", label: "Ollama", kind: "openai", base_url: "http://127.0.0.1:11434/v1", model: "llama3.2", context_window: 8192, key_env: null, key_page: null, local: true },
  ];
  hub: HubView = {
    catalogue: [
      {
        id: "qwen3-1.7b", title: "Qwen3 1.7B", file: "Qwen3-1.7B-Q4_K_M.gguf", url: "https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf",
        size_bytes: 1_110_000_000, sha256: null, licence: "Apache-2.0", min_ram_gb: 4, context_tokens: 40960, fits: true, installed: false, partial_bytes: null, downloading: false,
      },
      {
        id: "gemma3-4b", title: "Gemma 3 4B Instruct", file: "gemma-3-4b-it-Q4_K_M.gguf", url: "https://huggingface.co/unsloth/gemma-3-4b-it-GGUF/resolve/main/gemma-3-4b-it-Q4_K_M.gguf",
        size_bytes: 2_490_000_000, sha256: null, licence: "Gemma Terms of Use", min_ram_gb: 8, context_tokens: 131072, fits: false, installed: false, partial_bytes: null, downloading: false,
      },
    ],
    installed: [],
    partials: [],
    active: null,
    memory_bytes: 6 * 2 ** 30,
    recommended: "qwen3-1.7b",
    folder: "/home/ana/.local/share/sidecar/models",
  };
  tuning = {
    model: "smollm2-360m-instruct-q8_0",
    sampling: {},
    defaults: {},
    context_tokens: null,
    context_default: 4096,
    limits: { temperature: [0, 2], top_p: [0.01, 1], repeat_penalty: [1, 2], max_tokens: [16, 32768] },
  };
  /** Answers for commands a test scripts itself (save_provider, test_provider, …). */
  handlers: Record<string, (args: unknown) => unknown> = {};
  /** Settings → Your data → Keeping, as the core offers it by default. */
  retention: RetentionView = {
    settings: { keep_days: null, max_size_mb: null, close_idle_hours: null, tidy_often: true },
    keep_days: [730, 365, 180, 90, 30],
    max_size_mb: [1000, 500, 250, 100, 50],
    close_idle_hours: [24, 8, 4, 2],
  };

  constructor() {
    mockIPC(
      (cmd, args) => {
        this.calls.push({ cmd, args });
        if (this.handlers[cmd]) return this.handlers[cmd](args);
        switch (cmd) {
          case "list_providers":
            return this.providers;
          case "snooze_choices":
            return [5, 15, 60];
          case "lock_view":
            return { on: false, after_minutes: 0, locked: false, min_chars: 4, min_minutes: 1, max_minutes: 480 };
          case "database_encryption":
            return { encrypted: false, pending: null, failed: null };
          case "memory_review":
            return { proposals: [], repaired: [], alone: false };
          case "pinned_model":
            return this.pinned;
          case "pin_model":
            this.pinned = (args as { id: string | null }).id;
            return null;
          case "load_history":
            return this.history;
          case "model_status":
            return { state: "ready", provider: "local", model: "SmolLM2" };
          case "preferences":
            return this.preferences;
          case "launch_at_login":
            return this.atLogin;
          case "updates":
            return this.updates;
          case "web_search_setup":
            return this.search;
          case "meaning_setup":
            return this.meaning;
          case "backup_seal":
            return { sealed: false, storage: null, min_chars: 10 };
          case "automatic_backups":
            return this.backups;
          case "retention":
            return this.retention;
          case "set_retention":
            this.retention = { ...this.retention, settings: (args as { retention: RetentionSettings }).retention };
            return null;
          case "reply_versions":
            return this.versions;
          case "send_message":
          case "send_with_files":
          case "retry_reply":
          case "regenerate_reply":
          case "edit_message":
            return new Promise<TurnOutcome>((resolve, reject) => {
              this.pending.push({ resolve, reject });
            });
          case "stop_reply":
            this.onStop();
            return true;
          case "current_scratchpad":
            return "";
          case "current_plan":
          case "list_checkpoints":
          case "core_warnings":
            return [];
          case "continuation_offer":
          case "context_meter":
            return null;
          case "reminders_overview":
            return { upcoming: [], recurring: [], delivered: [], late: [], zone: "Europe/Madrid", zone_words: "Madrid time", snooze_choices: [5, 15, 60] };
          case "proactive_status":
            return defaultProactiveStatus();
          case "channels_view":
            return this.channels;
          case "list_chats":
            return this.chats;
          case "chat_is_incognito":
            return this.chats.incognito;
          case "welcome_needed":
            return this.welcome;
          case "provider_presets":
            return this.presets;
          case "local_servers":
            return this.servers;
          case "model_hub":
            return this.hub;
          case "local_tuning":
            return this.tuning;
          case "time_zone":
            return "Europe/Madrid";
          case "time_zones":
            return ["America/Argentina/Buenos_Aires", "America/New_York", "Europe/Madrid", "Europe/Paris", "UTC"];
          case "command_table":
            return [
              { command: "/help", arguments: "", description: "This list of commands" },
              { command: "/status", arguments: "", description: "Sidecar's state" },
              { command: "/quiet", arguments: "30m | 2h | off | here", description: "No spontaneous messages for a while" },
              { command: "/reminders", arguments: "clear | lost", description: "Pending reminders" },
            ];
          default:
            return undefined;
        }
      },
      { shouldMockEvents: true },
    );
  }

  invoked(cmd: string) {
    return this.calls.filter((c) => c.cmd === cmd);
  }

  async delta(text: string) {
    const event: CoreEvent = { type: "delta", conversation_id: 1, text };
    await emit(CORE_EVENT, event);
  }

  async event(event: CoreEvent) {
    await emit(CORE_EVENT, event);
  }

  async toolStarted(id: string, name: string, args: string) {
    await this.event({ type: "tool_started", conversation_id: 1, call_id: id, name, arguments: args });
  }

  async toolFinished(id: string, name: string, result: string, is_error = false) {
    await this.event({ type: "tool_finished", conversation_id: 1, call_id: id, name, result, is_error, denied: false });
  }

  async notice(notice: Notice) {
    await this.event({ type: "notice", conversation_id: 1, notice });
  }

  finish(
    reply: string,
    status: TurnOutcome["status"] = "complete",
    finish_reason: string | null = "stop",
    meta: MessageMeta = {},
    user_message_id = 0,
  ) {
    const p = this.take();
    p.resolve(
      turnOutcome({
        user_message_id,
        message_id: this.nextId++,
        reply,
        status,
        finish_reason,
        usage: { input_tokens: 12, output_tokens: 7, cached_tokens: 0 },
        meta,
      }),
    );
  }

  fail(error: CommandError) {
    this.take().reject(error);
  }

  get turnInFlight() {
    return this.pending.length > 0;
  }

  private take(): Pending {
    const p = this.pending.shift();
    if (!p) throw new Error("no turn in flight");
    return p;
  }
}
