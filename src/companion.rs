//! The companion: one object the desktop shell and the CLI drive. It owns the store,
//! the models, the tools and the event bus, and runs one turn at a time.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex as StdMutex};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::agent::driver::{drive, TurnContext};
use crate::agent::prompt;
use crate::agent::turn::{TurnEnd, TurnLimits};
use crate::channels::control::Control;
use crate::channels::inbox::{Inbox, QueuedMessage};
use crate::channels::slash::{self, Command};
use crate::clock::Clock;
use crate::context::service::ContextService;
use crate::channels::channel::Channel;
use crate::locale::Lang;
use crate::proactive::router::MessageRouter;
use crate::proactive::service::{BrainLock, ProactiveService};
use crate::provider_admin::ProviderAdmin;
use crate::reminders::service::ReminderService;
use crate::events::{CoreEvent, EventBus};
use crate::llm::pricing::PriceTable;
use crate::llm::{ChatMessage, Role, Usage};
use crate::knowledge::facts::SaveOutcome;
use crate::knowledge::learnings::{Category, Malformed};
use crate::knowledge::store::{KnowledgeStore, ListedFact};
pub use crate::error::CompanionError;
use crate::model::Models;
use crate::secrets::Secrets;
use crate::settings::{Settings, SettingsError};
use crate::store::{Message, MessageMeta, MessageStatus, NewMessage, Store, UsageTotals};
use crate::tools::{self, ToolRegistry};

/// Where the companion keeps its things, and how it tells time.
#[derive(Clone)]
pub struct CompanionOptions {
    pub data_dir: PathBuf,
    pub settings: Settings,
    pub clock: Clock,
    /// Where provider changes are saved; `None` keeps them in memory.
    pub config_path: Option<PathBuf>,
    pub secrets: Arc<Secrets>,
    /// Where this process's user talks from (the desktop window or the CLI).
    pub channel: crate::proactive::state::Channel,
}

impl std::fmt::Debug for CompanionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompanionOptions").field("data_dir", &self.data_dir).finish_non_exhaustive()
    }
}

impl CompanionOptions {
    pub fn new(data_dir: PathBuf, settings: Settings) -> Self {
        Self {
            data_dir,
            settings,
            clock: crate::clock::system_clock(),
            config_path: None,
            secrets: Arc::new(Secrets::new(false)),
            channel: crate::proactive::state::Channel::Desktop,
        }
    }

    /// Resolves the data dir and loads settings from flags, environment and defaults.
    /// Keys go to the OS keychain.
    pub fn resolve(data_dir: Option<&Path>, config: Option<&Path>) -> Result<Self, SettingsError> {
        let config_path = crate::paths::config_file(config);
        Ok(Self {
            config_path: Some(config_path.clone()),
            secrets: Arc::new(Secrets::from_env()),
            ..Self::new(crate::paths::data_dir(data_dir), Settings::load(&config_path)?)
        })
    }
}

/// Token use and cost today (the user's local midnight) and overall.
#[derive(Debug, Clone, Serialize)]
pub struct UsageReport {
    pub today: UsageTotals,
    pub all_time: UsageTotals,
}

/// What a finished turn produced.
#[derive(Debug, Clone, Serialize)]
pub struct TurnOutcome {
    pub conversation_id: i64,
    pub message_id: i64,
    pub reply: String,
    pub status: MessageStatus,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
    pub meta: MessageMeta,
    pub timings: crate::agent::driver::TurnTimings,
    /// The turn moved on to another conversation (`/clear`): what the window shows is
    /// stale.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub conversation_changed: bool,
}

pub struct Companion {
    store: Store,
    models: Arc<Models>,
    providers: ProviderAdmin,
    knowledge: Arc<KnowledgeStore>,
    recall: Arc<crate::recall::Recall>,
    tools: StdMutex<Arc<ToolRegistry>>,
    events: EventBus,
    data_dir: PathBuf,
    clock: Clock,
    lang: Lang,
    active_turn: StdMutex<Option<CancellationToken>>,
    /// Every message waits here for its turn.
    inbox: Inbox,
    context: Arc<ContextService>,
    reminders: Arc<ReminderService>,
    proactive: Arc<ProactiveService>,
    /// Held while the model is asked anything for the user (P7), shared with proactivity.
    brain: BrainLock,
    /// Where this process's user talks from.
    channel: Channel,
    config_path: Option<PathBuf>,
    /// Problems found while starting that the user should see (a bad time zone).
    warnings: Vec<String>,
}

/// Clears the active-turn slot on every exit path of a turn.
struct TurnGuard<'a>(&'a StdMutex<Option<CancellationToken>>);

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        *self.0.lock().expect("turn lock") = None;
    }
}

/// The standard tools, configured from settings.
pub fn default_tools(settings: &Settings, clock: Clock) -> ToolRegistry {
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(20))
        .user_agent("Sidecar/0.1")
        .build()
        .expect("a TLS backend is compiled in");
    let mut registry = ToolRegistry::new();
    registry.register(tools::time::GetCurrentTime { clock });
    registry.register(tools::web_search::WebSearch { http: http.clone(), settings: settings.tools.web_search.clone() });
    registry.register(tools::read_url::ReadUrl { settings: settings.tools.read_url.clone() });
    registry.register(tools::weather::GetWeather { http, settings: settings.tools.weather.clone() });
    registry
}

impl Companion {
    /// Wires the services together. Nothing here decides anything.
    pub async fn open(options: CompanionOptions) -> Result<Arc<Self>, CompanionError> {
        let (zone, zone_warning) = crate::clock::resolve_zone(options.settings.user.timezone.as_deref());
        if let Some(warning) = &zone_warning {
            tracing::warn!("{warning}");
        }
        let clock = options.clock.clone();
        clock.set_zone(zone);
        let lang = Lang::from_env();
        let store = Store::open(&options.data_dir).await?;
        store.purge_expired_corrections(clock.now()).await?;
        let events = EventBus::default();
        let knowledge = Arc::new(KnowledgeStore::open(&options.data_dir, lang)?);
        let models = Arc::new(Models::new(options.settings, options.secrets.clone(), crate::logging::log_dir(&options.data_dir), events.clone(), store.clone()));
        let router = MessageRouter::default();
        let chat = Arc::new(crate::proactive::sinks::ChatSink { store: store.clone(), events: events.clone(), channel: options.channel });
        router.register(chat.clone());
        router.set_history(chat);
        let brain: BrainLock = Arc::default();

        let plans = Arc::new(crate::context::plan::PlanBoard::new(store.clone(), events.clone()));
        let context = Arc::new(ContextService::new(store.clone(), knowledge.clone(), plans.clone(), events.clone(), models.clone(), clock.clone(), options.data_dir.clone()));
        let reminders = Arc::new(ReminderService::new(store.clone(), clock.clone(), events.clone(), router.clone(), options.data_dir.clone()));
        let proactive = Arc::new(ProactiveService::new(store.clone(), models.clone(), knowledge.clone(), router, brain.clone(), clock.clone(), options.channel));
        let recall = Arc::new(crate::recall::Recall::new(store.clone(), knowledge.clone()));

        let mut tools = default_tools(&models.settings(), clock.clone());
        tools.register(crate::tools::remember::RememberFact { store: knowledge.clone(), clock: clock.clone() });
        tools.register(crate::recall::RecallTool(recall.clone()));
        tools.register(crate::tools::plan::UpdatePlan(plans));
        crate::tools::reminders::register(&mut tools, reminders.clone());
        Ok(Arc::new(Self {
            providers: ProviderAdmin::new(models.clone(), options.secrets, options.config_path.clone()),
            store,
            models,
            knowledge,
            recall,
            tools: StdMutex::new(Arc::new(tools)),
            events,
            data_dir: options.data_dir,
            clock,
            lang,
            active_turn: StdMutex::new(None),
            inbox: Inbox::default(),
            context,
            reminders,
            proactive,
            brain,
            channel: options.channel,
            config_path: options.config_path,
            warnings: zone_warning.into_iter().collect(),
        }))
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

    /// Adding, editing, ordering and testing model providers.
    pub fn provider_admin(&self) -> &ProviderAdmin {
        &self.providers
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

    /// Replaces the tools offered to the model (tests, and features that add tools).
    pub fn set_tools(&self, registry: ToolRegistry) {
        *self.tools.lock().expect("tools lock") = Arc::new(registry);
    }

    pub fn tools(&self) -> Arc<ToolRegistry> {
        self.tools.lock().expect("tools lock").clone()
    }

    /// The user's IANA zone: the configured one, else the system's.
    pub fn zone(&self) -> chrono_tz::Tz {
        self.clock.zone()
    }

    /// Sets the user's IANA zone: saved in settings.toml (`[user] timezone`) and used
    /// at once by everything that reads the clock. Providers are not touched. Existing
    /// reminders keep the zone they were set in.
    pub fn set_timezone(&self, name: &str) -> Result<chrono_tz::Tz, CompanionError> {
        let zone: chrono_tz::Tz = name
            .trim()
            .parse()
            .map_err(|_| CompanionError::InvalidInput(format!("\"{name}\" is not an IANA time zone (like \"Europe/Madrid\")")))?;
        if let Some(path) = &self.config_path {
            crate::settings_file::save_timezone(path, zone.name()).map_err(|e| CompanionError::InvalidInput(e.to_string()))?;
        }
        self.clock.set_zone(zone);
        Ok(zone)
    }

    /// Saves a fact directly (CLI, Memory view); not limited per turn.
    pub fn remember(&self, text: &str, category: Category) -> Result<SaveOutcome, CompanionError> {
        self.knowledge.begin_turn();
        Ok(self.knowledge.remember(text, category, self.clock.local_today())?)
    }

    pub fn facts(&self) -> Vec<ListedFact> {
        self.knowledge.facts()
    }

    /// Lines of learnings.md that could not be read (kept in the file as they are).
    pub fn knowledge_problems(&self) -> Vec<Malformed> {
        self.knowledge.malformed()
    }

    /// Searches all messages and facts, packed into `budget_tokens`.
    pub async fn recall(&self, query: &str, budget_tokens: usize) -> Result<crate::recall::RecallResults, CompanionError> {
        Ok(self.recall.search(query, budget_tokens).await?)
    }

    /// Imports messages from JSON lines (`role`, `content`, optional `timestamp` and
    /// `id`) into a new conversation. Returns (imported, problems by line number).
    pub async fn import_jsonl(&self, text: &str) -> Result<(usize, Vec<(usize, String)>), CompanionError> {
        #[derive(serde::Deserialize)]
        struct Line {
            role: Role,
            content: String,
            #[serde(default)]
            timestamp: Option<String>,
            #[serde(default)]
            id: Option<serde_json::Value>,
        }
        // Imported history is an archive: searchable, but the chat stays where it was.
        let conversation = self.store.new_conversation().await?;
        self.store.archive_conversation(conversation).await?;
        let (mut imported, mut problems) = (0, Vec::new());
        for (number, raw) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            match serde_json::from_str::<Line>(raw) {
                Ok(line) if matches!(line.role, Role::User | Role::Assistant | Role::System) => {
                    let external = line.id.map(|id| id.as_str().map(str::to_string).unwrap_or_else(|| id.to_string()));
                    self.store
                        .import_message(conversation, line.role, &line.content, line.timestamp.as_deref(), external.as_deref())
                        .await?;
                    imported += 1;
                }
                Ok(_) => problems.push((number + 1, "role must be user, assistant or system".into())),
                Err(e) => problems.push((number + 1, e.to_string())),
            }
        }
        Ok((imported, problems))
    }

    pub fn knowledge(&self) -> &Arc<KnowledgeStore> {
        &self.knowledge
    }

    /// A task (for the caller's runtime) that picks up edits to the knowledge files
    /// made outside Sidecar, checking every `interval`.
    pub fn watch_knowledge(&self, interval: std::time::Duration) -> impl std::future::Future<Output = ()> + Send + 'static {
        crate::knowledge::watch::watch(self.knowledge.clone(), self.events.clone(), interval)
    }

    /// SOUL.md or user.md with its version, for the editors in the Memory view.
    pub fn profile(&self, file: crate::knowledge::store::ProfileFile) -> Result<(String, String), CompanionError> {
        Ok(self.knowledge.profile(file)?)
    }

    /// Saves an edited SOUL.md or user.md; refused if the file changed since it was read.
    pub fn save_profile(&self, file: crate::knowledge::store::ProfileFile, text: &str, version: &str) -> Result<String, CompanionError> {
        Ok(self.knowledge.save_profile(file, text, version)?)
    }

    /// Starts the chat model now rather than at the first message, so the first reply
    /// does not wait for the offline server to load.
    pub async fn warm_up(&self) -> Result<(), CompanionError> {
        self.models.warm_up().await.map_err(CompanionError::ModelUnavailable)
    }

    pub fn model_status(&self) -> crate::events::ModelStatus {
        self.models.status()
    }

    /// The current conversation's last `limit` messages, oldest first.
    pub async fn history(&self, limit: u32) -> Result<Vec<Message>, CompanionError> {
        let conversation = self.store.current_conversation().await?;
        Ok(self.store.recent_messages(conversation, limit).await?)
    }

    /// Token and cost totals since `since` (RFC 3339), or overall.
    pub async fn usage_totals(&self, since: Option<&str>) -> Result<UsageTotals, CompanionError> {
        Ok(self.store.usage_totals(since).await?)
    }

    /// Token use and cost since the user's local midnight, and overall.
    pub async fn usage_report(&self) -> Result<UsageReport, CompanionError> {
        let midnight = crate::store::utc(self.clock.local_midnight());
        Ok(UsageReport { today: self.usage_totals(Some(&midnight)).await?, all_time: self.usage_totals(None).await? })
    }

    /// Pins a provider to the current conversation (no fallback), or unpins it.
    pub async fn pin_provider(&self, provider_id: Option<&str>) -> Result<(), CompanionError> {
        let conversation = self.store.current_conversation().await?;
        Ok(self.store.set_conversation_provider(conversation, provider_id).await?)
    }

    /// The provider pinned to the current conversation, if any.
    pub async fn pinned_provider(&self) -> Result<Option<String>, CompanionError> {
        let conversation = self.store.current_conversation().await?;
        Ok(self.store.conversation_provider(conversation).await?)
    }

    /// Stores the user's message and produces a reply, streaming it as events.
    pub async fn send(&self, text: &str) -> Result<TurnOutcome, CompanionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(CompanionError::EmptyMessage);
        }
        // Commands are answered at once, even while a reply is being written.
        if let Some(command) = slash::parse(text) {
            let conversation_id = self.store.current_conversation().await?;
            self.store.add_message(NewMessage::plain(conversation_id, &ChatMessage::user(text)).on(self.channel)).await?;
            return self.answer_command(conversation_id, command).await;
        }
        // The user wrote: a spontaneous decision in flight is dropped, even if this
        // message has to wait for the reply being written.
        self.proactive.record_user_activity().await?;
        let publish = |items| self.events.publish(CoreEvent::Queue { items });
        let turn = self.inbox.enter(text, self.channel, publish).await.map_err(|_| CompanionError::QueuedCancelled)?;
        if turn.waited.is_some() {
            publish(self.inbox.waiting());
        }
        let (cancel, _guard) = self.begin_turn()?;
        let conversation_id = self.store.current_conversation().await?;
        let user_message_id =
            self.store.add_message(NewMessage::plain(conversation_id, &ChatMessage::user(text)).on(self.channel)).await?;
        let dequeued = turn.waited.map(|_| text.to_string());
        self.events.publish(CoreEvent::TurnStarted { conversation_id, user_message_id, dequeued });
        // A spontaneous decision in flight was cancelled above; this waits for it to let go.
        let _brain = self.brain.lock().await;
        self.reply(conversation_id, user_message_id, cancel).await
    }

    /// Takes a message out of the queue before its turn; false if it already started.
    pub fn cancel_queued(&self, id: u64) -> bool {
        let cancelled = self.inbox.cancel(id);
        if cancelled {
            self.events.publish(CoreEvent::Queue { items: self.inbox.waiting() });
        }
        cancelled
    }

    /// Messages waiting for the reply being written, oldest first.
    pub fn queued(&self) -> Vec<QueuedMessage> {
        self.inbox.waiting()
    }

    /// Answers a chat command in place of the model, stored as a reply marked as such.
    async fn answer_command(&self, asked_in: i64, command: Command) -> Result<TurnOutcome, CompanionError> {
        let stop_turn = || self.stop();
        let control = Control {
            context: &self.context,
            reminders: &self.reminders,
            proactive: &self.proactive,
            clock: &self.clock,
            lang: self.lang,
            stop_turn: &stop_turn,
        };
        let result = control.answer(command).await;
        // `/clear` moved on to a new conversation: the answer goes there.
        let conversation_id = self.store.current_conversation().await.unwrap_or(asked_in);
        let (reply, status) = match result {
            Ok(text) => (text, MessageStatus::Complete),
            Err(error) => (error.to_string(), MessageStatus::Error),
        };
        let meta = MessageMeta { command: true, ..MessageMeta::default() };
        let message_id = self
            .store
            .add_message(NewMessage { conversation_id, message: &ChatMessage::assistant(&reply), status, finish_reason: None, meta: Some(&meta), channel: Some(self.channel) })
            .await?;
        self.events.publish(CoreEvent::TurnFinished {
            conversation_id,
            message_id,
            status: status.as_str().to_string(),
            finish_reason: None,
            usage: None,
            meta: meta.clone(),
        });
        Ok(TurnOutcome {
            conversation_id,
            message_id,
            reply,
            status,
            finish_reason: None,
            usage: None,
            meta,
            timings: Default::default(),
            conversation_changed: conversation_id != asked_in,
        })
    }

    /// Answers the last user message again after a failed turn, without storing it twice.
    pub async fn retry(&self) -> Result<TurnOutcome, CompanionError> {
        if self.inbox.is_running() {
            return Err(CompanionError::Busy);
        }
        let _turn = self.inbox.enter("", self.channel, |_| {}).await.map_err(|_| CompanionError::QueuedCancelled)?;
        let (cancel, _guard) = self.begin_turn()?;
        let conversation_id = self.store.current_conversation().await?;
        let recent = self.store.recent_messages(conversation_id, 16).await?;
        let last = recent
            .iter()
            .rev()
            .find(|m| prompt::counts_as_context(m))
            .ok_or(CompanionError::NothingToRetry)?;
        // A turn that failed after its tools ran ends on a tool result: the model
        // picks up from there.
        if !matches!(last.role, Role::User | Role::Tool) {
            return Err(CompanionError::NothingToRetry);
        }
        let user_message_id = recent.iter().rev().find(|m| m.role == Role::User).map(|m| m.id).unwrap_or(last.id);
        self.events.publish(CoreEvent::TurnStarted { conversation_id, user_message_id, dequeued: None });
        self.proactive.record_user_activity().await?;
        let _brain = self.brain.lock().await;
        self.reply(conversation_id, user_message_id, cancel).await
    }

    /// Stops the turn in progress, if any. What was streamed so far is kept.
    pub fn stop(&self) -> bool {
        match self.active_turn.lock().expect("turn lock").as_ref() {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    pub async fn shutdown(&self) {
        self.stop();
        self.models.shutdown().await;
        self.store.close().await;
    }

    fn begin_turn(&self) -> Result<(CancellationToken, TurnGuard<'_>), CompanionError> {
        let mut slot = self.active_turn.lock().expect("turn lock");
        if slot.is_some() {
            return Err(CompanionError::Busy);
        }
        let token = CancellationToken::new();
        *slot = Some(token.clone());
        Ok((token, TurnGuard(&self.active_turn)))
    }

    async fn reply(&self, conversation_id: i64, user_message_id: i64, cancel: CancellationToken) -> Result<TurnOutcome, CompanionError> {
        use tracing::Instrument;
        let span = tracing::info_span!("turn", turn_id = user_message_id, conversation_id);
        async {
            tracing::info!("turn started");
            let result = self.run_turn(conversation_id, cancel).await;
            match &result {
                Ok(outcome) => tracing::info!(status = outcome.status.as_str(), "turn finished"),
                Err(error) => {
                    tracing::warn!(%error, "turn failed");
                    self.events.publish(CoreEvent::TurnFailed {
                        conversation_id,
                        message: error.to_string(),
                        retryable: error.is_retryable(),
                    });
                }
            }
            result
        }
        .instrument(span)
        .await
    }

    async fn run_turn(&self, conversation_id: i64, cancel: CancellationToken) -> Result<TurnOutcome, CompanionError> {
        let settings = self.models.settings();
        let pinned = self.store.conversation_provider(conversation_id).await?;
        let chain = tokio::select! {
            chain = self.models.chat_chain(pinned.as_deref()) => chain.map_err(CompanionError::ModelUnavailable)?,
            _ = cancel.cancelled() => return Err(CompanionError::TurnFailed("stopped before the model was ready".into())),
        };
        let tools = self.tools();
        // Folding old turns may call the model: Stop works here too.
        let turn = tokio::select! {
            turn = self.context.turn_prompt(conversation_id, &chain, &tools) => turn?,
            _ = cancel.cancelled() => return Err(CompanionError::TurnFailed("stopped while older messages were being summarised".into())),
        };
        let shaper = self.context.shaper(&turn, conversation_id, &chain);
        let driven = drive(
            TurnContext {
                shaper: &shaper,
                conversation_id,
                store: &self.store,
                events: &self.events,
                tools: &tools,
                chain,
                summarize_chain: self.models.routed(crate::settings::Purpose::Summarize),
                channel: self.channel,
                policy: settings.llm.retry_policy(),
                prices: PriceTable::new(settings.prices.clone()),
                limits: TurnLimits {
                    max_iterations: settings.llm.max_iterations.max(1),
                    max_continuations: settings.llm.max_continuations,
                },
                max_tokens: settings.llm.max_tokens,
                time_limit: settings.llm.turn_timeout(),
                cancel,
            },
            turn.prompt,
        )
        .await?;
        let outcome = TurnOutcome {
            conversation_id,
            message_id: driven.message_id,
            reply: driven.text.clone(),
            status: driven.status,
            finish_reason: driven.finish_reason.as_ref().map(|r| r.as_str().to_string()),
            usage: driven.meta.usage,
            meta: driven.meta.clone(),
            timings: driven.timings,
            conversation_changed: false,
        };
        match driven.end {
            TurnEnd::Failed { message, .. } => {
                Err(driven.failure.map(CompanionError::Route).unwrap_or(CompanionError::TurnFailed(message)))
            }
            TurnEnd::TimedOut { .. } => Err(CompanionError::TurnFailed(format!(
                "the reply took longer than {:?} and was cut; what arrived is kept. Press Retry, or raise llm.turn_timeout_secs",
                settings.llm.turn_timeout()
            ))),
            _ => {
                self.events.publish(CoreEvent::TurnFinished {
                    conversation_id,
                    message_id: outcome.message_id,
                    status: outcome.status.as_str().to_string(),
                    finish_reason: outcome.finish_reason.clone(),
                    usage: outcome.usage,
                    meta: outcome.meta.clone(),
                });
                Ok(outcome)
            }
        }
    }
}
