//! The proactivity service: the spontaneous loop and what it remembers. One tick: read
//! config and state fresh → roll the counters → the rules → try the brain lock (skip if
//! a reply is being written) → ask the model → validate → read the user's last message
//! again → mark the state → send through the router.
//!
//! Over 400 lines: one tick's steps, a method each, in the order the loop runs them, read
//! top to bottom.

use crate::rows::ProactiveStore;
use sidecar_reminders::RemindersStore;
use std::sync::{Arc, Mutex as StdMutex};

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;

use super::config::{ProactiveConfig, HUSH};
use super::decision::{self, SpontaneousContext};
use super::error::ProactiveError;
use super::events::ProactiveEvent;
use super::rules::{self, Approved, Block, MessageType, Skip};
use super::state::{Channel, ProactiveState};
use super::{ProactiveStatus, TickMode, TickReport};
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_llm::ChatRequest;
use sidecar_llm::Models;
use sidecar_memory::KnowledgeStore;
use sidecar_outbox::{Kind, MessageRouter, Outgoing, Routed};
use sidecar_settings::Purpose;
use sidecar_store::Store;

mod noticed;

/// The decision's answer is short JSON.
const DECISION_MAX_TOKENS: u32 = 200;
const DECISION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(90);

/// Held while the model is asked anything for the user (a turn, or the spontaneous
/// decision): one at a time (P7). Shared by the conversation and proactivity.
pub type BrainLock = Arc<tokio::sync::Mutex<()>>;

/// What the rules before speaking let through ([`ProactiveService::open`]).
struct Opened {
    now: DateTime<Utc>,
    config: ProactiveConfig,
    state: ProactiveState,
    /// Where the user is, so where a message would be shown.
    channel: Channel,
    /// The kinds of message welcome there now.
    welcome: Vec<MessageType>,
}

pub struct ProactiveService {
    store: Store,
    models: Arc<Models>,
    knowledge: Arc<KnowledgeStore>,
    router: MessageRouter,
    brain: BrainLock,
    /// Cancels the spontaneous decision in flight when the user writes.
    tick_cancel: StdMutex<Option<CancellationToken>>,
    /// Notified when the settings change, so the loop re-reads them.
    changed: tokio::sync::Notify,
    /// Where "quiet now" is told when it changes.
    events: sidecar_domain::Emitter<ProactiveEvent>,
    /// Whether a message is a command to Sidecar (`/quiet`, "be quiet"), which is not
    /// the user talking: the conversation's commands, handed in by the assembly.
    is_command: fn(&str) -> bool,
    /// The user's calendar: no spontaneous message during a busy event.
    calendar: std::sync::RwLock<Option<Arc<sidecar_calendar::CalendarService>>>,
    clock: Clock,
    lang: Lang,
}

impl ProactiveService {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Store,
        models: Arc<Models>,
        knowledge: Arc<KnowledgeStore>,
        router: MessageRouter,
        brain: BrainLock,
        events: sidecar_domain::Emitter<ProactiveEvent>,
        is_command: fn(&str) -> bool,
        clock: Clock,
        lang: Lang,
    ) -> Self {
        let (tick_cancel, changed) = (StdMutex::new(None), tokio::sync::Notify::new());
        Self { store, models, knowledge, router, brain, tick_cancel, changed, events, is_command, calendar: Default::default(), clock, lang }
    }

    /// The calendar whose busy events keep Sidecar from speaking first.
    pub fn watch_calendar(&self, calendar: Arc<sidecar_calendar::CalendarService>) {
        *self.calendar.write().expect("calendar lock") = Some(calendar);
    }

    /// The busy event under way now, if the calendar has one.
    async fn in_an_event(&self, now: DateTime<Utc>) -> Option<String> {
        let calendar = self.calendar.read().expect("calendar lock").clone()?;
        match calendar.busy_at(now).await {
            Ok(event) => event.map(|e| e.summary),
            Err(error) => {
                tracing::debug!(%error, "the calendar could not be read for quiet");
                None
            }
        }
    }

    pub fn router(&self) -> &MessageRouter {
        &self.router
    }

    pub async fn config(&self) -> Result<ProactiveConfig, ProactiveError> {
        Ok(self.store.proactive().proactive_config().await?)
    }

    /// Saves the user's choices; the loop picks them up at once.
    pub async fn set_config(&self, config: ProactiveConfig) -> Result<ProactiveConfig, ProactiveError> {
        config.validate()?;
        self.store.proactive().save_proactive_config(&config).await?;
        self.changed.notify_one();
        let state = self.store.proactive().proactive_state().await?;
        self.tell_quiet(&state, &config);
        Ok(config)
    }

    /// Whether Sidecar is quiet at the desk (the window, the character) now, and when
    /// that changes by itself. Reads only: quiet does not depend on the counters.
    pub async fn quiet_now(&self) -> Result<super::quiet::QuietNow, ProactiveError> {
        let state = self.store.proactive().proactive_state().await?;
        Ok(self.quiet_at_desk(&state, &self.config().await?))
    }

    fn quiet_at_desk(&self, state: &ProactiveState, config: &ProactiveConfig) -> super::quiet::QuietNow {
        super::quiet::quiet_now(state, &config.quiet_hours, self.clock.now(), self.clock.zone(), Channel::Desktop)
    }

    /// Tells what shows the quiet (the character) what stands now.
    fn tell_quiet(&self, state: &ProactiveState, config: &ProactiveConfig) {
        let quiet = self.quiet_at_desk(state, config);
        self.events.publish(ProactiveEvent::QuietChanged { quiet });
    }

    /// Now, and the config and state as they stand now (counters rolled to this hour),
    /// read fresh from the database.
    async fn now_config_state(&self) -> Result<(DateTime<Utc>, ProactiveConfig, ProactiveState), ProactiveError> {
        let (now, zone) = (self.clock.now(), self.clock.zone());
        let config = self.config().await?;
        let (state, _) = self.store.proactive().update_proactive_state(|s| s.roll_counters(now, zone)).await?;
        Ok((now, config, state))
    }

    pub async fn status(&self) -> Result<ProactiveStatus, ProactiveError> {
        let (now, config, state) = self.now_config_state().await?;
        Ok(ProactiveStatus {
            max_today: config.level.max_per_day(),
            quiet_until: state.quiet_until.filter(|until| *until > now),
            config,
            state,
            zone: self.clock.zone().name().to_string(),
            sinks: self.router.sinks(),
            limits: super::Limits::current(),
        })
    }

    /// The user said something (from this process's channel): they are active now.
    /// Also stops a spontaneous decision in flight, so Sidecar never talks over them.
    pub async fn record_user_activity(&self, channel: Channel) -> Result<(), ProactiveError> {
        self.user_is_writing();
        let now = self.clock.now();
        self.store
            .proactive()
            .update_proactive_state(|s| {
                s.last_user_message_at = Some(now);
                s.last_active_channel = Some(channel);
                s.learned.user_wrote(now);
                if !channel.is_phone() {
                    s.last_desk_activity_at = Some(now);
                }
            })
            .await?;
        Ok(())
    }

    /// The user is at the desk (the window was focused): phones wait again.
    pub async fn desk_active(&self) -> Result<(), ProactiveError> {
        let now = self.clock.now();
        self.store.proactive().update_proactive_state(|s| s.last_desk_activity_at = Some(now)).await?;
        Ok(())
    }

    /// The user is writing: a spontaneous decision in flight is dropped now, before
    /// anything is stored, so Sidecar never talks over them.
    pub fn user_is_writing(&self) {
        if let Some(tick) = self.tick_cancel.lock().expect("tick lock").as_ref() {
            tick.cancel();
        }
    }

    /// `/quiet`: no spontaneous messages for `minutes` (everywhere, or only on
    /// `here`, the channel it was asked from); `None` lifts it. Reminders still arrive.
    pub async fn set_quiet(&self, minutes: Option<i64>, here: Option<Channel>) -> Result<ProactiveState, ProactiveError> {
        let now = self.clock.now();
        let (state, _) = self
            .store
            .proactive()
            .update_proactive_state(|s| match minutes {
                Some(m) => {
                    s.quiet_until = Some(now + chrono::Duration::minutes(m));
                    s.quiet_channel = here;
                }
                None => {
                    s.quiet_until = None;
                    s.quiet_channel = None;
                    s.circuit_open_until = None;
                }
            })
            .await?;
        self.tell_quiet(&state, &self.config().await?);
        Ok(state)
    }

    /// "Message me more often" (`up`) or "not so much": the level moves one step
    /// (within low..high); returns it before and after.
    pub async fn step_level(&self, up: bool) -> Result<(super::config::Level, super::config::Level), ProactiveError> {
        use super::config::Level;
        let config = self.config().await?;
        if !up {
            self.told_off().await?;
        }
        let before = config.level;
        let after = match (before, up) {
            (Level::Low, true) | (Level::High, false) => Level::Medium,
            (Level::Medium | Level::High, true) => Level::High,
            (Level::Medium | Level::Low, false) => Level::Low,
        };
        self.set_config(ProactiveConfig { level: after, ..config }).await?;
        tracing::info!(before = before.as_str(), after = after.as_str(), "the user asked for a different level");
        Ok((before, after))
    }

    /// What was just sent was not welcome ("cállate", "not so much").
    async fn told_off(&self) -> Result<(), ProactiveError> {
        let now = self.clock.now();
        self.learn(|learned| learned.told_off(now).into_iter().collect()).await.map(drop)
    }

    /// Changes what was learned, stores it, and says what is worth saying.
    async fn learn(&self, change: impl FnOnce(&mut super::learning::Learned) -> Vec<super::learning::Learnt>) -> Result<ProactiveState, ProactiveError> {
        let (state, learnt) = self.store.proactive().update_proactive_state(|s| change(&mut s.learned)).await?;
        self.tell_learnt(learnt);
        Ok(state)
    }

    /// "Be quiet" / "cállate": quiet for `HUSH`.
    pub async fn hush(&self) -> Result<DateTime<Utc>, ProactiveError> {
        self.told_off().await?;
        let state = self.set_quiet(Some(HUSH.num_minutes()), None).await?;
        Ok(state.quiet_until.expect("just set"))
    }

    /// `/proactive reset`: counters, cooldown, breaker and quiet cleared.
    pub async fn reset(&self) -> Result<(), ProactiveError> {
        let (state, _) = self.store.proactive().update_proactive_state(ProactiveState::reset).await?;
        self.tell_quiet(&state, &self.config().await?);
        Ok(())
    }

    /// The user's last message that was not a command, read from the database and the
    /// activity this process recorded (whichever is later) — never a cached value.
    async fn last_user_message(&self, state: &ProactiveState) -> Result<Option<(DateTime<Utc>, String)>, ProactiveError> {
        let stored = self.store.proactive().latest_user_messages(20).await?.into_iter().filter(|(_, text)| !(self.is_command)(text)).max_by_key(|(at, _)| *at);
        Ok(match (stored, state.last_user_message_at) {
            (Some((at, text)), Some(active)) if active > at => Some((active, text)),
            (None, Some(active)) => Some((active, String::new())),
            (stored, _) => stored,
        })
    }

    /// What the decision call is told now (`/proactive context`).
    pub async fn spontaneous_context(&self) -> Result<SpontaneousContext, ProactiveError> {
        let (now, config, state) = self.now_config_state().await?;
        let (_, welcome) = self.welcome(&config, &state, now);
        self.build_context(now, &config, &state, &welcome).await
    }

    /// The channel a spontaneous message would go to now, and the kinds welcome there.
    fn welcome(&self, config: &ProactiveConfig, state: &ProactiveState, now: DateTime<Utc>) -> (Channel, Vec<MessageType>) {
        let presence = state.presence(now, config.sinks.phone_when_idle_minutes);
        let channel = self.router.spontaneous_channel(&config.sinks, presence).unwrap_or(Channel::Desktop);
        let welcome = MessageType::ALL.into_iter().filter(|k| config.level.allows(*k) && Self::learned_welcome(config, state, now, channel, *k)).collect();
        (channel, welcome)
    }

    /// Whether what the user's answers taught leaves `kind` welcome on `channel` now.
    fn learned_welcome(config: &ProactiveConfig, state: &ProactiveState, now: DateTime<Utc>, channel: Channel, kind: MessageType) -> bool {
        // At a whole allowance a kind may come as often as the level allows.
        let gap = chrono::Duration::hours(24) / config.level.max_per_day().max(1) as i32;
        state.learned.allows(kind, channel, gap, now)
    }

    /// Says once, in the user's language, that a kind of message pauses.
    fn tell_learnt(&self, learnt: Vec<super::learning::Learnt>) {
        for super::learning::Learnt::Paused { kind, channel, until } in learnt {
            let until = until.with_timezone(&self.clock.zone()).format("%Y-%m-%d").to_string();
            let said = crate::words::proactive::paused(kind, channel.as_str(), &until, self.lang);
            tracing::info!(kind = kind.as_str(), channel = channel.as_str(), %until, "a kind of spontaneous message pauses");
            self.events.publish(ProactiveEvent::ProactiveLearned { said });
        }
    }

    /// A sign about a spontaneous message the user gave: a click, a thumb, a closed
    /// notification. The message's kind and channel come from the store.
    pub async fn feedback(&self, message_id: i64, signal: super::learning::Signal) -> Result<(), ProactiveError> {
        let Some((kind, channel)) = self.store.proactive().spontaneous_kind(message_id).await? else {
            return Err(ProactiveError::NotSpontaneous(message_id));
        };
        let now = self.clock.now();
        self.learn(|learned| learned.signal_for(message_id, kind, channel, signal, now).into_iter().collect()).await.map(drop)
    }

    /// A sign a phone channel saw about a spontaneous message of `kind` it delivered at
    /// `sent_at` (a reaction on Telegram).
    pub async fn feedback_sent(
        &self,
        kind: MessageType,
        channel: Channel,
        sent_at: DateTime<Utc>,
        signal: super::learning::Signal,
    ) -> Result<(), ProactiveError> {
        let now = self.clock.now();
        self.learn(|learned| learned.signal_sent(kind, channel, sent_at, signal, now).into_iter().collect()).await.map(drop)
    }

    /// A sign from a notification: about `message_id` when it is known, else about the
    /// latest spontaneous message still waiting on `channel`.
    pub async fn feedback_on(&self, message_id: Option<i64>, channel: Channel, signal: super::learning::Signal) -> Result<(), ProactiveError> {
        if let Some(id) = message_id {
            return self.feedback(id, signal).await;
        }
        let now = self.clock.now();
        self.learn(|learned| learned.signal_latest(channel, signal, now).into_iter().collect()).await.map(drop)
    }

    /// What was learned, for Settings → Proactivity.
    pub async fn learned(&self) -> Result<super::learning::Learned, ProactiveError> {
        Ok(self.store.proactive().proactive_state().await?.learned)
    }

    /// Settings' Reset: every kind welcome again, as on the first day.
    pub async fn forget_learned(&self) -> Result<(), ProactiveError> {
        self.store.proactive().update_proactive_state(|s| s.learned = Default::default()).await?;
        Ok(())
    }

    async fn build_context(
        &self,
        now: DateTime<Utc>,
        config: &ProactiveConfig,
        state: &ProactiveState,
        welcome: &[MessageType],
    ) -> Result<SpontaneousContext, ProactiveError> {
        let zone = self.clock.zone();
        let reminders = self
            .store
            .reminder_table()
            .pending_reminders()
            .await?
            .into_iter()
            .map(|r| (r.due_at.with_timezone(&zone).format("%a %d %b %H:%M").to_string(), r.message))
            .collect();
        let mut facts = self.knowledge.facts();
        facts.sort_by_key(|f| std::cmp::Reverse(f.fact.confirmed));
        Ok(decision::spontaneous_context(decision::Inputs {
            now,
            zone,
            config,
            state,
            last_user: self.last_user_message(state).await?,
            reminders,
            facts: facts.into_iter().take(5).map(|f| f.fact.text).collect(),
            welcome: welcome.iter().map(|k| k.as_str().to_string()).collect(),
            lang: self.lang,
        }))
    }

    /// One tick of the spontaneous loop.
    pub async fn tick(&self, mode: TickMode) -> Result<TickReport, ProactiveError> {
        use tracing::Instrument;
        let span = tracing::info_span!("tick", tick_id = next_tick_id(), ?mode);
        async {
            let report = self.decide(mode).await?;
            report.log();
            Ok(report)
        }
        .instrument(span)
        .await
    }

    /// The rules before anything is said (P1–P4, P11, P13, quiet, the sinks, what is
    /// welcome, a meeting under way, Do Not Disturb): where and what may be said now, or
    /// why nothing may. `DecideOnly` checks only what is welcome.
    async fn open(&self, mode: TickMode) -> Result<Result<Opened, Skip>, ProactiveError> {
        let zone = self.clock.zone();
        let (now, config, state) = self.now_config_state().await?;
        if mode == TickMode::Send {
            let last_user = self.last_user_message(&state).await?.map(|(at, _)| at);
            if let Err(reason) = rules::precheck(&config, &state, now, zone, last_user) {
                return Ok(Err(reason));
            }
            if !self.router.takes_spontaneous(&config.sinks, state.presence(now, config.sinks.phone_when_idle_minutes)) {
                return Ok(Err(Skip::NoSink));
            }
        }
        // Silences that outlived their answer window are counted (written only then).
        let state = if mode == TickMode::Send && state.learned.due_to_expire(now) { self.learn(|learned| learned.expire(now)).await? } else { state };
        let (channel, welcome) = self.welcome(&config, &state, now);
        if welcome.is_empty() {
            return Ok(Err(Skip::NotWelcome));
        }
        if mode == TickMode::Send {
            if let Some(event) = self.in_an_event(now).await {
                tracing::info!(%event, "a busy event is under way in the calendar");
                return Ok(Err(Skip::InAnEvent));
            }
        }
        if mode == TickMode::Send && channel == Channel::Desktop {
            if let Some(which) = crate::do_not_disturb::desktop_silenced().await {
                tracing::info!(which, "the desktop is set to Do Not Disturb");
                return Ok(Err(Skip::DoNotDisturb));
            }
        }
        Ok(Ok(Opened { now, config, state, channel, welcome }))
    }

    async fn decide(&self, mode: TickMode) -> Result<TickReport, ProactiveError> {
        let zone = self.clock.zone();
        let Opened { now, config, state, channel, welcome } = match self.open(mode).await? {
            Ok(opened) => opened,
            Err(reason) => return Ok(TickReport::Skipped { reason }),
        };
        // P7/P16: the brain lock is tried, never waited for, and released by its guard
        // on every path out of here, errors included.
        let Ok(_brain) = self.brain.try_lock() else {
            return Ok(TickReport::Skipped { reason: Skip::BrainBusy });
        };
        let cancel = CancellationToken::new();
        *self.tick_cancel.lock().expect("tick lock") = Some(cancel.clone());
        let _clear = ClearOnDrop(&self.tick_cancel);

        let context = self.build_context(now, &config, &state, &welcome).await?;
        let lang = self.lang;
        let messages = decision::decision_prompt(&context, lang);
        let prompt_tokens: usize = messages.iter().map(|m| sidecar_llm::tokens::count(&m.content)).sum();
        let answer = tokio::select! {
            answer = self.decision_call(messages) => answer,
            _ = cancel.cancelled() => return Ok(TickReport::Blocked { block: Block::UserBecameActive, prompt_tokens }),
        };
        let text = match answer {
            Ok(text) => text,
            Err(error) => return Ok(TickReport::Failed { error: error.to_string() }),
        };
        let decision = match decision::parse(&text) {
            Ok(decision) => decision,
            Err(block) => return Ok(TickReport::Blocked { block, prompt_tokens }),
        };
        if !decision.should_speak {
            if mode == TickMode::Send {
                self.store.proactive().update_proactive_state(|s| s.consecutive_ticks_with_message = 0).await?;
            }
            return Ok(TickReport::Silent { reason: decision.reason, prompt_tokens });
        }
        let now = self.clock.now();
        let approved = match rules::validate(&decision, &state, now, zone) {
            Ok(approved) => approved,
            Err(block) => return Ok(TickReport::Blocked { block, prompt_tokens }),
        };
        if !welcome.contains(&approved.message_type) {
            return Ok(TickReport::Blocked { block: Block::KindNotWelcome(approved.message_type.as_str().to_string()), prompt_tokens });
        }
        if mode == TickMode::DecideOnly {
            return Ok(TickReport::WouldSend { approved, prompt_tokens });
        }
        // P15: the user may have written while the model was thinking.
        let fresh = self.store.proactive().proactive_state().await?;
        if cancel.is_cancelled() || !rules::still_quiet(self.last_user_message(&fresh).await?.map(|(at, _)| at), now) {
            return Ok(TickReport::Blocked { block: Block::UserBecameActive, prompt_tokens });
        }
        let routed = self.send_approved(&approved, &config, now, channel).await?;
        Ok(TickReport::Sent { approved, routed, prompt_tokens })
    }

    /// Sends what passed every rule, counted against the limits before it goes: a crash
    /// in between loses one message, never repeats it.
    async fn send_approved(&self, approved: &Approved, config: &ProactiveConfig, now: DateTime<Utc>, channel: Channel) -> Result<Routed, ProactiveError> {
        let zone = self.clock.zone();
        let (marked, _) = self.store.proactive().update_proactive_state(|s| s.mark_sent(now, zone, approved.greeting)).await?;
        let outgoing = Outgoing {
            kind: Kind::Spontaneous,
            title: "Sidecar".into(),
            body: approved.text.clone(),
            chat: approved.text.clone(),
            message_type: Some(approved.message_type),
            reminder_id: None,
            late: false,
            message_id: None,
            occurrence: None,
        };
        let routed = self.router.send(outgoing, &config.sinks, marked.presence(now, config.sinks.phone_when_idle_minutes)).await;
        if routed.reached_anyone() {
            let kind = approved.message_type;
            let shown_on = routed.channel.unwrap_or(channel);
            self.store.proactive().update_proactive_state(|s| s.learned.sent(kind, shown_on, routed.message_id, now)).await?;
        }
        Ok(routed)
    }

    /// One short model call, no tools, no history; its usage is recorded.
    async fn decision_call(&self, messages: Vec<sidecar_llm::ChatMessage>) -> Result<String, sidecar_llm::CallOnceError> {
        let chain = self.models.chain_for(Purpose::Proactive).await?;
        let request = ChatRequest { messages, tools: Vec::new(), max_tokens: Some(DECISION_MAX_TOKENS), general_cap: false };
        self.models.call_once(&chain, request, Purpose::Proactive, None, DECISION_TIMEOUT).await
    }

    /// The spontaneous loop: a tick every `tick_minutes` (re-read each time, and at
    /// once when the settings change), until `cancel`.
    pub fn spontaneous_loop(self: &Arc<Self>, cancel: CancellationToken) -> impl std::future::Future<Output = ()> + Send + 'static {
        let companion = self.clone();
        async move {
            loop {
                let minutes = companion.config().await.map(|c| c.tick_minutes).unwrap_or(15);
                tokio::select! {
                    _ = tokio::time::sleep(std::time::Duration::from_secs(u64::from(minutes) * 60)) => {}
                    _ = companion.changed.notified() => continue,
                    _ = cancel.cancelled() => return,
                }
                if let Err(error) = companion.tick(TickMode::Send).await {
                    tracing::warn!(%error, "spontaneous tick failed");
                }
            }
        }
    }
}

/// A number for each tick of this process, so its log lines can be told apart.
fn next_tick_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

struct ClearOnDrop<'a>(&'a std::sync::Mutex<Option<CancellationToken>>);

impl Drop for ClearOnDrop<'_> {
    fn drop(&mut self) {
        *self.0.lock().expect("tick lock") = None;
    }
}
