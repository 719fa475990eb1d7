//! The companion: one object the desktop shell and the CLI drive. It owns the store,
//! the models, the tools and the event bus, and runs one turn at a time.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

pub use crate::companion_options::CompanionOptions;
pub use crate::error::CompanionError;
use crate::events::{CoreEvent, EventBus};
use sidecar_agent::ContextService;
use sidecar_agent::ConversationParts;
use sidecar_agent::ConversationService;
pub use sidecar_agent::TurnOutcome;
use sidecar_channels::serve;
use sidecar_channels::CallSource;
use sidecar_channels::Caller;
use sidecar_channels::ChannelService;
use sidecar_channels::PhoneParts;
use sidecar_domain::Channel;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_llm::Models;
use sidecar_llm::ProviderAdmin;
use sidecar_memory::KnowledgeStore;
use sidecar_outbox::MessageRouter;
use sidecar_proactive::BrainLock;
use sidecar_proactive::ProactiveService;
use sidecar_reminders::ReminderService;
use sidecar_settings::Change;
use sidecar_settings::Settings;
use sidecar_settings::SettingsOwner;
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
mod memory;
mod running;
mod serving;
mod standard_tools;
mod tasks;
mod voice;
mod web_files;
pub use voice::{Heard, VoiceModel, VoiceView};

pub use running::{Delivery, Face, Running};
pub use standard_tools::default_tools;
use standard_tools::{tool_http, tools_searching_with};
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
    /// The CalDAV account and its calendars.
    calendar: Arc<sidecar_calendar::CalendarService>,
    /// The calendar's tools, and where they are offered while an account is connected.
    calendar_tools: (Vec<Arc<dyn sidecar_tools::Tool>>, Arc<sidecar_tools::ToolBoard>),
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
}

impl Companion {
    /// Wires the services together. Nothing here decides anything.
    pub async fn open(options: CompanionOptions) -> Result<Arc<Self>, CompanionError> {
        let settings_warnings = options.settings.warnings.clone();
        let (zone, zone_warning) = sidecar_domain::resolve_zone(options.settings.user.timezone.as_deref());
        if let Some(warning) = &zone_warning {
            tracing::warn!("{warning}");
        }
        let clock = options.clock.clone();
        clock.set_zone(zone);
        let lang = sidecar_settings::language_of(options.settings.desktop.language);
        // The settings' one owner: every change below is written and held through it.
        let owner = Arc::new(SettingsOwner::new(options.settings.clone(), options.config_path.clone()));
        let preferences = Arc::new(sidecar_settings::Preferences::new(owner.clone(), lang));
        // An update's migrations run once, after a backup; a newer Sidecar's data is refused.
        let (store, _) = sidecar_data::open_store(&options.data_dir, options.config_path.as_deref(), clock.now()).await?;
        let store = store.with_clock(clock.clone());
        store.corrections().purge_expired_corrections(clock.now()).await?;
        let events = EventBus::default();
        let updates =
            Arc::new(sidecar_desktop_features::Updates::new(owner.clone(), &options.data_dir, clock.clone(), events.emitter(CoreEvent::Updates), lang));
        let knowledge = Arc::new(KnowledgeStore::open(&options.data_dir, lang)?);
        let meaning = Arc::new(sidecar_memory::MeaningIndex::new(
            store.clone(),
            knowledge.clone(),
            events.emitter(CoreEvent::Memory),
            events.subscriber(stored_or_learned),
            tool_http(),
            sidecar_memory::EmbedderChoice::from_settings(&options.settings, &options.secrets),
            sidecar_domain::log_dir(&options.data_dir),
        ));
        knowledge.compare_by_meaning(Arc::new(sidecar_memory::ByMeaning::new(&meaning)));
        let meaning_setup = Arc::new(sidecar_memory::MeaningSetup::new(options.secrets.clone(), owner.clone(), meaning.clone()));
        let noticing = Arc::new(sidecar_memory::Noticing::new(owner.clone()));
        let budget = sidecar_llm::Budget::new(store.clone(), clock.clone(), events.emitter(CoreEvent::Budget), &options.settings, lang);
        let log_dir = sidecar_domain::log_dir(&options.data_dir);
        let models = Arc::new(Models::new(owner.clone(), options.secrets.clone(), log_dir, events.emitter(CoreEvent::Model), store.clone(), budget, lang));
        knowledge.judge_with(Arc::new(sidecar_memory::ModelJudge(models.clone())));
        let router = MessageRouter::default();
        let chat = Arc::new(sidecar_proactive::ChatSink {
            store: store.clone(),
            events: events.emitter(CoreEvent::Proactive),
            reminders: events.emitter(CoreEvent::Reminders),
            channel: options.channel,
        });
        router.register(chat.clone());
        router.set_history(chat);
        router.set_whereabouts(Arc::new(sidecar_proactive::StoredWhereabouts { store: store.clone(), clock: clock.clone() }));
        let brain: BrainLock = Arc::default();

        let plans = Arc::new(sidecar_agent::PlanBoard::new(store.clone(), events.emitter(crate::events::CoreEvent::Chat)));
        let context = Arc::new(ContextService::new(
            store.clone(),
            knowledge.clone(),
            plans.clone(),
            events.emitter(crate::events::CoreEvent::Chat),
            models.clone(),
            clock.clone(),
            options.data_dir.clone(),
        ));
        let all_day = models.settings().user.chosen_all_day_time();
        let reminders = Arc::new(ReminderService::new(
            store.clone(),
            clock.clone(),
            events.emitter(CoreEvent::Reminders),
            router.clone(),
            options.data_dir.clone(),
            lang,
            all_day,
        ));
        let proactive = Arc::new(ProactiveService::new(
            store.clone(),
            models.clone(),
            knowledge.clone(),
            router.clone(),
            brain.clone(),
            events.emitter(crate::events::CoreEvent::Proactive),
            |text| sidecar_agent::parse_command(text).is_some(),
            clock.clone(),
            lang,
        ));
        let data = Arc::new(sidecar_data::DataService::new(
            store.clone(),
            knowledge.clone(),
            meaning.clone(),
            clock.clone(),
            lang,
            options.data_dir.clone(),
            options.config_path.clone(),
        ));
        let recall = Arc::new(sidecar_memory::Recall::new(store.clone(), knowledge.clone(), meaning.clone(), clock.clone()));

        // The tool and Settings' "Try a search" share one setup (and one client).
        let search = sidecar_tools::WebSearch { http: tool_http(), setup: Arc::new(sidecar_tools::SearchSetup::new(options.secrets.clone(), owner.clone())) };
        let permissions = Arc::new(sidecar_actions::PermissionGate::new(store.clone(), clock.clone(), owner.clone()));
        let questions = Arc::new(sidecar_actions::WindowQuestions::new(events.emitter(CoreEvent::Permissions), lang));
        let mut tools = tools_searching_with(&models.settings(), clock.clone(), search.clone())
            .guarded_by(permissions.clone())
            .redacting_with(options.secrets.redactor().clone());
        tools.register(sidecar_memory::RememberFact::new(knowledge.clone(), clock.clone()));
        tools.register(sidecar_memory::RecallTool(recall.clone()));
        tools.register(sidecar_agent::UpdatePlan(plans));
        let chooser = Arc::new(sidecar_agent::ToolChooser::new(Some(meaning)));
        let (tools_starting, tools_starting_seen) = tokio::sync::watch::channel(false);
        tools.register(sidecar_agent::FindTools(chooser.clone()));
        sidecar_reminders::register(&mut tools, reminders.clone());
        let tasks = Arc::new(sidecar_tasks::Tasks::new(store.clone(), events.emitter(CoreEvent::Tasks)));
        tasks.follow_language(lang).await?;
        let calendar = Arc::new(sidecar_calendar::CalendarService::new(store.clone(), options.secrets.clone(), clock.clone(), sidecar_calendar::feed_client()));
        proactive.watch_calendar(calendar.clone());
        reminders.watch_events(calendar.clone());
        // The model proposes a task; its grants are checked against the tools there are then.
        let offered: Arc<std::sync::OnceLock<std::sync::Weak<ConversationService>>> = Arc::default();
        tools.register(sidecar_tasks::ScheduleTask {
            tasks: tasks.clone(),
            clock: clock.clone(),
            lang,
            known: {
                let offered = offered.clone();
                Arc::new(move || {
                    let conversation = offered.get().and_then(std::sync::Weak::upgrade);
                    conversation.map(|c| c.tools().tools().map(|t| t.name().to_string()).collect()).unwrap_or_default()
                })
            },
        });
        let conversation = Arc::new(ConversationService::new(
            ConversationParts {
                store: store.clone(),
                models: models.clone(),
                context: context.clone(),
                reminders: reminders.clone(),
                proactive: proactive.clone(),
                knowledge: knowledge.clone(),
                events: events.emitter(crate::events::CoreEvent::Chat),
                clock: clock.clone(),
                lang,
                channel: options.channel,
                brain,
                noticing: noticing.clone(),
                chooser,
                tools_starting: tools_starting_seen,
            },
            tools.clone(),
        ));
        let _ = offered.set(Arc::downgrade(&conversation));
        let board = Arc::new(sidecar_tools::ToolBoard::new(tools, {
            let conversation = conversation.clone();
            Box::new(move |offered| conversation.set_tools(offered))
        }));
        let settings_file = options.config_path.clone().unwrap_or_else(|| options.data_dir.join("settings.toml"));
        let mcp = {
            let board = board.clone();
            sidecar_actions::McpHub::new(
                sidecar_actions::mcp_config_path(&settings_file),
                events.emitter(CoreEvent::Mcp),
                Box::new(move |offered, starting| {
                    board.set("mcp", offered);
                    tools_starting.send_replace(starting);
                }),
                options.secrets.clone(),
            )
        };
        let tool_settings = models.settings().tools.clone();
        let notes = Arc::new(sidecar_actions::NotesSetup::new(tool_settings.notes_folder.as_deref(), owner.clone(), board.clone()));
        let calendar_tools = sidecar_calendar::tools(sidecar_calendar::ToolServices { calendar: calendar.clone(), clock: clock.clone(), lang });
        if let Ok(view) = calendar.view().await {
            board.set("calendar", sidecar_calendar::offered(&view, &calendar_tools));
        }
        // One speech model for push-to-talk and the phone's voice notes.
        let speech = Arc::new(match &models.settings().local_model.runtime {
            Some(runtime) => sidecar_voice::SpeechModel::in_runtime(runtime),
            None => sidecar_voice::SpeechModel::not_installed(),
        });
        let talk = Arc::new(sidecar_voice::Talk::new(speech.clone(), events.emitter(CoreEvent::Voice)));
        let phone = PhoneParts {
            store: store.clone(),
            clock: clock.clone(),
            lang,
            events: events.emitter(CoreEvent::Channels),
            settings: owner.clone(),
            data_dir: options.data_dir.clone(),
            proactive: Arc::downgrade(&proactive),
            redactor: options.secrets.redactor().clone(),
            speech: speech.clone(),
        };
        let client_notes = sidecar_serve::ClientNotes::new(router.clone(), lang);
        let channels = Arc::new(ChannelService::new(phone, options.secrets.clone(), router, conversation.clone()));
        permissions.set_phone_asker(channels.questions());
        let (local, caller) = CallSource::new(options.channel, clock.clone());
        tokio::spawn(serve(Arc::new(local), conversation.clone(), channels.questions()));
        let (api_source, api_caller) = CallSource::new(Channel::Api, clock.clone());
        tokio::spawn(serve(Arc::new(api_source), conversation.clone(), channels.questions()));
        let (device_source, device_caller) = CallSource::new(Channel::Device, clock.clone());
        tokio::spawn(serve(Arc::new(device_source), conversation.clone(), channels.questions()));
        let connections = Arc::new(sidecar_serve::Connections::new(store.clone(), clock.clone()));
        let hosting = Arc::new(sidecar_serve::Hosting {
            tokens: sidecar_serve::ApiTokens::new(store.clone(), clock.clone(), options.secrets.clone(), connections.clone()),
            connections,
            notes: client_notes,
            chat: api_caller,
            chat_turn: tokio::sync::Mutex::new(()),
        });
        let devices = Arc::new(devices::DeviceLink::new(store.clone(), options.data_dir.clone()));
        let home = Arc::new(home::HomeLink::new(&options.data_dir, options.secrets.clone()));
        Ok(Arc::new(Self {
            devices,
            home,
            providers: ProviderAdmin::new(models.clone(), options.secrets),
            budget: sidecar_llm::BudgetAdmin::new(models.clone(), store.clone(), clock.clone()),
            chats: sidecar_agent::Chats::new(store.clone(), conversation.clone(), clock.clone()),
            preferences,
            updates,
            search,
            hub: Arc::new(sidecar_llm::ModelHub::new(&options.data_dir, models.clone(), events.emitter(CoreEvent::LocalModels), lang)),
            store,
            models,
            knowledge,
            recall,
            data,
            meaning_setup,
            noticing,
            events,
            data_dir: options.data_dir,
            clock,
            lang,
            conversation,
            caller,
            device_caller,
            channel: options.channel,
            context,
            reminders,
            tasks,
            calendar,
            calendar_tools: (calendar_tools, board),
            proactive,
            channels,
            mcp,
            permissions,
            questions,
            notes,
            hosting,
            notifier: Arc::new(sidecar_proactive::Notifier::new()),
            talk,
            speech,
            warnings: settings_warnings.into_iter().chain(zone_warning).collect(),
        }))
    }

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

    pub fn notes(&self) -> &Arc<sidecar_actions::NotesSetup> {
        &self.notes
    }

    /// Settings' switch: tools that only read run without asking; saved in settings.toml.
    pub fn set_auto_allow_read_only(&self, on: bool) -> Result<(), CompanionError> {
        Ok(self.permissions.set_auto_read_only(on)?)
    }

    /// The settings file in use, if any (tests may run without one).
    /// Sidecar as a server for other programs (MCP, the local API).
    pub fn hosting(&self) -> &Arc<sidecar_serve::Hosting> {
        &self.hosting
    }

    pub fn context(&self) -> &Arc<ContextService> {
        &self.context
    }

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

    /// Push-to-talk: start, finish (the words), cancel.
    pub fn talk(&self) -> &Arc<sidecar_voice::Talk> {
        &self.talk
    }

    /// Adding, editing, ordering and testing model providers.
    pub fn provider_admin(&self) -> &ProviderAdmin {
        &self.providers
    }

    /// The local model manager: catalogue, downloads, the model the local server runs.
    pub fn model_hub(&self) -> &Arc<sidecar_llm::ModelHub> {
        &self.hub
    }

    /// Past conversations: list, open, rename, delete.
    pub fn chats(&self) -> &sidecar_agent::Chats {
        &self.chats
    }

    /// Which service web search asks.
    pub fn web_search(&self) -> &Arc<sidecar_tools::SearchSetup> {
        &self.search.setup
    }

    /// A search on the chosen service, as Settings' "Try it" runs it.
    pub async fn try_web_search(&self, query: &str) -> Result<Vec<sidecar_tools::SearchResult>, CompanionError> {
        Ok(self.search.search(query, 5).await?)
    }

    /// Theme, language and the global shortcut.
    pub fn preferences(&self) -> &Arc<sidecar_settings::Preferences> {
        &self.preferences
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

    /// The window should open on the welcome (first launch, no model chosen yet).
    pub fn welcome_needed(&self) -> bool {
        sidecar_settings::welcome_needed(&self.data_dir, &self.models.settings())
    }

    pub fn finish_welcome(&self) -> Result<(), CompanionError> {
        sidecar_settings::finish_welcome(&self.data_dir).map_err(|e| sidecar_domain::CannotWrite::new(&self.data_dir, e).into())
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn lang(&self) -> Lang {
        self.lang
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

    /// The models per purpose (providers, routing, the offline model).
    pub fn models(&self) -> &Arc<Models> {
        &self.models
    }

    pub fn settings(&self) -> Arc<Settings> {
        self.models.settings()
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

    /// Starts the chat model now rather than at the first message, so the first reply
    /// does not wait for the offline server to load.
    pub(crate) async fn warm_up(&self) -> Result<(), CompanionError> {
        self.models.warm_up().await.map_err(|why| sidecar_llm::ModelUnavailable(why).into())
    }

    pub fn model_status(&self) -> crate::events::ModelStatus {
        self.models.status()
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

    /// The budget: its view, the click that allows more, its limits, the last 30 days.
    pub fn budget(&self) -> &sidecar_llm::BudgetAdmin {
        &self.budget
    }

    pub async fn shutdown(&self) {
        self.devices.stop().await;
        self.channels.stop();
        self.mcp.stop_all();
        self.conversation.stop();
        self.models.shutdown().await;
        self.store.close().await;
    }
}

/// What may leave something new to embed: a turn or a spontaneous message stored, the
/// knowledge files changed.
fn stored_or_learned(event: &CoreEvent) -> Option<()> {
    use sidecar_agent::ChatEvent;
    use sidecar_memory::MemoryEvent;
    use sidecar_proactive::ProactiveEvent;
    let new = matches!(
        event,
        CoreEvent::Chat(ChatEvent::TurnFinished { .. } | ChatEvent::TurnFailed { .. })
            | CoreEvent::Proactive(ProactiveEvent::SpontaneousMessage { .. })
            | CoreEvent::Memory(MemoryEvent::KnowledgeChanged { .. })
    );
    new.then_some(())
}
