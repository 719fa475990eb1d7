//! The conversation service: turns. Every message goes through the inbox (one turn at a
//! time, the rest queued in order); control commands are answered at once; a turn
//! builds its prompt through the context service, runs the agent loop on the chat
//! chain, and stores what it produced. Stop, Retry and the pinned model live here.
//!
//! Over 400 lines: a turn's path (the inbox, control commands, the prompt, the loop, what
//! is stored, Stop and Retry) is one sequence over one service's state.

use std::sync::{Arc, Mutex as StdMutex};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::context::service::ContextService;
use crate::control::Control;
use crate::driver::{drive, TurnContext, TurnRules};
use crate::error::TurnError;
use crate::events::ChatEvent;
use crate::inbox::{Entry, Inbox, QueuedMessage};
use crate::slash::{self, Command};
use crate::turn::TurnEnd;
use sidecar_domain::Channel;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_domain::Lang;
use sidecar_llm::ChatMessage;
use sidecar_llm::Models;
use sidecar_llm::Usage;
use sidecar_proactive::BrainLock;
use sidecar_proactive::ProactiveService;
use sidecar_reminders::ReminderService;
use sidecar_store::Message;
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::Store;
use sidecar_tools::ToolRegistry;

mod message_actions;
mod task_turn;
pub use task_turn::TaskReply;

/// The tool an incognito chat does not have: it would keep what was said there.
const INCOGNITO_WITHOUT: &str = "remember_fact";

/// How long a turn waits for a tool server that is still starting.
const TOOLS_START_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// What a finished turn produced.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct TurnOutcome {
    pub conversation_id: i64,
    /// The user message answered (0 for none).
    pub user_message_id: i64,
    pub message_id: i64,
    pub reply: String,
    pub status: MessageStatus,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
    pub meta: MessageMeta,
    pub timings: crate::driver::TurnTimings,
    /// The turn moved on to another conversation (`/clear`): what the window shows is
    /// stale.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub conversation_changed: bool,
}

/// How a request carried out before the model ends its turn.
enum Carried {
    /// Sidecar's answer is the reply.
    Answered(TurnOutcome),
    /// The model adds its words, told this; Sidecar's answer stands if it cannot.
    TellModel(Told),
    /// Nothing was done: the model answers as if there had been no request.
    ModelAlone,
}

/// What a submitted message turned out to be.
enum Step<'a> {
    Empty,
    Command(Command),
    Turn(Entry<'a>),
}

/// The message a turn answers: which, where it was written and when it arrived.
#[derive(Clone, Copy)]
struct Asked {
    message_id: i64,
    channel: Channel,
    arrived: std::time::Instant,
}

/// What the model is told besides the history: a request Sidecar already carried out.
/// What Sidecar did before the model, for the model to hear.
type Note = Option<Told>;

/// Sidecar answered the message itself; the model is told so and adds its words.
struct Told {
    note: String,
    answer: TurnOutcome,
}

pub struct ConversationService {
    with: ConversationParts,
    tools: StdMutex<Arc<ToolRegistry>>,
    /// Every message waits here for its turn.
    inbox: Inbox,
    active_turn: StdMutex<Option<CancellationToken>>,
    /// A reminder request met with "at what time?" or "which day?", by conversation,
    /// for the next message to complete ([`crate::intent::hour_reply`]).
    awaiting: StdMutex<Option<(i64, crate::intent::hour_reply::Awaiting)>>,
}

/// What the conversation service is built from.
pub struct ConversationParts {
    pub store: Store,
    pub models: Arc<Models>,
    pub context: Arc<ContextService>,
    pub reminders: Arc<ReminderService>,
    pub proactive: Arc<ProactiveService>,
    /// Facts kept by "remember that…" before the model.
    pub knowledge: Arc<sidecar_memory::KnowledgeStore>,
    pub events: Emitter<ChatEvent>,
    pub clock: Clock,
    pub lang: Lang,
    /// Where this process's user talks from.
    pub channel: Channel,
    /// Held while the model is asked anything for the user (P7), shared with proactivity.
    pub brain: BrainLock,
    /// "Remember this?": facts the user said that the model did not save.
    pub noticing: Arc<sidecar_memory::Noticing>,
    /// Which of the tools that come and go each turn carries.
    pub chooser: Arc<crate::chooser::ToolChooser>,
    /// True while a tool server is starting (just added, edited or restarted).
    pub tools_starting: tokio::sync::watch::Receiver<bool>,
}

/// Clears the active-turn slot on every exit path of a turn.
struct TurnGuard<'a>(&'a StdMutex<Option<CancellationToken>>);

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        *self.0.lock().expect("turn lock") = None;
    }
}

impl ConversationService {
    pub fn new(parts: ConversationParts, tools: ToolRegistry) -> Self {
        Self { with: parts, tools: StdMutex::new(Arc::new(tools)), inbox: Inbox::default(), active_turn: StdMutex::new(None), awaiting: StdMutex::new(None) }
    }

    /// Replaces the tools offered to the model (tests, and features that add tools).
    pub fn set_tools(&self, registry: ToolRegistry) {
        *self.tools.lock().expect("tools lock") = Arc::new(registry);
    }

    pub fn tools(&self) -> Arc<ToolRegistry> {
        self.tools.lock().expect("tools lock").clone()
    }

    /// The current conversation's last `limit` messages, oldest first.
    pub async fn history(&self, limit: u32) -> Result<Vec<Message>, TurnError> {
        let conversation = self.with.store.conversations().current_conversation().await?;
        Ok(self.with.store.conversations().recent_messages(conversation, limit).await?)
    }

    /// Pins a provider to the current conversation (no fallback), or unpins it.
    pub async fn pin_provider(&self, provider_id: Option<&str>) -> Result<(), TurnError> {
        let conversation = self.with.store.conversations().current_conversation().await?;
        Ok(self.with.store.conversations().set_conversation_provider(conversation, provider_id).await?)
    }

    /// The provider pinned to the current conversation, if any.
    pub async fn pinned_provider(&self) -> Result<Option<String>, TurnError> {
        let conversation = self.with.store.conversations().current_conversation().await?;
        Ok(self.with.store.conversations().conversation_provider(conversation).await?)
    }

    /// Takes `text` from `channel`: a command is answered at once; anything else takes
    /// its place in the inbox now, before the returned future is first awaited, so a
    /// source's messages are answered in the order it gave them.
    pub fn submit(&self, text: String, channel: Channel) -> impl std::future::Future<Output = Result<TurnOutcome, TurnError>> + Send + '_ {
        let text = text.trim().to_string();
        // Commands and presence are the user's: a program over the local API only talks.
        let from_user = channel.is_the_user();
        let step = if text.is_empty() {
            Step::Empty
        } else if let Some(command) = slash::parse(&text).filter(|_| from_user) {
            Step::Command(command)
        } else {
            // The user wrote: a spontaneous decision in flight is dropped, even if this
            // message has to wait for the reply being written.
            if from_user {
                self.with.proactive.user_is_writing();
            }
            Step::Turn(self.inbox.arrive(&text, channel, |items| self.with.events.publish(ChatEvent::Queue { items })))
        };
        async move {
            match step {
                Step::Empty => Err(TurnError::Empty(sidecar_domain::EmptyMessage)),
                // Commands are answered at once, even while a reply is being written.
                Step::Command(command) => {
                    let conversation_id = self.with.store.conversations().current_conversation().await?;
                    let said = ChatMessage::user(&text);
                    let said_id = self.with.store.conversations().add_message(NewMessage::plain(conversation_id, &said).on(channel)).await?;
                    self.answer_command(conversation_id, said_id, command, sidecar_dates::written_in(&text, self.with.lang), channel).await
                }
                Step::Turn(entry) => self.take_turn(&text, channel, entry).await,
            }
        }
    }

    async fn take_turn(&self, text: &str, channel: Channel, entry: Entry<'_>) -> Result<TurnOutcome, TurnError> {
        let turn = entry.ready().await.map_err(|_| TurnError::QueuedCancelled)?;
        if turn.waited.is_some() {
            self.with.events.publish(ChatEvent::Queue { items: self.inbox.waiting() });
        }
        let (cancel, _guard) = self.begin_turn()?;
        let arrived = std::time::Instant::now();
        let conversation_id = self.with.store.conversations().current_conversation().await?;
        // Attached files go to the model in the message; the chat lists them as chips, and
        // only what the user typed is read for requests (a document's "remind me" is not one).
        let attached = sidecar_memory::split(text);
        let meta = attached.as_ref().map(|(typed, files)| MessageMeta { typed: Some(typed.clone()), attachments: files.clone(), ..MessageMeta::default() });
        let said = ChatMessage::user(text);
        let new = NewMessage::plain(conversation_id, &said).on(channel);
        let user_message_id = self
            .with
            .store
            .conversations()
            .add_message(match &meta {
                Some(meta) => new.with_meta(meta),
                None => new,
            })
            .await?;
        let text = attached.as_ref().map_or(text, |(typed, _)| typed.as_str());
        // The activity mark is off the way to the first token: the message just stored
        // already tells the spontaneous loop the user is here.
        let proactive = self.with.proactive.clone();
        if channel.is_the_user() {
            tokio::spawn(async move {
                if let Err(error) = proactive.record_user_activity(channel).await {
                    tracing::warn!(%error, "could not record the user's activity");
                }
            });
        }
        let incognito = self.with.store.conversations().is_incognito(conversation_id).await?;
        let dequeued = turn.waited.map(|_| text.to_string());
        self.with.events.publish(ChatEvent::TurnStarted { conversation_id, user_message_id, channel, dequeued });
        // Code decides what code can decide (P10): a reminder, a fact, a list. A request
        // of several steps is not one of those: a model with tools plans it whole.
        let planned = !self.with.models.configured_is_empty() && crate::complexity::is_complex(text);
        // The question "at what time?" (or "which day?") is answered by the next message
        // or not at all.
        let awaited = self.awaiting.lock().expect("awaiting lock").take().filter(|(id, _)| *id == conversation_id);
        let completed = awaited.and_then(|(_, pending)| pending.complete(text, self.with.lang));
        let intent = match completed {
            Some(sentence) => Some(crate::intent::Intent::Set { sentence }),
            None => crate::intent::detect(text).filter(|_| !planned),
        };
        if incognito && matches!(intent, Some(crate::intent::Intent::Remember { .. })) {
            let words = crate::words::commands::CommandWords(sidecar_dates::written_in(text, self.with.lang));
            let meta = MessageMeta { intent: true, ..MessageMeta::default() };
            return self.post_answer(conversation_id, user_message_id, words.incognito_remembers_nothing(), MessageStatus::Complete, meta, channel).await;
        }
        let carried = match (crate::context::resume::detect(text), intent) {
            // "Continue from checkpoint" brings the checkpoint into this conversation.
            (Some(request), _) => Some(self.resume_from(conversation_id, user_message_id, request, channel).await?),
            (None, Some(intent)) => Some(self.carry_out(conversation_id, user_message_id, intent, text, channel).await?),
            (None, None) => None,
        };
        let note = match carried {
            Some(Carried::Answered(outcome)) => return Ok(outcome),
            Some(Carried::TellModel(note)) => Some(note),
            Some(Carried::ModelAlone) | None => None,
        };
        // A spontaneous decision in flight was cancelled above; this waits for it to let go.
        let _brain = self.with.brain.lock().await;
        self.reply(conversation_id, Asked { message_id: user_message_id, channel, arrived }, cancel, note).await
    }

    /// Carries out a request found before the model and posts the answer. The offline
    /// demo model adds nothing useful (it cannot use tools and may contradict what was
    /// done), so it is not asked; a configured model is told what was done.
    async fn carry_out(&self, conversation_id: i64, said_id: i64, intent: crate::intent::Intent, text: &str, channel: Channel) -> Result<Carried, TurnError> {
        let offline = self.with.models.configured_is_empty();
        if let crate::intent::Intent::Set { sentence } = &intent {
            if !offline && sidecar_reminders::split(sentence).is_some() {
                // Before a calendar event: a configured model sets it with its tool, whose
                // result marks the event's title as data; Sidecar's own answer would carry
                // the title to the model unmarked.
                return Ok(Carried::ModelAlone);
            }
        }
        if intent == crate::intent::Intent::ScheduleWork && !self.with.models.only_demo() {
            // A model that can use tools proposes the task (schedule_task), as asked.
            return Ok(Carried::ModelAlone);
        }
        let services = crate::intent::act::IntentServices { reminders: &self.with.reminders, knowledge: &self.with.knowledge, clock: &self.with.clock };
        let acted = crate::intent::act::act(intent, text, said_id, &services, self.with.lang).await?;
        if let Some(pending) = acted.awaits.clone().filter(|_| offline) {
            *self.awaiting.lock().expect("awaiting lock") = Some((conversation_id, pending));
        }
        if !acted.changed && !offline {
            // Nothing was done (a question back, a list): a configured model answers
            // on its own, with its tools, which say the same.
            return Ok(Carried::ModelAlone);
        }
        let meta = MessageMeta { intent: true, ..MessageMeta::default() };
        let note = crate::words::intent::model_note(&acted.answer);
        let outcome = self.post_answer(conversation_id, said_id, acted.answer, MessageStatus::Complete, meta, channel).await?;
        if offline {
            return Ok(Carried::Answered(outcome));
        }
        Ok(Carried::TellModel(Told { note, answer: outcome }))
    }

    /// Continues a checkpoint here and says so; a configured model then picks the work up.
    async fn resume_from(
        &self,
        conversation_id: i64,
        said_id: i64,
        request: crate::context::resume::ResumeRequest,
        channel: Channel,
    ) -> Result<Carried, TurnError> {
        let words = crate::words::commands::CommandWords(self.with.lang);
        let meta = MessageMeta { intent: true, ..MessageMeta::default() };
        let checkpoint = match self.with.context.resume(request).await? {
            crate::context::service::Resumed::Here(checkpoint) => checkpoint,
            not_here => {
                let said = match not_here {
                    crate::context::service::Resumed::OnlyOlder(older) => words.only_older_checkpoint(older.id, &older.body.title, &older.updated_at),
                    _ => words.nothing_to_resume(),
                };
                return Ok(Carried::Answered(self.post_answer(conversation_id, said_id, said, MessageStatus::Complete, meta, channel).await?));
            }
        };
        let said = words.resuming(checkpoint.id, &checkpoint.body.title, &checkpoint.body.pending);
        let outcome = self.post_answer(conversation_id, said_id, said, MessageStatus::Complete, meta, channel).await?;
        if self.with.models.configured_is_empty() {
            return Ok(Carried::Answered(outcome));
        }
        Ok(Carried::TellModel(Told { note: crate::context::resume::model_note(checkpoint.id), answer: outcome }))
    }

    /// Takes a message out of the queue before its turn; false if it already started.
    pub fn cancel_queued(&self, id: u64) -> bool {
        let cancelled = self.inbox.cancel(id);
        if cancelled {
            self.with.events.publish(ChatEvent::Queue { items: self.inbox.waiting() });
        }
        cancelled
    }

    /// Messages waiting for the reply being written, oldest first.
    pub fn queued(&self) -> Vec<QueuedMessage> {
        self.inbox.waiting()
    }

    /// Answers a chat command in place of the model, stored as a reply marked as such.
    async fn answer_command(
        &self,
        asked_in: i64,
        said_id: i64,
        command: Command,
        lang: sidecar_domain::Lang,
        channel: Channel,
    ) -> Result<TurnOutcome, TurnError> {
        let stop_turn = || self.stop();
        let control = Control {
            context: &self.with.context,
            reminders: &self.with.reminders,
            proactive: &self.with.proactive,
            models: &self.with.models,
            clock: &self.with.clock,
            lang,
            channel,
            stop_turn: &stop_turn,
        };
        let result = control.answer(command).await;
        // `/clear` moved on to a new conversation: the answer goes there.
        let conversation_id = self.with.store.conversations().current_conversation().await.unwrap_or(asked_in);
        let (reply, status) = match result {
            Ok(text) => (text, MessageStatus::Complete),
            Err(error) => (sidecar_domain::said_whole(&error, lang), MessageStatus::Error),
        };
        let meta = MessageMeta { command: true, ..MessageMeta::default() };
        let outcome = self.post_answer(conversation_id, said_id, reply, status, meta, channel).await?;
        Ok(TurnOutcome { conversation_changed: conversation_id != asked_in, ..outcome })
    }

    /// Stores an answer Sidecar gave itself (a command's, a request carried out), tells
    /// the windows it is finished, and returns it as the turn's outcome.
    async fn post_answer(
        &self,
        conversation_id: i64,
        said_id: i64,
        reply: String,
        status: MessageStatus,
        meta: MessageMeta,
        channel: Channel,
    ) -> Result<TurnOutcome, TurnError> {
        let message_id = self
            .with
            .store
            .conversations()
            .add_message(NewMessage {
                conversation_id,
                message: &ChatMessage::assistant(&reply),
                status,
                finish_reason: None,
                meta: Some(&meta),
                channel: Some(channel),
                once_per: None,
            })
            .await?;
        self.with.events.publish(ChatEvent::TurnFinished {
            conversation_id,
            message_id,
            channel,
            status: status.as_str().to_string(),
            finish_reason: None,
            usage: None,
            meta: Box::new(meta.clone()),
        });
        Ok(TurnOutcome {
            conversation_id,
            user_message_id: said_id,
            message_id,
            reply,
            status,
            finish_reason: None,
            usage: None,
            meta,
            timings: Default::default(),
            conversation_changed: false,
        })
    }

    /// A reply is being written or messages wait for one.
    pub fn is_busy(&self) -> bool {
        self.inbox.is_running() || self.active_turn.lock().expect("turn lock").is_some()
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

    fn begin_turn(&self) -> Result<(CancellationToken, TurnGuard<'_>), TurnError> {
        let mut slot = self.active_turn.lock().expect("turn lock");
        if slot.is_some() {
            return Err(TurnError::Busy);
        }
        let token = CancellationToken::new();
        *slot = Some(token.clone());
        Ok((token, TurnGuard(&self.active_turn)))
    }

    async fn reply(&self, conversation_id: i64, asked: Asked, cancel: CancellationToken, note: Note) -> Result<TurnOutcome, TurnError> {
        use tracing::Instrument;
        let span = tracing::info_span!("turn", turn_id = asked.message_id, conversation_id);
        async {
            tracing::info!("turn started");
            let result = self.run_turn(conversation_id, asked, cancel, note).await;
            match &result {
                Ok(outcome) => {
                    // The turn's phases: from the message arriving to the prompt going out
                    // (the context built), then the driving (model calls and tools).
                    let ms = |d: std::time::Duration| d.as_millis() as u64;
                    let t = &outcome.timings;
                    tracing::info!(
                        status = outcome.status.as_str(),
                        driving_ms = ms(t.total),
                        to_first_request_ms = ms(t.to_first_request),
                        model_ms = ms(t.model),
                        tools_ms = ms(t.tools),
                        "turn finished"
                    );
                    self.notice_facts(conversation_id, asked.message_id, outcome.message_id).await;
                }
                Err(error) => {
                    tracing::warn!(%error, "turn failed");
                    self.with.events.publish(ChatEvent::TurnFailed {
                        conversation_id,
                        message: sidecar_domain::said_whole(error, self.with.lang),
                        retryable: error.is_retryable(),
                    });
                }
            }
            result
        }
        .instrument(span)
        .await
    }

    /// Offers (or saves, as chosen) the facts the user just said that nothing covers.
    async fn notice_facts(&self, conversation_id: i64, said_id: i64, reply_id: i64) {
        if self.with.store.conversations().is_incognito(conversation_id).await.unwrap_or(true) {
            return;
        }
        let Ok(Some(said)) = self.with.store.conversations().message(said_id).await else { return };
        let (suggestions, saved) = self.with.noticing.notice(&said.content, said_id, &self.with.knowledge, self.with.clock.local_today()).await;
        if !suggestions.is_empty() {
            self.with.events.publish(ChatEvent::FactsNoticed { conversation_id, message_id: reply_id, said_id, suggestions, saved });
        }
    }

    /// A request of several steps, with no plan open, is planned in a request of its own
    /// before its first step (agent mode 10); when that fails it runs as one plain task.
    /// Whether a plan is open for the turn, either way.
    async fn plan_before(
        &self,
        conversation_id: i64,
        request: &str,
        chain: &sidecar_llm::Chain,
        tools: &sidecar_tools::ToolRegistry,
    ) -> Result<bool, TurnError> {
        let plans = self.with.context.plans();
        if crate::context::plan::is_open(&plans.focus(conversation_id).await?) {
            return Ok(true);
        }
        let names = tools.names();
        if !chain.sends_tools() || !names.contains(&crate::context::plan_item::PLAN_TOOL) || !crate::complexity::is_complex(request) {
            return Ok(false);
        }
        match crate::context::planner::plan_before(&self.with.models, plans, chain, conversation_id, request, &names).await {
            Ok(steps) => {
                tracing::info!(steps, "a plan was made in a request of its own before the first step");
                Ok(true)
            }
            Err(reason) => {
                tracing::info!(%reason, "the request runs as one plain task, unplanned");
                Ok(false)
            }
        }
    }

    async fn run_turn(&self, conversation_id: i64, asked: Asked, cancel: CancellationToken, note: Note) -> Result<TurnOutcome, TurnError> {
        let settings = self.with.models.settings();
        let pinned = self.with.store.conversations().conversation_provider(conversation_id).await?;
        let mut chain = tokio::select! {
            chain = self.with.models.chat_chain(pinned.as_deref()) => chain?,
            _ = cancel.cancelled() => return Err(TurnError::StoppedBeforeModel),
        };
        chain.demo_stands_in = note.is_none();
        // A message sent right after a tool server was added or edited would otherwise
        // go without that server's tools; a server slower than this is left behind.
        let mut starting = self.with.tools_starting.clone();
        tokio::select! {
            _ = tokio::time::timeout(TOOLS_START_WAIT, starting.wait_for(|s| !*s)) => {}
            _ = cancel.cancelled() => return Err(TurnError::StoppedBeforeModel),
        }
        let recent = self.with.store.conversations().recent_messages(conversation_id, 12).await?;
        let incognito = self.with.store.conversations().is_incognito(conversation_id).await?;
        // An incognito chat saves no fact: the model is not offered the tool, and told why.
        let offered = if incognito { Arc::new(self.tools().without(INCOGNITO_WITHOUT)) } else { self.tools() };
        let request = recent.iter().find(|m| m.id == asked.message_id).map(|m| m.content.clone()).unwrap_or_default();
        let planning = tokio::select! {
            planning = self.plan_before(conversation_id, &request, &chain, &offered) => planning?,
            _ = cancel.cancelled() => return Err(TurnError::StoppedBeforeModel),
        };
        // The scratchpad is kept beside a plan: offered while one is open, not on every turn
        // (and left out before the choice, so it takes no other tool's room).
        let offered = if planning { offered } else { Arc::new(offered.without(crate::context::scratchpad::NAME)) };
        let tools = Arc::new(self.with.chooser.choose(&offered, conversation_id, &recent).await);
        // Folding old turns may call the model: Stop works here too.
        let mut turn = tokio::select! {
            turn = self.with.context.turn_prompt(conversation_id, &chain, &tools) => turn?,
            _ = cancel.cancelled() => return Err(TurnError::StoppedWhileFolding),
        };
        if let Some(told) = &note {
            turn.prompt.push(ChatMessage::system(&told.note));
        }
        if incognito {
            turn.prompt.push(ChatMessage::system(crate::words::intent::INCOGNITO_NOTE));
        }
        let shaper = self.with.context.shaper(&turn, conversation_id, &chain);
        let driven = drive(
            TurnContext {
                shaper: &shaper,
                conversation_id,
                asked_in: asked.message_id,
                store: &self.with.store,
                events: &self.with.events,
                tools: &tools,
                chain,
                summarize_chain: self.with.models.routed(sidecar_settings::Purpose::Summarize),
                channel: asked.channel,
                clock: &self.with.clock,
                arrived: asked.arrived,
                rules: TurnRules::of(&settings),
                cancel,
                lang: self.with.lang,
                models: &self.with.models,
                plans: self.with.context.plans(),
                counted_as: sidecar_settings::Purpose::Chat.as_str(),
            },
            turn.prompt,
        )
        .await?;
        let outcome = TurnOutcome {
            conversation_id,
            user_message_id: asked.message_id,
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
            // No model could add to what Sidecar did and said: its answer stands alone,
            // as with no provider (the header says the provider is down).
            TurnEnd::Failed { .. } if driven.text.is_empty() && note.is_some() => {
                self.with.store.variants().withdraw_empty(driven.message_id).await?;
                Ok(note.expect("checked").answer)
            }
            TurnEnd::Failed { message, .. } => Err(driven.failure.map(TurnError::Route).unwrap_or(TurnError::Failed(message))),
            TurnEnd::TimedOut { .. } => Err(TurnError::Failed(sidecar_llm::turn_timed_out(settings.llm.turn_timeout_secs, self.with.lang))),
            _ => {
                self.with.events.publish(ChatEvent::TurnFinished {
                    conversation_id,
                    message_id: outcome.message_id,
                    channel: asked.channel,
                    status: outcome.status.as_str().to_string(),
                    finish_reason: outcome.finish_reason.clone(),
                    usage: outcome.usage,
                    meta: Box::new(outcome.meta.clone()),
                });
                Ok(outcome)
            }
        }
    }
}
