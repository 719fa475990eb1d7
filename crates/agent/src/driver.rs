//! Performs a turn's effects: calls the model through the router, runs tools in
//! parallel, stores messages and usage, publishes events, and feeds the outcomes
//! back into the state machine. Stop and the wall-clock limit interrupt any wait.
//!
//! Over 400 lines: one method per effect of the turn's state machine: what the machine
//! asks for and what it does are read in one place.

use std::time::Duration;

use futures_util::future::join_all;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::events::{ChatEvent, Notice};
use crate::turn::{Effect, ToolResult, Turn, TurnEnd, TurnEvent, TurnLimits, TurnNote};
use sidecar_domain::Channel;
use sidecar_domain::Emitter;
use sidecar_llm::Chain;
use sidecar_llm::ChatMessage;
use sidecar_llm::ChatRequest;
use sidecar_llm::FinishReason;
use sidecar_llm::RetryPolicy;
use sidecar_llm::RouteError;
use sidecar_llm::RouteNotice;
use sidecar_llm::Routed;
use sidecar_llm::Usage;
use sidecar_settings::llm::pricing::PriceTable;
use sidecar_settings::Purpose;
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::PlanOutcome;
use sidecar_store::Store;
use sidecar_store::StoreError;
use sidecar_store::UsageRecord;
use sidecar_tools::ToolRegistry;

/// How long a self-correction note blocks another one for the same check.
const CORRECTION_COOLDOWN_HOURS: i64 = 2;
/// How long a self-correction note stays in the prompt.
const CORRECTION_TTL_HOURS: i64 = 24;
/// Longest tool result shown in a `ToolFinished` event (the model gets all of it).
const EVENT_RESULT_CHARS: usize = 2000;

/// Sidecar's instructions do not fit the model's window, so nothing is sent: their
/// tokens, the room the window leaves once the reply and the tools have theirs, and the
/// window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WindowTooSmall {
    pub(crate) system: usize,
    pub(crate) room: usize,
    pub(crate) window: usize,
}

/// Fits each prompt to the model just before it is sent (the context's fit, the
/// current plan). Called before every model call of the turn, since tool results
/// grow the transcript between calls.
pub(crate) trait Shaper: Send + Sync {
    /// The messages fitted to the model's window, or what does not fit.
    fn shape(&self, messages: Vec<ChatMessage>) -> Result<Vec<ChatMessage>, WindowTooSmall>;
    /// Tool results longer than this (in tokens) are compacted before the model reads them.
    fn tool_result_limit(&self) -> usize;
    /// A model's summary of a long tool output, sent in its place from then on.
    fn remember_summary(&self, _original: &str, _summary: &str) {}
    /// What the shaping did to the turn's calls so far, for the turn's measures.
    fn measures(&self) -> ShapeMeasures {
        ShapeMeasures::default()
    }
    /// The per-turn block the turn's first call was sent with, kept with the user's message.
    fn late_sent(&self) -> Option<String> {
        None
    }
    /// Called before tool results of `added_tokens` join the prompt: when they would
    /// force a fold, the state of the work is saved first. The checkpoint's id.
    fn checkpoint_before(&self, _added_tokens: usize) -> futures_util::future::BoxFuture<'_, Option<i64>> {
        Box::pin(async { None })
    }
}

/// What fitting a turn's prompts did, recorded with the reply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ShapeMeasures {
    /// Turns were dropped or messages cut to fit a call.
    pub truncated: bool,
    /// The tool rules were said again late (a long conversation).
    pub reinforced: bool,
    /// A checkpoint saved on its own as the turn began.
    pub checkpoint: Option<i64>,
}

/// Everything a turn needs from the companion.
pub(crate) struct TurnContext<'a> {
    pub shaper: &'a dyn Shaper,
    pub conversation_id: i64,
    /// The stored user message this turn answers.
    pub asked_in: i64,
    pub store: &'a Store,
    pub events: &'a Emitter<ChatEvent>,
    pub tools: &'a ToolRegistry,
    pub chain: Chain,
    /// Who summarises long tool outputs when a model is routed for it; else `chain`.
    pub summarize_chain: Option<Chain>,
    /// Where the turn's messages are said.
    pub channel: Channel,
    pub clock: &'a sidecar_domain::Clock,
    /// When the user's message arrived (for `to_first_request`).
    pub arrived: std::time::Instant,
    /// Retries, prices, steps and time, as the settings have them.
    pub rules: TurnRules,
    pub cancel: CancellationToken,
    /// The language of what the turn itself says (a step-limit note).
    pub lang: sidecar_domain::Lang,
    /// Routes the chat calls (the offline model as the automatic chain's last link)
    /// and keeps the header's model status.
    pub models: &'a sidecar_llm::Models,
    /// The conversation's plan, which the turn carries on while it has open steps.
    pub plans: &'a crate::context::plan::PlanBoard,
    /// What the reply's calls are counted as in Usage: "chat", or "task" for a
    /// scheduled task's run.
    pub counted_as: &'static str,
}

/// What the settings say of every turn: how calls are retried and priced, how many
/// steps and continuations a turn takes, the longest reply, the wall-clock limit.
pub(crate) struct TurnRules {
    pub policy: RetryPolicy,
    pub prices: PriceTable,
    pub limits: TurnLimits,
    pub max_tokens: Option<u32>,
    pub time_limit: Duration,
}

impl TurnRules {
    pub(crate) fn of(settings: &sidecar_settings::Settings) -> Self {
        Self {
            policy: settings.llm.retry_policy(),
            prices: PriceTable::new(settings.prices.clone()),
            limits: TurnLimits { max_iterations: settings.llm.max_iterations.max(1), max_continuations: settings.llm.max_continuations },
            max_tokens: settings.llm.max_tokens,
            time_limit: settings.llm.turn_timeout(),
        }
    }
}

/// How a driven turn ended, with what was stored.
#[derive(Debug)]
pub(crate) struct DrivenTurn {
    pub end: TurnEnd,
    pub message_id: i64,
    pub status: MessageStatus,
    pub text: String,
    pub finish_reason: Option<FinishReason>,
    pub meta: MessageMeta,
    /// The router's failure, when the turn failed on the model.
    pub failure: Option<RouteError>,
    pub timings: TurnTimings,
}

/// Where a turn's time went: waiting on models (network included), running tools,
/// and the rest, which is the core's own work (prompt, bookkeeping, storage).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, ts_rs::TS)]
pub struct TurnTimings {
    #[ts(type = "{ secs: number, nanos: number }")]
    pub total: Duration,
    #[ts(type = "{ secs: number, nanos: number }")]
    pub model: Duration,
    #[ts(type = "{ secs: number, nanos: number }")]
    pub tools: Duration,
    /// From the user's message arriving to the first model request going out: the
    /// core's share of the time to first token.
    #[ts(type = "{ secs: number, nanos: number }")]
    pub to_first_request: Duration,
}

/// Per-turn bookkeeping the driver keeps beside the state machine.
struct Ledger {
    meta: MessageMeta,
    /// Everything the user has seen streamed in this turn (kept if it fails or stops).
    visible: String,
    usage: Usage,
    saw_usage: bool,
    cost: Option<f64>,
    failure: Option<RouteError>,
    timings: TurnTimings,
    /// The plan the turn worked on and whether it finished, said under the reply.
    plan_summary: Option<(Vec<crate::context::plan::PlanItem>, bool)>,
    /// A tool handed over a stranger's words (a mail): from then on, every tool that is
    /// not a local read asks the user, each time, whatever the model says.
    after_strangers: bool,
}

pub(crate) async fn drive(context: TurnContext<'_>, prompt: Vec<ChatMessage>) -> Result<DrivenTurn, StoreError> {
    let mut deadline = Instant::now() + context.rules.time_limit;
    // A mail read in an earlier turn and still in the prompt is read by this one too.
    let carried = carries_strangers_words(&prompt, context.tools);
    let (mut turn, mut effects) = Turn::start(prompt, context.rules.limits);
    turn.plan_at_start(context.plans.items(), context.plans.take_fresh());
    let mut ledger = Ledger {
        meta: MessageMeta::default(),
        visible: String::new(),
        usage: Usage::default(),
        saw_usage: false,
        cost: Some(0.0),
        failure: None,
        timings: TurnTimings::default(),
        plan_summary: None,
        after_strangers: carried,
    };
    let started = std::time::Instant::now();
    loop {
        let mut next = None;
        for effect in effects {
            match effect {
                Effect::Record(message) => {
                    context.store.conversations().add_message(NewMessage::plain(context.conversation_id, &message).on(context.channel)).await?;
                }
                Effect::Note(note) => note_turn(&context, &mut ledger, note).await?,
                Effect::CallModel { messages, with_tools } => {
                    let event = match context.shaper.shape(messages) {
                        Ok(messages) => call_model(&context, &mut ledger, messages, with_tools, deadline).await?,
                        // A cut system prompt is never sent: the turn fails and says why.
                        Err(WindowTooSmall { system, room, window }) => {
                            TurnEvent::ModelFailed { message: sidecar_llm::window_too_small(system, room, window, context.lang), retryable: false }
                        }
                    };
                    if let (TurnEvent::ModelReplied(_), Some(provider), Some(model)) = (&event, &ledger.meta.provider, &ledger.meta.model) {
                        if sidecar_llm::is_demo_reply(provider, model) {
                            turn.answered_without_tools();
                        }
                    }
                    next = Some(event);
                }
                Effect::RunTools(calls) => {
                    let running = std::time::Instant::now();
                    let asked = context.tools.asking_time();
                    let event = run_tools(&context, calls.clone(), deadline, ledger.after_strangers).await;
                    let quoted = matches!(&event, TurnEvent::ToolsFinished(results) if results.iter().any(|r| sidecar_tools::quotes_strangers(&r.content)));
                    if quoted || calls.iter().any(|call| context.tools.strangers_words(&call.name)) {
                        tracing::info!("the turn read a stranger's words: its tools ask from now on");
                        ledger.after_strangers = true;
                    }
                    // The time the user took to answer a permission question is theirs.
                    deadline += context.tools.asking_time() - asked;
                    ledger.timings.tools += running.elapsed();
                    if let TurnEvent::ToolsFinished(results) = &event {
                        // What the prompt will carry: long results are compacted to the limit.
                        let limit = context.shaper.tool_result_limit();
                        let added = results.iter().map(|r| sidecar_llm::tokens::count_cached(&r.content).min(limit)).sum();
                        if let Some(id) = context.shaper.checkpoint_before(added).await {
                            ledger.meta.checkpoint = Some(id);
                        }
                        summarize_long_text(&context, &mut ledger, &calls, results, deadline).await?;
                        turn.observe_plan(context.plans.items());
                    }
                    next = Some(event);
                }
                Effect::Finish(end) => {
                    let mut driven = finish(&context, ledger, end).await?;
                    driven.timings.total = started.elapsed();
                    return Ok(driven);
                }
            }
        }
        let event = next.expect("the turn waits on the model or tools unless it finished");
        effects = turn.handle(event);
    }
}

async fn call_model(
    context: &TurnContext<'_>,
    ledger: &mut Ledger,
    messages: Vec<ChatMessage>,
    with_tools: bool,
    deadline: Instant,
) -> Result<TurnEvent, StoreError> {
    let request =
        ChatRequest { messages, tools: if with_tools { context.tools.specs() } else { Vec::new() }, max_tokens: context.rules.max_tokens, general_cap: true };
    let conversation_id = context.conversation_id;
    let visible = &mut ledger.visible;
    let mut on_delta = |text: &str| {
        visible.push_str(text);
        context.events.publish(ChatEvent::Delta { conversation_id, text: text.to_string() });
    };
    let on_notice = |notice| context.events.publish(ChatEvent::Notice { conversation_id, notice: route_notice(notice) });
    let call = context.models.route(&context.chain, &context.rules.policy, &request, &mut on_delta, on_notice);
    let calling = std::time::Instant::now();
    if ledger.timings.to_first_request.is_zero() {
        ledger.timings.to_first_request = context.arrived.elapsed();
    }
    let result = tokio::select! {
        result = call => result,
        _ = context.cancel.cancelled() => return Ok(TurnEvent::StopRequested),
        _ = tokio::time::sleep_until(deadline) => return Ok(TurnEvent::DeadlineReached),
    };
    ledger.timings.model += calling.elapsed();
    match result {
        Ok(routed) => {
            record_call(context, ledger, &routed, context.counted_as).await?;
            ledger.meta.provider = Some(routed.provider_id.clone());
            ledger.meta.model = Some(routed.model.clone());
            if routed.fallback_from.is_some() {
                ledger.meta.fallback_from = routed.fallback_from.clone();
                ledger.meta.fallback_reason = routed.fallback_reason.clone();
            }
            Ok(TurnEvent::ModelReplied(routed.completion))
        }
        Err(error) => {
            let event = TurnEvent::ModelFailed { message: sidecar_domain::Worded::said_in(&error, context.lang), retryable: error.is_retryable() };
            ledger.failure = Some(error);
            Ok(event)
        }
    }
}

/// Whether `prompt` still carries what a stranger wrote: the result of a tool that hands
/// one over or quotes one (a mail an earlier turn read), not yet cleared from the context.
fn carries_strangers_words(prompt: &[ChatMessage], tools: &ToolRegistry) -> bool {
    let calls: std::collections::HashSet<&str> =
        prompt.iter().flat_map(|m| &m.tool_calls).filter(|c| tools.strangers_words(&c.name)).map(|c| c.id.as_str()).collect();
    prompt.iter().any(|m| {
        m.role == sidecar_llm::Role::Tool
            && (m.tool_call_id.as_deref().is_some_and(|id| calls.contains(id)) || sidecar_tools::quotes_strangers(&m.content))
            && !m.content.starts_with(crate::context::fit::CLEARED_PREFIX)
    })
}

async fn run_tools(context: &TurnContext<'_>, calls: Vec<sidecar_llm::ToolCall>, deadline: Instant, after_strangers: bool) -> TurnEvent {
    let conversation_id = context.conversation_id;
    for call in &calls {
        context.events.publish(ChatEvent::ToolStarted {
            conversation_id,
            call_id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
        });
    }
    let running = join_all(calls.iter().map(|call| async move {
        let outcome = context
            .tools
            .run(
                call,
                sidecar_tools::CallScope {
                    asked_in: Some(context.asked_in),
                    conversation_id: Some(conversation_id),
                    channel: Some(context.channel),
                    after_strangers,
                },
            )
            .await;
        tracing::info!(tool = %call.name, is_error = outcome.is_error, "tool finished");
        context.events.publish(ChatEvent::ToolFinished {
            conversation_id,
            call_id: call.id.clone(),
            name: call.name.clone(),
            is_error: outcome.is_error,
            denied: outcome.denied,
            result: sidecar_llm::preview(&outcome.content, EVENT_RESULT_CHARS),
        });
        ToolResult { call_id: call.id.clone(), content: outcome.content, is_error: outcome.is_error }
    }));
    tokio::select! {
        results = running => TurnEvent::ToolsFinished(results),
        _ = context.cancel.cancelled() => TurnEvent::StopRequested,
        _ = limit_reached(context.tools, deadline) => TurnEvent::DeadlineReached,
    }
}

/// The turn's time limit, paused while the user is asked for permission.
async fn limit_reached(tools: &ToolRegistry, deadline: Instant) {
    let asked = tools.asking_time();
    tokio::time::sleep_until(deadline).await;
    loop {
        let due = deadline + (tools.asking_time() - asked);
        if Instant::now() >= due {
            return;
        }
        // A question is (or was) open: wake no more than a few times a second.
        tokio::time::sleep_until(due.max(Instant::now() + Duration::from_millis(250))).await;
    }
}

/// Long tool outputs that are not JSON (a web page, a report) are summarised by the
/// model, keeping names, numbers, dates and URLs; the summary stands in for the cut
/// text when the guard compacts the result. JSON is compacted without a model, and a
/// failed summary leaves the deterministic cut. The full output stays stored.
async fn summarize_long_text(
    context: &TurnContext<'_>,
    ledger: &mut Ledger,
    calls: &[sidecar_llm::ToolCall],
    results: &[ToolResult],
    deadline: Instant,
) -> Result<(), StoreError> {
    let limit = context.shaper.tool_result_limit();
    for (call, result) in calls.iter().zip(results) {
        let long = !result.is_error && sidecar_llm::tokens::count_cached(&result.content) > limit;
        if !long || serde_json::from_str::<serde_json::Value>(&result.content).is_ok() {
            continue;
        }
        let source = sidecar_domain::truncate_middle(&result.content, limit * 6, &sidecar_llm::tokens::count_cached);
        let request = ChatRequest {
            messages: vec![
                ChatMessage::system(format!(
                    "Summarise this output of the tool {} in at most {} words for an assistant that will answer the user from it. Keep names, identifiers, numbers, dates and URLs exactly as written. Answer with the summary only.",
                    call.name,
                    limit * 2 / 3
                )),
                ChatMessage::user(&source),
            ],
            tools: Vec::new(),
            max_tokens: Some(limit as u32),
            general_cap: false,
        };
        let summarizer = context.summarize_chain.as_ref().unwrap_or(&context.chain);
        let admitted = context.models.admit(summarizer, &request, true).await;
        if admitted.chain.providers.is_empty() {
            tracing::info!(tool = %call.name, reason = admitted.held_back.as_deref().unwrap_or(""), "a long tool output is cut, not summarised: the budget holds it back");
            continue;
        }
        let call_model = sidecar_llm::complete_routed(&admitted.chain.providers, admitted.chain.pinned, &context.rules.policy, &request, |_| {}, |_| {});
        let routed = tokio::select! {
            routed = call_model => routed,
            _ = context.cancel.cancelled() => return Ok(()),
            _ = tokio::time::sleep_until(deadline) => return Ok(()),
        };
        context.models.settle(admitted, &routed).await;
        match routed {
            Ok(routed) if !routed.completion.text.trim().is_empty() => {
                context.shaper.remember_summary(&result.content, routed.completion.text.trim());
                record_call(context, ledger, &routed, Purpose::Summarize.as_str()).await?;
            }
            Ok(_) => tracing::warn!(tool = %call.name, "the tool-output summary came back empty; the output is cut instead"),
            Err(error) => tracing::warn!(tool = %call.name, %error, "could not summarise a long tool output; it is cut instead"),
        }
    }
    Ok(())
}

/// Records a model call's usage and cost, in the store and in the turn's totals.
async fn record_call(context: &TurnContext<'_>, ledger: &mut Ledger, routed: &Routed, purpose: &str) -> Result<(), StoreError> {
    let usage = routed.completion.usage;
    let cost = context.chain.cost_of(routed, &context.rules.prices);
    context
        .store
        .usage()
        .record_usage(UsageRecord {
            conversation_id: Some(context.conversation_id),
            message_id: None,
            provider: &routed.provider_id,
            model: &routed.model,
            purpose,
            usage,
            cost_usd: cost,
        })
        .await?;
    if let Some(usage) = usage {
        ledger.usage += usage;
        ledger.saw_usage = true;
    }
    ledger.cost = ledger.cost.zip(cost).map(|(a, b)| a + b);
    Ok(())
}

async fn note_turn(context: &TurnContext<'_>, ledger: &mut Ledger, note: TurnNote) -> Result<(), StoreError> {
    let notice = match note {
        TurnNote::Continued { attempt } => {
            ledger.meta.continued = attempt;
            Notice::Continued { attempt }
        }
        TurnNote::CorrectiveRetry { check } => {
            ledger.meta.corrected = true;
            // The claim shown so far is superseded by the corrected answer.
            ledger.visible.clear();
            let now = context.clock.now();
            let recorded = context
                .store
                .corrections()
                .record_correction(
                    check,
                    &correction_note(check),
                    now,
                    chrono::Duration::hours(CORRECTION_COOLDOWN_HOURS),
                    chrono::Duration::hours(CORRECTION_TTL_HOURS),
                )
                .await?;
            tracing::info!(check, recorded, "corrective retry");
            Notice::Corrected { check: check.to_string() }
        }
        TurnNote::IterationCap => {
            ledger.meta.iteration_cap = true;
            Notice::IterationCap
        }
        TurnNote::PlanGoesOn { done, total } => {
            ledger.meta.plan_nudges += 1;
            Notice::PlanGoesOn { done: done as u32, total: total as u32 }
        }
        TurnNote::PlanSummary { items, finished } => {
            ledger.meta.plan = Some(if finished { PlanOutcome::Finished } else { PlanOutcome::Abandoned });
            ledger.plan_summary = Some((items, finished));
            return Ok(());
        }
    };
    context.events.publish(ChatEvent::Notice { conversation_id: context.conversation_id, notice });
    Ok(())
}

fn correction_note(check: &str) -> String {
    crate::claims::lesson_of(check).map_or_else(|| format!("A check failed on one of your replies: {check}."), str::to_string)
}

async fn finish(context: &TurnContext<'_>, mut ledger: Ledger, end: TurnEnd) -> Result<DrivenTurn, StoreError> {
    context.plans.turn_ended().await;
    let (status, text, finish_reason) = match &end {
        TurnEnd::Complete { text, finish_reason } => (MessageStatus::Complete, text.clone(), finish_reason.clone()),
        TurnEnd::Stopped { .. } => (MessageStatus::Stopped, ledger.visible.clone(), None),
        TurnEnd::TimedOut { .. } => (MessageStatus::Interrupted, ledger.visible.clone(), None),
        TurnEnd::Failed { .. } => (MessageStatus::Interrupted, ledger.visible.clone(), None),
        TurnEnd::Incomplete { text } => {
            let said = sidecar_llm::step_limit(context.rules.limits.max_iterations, context.lang);
            let text = if text.trim().is_empty() { said } else { format!("{text}\n\n{said}") };
            (MessageStatus::Incomplete, text, None)
        }
        TurnEnd::Unfinished { text } => (MessageStatus::Incomplete, text.clone(), None),
    };
    let text = match &ledger.plan_summary {
        Some((items, finished)) => {
            let said = crate::words::plans::summary(items, *finished, context.lang);
            if text.trim().is_empty() {
                said
            } else {
                format!("{}\n\n{said}", text.trim_end())
            }
        }
        None => text,
    };
    if matches!(end, TurnEnd::TimedOut { .. }) {
        context.events.publish(ChatEvent::Notice { conversation_id: context.conversation_id, notice: Notice::TimedOut });
    }
    if let Some(block) = context.shaper.late_sent() {
        context.store.conversations().keep_late(context.asked_in, &block).await?;
    }
    let measures = context.shaper.measures();
    ledger.meta.truncated = measures.truncated;
    ledger.meta.reinforced = measures.reinforced;
    ledger.meta.checkpoint = ledger.meta.checkpoint.or(measures.checkpoint);
    ledger.meta.usage = ledger.saw_usage.then_some(ledger.usage);
    ledger.meta.cost_usd = ledger.cost;
    let message_id = context
        .store
        .conversations()
        .add_message(NewMessage {
            conversation_id: context.conversation_id,
            message: &ChatMessage::assistant(text.clone()),
            status,
            finish_reason: finish_reason.as_ref().map(FinishReason::as_str),
            meta: Some(&ledger.meta),
            channel: Some(context.channel),
            once_per: None,
        })
        .await?;
    Ok(DrivenTurn { end, message_id, status, text, finish_reason, meta: ledger.meta, failure: ledger.failure, timings: ledger.timings })
}

fn route_notice(notice: RouteNotice) -> Notice {
    match notice {
        RouteNotice::Retrying { provider, attempt, delay, reason } => Notice::Retrying { provider, attempt, delay_ms: delay.as_millis() as u64, reason },
        RouteNotice::FallingBack { from, to, reason } => Notice::FallingBack { from, to, reason },
    }
}
