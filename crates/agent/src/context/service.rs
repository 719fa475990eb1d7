//! The context service: what of a conversation the model sees on each call. It builds
//! the turn's prompt (persona, facts, summary, resumed checkpoint, live history), folds
//! the oldest turns into the running summary when the history nears the threshold
//! (digest, memory flush, Bug 12's check, checkpoint, in that order), keeps the meter,
//! and drives checkpoints: `/checkpoint`, their lifecycle, new conversations, the offer
//! to continue, and export.
//!
//! Over 400 lines: the prompt, the fold into the summary and the checkpoints share the
//! conversation's context rows and its meter; the fold's and the checkpoints' own rules
//! are in `compact` and `checkpoint`.

use super::compact::Compactions;
use crate::context::rows::ContextStore;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::checkpoint::{Checkpoint, CheckpointBody, CheckpointStatus, Metadata, OFFER_DAYS};
use super::digest::{self, Digest, MAX_FLUSHED_FACTS};
use super::engine::{eviction_point, limits_for, limits_with_tools, summary_block, summary_budget, LiveHistory, TurnPrompt, TurnShaper};
use super::fit::{self, Limits};
use super::meter::ContextMeter;
use super::plan::PlanBoard;
use crate::context::rows::Summary;
use crate::error::TurnError;
use crate::events::ChatEvent;
use crate::prompt;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_llm::tokens::count_cached as count;
use sidecar_llm::Chain;
use sidecar_llm::ChatMessage;
use sidecar_llm::ChatRequest;
use sidecar_llm::Models;
use sidecar_memory::Category;
use sidecar_memory::KnowledgeStore;
use sidecar_settings::Purpose;
use sidecar_store::Message;
use sidecar_store::Store;
use sidecar_tools::ToolRegistry;

/// The system prompt's additions: the running summary and a resumed checkpoint.
pub(super) fn summary_blocks(summary: Option<&Summary>) -> String {
    summary.map(|s| format!("\n\n{}", summary_block(s))).unwrap_or_default()
}

/// Bug 12's backup of fact-like text that left the context unsaved (append-only).
pub(crate) const TRUNCATED_LOG: &str = "truncated_messages.jsonl";
/// Tokens of facts in every prompt (Health facts always go in, beyond it if needed).
const FACT_BUDGET_TOKENS: usize = 600;
/// Longest reply of the digest call.
const DIGEST_MAX_TOKENS: u32 = 900;
/// The digest call gives up after this long and the fallback is used.
const DIGEST_TIMEOUT: Duration = Duration::from_secs(90);

pub struct ContextService {
    pub(super) store: Store,
    knowledge: Arc<KnowledgeStore>,
    plans: Arc<PlanBoard>,
    pub(super) events: Emitter<ChatEvent>,
    pub(super) models: Arc<Models>,
    pub(super) clock: Clock,
    data_dir: PathBuf,
    /// The last measured context use, by conversation.
    pub(super) meter: Mutex<Option<(i64, ContextMeter)>>,
    /// Long tool outputs already compacted or summarised.
    pub(super) compactions: Compactions,
}

impl ContextService {
    pub fn new(
        store: Store,
        knowledge: Arc<KnowledgeStore>,
        plans: Arc<PlanBoard>,
        events: Emitter<ChatEvent>,
        models: Arc<Models>,
        clock: Clock,
        data_dir: PathBuf,
    ) -> Self {
        Self { store, knowledge, plans, events, models, clock, data_dir, meter: Mutex::new(None), compactions: Compactions::default() }
    }

    /// The plan board `update_plan` writes to.
    pub(crate) fn plans(&self) -> &PlanBoard {
        &self.plans
    }

    /// The shaper that fits every model call of a turn begun from `turn`.
    pub(crate) fn shaper<'a>(&'a self, turn: &TurnPrompt, conversation_id: i64, chain: &Chain) -> TurnShaper<'a> {
        TurnShaper {
            system: turn.system.clone(),
            late: turn.late.clone(),
            plans: &self.plans,
            compactions: &self.compactions,
            limits: turn.limits,
            window: chain.context_window() as usize,
            summarized_turns: turn.summarized_turns,
            conversation_id,
            events: &self.events,
            meter: &self.meter,
            context: self.models.settings().context.clone(),
            reinforced: turn.reinforced,
            truncated: Default::default(),
            checkpoint: turn.checkpoint,
            checkpoints: self,
            sent: Default::default(),
        }
    }

    /// Builds the prompt of the next model call in `conversation_id`, folding old turns
    /// into the summary first when the history nears the threshold.
    pub(crate) async fn turn_prompt(&self, conversation_id: i64, chain: &Chain, tools: &ToolRegistry) -> Result<TurnPrompt, TurnError> {
        let settings = self.models.settings();
        let (now, zone) = (self.clock.now(), self.clock.zone());
        // Independent reads, side by side: they are all on the way to the first token.
        let (corrections, plan, loaded, resumed) = tokio::try_join!(
            async { Ok::<_, TurnError>(self.store.corrections().active_corrections(now).await?) },
            async { Ok(self.plans.focus(conversation_id).await?) },
            self.load_live(conversation_id),
            self.resumed_checkpoint(conversation_id),
        )?;
        let base = self.base_system();
        // Models that take no tools (the offline one, also standing in) are sent none.
        let (specs, limits) = limits_with_tools(chain, &settings, tools);
        // In a long conversation the tool rules are said again, late, never in the prefix.
        let recent_blocks = loaded.1.iter().rev().take(sidecar_llm::per_turn::REINFORCE_AFTER).filter_map(|m| m.meta.as_ref()?.0.late.as_deref());
        let due = sidecar_llm::per_turn::reinforcement_due(loaded.1.len(), recent_blocks);
        let reinforce = (!specs.is_empty() && due).then(|| sidecar_llm::per_turn::reinforcement(&tools.names()));
        // A request that takes several steps is asked to plan first, unless a plan is open.
        let newest = loaded.1.iter().rev().find(|m| m.role == sidecar_llm::Role::User);
        let plan_first = specs.iter().any(|s| s.name == "update_plan")
            && !crate::context::plan::is_open(&plan)
            && newest.is_some_and(|m| crate::complexity::is_complex(&m.content));
        let late = sidecar_llm::per_turn::head(
            now,
            zone,
            &corrections,
            resumed.as_ref().map(|c| c.to_prompt()).as_deref(),
            reinforce.as_deref(),
            plan_first.then_some(crate::complexity::PLAN_HINT),
        );
        let fixed = count(&base) + count(&sidecar_llm::per_turn::block(&late, &self.plans.rendered()));
        let live = self.live_history(conversation_id, chain, fixed, &limits, loaded).await?;
        // The running summary changes the prefix only when a fold happens.
        let system = base + &summary_blocks(live.summary.as_ref());
        let mut prompt = prompt::assemble(system.clone(), &live.messages);
        sidecar_memory::fill(&mut prompt, &self.data_dir);
        let checkpoint = match live.checkpoint {
            Some(id) => Some(id),
            None => self.checkpoint_if_due(conversation_id, chain, live.summary.as_ref(), &live.messages, &limits).await?,
        };
        Ok(TurnPrompt { system, late, prompt, limits, summarized_turns: live.summary.is_some(), reinforced: reinforce.is_some(), checkpoint })
    }

    /// The system prompt every turn starts with (persona, rules, the day, what Sidecar
    /// knows): the stable prefix a scheduled task's prompt shares with the chat's.
    pub(crate) fn base_system(&self) -> String {
        self.knowledge.begin_turn();
        self.system_text()
    }

    /// The system prompt as it reads now, without starting a turn.
    pub(super) fn system_text(&self) -> String {
        let (now, zone) = (self.clock.now(), self.clock.zone());
        let (persona, knowledge, _) = self.knowledge.prompt_parts(now.with_timezone(&zone).date_naive(), FACT_BUDGET_TOKENS, count);
        prompt::system_prompt(&prompt::PromptContext { now, zone, persona: &persona, knowledge: &knowledge })
    }

    /// The long tool outputs compacted so far, which a task's calls reuse.
    pub(crate) fn compactions(&self) -> &Compactions {
        &self.compactions
    }

    /// The prompt the next message would be answered with, as the guard sends it
    /// (without the new message). Folds old turns like a turn would. For benchmarks
    /// and diagnostics.
    pub async fn preview_prompt(&self, tools: &ToolRegistry) -> Result<(Vec<ChatMessage>, fit::Report), TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        let chain = self.models.chat_chain(None).await?;
        let turn = self.turn_prompt(conversation_id, &chain, tools).await?;
        Ok(self.shaper(&turn, conversation_id, &chain).shape_with_report(turn.prompt))
    }

    /// The history still sent verbatim. When it nears the threshold, the oldest turns
    /// are folded into the running summary first (nothing is deleted).
    pub(crate) async fn live_history(
        &self,
        conversation_id: i64,
        chain: &Chain,
        system_tokens: usize,
        limits: &Limits,
        (summary, mut messages): (Option<Summary>, Vec<Message>),
    ) -> Result<LiveHistory, TurnError> {
        let settings = self.models.settings();
        let fixed = system_tokens + summary.as_ref().map(|s| count(&summary_block(s))).unwrap_or(0);
        let Some(cut) = eviction_point(&messages, fixed, limits, &self.compactions, &settings.context) else {
            return Ok(LiveHistory { summary, messages, checkpoint: None });
        };
        let kept = messages.split_off(cut);
        if self.store.conversations().is_incognito(conversation_id).await? {
            // Nothing said in an incognito chat becomes a summary, a checkpoint or a fact:
            // the oldest turns simply leave the prompt.
            return Ok(LiveHistory { summary: None, messages: kept, checkpoint: None });
        }
        self.events.publish(ChatEvent::Notice { conversation_id, notice: crate::events::Notice::Summarizing });
        let (folded, checkpoint) = self.fold(conversation_id, chain, summary.as_ref(), &messages, limits).await?;
        tracing::info!(
            conversation_id,
            evicted_messages = messages.len(),
            kept_messages = kept.len(),
            before_tokens = fixed + messages.iter().chain(&kept).map(|m| count(&m.content)).sum::<usize>(),
            after_tokens = system_tokens + count(&folded.text) + kept.iter().map(|m| count(&m.content)).sum::<usize>(),
            "older turns folded into the running summary"
        );
        Ok(LiveHistory { summary: Some(folded), messages: kept, checkpoint: Some(checkpoint) })
    }

    /// Digest, memory flush, Bug 12 check, checkpoint, new summary: in that order, so
    /// a crash part-way leaves the turns unsummarised (and retried) rather than lost.
    async fn fold(
        &self,
        conversation_id: i64,
        chain: &Chain,
        previous: Option<&Summary>,
        evicted: &[Message],
        limits: &Limits,
    ) -> Result<(Summary, i64), TurnError> {
        let turns: Vec<ChatMessage> = evicted.iter().map(Message::to_chat).collect();
        let previous_text = previous.map(|s| s.text.as_str()).unwrap_or("");
        let digest = match self.digest_call(conversation_id, chain, previous_text, &turns, limits).await {
            Ok(digest) => digest,
            Err(reason) => {
                tracing::warn!(conversation_id, %reason, "the summary model call failed; using the plain summary");
                digest::fallback(previous_text, &turns, summary_budget(limits), &count)
            }
        };
        self.flush_facts(&digest, evicted).await;
        self.log_unsaved_facts(conversation_id, evicted);
        let checkpoint = self.save_checkpoint(conversation_id, "auto", digest.checkpoint.clone(), chain, evicted).await?;
        let text = sidecar_domain::truncate_middle(&digest.summary, summary_budget(limits), &count);
        let upto = evicted.last().map(|m| m.id).unwrap_or_else(|| previous.map(|s| s.upto_message_id).unwrap_or(0));
        let id = self.store.context().add_summary(conversation_id, upto, &text).await?;
        Ok((Summary { id, upto_message_id: upto, text }, checkpoint.id))
    }

    /// One model call for summary, checkpoint and facts; an error says why the
    /// fallback is used.
    async fn digest_call(
        &self,
        conversation_id: i64,
        chain: &Chain,
        previous: &str,
        turns: &[ChatMessage],
        limits: &Limits,
    ) -> Result<Digest, digest::NoDigest> {
        let room = limits.budget.saturating_sub(count(previous) + 600).max(256);
        let transcript = digest::transcript(turns, room, &count);
        let request = ChatRequest {
            messages: digest::request_messages(previous, &transcript),
            tools: Vec::new(),
            max_tokens: Some(DIGEST_MAX_TOKENS),
            general_cap: false,
        };
        // A cheaper summary model, when one is routed; else the turn's own chain.
        let routed = self.models.routed(Purpose::Summarize);
        let chain = routed.as_ref().unwrap_or(chain);
        let text = self.models.call_once(chain, request, Purpose::Summarize, Some(conversation_id), DIGEST_TIMEOUT).await?;
        digest::parse(&text)
    }

    /// The memory flush: facts the digest found are saved before their turns leave, each
    /// with the user's message it came from when one says it.
    async fn flush_facts(&self, digest: &Digest, evicted: &[Message]) {
        let today = self.clock.local_today();
        let said = || evicted.iter().filter(|m| m.role == sidecar_llm::Role::User).map(|m| (m.id, m.content.as_str()));
        for fact in digest.facts.iter().take(MAX_FLUSHED_FACTS) {
            let category = Category::parse(&fact.category).unwrap_or(Category::General);
            let saved = match digest::learned_in(&fact.fact, said()) {
                Some(from) => self.knowledge.save_from(&fact.fact, category, today, from).await,
                None => self.knowledge.save(&fact.fact, category, today).await,
            };
            match saved {
                Ok(outcome) => tracing::info!(?outcome, "memory flush saved a fact"),
                Err(error) => tracing::warn!(%error, "memory flush could not save a fact"),
            }
        }
    }

    /// Bug 12: fact-like phrases leaving the context that no saved fact covers are
    /// logged and appended to `truncated_messages.jsonl`.
    fn log_unsaved_facts(&self, conversation_id: i64, evicted: &[Message]) {
        let saved: Vec<String> = self.knowledge.facts().into_iter().map(|f| f.fact.text).collect();
        let mut lines = String::new();
        for message in evicted.iter().filter(|m| m.role == sidecar_llm::Role::User) {
            for unsaved in sidecar_memory::unsaved_facts([message.content.as_str()], &saved) {
                tracing::warn!(conversation_id, message_id = message.id, phrase = %unsaved.phrase, "a possible personal fact left the context without being saved");
                let line = serde_json::json!({
                    "logged_at": sidecar_store::utc(self.clock.now()),
                    "conversation_id": conversation_id,
                    "message_id": message.id,
                    "said_at": message.created_at,
                    "phrase": unsaved.phrase,
                    "content": message.content,
                });
                lines.push_str(&line.to_string());
                lines.push('\n');
            }
        }
        if lines.is_empty() {
            return;
        }
        let path = self.data_dir.as_path().join(TRUNCATED_LOG);
        let written = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| f.write_all(lines.as_bytes()));
        if let Err(error) = written.and_then(|()| cap_log(&path, TRUNCATED_LOG_CAP)) {
            tracing::warn!(path = %path.display(), %error, "could not append to the truncated-messages log");
        }
    }

    /// The running summary and the messages after it that still count as context.
    async fn load_live(&self, conversation_id: i64) -> Result<(Option<Summary>, Vec<Message>), TurnError> {
        let summary = self.store.context().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let messages = self.store.context().messages_after(conversation_id, after).await?.into_iter().filter(prompt::counts_as_context).collect();
        Ok((summary, messages))
    }

    /// The checkpoint this conversation continues, if any.
    async fn resumed_checkpoint(&self, conversation_id: i64) -> Result<Option<Checkpoint>, TurnError> {
        Ok(match self.store.context().continuation(conversation_id).await? {
            (Some(id), _) => self.store.context().checkpoint(id).await?,
            _ => None,
        })
    }

    /// The current conversation's plan.
    pub async fn plan(&self) -> Result<Vec<crate::context::plan::PlanItem>, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        Ok(self.store.context().plan(conversation_id).await?)
    }

    /// The model's notes for the current conversation's request.
    pub async fn scratchpad(&self) -> Result<String, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        Ok(self.store.context().scratchpad(conversation_id).await?)
    }

    /// Digests the live history into a checkpoint now: `/checkpoint` ("manual"), a chat
    /// closed idle ("idle").
    pub(crate) async fn checkpoint_now(&self, trigger: &str) -> Result<Checkpoint, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        if self.store.conversations().is_incognito(conversation_id).await? {
            return Err(TurnError::IncognitoKeepsNothing);
        }
        let settings = self.models.settings();
        let chain = self.models.chat_chain(None).await?;
        let limits = limits_for(&chain, &settings);
        let summary = self.store.context().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let turns: Vec<ChatMessage> =
            self.store.context().messages_after(conversation_id, after).await?.iter().filter(|m| prompt::counts_as_context(m)).map(Message::to_chat).collect();
        let previous = summary.as_ref().map(|s| s.text.as_str()).unwrap_or("");
        let body = match self.digest_call(conversation_id, &chain, previous, &turns, &limits).await {
            Ok(digest) => digest.checkpoint,
            Err(reason) => {
                tracing::warn!(conversation_id, %reason, "checkpoint written without the model");
                digest::fallback(previous, &turns, summary_budget(&limits), &count).checkpoint
            }
        };
        let covered: Vec<Message> = self.store.context().messages_after(conversation_id, after).await?;
        self.save_checkpoint(conversation_id, trigger, body, &chain, &covered).await
    }

    /// A checkpoint every [`CHECKPOINT_EVERY`] messages, so long work that never fills
    /// the window still has a recent state to pick up. Written without a model call: it
    /// comes before the user's reply, and a call would delay it and, on the offline
    /// model, take the conversation's cached prompt (folds and `/checkpoint` ask the model).
    async fn checkpoint_if_due(
        &self,
        conversation_id: i64,
        chain: &Chain,
        summary: Option<&Summary>,
        live: &[Message],
        limits: &Limits,
    ) -> Result<Option<i64>, TurnError> {
        if self.store.context().messages_since_checkpoint(conversation_id).await? < CHECKPOINT_EVERY
            || self.store.conversations().is_incognito(conversation_id).await?
        {
            return Ok(None);
        }
        let turns: Vec<ChatMessage> = live.iter().map(Message::to_chat).collect();
        let previous = summary.map(|s| s.text.as_str()).unwrap_or("");
        let body = digest::fallback(previous, &turns, summary_budget(limits), &count).checkpoint;
        Ok(Some(self.save_checkpoint(conversation_id, "auto", body, chain, live).await?.id))
    }

    /// A checkpoint of the live history written without a model call (mid-turn, before
    /// a tool result that will force a fold).
    async fn plain_checkpoint(&self, conversation_id: i64) -> Result<Option<i64>, TurnError> {
        // A fold or another checkpoint just saved the state: nothing new to keep.
        if self.store.context().messages_since_checkpoint(conversation_id).await? < CHECKPOINT_EVERY / 4
            || self.store.conversations().is_incognito(conversation_id).await?
        {
            return Ok(None);
        }
        let chain = self.models.chat_chain(None).await?;
        let limits = limits_for(&chain, &self.models.settings());
        let (summary, live) = self.load_live(conversation_id).await?;
        let turns: Vec<ChatMessage> = live.iter().map(Message::to_chat).collect();
        let previous = summary.as_ref().map(|s| s.text.as_str()).unwrap_or("");
        let body = digest::fallback(previous, &turns, summary_budget(&limits), &count).checkpoint;
        Ok(Some(self.save_checkpoint(conversation_id, "auto", body, &chain, &live).await?.id))
    }

    /// Stores a checkpoint with what Sidecar knows itself: the plan's steps (done and
    /// left), the model, the context's size, the files and reminders the covered turns
    /// touched; and says it was saved.
    async fn save_checkpoint(
        &self,
        conversation_id: i64,
        trigger: &str,
        mut body: CheckpointBody,
        chain: &Chain,
        covered: &[Message],
    ) -> Result<Checkpoint, TurnError> {
        // The plan's steps are the most exact record of what is done and what is left.
        for item in self.store.context().plan(conversation_id).await? {
            let line = match item.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
                Some(result) => format!("{}: {result}", item.text.trim()),
                None => item.text.trim().to_string(),
            };
            let list = if item.status.is_closed() { &mut body.completed } else { &mut body.pending };
            if !list.iter().any(|l| l.contains(item.text.trim())) {
                list.push(line);
            }
        }
        // A decision carried from the work's open checkpoint (this conversation's, or the
        // one it continues) keeps when it was taken.
        let earlier = self.store.context().open_checkpoint_of(conversation_id).await?;
        super::decision::dated(&mut body.decisions, earlier.map(|c| c.body.decisions).as_deref().unwrap_or_default(), self.clock.now());
        let meter = *self.meter.lock().expect("meter lock");
        body.metadata = Metadata {
            model: chain.providers.first().map(|p| p.model().to_string()),
            tokens: meter.filter(|(id, _)| *id == conversation_id).map(|(_, m)| m.used),
            touched: super::checkpoint::touched(covered),
        };
        let checkpoint = self.store.context().add_checkpoint(conversation_id, trigger, &body).await?;
        self.events.publish(ChatEvent::CheckpointSaved { conversation_id, checkpoint_id: checkpoint.id, trigger: trigger.into() });
        Ok(checkpoint)
    }

    pub async fn checkpoints(&self) -> Result<Vec<Checkpoint>, TurnError> {
        Ok(self.store.context().checkpoints(200).await?)
    }

    /// Moves a checkpoint along its lifecycle (completed, abandoned, paused…).
    pub async fn set_checkpoint_status(&self, id: i64, status: CheckpointStatus) -> Result<Checkpoint, TurnError> {
        let checkpoint = self.store.context().checkpoint(id).await?.ok_or_else(|| TurnError::NoCheckpoint(id))?;
        if !checkpoint.status.can_become(status) {
            return Err(TurnError::CheckpointStatus { id, from: checkpoint.status.as_str(), to: status.as_str() });
        }
        self.store.context().set_checkpoint_status(id, status).await?;
        Ok(self.store.context().checkpoint(id).await?.unwrap_or(checkpoint))
    }

    /// Closes the current conversation's newest open checkpoint (or the open one it
    /// continues).
    pub(crate) async fn close_current_checkpoint(&self, status: CheckpointStatus) -> Result<Option<Checkpoint>, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        match self.store.context().open_checkpoint_of(conversation_id).await? {
            Some(checkpoint) => Ok(Some(self.set_checkpoint_status(checkpoint.id, status).await?)),
            None => Ok(None),
        }
    }

    /// Starts a new, empty conversation; the open checkpoints of the others pause, and
    /// an incognito chat left behind is forgotten.
    pub async fn new_conversation(&self) -> Result<i64, TurnError> {
        let id = self.store.conversations().new_conversation().await?;
        shown(&self.store, id).await?;
        Ok(id)
    }

    /// Starts an incognito chat: nothing said in it is remembered, and it is forgotten
    /// once left.
    pub async fn new_incognito(&self) -> Result<i64, TurnError> {
        let id = self.store.conversations().new_incognito_conversation().await?;
        shown(&self.store, id).await?;
        Ok(id)
    }

    /// The checkpoint a new, empty conversation offers to continue: the newest open one
    /// of another conversation from the last seven days.
    pub async fn continuation_offer(&self) -> Result<Option<Checkpoint>, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        let (resumed, dismissed) = self.store.context().continuation(conversation_id).await?;
        let incognito = self.store.conversations().is_incognito(conversation_id).await?;
        if resumed.is_some() || dismissed || incognito || self.store.context().message_count(conversation_id).await? > 0 {
            return Ok(None);
        }
        let since = sidecar_store::utc(self.clock.now() - chrono::Duration::days(OFFER_DAYS));
        Ok(self.store.context().latest_open_checkpoint(&since, conversation_id).await?)
    }

    /// Continues checkpoint `id` in the current conversation: it is resumed and its
    /// state goes into every prompt of this conversation.
    pub async fn continue_from(&self, id: i64) -> Result<Checkpoint, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        let checkpoint = self.set_checkpoint_status(id, CheckpointStatus::Resumed).await?;
        self.store.context().set_continuation(conversation_id, Some(id), false).await?;
        Ok(checkpoint)
    }

    /// "Continue from checkpoint": the checkpoint named, or the open one picked by status
    /// then date among those of the last [`OFFER_DAYS`] days, continued in the current
    /// conversation. An older open one is only named, for the user to ask for by number:
    /// week-old work picked up unasked would surprise more than help.
    pub(crate) async fn resume(&self, request: crate::context::resume::ResumeRequest) -> Result<Resumed, TurnError> {
        use crate::context::resume::ResumeRequest;
        let found = match request {
            ResumeRequest::Latest => {
                let since = sidecar_store::utc(self.clock.now() - chrono::Duration::days(OFFER_DAYS));
                match self.store.context().resumable_checkpoint(Some(&since)).await? {
                    Some(recent) => recent,
                    None => return Ok(self.store.context().resumable_checkpoint(None).await?.map_or(Resumed::Nothing, Resumed::OnlyOlder)),
                }
            }
            ResumeRequest::Id(id) => self.store.context().checkpoint(id).await?.ok_or_else(|| TurnError::NoCheckpoint(id))?,
        };
        // Work still in progress elsewhere is paused as it moves here.
        if found.status == CheckpointStatus::InProgress {
            self.set_checkpoint_status(found.id, CheckpointStatus::Paused).await?;
        }
        Ok(Resumed::Here(self.continue_from(found.id).await?))
    }

    /// Replaces what checkpoint `id` records (its observations), as the user edited them;
    /// the metadata Sidecar wrote stays.
    pub async fn edit_checkpoint(&self, id: i64, body: crate::context::checkpoint::CheckpointBody) -> Result<Checkpoint, TurnError> {
        let checkpoint = self.store.context().checkpoint(id).await?.ok_or_else(|| TurnError::NoCheckpoint(id))?;
        let mut body = crate::context::checkpoint::CheckpointBody { metadata: checkpoint.body.metadata.clone(), ..body };
        super::decision::edited(&mut body.decisions, &checkpoint.body.decisions, self.clock.now());
        self.store.context().set_checkpoint_body(id, &body).await?;
        Ok(self.store.context().checkpoint(id).await?.unwrap_or(checkpoint))
    }

    /// Declines the offer for the current conversation.
    pub async fn dismiss_offer(&self) -> Result<(), TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        Ok(self.store.context().set_continuation(conversation_id, None, true).await?)
    }

    /// Writes checkpoint `id` as Markdown into `exports/` in the data dir.
    pub async fn export_checkpoint(&self, id: i64) -> Result<std::path::PathBuf, TurnError> {
        let checkpoint = self.store.context().checkpoint(id).await?.ok_or_else(|| TurnError::NoCheckpoint(id))?;
        self.write_export(&format!("checkpoint-{id}.md"), &checkpoint.to_markdown())
    }

    /// Every checkpoint, newest first, as one Markdown document (`/memory-export`).
    pub async fn checkpoints_markdown(&self) -> Result<(usize, String), TurnError> {
        let all = self.store.context().checkpoints(u32::MAX).await?;
        Ok((all.len(), super::checkpoint::all_to_markdown(&all, &sidecar_store::utc(self.clock.now()))))
    }

    /// Writes every checkpoint into one Markdown file in `exports/`: how many, and the
    /// file (`None` when there are none).
    pub async fn export_checkpoints(&self) -> Result<(usize, Option<std::path::PathBuf>), TurnError> {
        let (count, text) = self.checkpoints_markdown().await?;
        if count == 0 {
            return Ok((0, None));
        }
        let name = format!("checkpoints-{}.md", self.clock.now().format("%Y-%m-%d-%H%M%S"));
        Ok((count, Some(self.write_export(&name, &text)?)))
    }

    fn write_export(&self, name: &str, text: &str) -> Result<std::path::PathBuf, TurnError> {
        let dir = self.data_dir.as_path().join("exports");
        let path = dir.join(name);
        std::fs::create_dir_all(&dir)
            .and_then(|_| sidecar_domain::write_atomically(&path, text.as_bytes()))
            .map_err(|e| sidecar_domain::CannotWrite::new(&path, e))?;
        Ok(path)
    }
}

/// What "continue from checkpoint" found.
#[derive(Debug)]
pub(crate) enum Resumed {
    /// Continued here.
    Here(Checkpoint),
    /// No open checkpoint at all.
    Nothing,
    /// Only open ones older than [`OFFER_DAYS`] days, this the newest: named, not continued.
    OnlyOlder(Checkpoint),
}

/// The truncated-messages log's size past which its oldest lines go: each line copies a
/// message that is still stored, so only the copy is lost.
pub(crate) const TRUNCATED_LOG_CAP: u64 = 5_000_000;

/// Keeps the newest whole lines of the log at `path` within half of `cap` once it
/// outgrows `cap` (half, so it is not rewritten at every line).
pub(crate) fn cap_log(path: &std::path::Path, cap: u64) -> std::io::Result<()> {
    if std::fs::metadata(path)?.len() <= cap {
        return Ok(());
    }
    let text = std::fs::read_to_string(path)?;
    let mut kept = 0usize;
    let start = text.lines().rev().take_while(|line| {
        kept += line.len() + 1;
        kept as u64 <= cap / 2
    });
    let lines: Vec<&str> = start.collect();
    let tail: String = lines.iter().rev().map(|line| format!("{line}\n")).collect();
    tracing::info!(path = %path.display(), kept = lines.len(), "the truncated-messages log outgrew its cap; its oldest lines went");
    sidecar_domain::write_atomically(path, tail.as_bytes())
}

/// Messages (the user's and replies) after which a checkpoint is written on its own.
pub(crate) const CHECKPOINT_EVERY: i64 = 40;

impl super::engine::CheckpointWriter for ContextService {
    fn checkpoint_without_model(&self, conversation_id: i64) -> futures_util::future::BoxFuture<'_, Result<Option<i64>, TurnError>> {
        Box::pin(self.plain_checkpoint(conversation_id))
    }
}

/// Conversation `id` is now the one on screen: the open checkpoints of the others pause,
/// and an incognito chat left behind is removed for good.
pub(crate) async fn shown(store: &Store, id: i64) -> Result<(), TurnError> {
    store.context().pause_checkpoints_outside(id).await?;
    let forgotten = store.chat_list().forget_incognito(Some(id)).await?;
    if forgotten > 0 {
        tracing::info!(forgotten, "an incognito chat was left and forgotten");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_keeps_its_newest_whole_lines_once_past_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let lines: String = (0..100).map(|n| format!("{{\"n\":{n:03}}}\n")).collect();
        std::fs::write(&path, &lines).unwrap();
        super::cap_log(&path, 10_000).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), lines, "under the cap: untouched");
        super::cap_log(&path, 500).unwrap();
        let kept = std::fs::read_to_string(&path).unwrap();
        assert!(kept.len() <= 250 && kept.ends_with("{\"n\":099}\n") && kept.starts_with("{\"n\":"), "{kept}");
        assert!(kept.lines().all(|l| l.len() == 9), "whole lines only: {kept}");
    }
}
