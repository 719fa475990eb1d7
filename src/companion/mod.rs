//! The companion: one object the desktop shell and the CLI drive. It owns the store,
//! the models, the tools and the event bus, and runs one turn at a time.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

pub use crate::companion_options::CompanionOptions;
pub use crate::error::CompanionError;
use crate::events::{CoreEvent, EventBus};
use sidecar_agent::ContextService;
use sidecar_agent::ConversationService;
pub use sidecar_agent::TurnOutcome;
use sidecar_channels::Caller;
use sidecar_channels::ChannelService;
use sidecar_domain::Channel;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_llm::Models;
use sidecar_llm::ProviderAdmin;
use sidecar_memory::KnowledgeStore;
use sidecar_proactive::ProactiveService;
use sidecar_reminders::ReminderService;
use sidecar_settings::Change;
use sidecar_settings::Settings;
use sidecar_store::Store;
use sidecar_store::UsageTotals;
use sidecar_tools::ToolRegistry;

mod aloud;
mod brief;
mod calendar;
mod chat;
pub mod devices;
pub(crate) mod devices_sink;
pub mod home;
mod mail;
mod memory;
mod running;
mod serving;
mod standard_tools;
mod task_services;
mod tasks;
mod voice;
mod web_files;
mod wiring;
pub use voice::{Heard, VoiceModel, VoiceView};

pub use chat::ForgottenExchange;
pub use running::{ComputerView, Delivery, Face, Running};
pub use standard_tools::default_tools;
pub use tasks::TasksPage;

/// Token use and cost today (the user's local midnight) and overall.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct UsageReport {
    pub today: UsageTotals,
    pub all_time: UsageTotals,
}

pub struct Companion {
    store: Store,
    models: Arc<Models>,
    providers: ProviderAdmin,
    budget: sidecar_llm::BudgetAdmin,
    hub: Arc<sidecar_llm::ModelHub>,
    chats: sidecar_agent::Chats,
    preferences: Arc<sidecar_settings::Preferences>,
    updates: Arc<sidecar_desktop_features::Updates>,
    /// The window's lock: a passphrase, idle minutes, locked or not.
    app_lock: Arc<sidecar_desktop_features::AppLock>,
    search: sidecar_tools::WebSearch,
    knowledge: Arc<KnowledgeStore>,
    recall: Arc<sidecar_memory::Recall>,
    data: Arc<sidecar_data::DataService>,
    meaning_setup: Arc<sidecar_memory::MeaningSetup>,
    noticing: Arc<sidecar_memory::Noticing>,
    events: EventBus,
    data_dir: PathBuf,
    clock: Clock,
    lang: Lang,
    conversation: Arc<ConversationService>,
    /// This process's own source (the window, or a CLI command), served through the inbox.
    caller: Caller,
    /// The user's other devices attached to this one (their messages say so).
    device_caller: Caller,
    /// Where this process's user talks from.
    channel: Channel,
    context: Arc<ContextService>,
    reminders: Arc<ReminderService>,
    /// Scheduled tasks: their rows, their looks, the user's edits.
    tasks: Arc<sidecar_tasks::Tasks>,
    /// Runs what is due and delivers the results.
    runner: Arc<sidecar_tasks::Runner>,
    /// The CalDAV account and its calendars.
    calendar: Arc<sidecar_calendar::CalendarService>,
    /// The calendar's tools, and where they are offered while an account is connected.
    calendar_tools: (Vec<Arc<dyn sidecar_tools::Tool>>, Arc<sidecar_tools::ToolBoard>),
    /// The mail account (read only) and its mail.
    mail: Arc<sidecar_mail::MailService>,
    /// `search_mail`, offered on the calendar's board while an account is connected.
    mail_tool: Arc<dyn sidecar_tools::Tool>,
    proactive: Arc<ProactiveService>,
    channels: Arc<ChannelService>,
    /// The user's MCP servers (started by the front-ends that offer their tools).
    mcp: Arc<sidecar_actions::McpHub>,
    /// Permission before every tool that acts.
    permissions: Arc<sidecar_actions::PermissionGate>,
    /// The permission questions the windows show as cards (this one's, and attached devices').
    questions: Arc<sidecar_actions::WindowQuestions>,
    /// Settings → Notes: the folder the note tools work in.
    notes: Arc<sidecar_actions::NotesSetup>,
    /// Sidecar as a server: consent, API tokens, notes from programs, API chat turns.
    hosting: Arc<sidecar_serve::Hosting>,
    /// Native notifications and the one listener for their answers.
    notifier: Arc<sidecar_proactive::Notifier>,
    /// Push-to-talk: the microphone to words.
    talk: Arc<sidecar_voice::Talk>,
    /// Speech to text, shared by push-to-talk and the phone's voice notes.
    speech: Arc<sidecar_voice::SpeechModel>,
    /// Problems found while starting that the user should see (a bad time zone).
    warnings: Vec<String>,
    /// The user's other devices attached to this Sidecar, and the link they use.
    devices: Arc<devices::DeviceLink>,
    home: Arc<home::HomeLink>,
    /// The computer's idle time and battery (DT-3).
    computer: Arc<dyn sidecar_computer::Computer>,
    /// This process ran the loops (the app, the daemon): an incognito chat still open
    /// when it ends is forgotten. A CLI command that only asks leaves the app's alone.
    runs_loops: std::sync::atomic::AtomicBool,
}

impl Companion {
    // The assembly's own: the clock and language every crate is given, the events of all of
    // them, the store, the data folder, what start found, the end.

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The user's IANA zone: the configured one, else the system's.
    pub fn zone(&self) -> chrono_tz::Tz {
        self.clock.zone()
    }

    /// Sets the user's IANA zone: saved in settings.toml (`[user] timezone`) and used
    /// at once by everything that reads the clock. Providers are not touched. Existing
    /// reminders keep the zone they were set in.
    pub fn set_timezone(&self, name: &str) -> Result<chrono_tz::Tz, CompanionError> {
        let zone: chrono_tz::Tz = name.trim().parse().map_err(|_| CompanionError::NotAZone(name.to_string()))?;
        self.models.settings_owner().change(Change::TimeZone(zone.name().to_string()))?;
        self.clock.set_zone(zone);
        Ok(zone)
    }

    /// Problems found at start that the user should see and fix.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    pub fn events(&self) -> &EventBus {
        &self.events
    }

    /// The turns' events alone, for a face below the assembly that streams a reply.
    pub(crate) fn chat_events(&self) -> sidecar_domain::Subscriber<sidecar_agent::ChatEvent> {
        self.events.subscriber(|event| match event {
            CoreEvent::Chat(chat) => Some(chat.clone()),
            _ => None,
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub async fn shutdown(&self) {
        self.devices.stop().await;
        self.channels.stop();
        self.mcp.stop_all();
        self.conversation.stop();
        self.models.shutdown().await;
        if self.runs_loops.load(std::sync::atomic::Ordering::SeqCst) {
            self.forget_incognito().await;
        }
        self.store.close().await;
    }

    /// Removes for good any incognito chat: its window is closing, or a crash left one.
    pub(crate) async fn forget_incognito(&self) {
        match self.store.chat_list().forget_incognito(None).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::info!(forgotten, "incognito chats forgotten"),
            Err(error) => tracing::warn!(%error, "an incognito chat could not be forgotten; the next start tries again"),
        }
    }

    // Settings (sidecar-settings): the file's owner through the models, the window's
    // preferences, the first launch.

    pub fn settings(&self) -> Arc<Settings> {
        self.models.settings()
    }

    /// Theme, language and the global shortcut.
    pub fn preferences(&self) -> &Arc<sidecar_settings::Preferences> {
        &self.preferences
    }

    /// The window should open on the welcome (first launch, no model chosen yet).
    pub fn welcome_needed(&self) -> bool {
        sidecar_settings::welcome_needed(&self.data_dir, &self.models.settings())
    }

    pub fn finish_welcome(&self) -> Result<(), CompanionError> {
        sidecar_settings::finish_welcome(&self.data_dir).map_err(|e| sidecar_domain::CannotWrite::new(&self.data_dir, e).into())
    }

    // Models (sidecar-llm): the chain per purpose, providers, local models, the budget and
    // what was spent.

    /// The models per purpose (providers, routing, the offline model).
    pub fn models(&self) -> &Arc<Models> {
        &self.models
    }

    /// Starts the chat model now rather than at the first message, so the first reply
    /// does not wait for the offline server to load.
    pub(crate) async fn warm_up(&self) -> Result<(), CompanionError> {
        Ok(self.models.warm_up().await?)
    }

    /// Adding, editing, ordering and testing model providers.
    pub fn provider_admin(&self) -> &ProviderAdmin {
        &self.providers
    }

    /// The local model manager: catalogue, downloads, the model the local server runs.
    pub fn model_hub(&self) -> &Arc<sidecar_llm::ModelHub> {
        &self.hub
    }

    /// The budget: its view, the click that allows more, its limits, the last 30 days.
    pub fn budget(&self) -> &sidecar_llm::BudgetAdmin {
        &self.budget
    }

    /// Token and cost totals since `since` (RFC 3339), or overall.
    pub async fn usage_totals(&self, since: Option<&str>) -> Result<UsageTotals, CompanionError> {
        Ok(self.store.usage().usage_totals(since).await?)
    }

    /// Token use and cost since the user's local midnight, and overall.
    pub async fn usage_report(&self) -> Result<UsageReport, CompanionError> {
        let midnight = sidecar_store::utc(self.clock.local_midnight());
        Ok(UsageReport { today: self.usage_totals(Some(&midnight)).await?, all_time: self.usage_totals(None).await? })
    }

    // Tools (sidecar-tools) and actions (sidecar-actions): the registry, MCP servers,
    // permissions, notes, web search.

    pub fn tools(&self) -> Arc<ToolRegistry> {
        self.conversation.tools()
    }

    pub fn set_tools(&self, registry: ToolRegistry) {
        self.conversation.set_tools(registry)
    }

    /// The MCP servers; nothing starts until a front-end calls `reload`.
    pub fn mcp(&self) -> &Arc<sidecar_actions::McpHub> {
        &self.mcp
    }

    /// The permission questions a window shows as cards, answered from any window.
    pub fn window_questions(&self) -> &Arc<sidecar_actions::WindowQuestions> {
        &self.questions
    }

    pub fn permissions(&self) -> &Arc<sidecar_actions::PermissionGate> {
        &self.permissions
    }

    /// Settings' switch: tools that only read run without asking; saved in settings.toml.
    pub fn set_auto_allow_read_only(&self, on: bool) -> Result<(), CompanionError> {
        Ok(self.permissions.set_auto_read_only(on)?)
    }

    pub fn notes(&self) -> &Arc<sidecar_actions::NotesSetup> {
        &self.notes
    }

    /// Which service web search asks.
    pub fn web_search(&self) -> &Arc<sidecar_tools::SearchSetup> {
        &self.search.setup
    }

    /// A search on the chosen service, as Settings' "Try it" runs it.
    pub async fn try_web_search(&self, query: &str) -> Result<Vec<sidecar_tools::SearchResult>, CompanionError> {
        Ok(self.search.search(query, 5).await?)
    }

    // The turn (sidecar-agent): the context and past conversations.

    pub fn context(&self) -> &Arc<ContextService> {
        &self.context
    }

    /// Past conversations: list, open, rename, delete.
    pub fn chats(&self) -> &sidecar_agent::Chats {
        &self.chats
    }

    // Reminders, proactivity and channels (sidecar-reminders, -proactive, -channels).

    pub fn reminders(&self) -> &Arc<ReminderService> {
        &self.reminders
    }

    pub fn proactive(&self) -> &Arc<ProactiveService> {
        &self.proactive
    }

    /// Shows native notifications (the shell's own, beside the proactive sink's).
    pub fn notifier(&self) -> &Arc<sidecar_proactive::Notifier> {
        &self.notifier
    }

    /// The phone channels (Telegram, WhatsApp): their state, pairing, tokens.
    pub fn channels(&self) -> &Arc<ChannelService> {
        &self.channels
    }

    // Voice (sidecar-voice), serving (sidecar-serve) and the desktop's own
    // (sidecar-desktop-features).

    /// Push-to-talk: start, finish (the words), cancel.
    pub fn talk(&self) -> &Arc<sidecar_voice::Talk> {
        &self.talk
    }

    /// Sidecar as a server for other programs (MCP, the local API).
    pub fn hosting(&self) -> &Arc<sidecar_serve::Hosting> {
        &self.hosting
    }

    /// The app lock: the window's commands wait for its passphrase while it is locked.
    pub fn app_lock(&self) -> &Arc<sidecar_desktop_features::AppLock> {
        &self.app_lock
    }

    /// Settings → About: the version, and updates.
    pub fn updates(&self) -> &Arc<sidecar_desktop_features::Updates> {
        &self.updates
    }

    /// The user is typing in the window: what shows Sidecar's state (the character)
    /// listens.
    pub fn user_typing(&self) {
        self.events.publish(crate::events::CoreEvent::UserTyping);
    }

    /// Where the character on the desktop stands, per screen.
    pub fn character_places(&self) -> sidecar_desktop_features::CharacterPlaces {
        sidecar_desktop_features::CharacterPlaces::new(self.store.clone())
    }
}
