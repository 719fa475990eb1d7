//! `Companion::open`'s steps, in the order the services need each other: the ground
//! (clock, settings, store, events), memory, the models, where Sidecar's own messages
//! go, the features, the tools, the conversation, voice, the phones and the hosting.
//! Each step only builds and connects; nothing here decides anything. Over 400 lines
//! because it is the one place every service is built: read top to bottom, it is the
//! order they start in.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock, Weak};

use super::standard_tools::{tool_http, tools_searching_with};
use super::{devices, home, Companion, CompanionError, CompanionOptions};
use crate::events::{CoreEvent, EventBus};
use sidecar_agent::{ContextService, ConversationParts, ConversationService};
use sidecar_channels::{serve, CallSource, Caller, ChannelService, PhoneParts};
use sidecar_domain::{Channel, Clock, Lang};
use sidecar_llm::Models;
use sidecar_memory::KnowledgeStore;
use sidecar_outbox::MessageRouter;
use sidecar_proactive::{BrainLock, ProactiveService};
use sidecar_reminders::ReminderService;
use sidecar_settings::SettingsOwner;
use sidecar_store::Store;
use sidecar_tools::{Tool, ToolBoard, ToolRegistry};

/// What every later step stands on.
struct Ground {
    clock: Clock,
    lang: Lang,
    owner: Arc<SettingsOwner>,
    store: Store,
    events: EventBus,
    /// Problems found while starting that the user should see (a bad time zone).
    warnings: Vec<String>,
}

/// The clock in the user's zone, the settings' one owner, the store (migrated, after a
/// backup) and the event bus.
async fn ground(options: &CompanionOptions) -> Result<Ground, CompanionError> {
    let (zone, zone_warning) = sidecar_domain::resolve_zone(options.settings.user.timezone.as_deref());
    if let Some(warning) = &zone_warning {
        tracing::warn!("{warning}");
    }
    let clock = options.clock.clone();
    clock.set_zone(zone);
    let lang = sidecar_settings::language_of(options.settings.desktop.language);
    // The settings' one owner: every change below is written and held through it.
    let owner = Arc::new(SettingsOwner::new(options.settings.clone(), options.config_path.clone()));
    // An update's migrations run once, after a backup; a newer Sidecar's data is refused.
    let (store, _) = sidecar_data::open_store(&options.data_dir, options.config_path.as_deref(), clock.now(), &options.secrets).await?;
    let store = store.with_clock(clock.clone());
    store.corrections().purge_expired_corrections(clock.now()).await?;
    let warnings = options.settings.warnings.iter().cloned().chain(zone_warning).collect();
    Ok(Ground { clock, lang, owner, store, events: EventBus::default(), warnings })
}

/// What Sidecar knows: the facts, their index by meaning, what notices new ones.
struct Memory {
    knowledge: Arc<KnowledgeStore>,
    meaning: Arc<sidecar_memory::MeaningIndex>,
    meaning_setup: Arc<sidecar_memory::MeaningSetup>,
    noticing: Arc<sidecar_memory::Noticing>,
    recall: Arc<sidecar_memory::Recall>,
}

fn memory(ground: &Ground, options: &CompanionOptions) -> Result<Memory, CompanionError> {
    let Ground { store, events, owner, clock, lang, .. } = ground;
    let knowledge = Arc::new(KnowledgeStore::open(&options.data_dir, *lang)?);
    let meaning = Arc::new(sidecar_memory::MeaningIndex::new(
        store.clone(),
        knowledge.clone(),
        events.emitter(CoreEvent::Memory),
        events.subscriber(stored_or_learned),
        tool_http(),
        sidecar_memory::EmbedderChoice::from_settings(&options.settings, &options.secrets),
        sidecar_domain::log_dir(&options.data_dir),
    ));
    meaning.save_power_with(options.computer.clone());
    knowledge.compare_by_meaning(Arc::new(sidecar_memory::ByMeaning::new(&meaning)));
    knowledge.keep_sources_in(store.clone());
    knowledge.tidy_with(owner.clone());
    Ok(Memory {
        meaning_setup: Arc::new(sidecar_memory::MeaningSetup::new(options.secrets.clone(), owner.clone(), meaning.clone())),
        noticing: Arc::new(sidecar_memory::Noticing::new(owner.clone())),
        recall: Arc::new(sidecar_memory::Recall::new(store.clone(), knowledge.clone(), meaning.clone(), clock.clone())),
        knowledge,
        meaning,
    })
}

/// The models per purpose, within the budget; the facts' judge asks them.
fn models(ground: &Ground, options: &CompanionOptions, memory: &Memory) -> Arc<Models> {
    let Ground { store, events, owner, clock, lang, .. } = ground;
    let budget = sidecar_llm::Budget::new(store.clone(), clock.clone(), events.emitter(CoreEvent::Budget), &options.settings, *lang);
    let log_dir = sidecar_domain::log_dir(&options.data_dir);
    let models = Arc::new(Models::new(owner.clone(), options.secrets.clone(), log_dir, events.emitter(CoreEvent::Model), store.clone(), budget, *lang));
    memory.knowledge.judge_with(Arc::new(sidecar_memory::ModelJudge(models.clone())));
    models
}

/// Where Sidecar's own messages go: the chat first, kept in the history, routed by
/// where the user is; what a phone cannot take now is held in the store.
fn outbox(ground: &Ground, channel: Channel) -> MessageRouter {
    let router = MessageRouter::default();
    let chat = Arc::new(sidecar_proactive::ChatSink {
        store: ground.store.clone(),
        events: ground.events.emitter(CoreEvent::Proactive),
        reminders: ground.events.emitter(CoreEvent::Reminders),
        channel,
    });
    router.register(chat.clone());
    router.set_history(chat);
    router.set_whereabouts(Arc::new(sidecar_proactive::StoredWhereabouts { store: ground.store.clone(), clock: ground.clock.clone() }));
    router.hold_in(ground.store.clone());
    router
}

/// The features a turn draws on: the context and its plans, reminders, proactivity,
/// tasks, the calendar, and the user's data.
struct Features {
    plans: Arc<sidecar_agent::PlanBoard>,
    context: Arc<ContextService>,
    reminders: Arc<ReminderService>,
    proactive: Arc<ProactiveService>,
    brain: BrainLock,
    data: Arc<sidecar_data::DataService>,
    tasks: Arc<sidecar_tasks::Tasks>,
    calendar: Arc<sidecar_calendar::CalendarService>,
    mail: Arc<sidecar_mail::MailService>,
}

async fn features(
    ground: &Ground,
    options: &CompanionOptions,
    memory: &Memory,
    models: &Arc<Models>,
    router: &MessageRouter,
) -> Result<Features, CompanionError> {
    let Ground { store, events, clock, lang, .. } = ground;
    let (lang, data_dir) = (*lang, options.data_dir.clone());
    let plans = Arc::new(sidecar_agent::PlanBoard::new(store.clone(), events.emitter(CoreEvent::Chat)));
    let context = Arc::new(ContextService::new(
        store.clone(),
        memory.knowledge.clone(),
        plans.clone(),
        events.emitter(CoreEvent::Chat),
        models.clone(),
        clock.clone(),
        data_dir.clone(),
    ));
    let all_day = models.settings().user.chosen_all_day_time();
    let reminders =
        Arc::new(ReminderService::new(store.clone(), clock.clone(), events.emitter(CoreEvent::Reminders), router.clone(), data_dir.clone(), lang, all_day));
    let brain: BrainLock = Arc::default();
    let proactive = Arc::new(ProactiveService::new(
        store.clone(),
        models.clone(),
        memory.knowledge.clone(),
        router.clone(),
        brain.clone(),
        events.emitter(CoreEvent::Proactive),
        |text| sidecar_agent::parse_command(text).is_some(),
        clock.clone(),
        lang,
    ));
    let data = Arc::new(sidecar_data::DataService::new(
        store.clone(),
        memory.knowledge.clone(),
        memory.meaning.clone(),
        clock.clone(),
        lang,
        sidecar_data::DataPlaces { data_dir, config_path: options.config_path.clone(), secrets: options.secrets.clone() },
    ));
    let tasks = Arc::new(sidecar_tasks::Tasks::new(store.clone(), events.emitter(CoreEvent::Tasks)));
    tasks.follow_language(lang).await?;
    let calendar = Arc::new(sidecar_calendar::CalendarService::new(store.clone(), options.secrets.clone(), clock.clone(), sidecar_calendar::feed_client()));
    proactive.watch_calendar(calendar.clone());
    reminders.watch_events(calendar.clone());
    let mail = Arc::new(sidecar_mail::MailService::new(store.clone(), options.secrets.clone(), clock.clone()));
    Ok(Features { plans, context, reminders, proactive, brain, data, tasks, calendar, mail })
}

/// The tools every conversation starts with, behind the permission gate.
struct Tools {
    registry: ToolRegistry,
    search: sidecar_tools::WebSearch,
    permissions: Arc<sidecar_actions::PermissionGate>,
    questions: Arc<sidecar_actions::WindowQuestions>,
    chooser: Arc<sidecar_agent::ToolChooser>,
    /// The conversation the task tool checks its grants against, set once it exists.
    offered: Arc<OnceLock<Weak<ConversationService>>>,
}

fn tools(ground: &Ground, options: &CompanionOptions, memory: &Memory, models: &Models, features: &Features) -> Tools {
    let Ground { store, events, owner, clock, lang, .. } = ground;
    // The tool and Settings' "Try a search" share one setup (and one client).
    let search = sidecar_tools::WebSearch { http: tool_http(), setup: Arc::new(sidecar_tools::SearchSetup::new(options.secrets.clone(), owner.clone())) };
    let permissions = Arc::new(sidecar_actions::PermissionGate::new(store.clone(), clock.clone(), owner.clone()));
    let questions = Arc::new(sidecar_actions::WindowQuestions::new(events.emitter(CoreEvent::Permissions), *lang));
    let mut registry = tools_searching_with(&models.settings(), clock.clone(), search.clone())
        .guarded_by(permissions.clone())
        .redacting_with(options.secrets.redactor().clone());
    registry.register(sidecar_memory::RememberFact::new(memory.knowledge.clone(), clock.clone()));
    registry.register(sidecar_memory::RecallTool(memory.recall.clone()));
    registry.register(sidecar_agent::UpdatePlan(features.plans.clone()));
    registry.register(sidecar_agent::WriteScratchpad(features.plans.clone()));
    let chooser = Arc::new(sidecar_agent::ToolChooser::new(Some(memory.meaning.clone()), ground.store.clone()));
    registry.register(sidecar_agent::FindTools(chooser.clone()));
    sidecar_reminders::register(&mut registry, features.reminders.clone());
    // The model proposes a task; its grants are checked against the tools there are then.
    let offered: Arc<OnceLock<Weak<ConversationService>>> = Arc::default();
    registry.register(sidecar_tasks::ScheduleTask {
        tasks: features.tasks.clone(),
        clock: clock.clone(),
        lang: *lang,
        known: {
            let offered = offered.clone();
            Arc::new(move || {
                let conversation = offered.get().and_then(Weak::upgrade);
                conversation.map(|c| c.tools().tools().map(|t| t.name().to_string()).collect()).unwrap_or_default()
            })
        },
    });
    Tools { registry, search, permissions, questions, chooser, offered }
}

/// The conversation, the board its tools are offered on, the MCP servers and the notes
/// folder that add to it, and the calendar's tools while an account is connected.
struct Chat {
    conversation: Arc<ConversationService>,
    mcp: Arc<sidecar_actions::McpHub>,
    notes: Arc<sidecar_actions::NotesSetup>,
    calendar_tools: (Vec<Arc<dyn Tool>>, Arc<ToolBoard>),
    /// `search_mail`, offered while a mail account is connected.
    mail_tool: Arc<dyn Tool>,
}

async fn chat(ground: &Ground, options: &CompanionOptions, memory: &Memory, models: &Arc<Models>, features: &Features, tools: &Tools) -> Chat {
    let Ground { store, events, owner, clock, lang, .. } = ground;
    let (tools_starting, tools_starting_seen) = tokio::sync::watch::channel(false);
    let registry = tools.registry.clone();
    let conversation = Arc::new(ConversationService::new(
        ConversationParts {
            store: store.clone(),
            models: models.clone(),
            context: features.context.clone(),
            reminders: features.reminders.clone(),
            proactive: features.proactive.clone(),
            knowledge: memory.knowledge.clone(),
            events: events.emitter(CoreEvent::Chat),
            clock: clock.clone(),
            lang: *lang,
            channel: options.channel,
            brain: features.brain.clone(),
            noticing: memory.noticing.clone(),
            chooser: tools.chooser.clone(),
            tools_starting: tools_starting_seen,
        },
        registry.clone(),
    ));
    let _ = tools.offered.set(Arc::downgrade(&conversation));
    let board = Arc::new(ToolBoard::new(registry, {
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
    let notes_folder = models.settings().tools.notes_folder.clone();
    let notes = Arc::new(sidecar_actions::NotesSetup::new(notes_folder.as_deref(), owner.clone(), board.clone()));
    let calendar = &features.calendar;
    let calendar_tools = sidecar_calendar::tools(sidecar_calendar::ToolServices { calendar: calendar.clone(), clock: clock.clone(), lang: *lang });
    if let Ok(view) = calendar.view().await {
        board.set("calendar", sidecar_calendar::offered(&view, &calendar_tools));
    }
    let mail_tool: Arc<dyn Tool> = Arc::new(sidecar_mail::SearchMail { mail: features.mail.clone(), clock: clock.clone() });
    if features.mail.view().await.is_ok_and(|view| view.account.is_some()) {
        board.set("mail", vec![mail_tool.clone()]);
    }
    Chat { conversation, mcp, notes, calendar_tools: (calendar_tools, board), mail_tool }
}

/// One speech model for push-to-talk and the phone's voice notes.
fn voice(ground: &Ground, models: &Models) -> (Arc<sidecar_voice::SpeechModel>, Arc<sidecar_voice::Talk>) {
    let speech = Arc::new(match &models.settings().local_model.runtime {
        Some(runtime) => sidecar_voice::SpeechModel::in_runtime(runtime),
        None => sidecar_voice::SpeechModel::not_installed(),
    });
    let talk = Arc::new(sidecar_voice::Talk::new(speech.clone(), ground.events.emitter(CoreEvent::Voice)));
    (speech, talk)
}

/// The phones, and the callers through which this process's own place (its window or CLI) and
/// the attached devices talk to the inbox.
struct Phones {
    channels: Arc<ChannelService>,
    caller: Caller,
    device_caller: Caller,
}

/// The phones, and the API's caller.
fn phones(
    ground: &Ground,
    options: &CompanionOptions,
    features: &Features,
    chat: &Chat,
    router: MessageRouter,
    speech: &Arc<sidecar_voice::SpeechModel>,
) -> (Phones, Caller) {
    let Ground { store, events, owner, clock, lang, .. } = ground;
    let phone = PhoneParts {
        store: store.clone(),
        clock: clock.clone(),
        lang: *lang,
        events: events.emitter(CoreEvent::Channels),
        settings: owner.clone(),
        data_dir: options.data_dir.clone(),
        proactive: Arc::downgrade(&features.proactive),
        redactor: options.secrets.redactor().clone(),
        speech: speech.clone(),
    };
    let conversation = &chat.conversation;
    let channels = Arc::new(ChannelService::new(phone, options.secrets.clone(), router, conversation.clone()));
    let served = |channel| {
        let (source, caller) = CallSource::new(channel, clock.clone());
        tokio::spawn(serve(Arc::new(source), conversation.clone(), channels.questions()));
        caller
    };
    let (caller, api_caller, device_caller) = (served(options.channel), served(Channel::Api), served(Channel::Device));
    (Phones { caller, device_caller, channels }, api_caller)
}

/// Sidecar as a server for other programs: consent, tokens, their notes, API turns.
fn hosting(ground: &Ground, options: &CompanionOptions, router: &MessageRouter, api_caller: Caller) -> sidecar_serve::Hosting {
    let Ground { store, clock, lang, .. } = ground;
    let connections = Arc::new(sidecar_serve::Connections::new(store.clone(), clock.clone()));
    sidecar_serve::Hosting {
        tokens: sidecar_serve::ApiTokens::new(store.clone(), clock.clone(), options.secrets.clone(), connections.clone()),
        connections,
        notes: sidecar_serve::ClientNotes::new(router.clone(), *lang),
        chat: api_caller,
        chat_turn: tokio::sync::Mutex::new(()),
    }
}

impl Companion {
    /// Wires the services together, step by step. Nothing here decides anything.
    pub async fn open(options: CompanionOptions) -> Result<Arc<Self>, CompanionError> {
        let ground = ground(&options).await?;
        let preferences = Arc::new(sidecar_settings::Preferences::new(ground.owner.clone(), ground.lang));
        let updates = Arc::new(sidecar_desktop_features::Updates::new(
            ground.owner.clone(),
            &options.data_dir,
            ground.clock.clone(),
            ground.events.emitter(CoreEvent::Updates),
            ground.lang,
        ));
        let memory = memory(&ground, &options)?;
        let models = models(&ground, &options, &memory);
        let router = outbox(&ground, options.channel);
        let features = features(&ground, &options, &memory, &models, &router).await?;
        let tools = tools(&ground, &options, &memory, &models, &features);
        let chat = chat(&ground, &options, &memory, &models, &features, &tools).await;
        let (speech, talk) = voice(&ground, &models);
        let hosting_router = router.clone();
        let (phones, api_caller) = phones(&ground, &options, &features, &chat, router, &speech);
        tools.permissions.set_phone_asker(phones.channels.questions());
        let hosting = Arc::new(hosting(&ground, &options, &hosting_router, api_caller));
        Ok(Arc::new(Self::assemble(options, ground, Assembled { preferences, updates, memory, models, features, tools, chat, speech, talk, phones, hosting })))
    }

    /// The companion from its wired parts.
    fn assemble(options: CompanionOptions, ground: Ground, parts: Assembled) -> Self {
        let Ground { clock, lang, store, events, warnings, .. } = ground;
        let Assembled { preferences, updates, memory, models, features, tools, chat, speech, talk, phones, hosting } = parts;
        let data_dir: PathBuf = options.data_dir;
        let for_tasks = super::task_services::ForTasks {
            conversation: chat.conversation.clone(),
            proactive: features.proactive.clone(),
            reminders: features.reminders.clone(),
            calendar: features.calendar.clone(),
            mail: features.mail.clone(),
            context: features.context.clone(),
            models: models.clone(),
            preferences: preferences.clone(),
            computer: options.computer.clone(),
        };
        Self {
            computer: options.computer.clone(),
            runner: Arc::new(sidecar_tasks::Runner::new(features.tasks.clone(), clock.clone(), Arc::new(for_tasks))),
            devices: Arc::new(devices::DeviceLink::new(store.clone(), data_dir.clone())),
            home: Arc::new(home::HomeLink::new(&data_dir, options.secrets.clone())),
            app_lock: Arc::new(sidecar_desktop_features::AppLock::new(options.secrets.clone(), models.settings_owner().clone())),
            runs_loops: std::sync::atomic::AtomicBool::new(false),
            providers: sidecar_llm::ProviderAdmin::new(models.clone(), options.secrets),
            budget: sidecar_llm::BudgetAdmin::new(models.clone(), store.clone(), clock.clone()),
            chats: sidecar_agent::Chats::new(store.clone(), chat.conversation.clone(), clock.clone()),
            hub: Arc::new(sidecar_llm::ModelHub::new(&data_dir, models.clone(), events.emitter(CoreEvent::LocalModels), lang)),
            preferences,
            updates,
            search: tools.search,
            store,
            models,
            knowledge: memory.knowledge,
            recall: memory.recall,
            data: features.data,
            meaning_setup: memory.meaning_setup,
            noticing: memory.noticing,
            events,
            data_dir,
            clock,
            lang,
            conversation: chat.conversation,
            caller: phones.caller,
            device_caller: phones.device_caller,
            channel: options.channel,
            context: features.context,
            reminders: features.reminders,
            tasks: features.tasks,
            calendar: features.calendar,
            calendar_tools: chat.calendar_tools,
            mail: features.mail,
            mail_tool: chat.mail_tool,
            proactive: features.proactive,
            channels: phones.channels,
            mcp: chat.mcp,
            permissions: tools.permissions,
            questions: tools.questions,
            notes: chat.notes,
            hosting,
            notifier: Arc::new(sidecar_proactive::Notifier::new()),
            talk,
            speech,
            warnings,
        }
    }
}

/// The parts `open` wired, handed to `assemble` in one piece.
struct Assembled {
    preferences: Arc<sidecar_settings::Preferences>,
    updates: Arc<sidecar_desktop_features::Updates>,
    memory: Memory,
    models: Arc<Models>,
    features: Features,
    tools: Tools,
    chat: Chat,
    speech: Arc<sidecar_voice::SpeechModel>,
    talk: Arc<sidecar_voice::Talk>,
    phones: Phones,
    hosting: Arc<sidecar_serve::Hosting>,
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
