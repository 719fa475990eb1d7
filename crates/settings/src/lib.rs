//! User settings from `settings.toml`, with environment overrides for one provider.
//!
//! A missing file means defaults (the offline local model). A malformed file is an
//! error naming the file and the line, never silently ignored: the user edited it on
//! purpose and deserves to know why it did not take.
//!
//! Over 400 lines: the sections of `settings.toml` with their defaults are the file users
//! edit, read in one place in the file's own order.

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod budget;
mod channels;
mod connections;
mod desktop;
mod devices;
mod file;
/// The settings the model clients read: sampling, retries, timeouts, prices (the llm
/// crate re-exports them under its own name).
pub mod llm;
mod memory;
mod owner;
mod preferences;
mod refusal;
mod retention;
mod unknown;
mod updates;
mod validate;
mod voice;
mod welcome;
// The face: what the crates above, the faces and the tests name.
pub use budget::{is_amount, is_currency_code, is_rate, BudgetSettings, ProviderBudget};
pub use channels::{ChannelsSettings, TelegramSettings, WhatsappSettings};
pub use connections::DEFAULT_API_PER_MINUTE;
pub use desktop::{LanguageChoice, Theme, LOCK_MINUTES};
pub use devices::{address as device_address, NotAnAddress, DEFAULT_LINK_PORT};
pub use file::SettingsFileError;
pub use llm::sampling::OutOfRange;
pub use memory::{EmbeddingsBackend, EmbeddingsSettings, EMBEDDINGS_KEY_ID};
pub use owner::{Change, DesktopChange, PhoneChannel, SettingsOwner};
pub use preferences::{language_of, Hotkey, HotkeyError, HotkeyRole, Preferences, PreferencesView, DEFAULT_CHARACTER_HOTKEY, DEFAULT_HOTKEY};
pub use refusal::Refusal;
pub use retention::{RetentionSettings, RetentionView, CLOSE_IDLE_HOURS, KEEP_DAYS, MAX_SIZE_MB};
pub use updates::UpdateSettings;
pub use voice::{SpeakReplies, VoiceSettings, VoiceSwitch};
pub use welcome::{finish as finish_welcome, needed as welcome_needed};

/// Overrides the chat provider's base URL (adds a provider named `env`).
pub const LLM_BASE_URL_ENV: &str = "SIDECAR_LLM_BASE_URL";
/// Overrides the chat provider's model.
pub const LLM_MODEL_ENV: &str = "SIDECAR_LLM_MODEL";
/// Overrides the chat provider's API key.
pub const LLM_API_KEY_ENV: &str = "SIDECAR_LLM_API_KEY";

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read settings file {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("settings file {path} is not valid TOML: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("settings file {path}: {refusal}")]
    Invalid { path: PathBuf, refusal: Refusal },
}

/// Which wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    #[default]
    Openai,
    Anthropic,
}

/// One configured model endpoint.
#[derive(Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProviderSettings {
    pub id: String,
    #[serde(default)]
    pub kind: ProviderKind,
    pub base_url: String,
    pub model: String,
    /// Name of the environment variable holding the key (never the key itself).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// A key supplied at run time (environment override); never written to disk.
    #[serde(skip)]
    pub api_key: Option<String>,
    /// Offer tools to this model (turn off for models that cannot call them).
    #[serde(default = "yes")]
    pub tools: bool,
    /// The model's context window in tokens; known models have a built-in value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<u32>,
    /// Whether the model takes images; unset, known vision models do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vision: Option<bool>,
    /// How this model samples (`[providers.sampling]`); unset, the server's defaults.
    #[serde(default, skip_serializing_if = "crate::llm::sampling::Sampling::is_unset")]
    pub sampling: crate::llm::sampling::Sampling,
}

fn yes() -> bool {
    true
}

impl std::fmt::Debug for ProviderSettings {
    // Hand-written so a key can never reach a log line through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSettings")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key_env", &self.api_key_env)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("tools", &self.tools)
            .finish()
    }
}

impl ProviderSettings {
    /// The key to send: the run-time override, else the named environment variable.
    pub fn resolved_api_key(&self) -> Option<String> {
        self.api_key.clone().or_else(|| self.api_key_env.as_deref().and_then(|name| std::env::var(name).ok()).filter(|k| !k.is_empty()))
    }
}

/// What a model call is for. Background purposes use the chat chain unless routed to
/// a model of their own (often a cheaper one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// Replies to the user.
    Chat,
    /// Running summaries, checkpoints and summaries of long tool outputs.
    Summarize,
    /// The spontaneous loop's decision.
    Proactive,
    /// Pulling facts out of text.
    Extract,
}

impl Purpose {
    pub const ALL: [Purpose; 4] = [Purpose::Chat, Purpose::Summarize, Purpose::Proactive, Purpose::Extract];

    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Chat => "chat",
            Purpose::Summarize => "summarize",
            Purpose::Proactive => "proactive",
            Purpose::Extract => "extract",
        }
    }
}

/// Which providers serve which purpose, in fallback order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoutingSettings {
    #[serde(default)]
    pub chat: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summarize: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proactive: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extract: Vec<String>,
}

impl RoutingSettings {
    /// The provider ids routed to `purpose`, as written (empty: the default).
    pub(crate) fn ids(&self, purpose: Purpose) -> &[String] {
        match purpose {
            Purpose::Chat => &self.chat,
            Purpose::Summarize => &self.summarize,
            Purpose::Proactive => &self.proactive,
            Purpose::Extract => &self.extract,
        }
    }
}

/// Network behaviour of model calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct LlmSettings {
    /// Time allowed to open the TCP connection.
    pub connect_timeout_secs: f64,
    /// Time allowed until the response headers arrive.
    pub response_timeout_secs: f64,
    /// Longest silence allowed between two streamed chunks.
    pub idle_timeout_secs: f64,
    /// Upper bound on the reply length, in tokens.
    pub max_tokens: Option<u32>,
    /// Retries of one provider on transient failures before falling back.
    pub max_retries: u32,
    /// First retry delay in milliseconds; doubles with each retry.
    pub retry_base_ms: u64,
    /// Longest wait before a retry; a longer `Retry-After` falls back instead.
    pub retry_max_secs: f64,
    /// Model calls allowed in one turn (tool rounds, continuations, corrections).
    pub max_iterations: u32,
    /// Wall-clock limit for one whole turn.
    pub turn_timeout_secs: f64,
    /// Automatic continuations of a reply cut by the length limit.
    pub max_continuations: u32,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            connect_timeout_secs: 10.0,
            response_timeout_secs: 120.0,
            idle_timeout_secs: 60.0,
            max_tokens: Some(1024),
            max_retries: 2,
            retry_base_ms: 500,
            retry_max_secs: 30.0,
            max_iterations: 8,
            turn_timeout_secs: 300.0,
            max_continuations: 2,
        }
    }
}

impl LlmSettings {
    pub(crate) fn connect_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.connect_timeout_secs)
    }
    pub(crate) fn response_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.response_timeout_secs)
    }
    pub(crate) fn idle_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.idle_timeout_secs)
    }
    pub fn timeouts(&self) -> crate::llm::timeouts::Timeouts {
        crate::llm::timeouts::Timeouts { connect: self.connect_timeout(), respond: self.response_timeout(), idle: self.idle_timeout() }
    }
    pub fn retry_policy(&self) -> crate::llm::retry::RetryPolicy {
        crate::llm::retry::RetryPolicy {
            max_retries: self.max_retries,
            base_delay: Duration::from_millis(self.retry_base_ms),
            max_delay: Duration::from_secs_f64(self.retry_max_secs),
        }
    }
    pub fn turn_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.turn_timeout_secs)
    }
}

/// How the context's fit keeps every request inside the model's window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ContextSettings {
    /// Share of the budget at which a checkpoint is written and old turns are folded
    /// into the running summary.
    pub threshold_percent: u8,
    /// Share of the budget the live history is brought down to when that happens.
    pub target_percent: u8,
    /// Whole turns (a user message and what answered it) that always stay verbatim.
    pub min_turns_to_keep: usize,
    /// The most whole turns sent, however much room is left (the sliding window's
    /// `max_history_turns`; the plans suggest 15). Unset: as many as fit the budget.
    /// Older turns stay stored and reachable through recall.
    pub max_history_turns: Option<usize>,
    /// Tool results kept in full; older ones are replaced by a placeholder.
    pub keep_tool_results: usize,
    /// A tool result longer than this is compacted before the model sees it.
    pub max_tool_result_tokens: usize,
}

impl Default for ContextSettings {
    fn default() -> Self {
        Self { threshold_percent: 80, target_percent: 50, min_turns_to_keep: 3, max_history_turns: None, keep_tool_results: 3, max_tool_result_tokens: 1500 }
    }
}

/// About the person Sidecar talks to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct UserSettings {
    /// IANA time zone ("America/Argentina/Buenos_Aires"); the system's when unset.
    pub timezone: Option<String>,
    /// When a reminder said as a date with no hour ("el viernes") goes off: "HH:MM".
    pub all_day_time: Option<String>,
    /// Where the user lives, as they write it ("Madrid"): the morning brief's weather.
    pub place: Option<String>,
}

impl UserSettings {
    /// The hour of an all-day reminder; 09:00 unless set.
    /// The hour the user chose for a date said with no hour; `None`: Sidecar asks.
    pub fn chosen_all_day_time(&self) -> Option<chrono::NaiveTime> {
        self.all_day_time.as_deref().and_then(|t| chrono::NaiveTime::parse_from_str(t, "%H:%M").ok())
    }

    pub fn all_day_time(&self) -> chrono::NaiveTime {
        self.chosen_all_day_time().unwrap_or(sidecar_dates::DEFAULT_ALL_DAY)
    }
}

/// Which web search service `web_search` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum SearchBackend {
    /// DuckDuckGo's results page: no key, no setup (the default).
    Duckduckgo,
    /// A SearXNG instance's JSON API (self-hostable, no key).
    Searxng,
    /// Brave Search API (key required).
    Brave,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct WebSearchSettings {
    /// Unset: SearXNG when `url` is set (as before there was a choice), else DuckDuckGo.
    pub backend: Option<SearchBackend>,
    /// Base URL of the service (the SearXNG instance; an override for the others).
    pub url: Option<String>,
    /// Environment variable holding the Brave API key (else the key saved in Settings).
    pub api_key_env: Option<String>,
}

impl SearchBackend {
    /// As settings.toml spells it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SearchBackend::Duckduckgo => "duckduckgo",
            SearchBackend::Searxng => "searxng",
            SearchBackend::Brave => "brave",
        }
    }
}

impl WebSearchSettings {
    /// The service searches go to.
    pub fn backend(&self) -> SearchBackend {
        self.backend.unwrap_or(if self.url.is_some() { SearchBackend::Searxng } else { SearchBackend::Duckduckgo })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ReadUrlSettings {
    /// Allow loopback, private and link-local addresses (off: protects the local
    /// network from pages that try to make Sidecar fetch it).
    pub allow_private: bool,
    /// Largest download, in bytes.
    pub max_bytes: usize,
    /// Longest text handed to the model, in characters.
    pub max_chars: usize,
}

impl Default for ReadUrlSettings {
    fn default() -> Self {
        Self { allow_private: false, max_bytes: 2_000_000, max_chars: 20_000 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct WeatherSettings {
    pub geocoding_url: String,
    pub forecast_url: String,
}

impl Default for WeatherSettings {
    fn default() -> Self {
        Self { geocoding_url: "https://geocoding-api.open-meteo.com/v1/search".into(), forecast_url: "https://api.open-meteo.com/v1/forecast".into() }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ToolSettings {
    pub web_search: WebSearchSettings,
    pub read_url: ReadUrlSettings,
    pub weather: WeatherSettings,
    /// The folder the note tools read and write (an Obsidian vault works).
    pub notes_folder: Option<PathBuf>,
    /// Tools that only read (notes, and MCP tools marked read-only) run without asking.
    pub auto_allow_read_only: bool,
}

/// The offline default model, used when no provider is configured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct LocalModelSettings {
    /// The runtime folder (llama.cpp's server, the demo model, the embedder's weights);
    /// unset, the one beside the program ([`sidecar_domain::runtime_files`]) or `SIDECAR_RUNTIME`.
    pub runtime: Option<PathBuf>,
    /// Context window given to the local server (default: the model's own, at most
    /// 8192 tokens, `local_models::DEFAULT_LOCAL_CONTEXT` in the core).
    pub context_tokens: Option<u32>,
    /// The GGUF file the local server runs (`sidecar models use NAME` sets it); unset,
    /// the built-in demo model.
    pub model: Option<PathBuf>,
    /// How the local model samples; unset values come from the catalogue's entry for
    /// the model, else llama.cpp's defaults.
    #[serde(default, skip_serializing_if = "crate::llm::sampling::Sampling::is_unset")]
    pub sampling: crate::llm::sampling::Sampling,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    #[serde(default)]
    pub providers: Vec<ProviderSettings>,
    #[serde(default)]
    pub routing: RoutingSettings,
    #[serde(default)]
    pub llm: LlmSettings,
    #[serde(default)]
    pub local_model: LocalModelSettings,
    #[serde(default)]
    pub user: UserSettings,
    /// Theme, language and the global shortcut of the desktop app.
    #[serde(default)]
    pub desktop: desktop::DesktopSettings,
    #[serde(default)]
    pub tools: ToolSettings,
    #[serde(default)]
    pub context: ContextSettings,
    /// How long conversations are kept (Settings → Your data).
    #[serde(default)]
    pub retention: RetentionSettings,
    /// Talking to Sidecar: spoken replies, the microphone.
    #[serde(default)]
    pub voice: voice::VoiceSettings,
    /// Recall by meaning and remembering facts.
    #[serde(default)]
    pub memory: memory::MemorySettings,
    /// Telegram and WhatsApp.
    #[serde(default)]
    pub channels: channels::ChannelsSettings,
    /// Sidecar served to other programs (the MCP endpoint).
    #[serde(default)]
    pub connections: connections::ConnectionsSettings,
    /// The user's other devices attached to this Sidecar.
    #[serde(default)]
    pub devices: devices::DevicesSettings,
    /// Limits on what model calls may cost.
    #[serde(default)]
    pub budget: budget::BudgetSettings,
    /// Prices per model, overriding or extending the built-in table.
    #[serde(default)]
    pub prices: std::collections::BTreeMap<String, crate::llm::pricing::Price>,
    /// Where newer versions come from, and whether to look daily.
    #[serde(default)]
    pub updates: updates::UpdateSettings,
    /// What the loader noticed but did not refuse (unknown keys), said to the user.
    #[serde(skip)]
    #[schemars(skip)]
    pub warnings: Vec<String>,
}

impl Settings {
    /// Reads `path` (defaults when it does not exist) and applies environment overrides.
    /// Keys no setting reads end up in [`Settings::warnings`].
    pub fn load(path: &Path) -> Result<Self, SettingsError> {
        let mut settings = Self::from_file(path)?;
        // The folder beside the program, unless the file names one; SIDECAR_RUNTIME (in
        // `apply_env`) overrides both, and `off` clears it.
        if settings.local_model.runtime.is_none() {
            settings.local_model.runtime = sidecar_domain::runtime_files::beside_program();
        }
        settings.apply_env(|name| std::env::var(name).ok().filter(|v| !v.is_empty()));
        settings.validate(path)?;
        Ok(settings)
    }

    /// Reads and checks `path` as start would, without the environment's overrides: a
    /// settings file from elsewhere (a backup) before it is put in place.
    pub fn check_file(path: &Path) -> Result<Self, SettingsError> {
        let settings = Self::from_file(path)?;
        settings.validate(path)?;
        Ok(settings)
    }

    fn from_file(path: &Path) -> Result<Self, SettingsError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => return Err(SettingsError::Read { path: path.to_path_buf(), source }),
        };
        let (mut settings, unknown) =
            unknown::parse_noting_unknown(&text).map_err(|e| SettingsError::Parse { path: path.to_path_buf(), message: e.to_string() })?;
        settings.warnings = unknown.into_iter().map(|w| format!("{}: {w}", path.display())).collect();
        Ok(settings)
    }

    /// Applies `SIDECAR_LLM_*` overrides. A base URL adds a provider `env` that goes
    /// first in the chat chain; a model or key alone adjusts the first chat provider.
    pub fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) {
        let model = var(LLM_MODEL_ENV);
        let key = var(LLM_API_KEY_ENV);
        if let Some(base_url) = var(LLM_BASE_URL_ENV) {
            self.providers.retain(|p| p.id != "env");
            self.providers.push(ProviderSettings {
                id: "env".into(),
                kind: ProviderKind::Openai,
                base_url,
                model: model.unwrap_or_else(|| "default".into()),
                api_key_env: None,
                api_key: key,
                tools: true,
                context_window: None,
                vision: None,
                sampling: Default::default(),
            });
            self.routing.chat.retain(|id| id != "env");
            self.routing.chat.insert(0, "env".into());
        } else if let Some(first) = self.chat_chain().first().map(|p| p.id.clone()) {
            let provider = self.providers.iter_mut().find(|p| p.id == first);
            if let Some(provider) = provider {
                if let Some(model) = model {
                    provider.model = model;
                }
                if key.is_some() {
                    provider.api_key = key;
                }
            }
        }
        if let Some(runtime) = var(sidecar_domain::runtime_files::RUNTIME_ENV) {
            self.local_model.runtime = (runtime != sidecar_domain::runtime_files::OFF).then(|| PathBuf::from(runtime));
        }
    }

    /// Providers for chat in fallback order: the routing list, or every provider in
    /// file order when no routing is given.
    /// Providers for a background purpose: its own routing list, else `None` (it uses
    /// the chat chain, whatever that resolves to, the offline model included).
    pub fn routed_chain(&self, purpose: Purpose) -> Option<Vec<&ProviderSettings>> {
        let ids = self.routing.ids(purpose);
        (purpose != Purpose::Chat && !ids.is_empty()).then(|| ids.iter().filter_map(|id| self.providers.iter().find(|p| &p.id == id)).collect())
    }

    pub fn chat_chain(&self) -> Vec<&ProviderSettings> {
        if self.routing.chat.is_empty() {
            return self.providers.iter().collect();
        }
        self.routing.chat.iter().filter_map(|id| self.providers.iter().find(|p| &p.id == id)).collect()
    }
}

impl sidecar_domain::Worded for SettingsError {
    fn spanish(&self) -> String {
        match self {
            SettingsError::Read { path, source } => format!("no se puede leer el archivo de ajustes {}: {source}", path.display()),
            SettingsError::Parse { path, message } => format!("el archivo de ajustes {} no es TOML válido: {message}", path.display()),
            SettingsError::Invalid { path, refusal } => format!("archivo de ajustes {}: {}", path.display(), refusal.spanish()),
        }
    }
}

#[cfg(test)]
mod tests;
