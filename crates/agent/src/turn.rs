//! One turn of the agent as a pure state machine: it takes events (the model replied,
//! tools finished, the user pressed Stop, time ran out) and returns effects as data
//! (call the model, run these tools, record this message, tell the user, finish).
//! A driver performs the effects. No IO, no clock: tests feed events by hand.
//!
//! Rules it enforces:
//! - tool calls in one reply run together (the driver runs them in parallel), and
//!   every call gets exactly one result, so the transcript stays well formed;
//! - a per-turn cap on model calls; the last allowed call offers no tools, so the
//!   model has to answer in words;
//! - a reply cut by the length limit is continued (bounded) and merged into one;
//! - a reply that claims an action with no tool call behind it gets one corrective
//!   retry, and the failed check is reported so it can be remembered;
//! - a reply in words while the plan this turn worked on has open steps is followed by
//!   "go on" while the plan moves; a repeated call or a stalled plan ends the turn, and
//!   a turn that worked on a plan ends with what each step produced or what is left
//!   ([`crate::plan_watch`]).

use crate::claims::{unbacked_claim, Claim};
use crate::context::plan_item::{progress, PlanItem};
use crate::plan_watch::{go_on_prompt, AfterWords, PlanWatch};
use sidecar_llm::ChatMessage;
use sidecar_llm::Completion;
use sidecar_llm::FinishReason;
use sidecar_llm::ToolCall;

/// Asks the model to go on after a reply was cut by the length limit.
pub const CONTINUE_PROMPT: &str = "Your previous reply was cut off by the length limit. Continue exactly where it stopped, without repeating anything.";

/// How many times the per-step allowance of calls one turn may use in all, however many
/// steps its plan has: a guard against a loop the plan's progress does not catch. The
/// real limits of a long plan are the turn's time and the spending budget.
const STEP_ALLOWANCES_PER_TURN: u32 = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnLimits {
    /// Model calls allowed for one step: the whole turn without a plan, each step of a
    /// plan the turn works on (the count starts again when a step closes), up to
    /// [`STEP_ALLOWANCES_PER_TURN`] times this in all.
    pub max_iterations: u32,
    /// Automatic continuations after a length cut.
    pub max_continuations: u32,
}

impl Default for TurnLimits {
    fn default() -> Self {
        Self { max_iterations: 8, max_continuations: 2 }
    }
}

/// What happens to the turn.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnEvent {
    ModelReplied(Completion),
    ModelFailed {
        message: String,
        retryable: bool,
    },
    /// Results for the calls of the last `RunTools`, in the same order.
    ToolsFinished(Vec<ToolResult>),
    StopRequested,
    DeadlineReached,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub call_id: String,
    pub content: String,
    pub is_error: bool,
}

/// Something worth telling the user while the turn runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnNote {
    /// The reply hit the length limit and is being continued.
    Continued { attempt: u32 },
    /// The reply claimed an action it did not take; the model is asked again.
    CorrectiveRetry { check: &'static str },
    /// The model kept calling tools past the per-turn cap.
    IterationCap,
    /// The model answered in words with plan steps open; it is asked to go on.
    PlanGoesOn { done: usize, total: usize },
    /// The turn ends with the plan it worked on: all closed (`finished`), or with what
    /// is left. The reply is followed by what each step produced.
    PlanSummary { items: Vec<PlanItem>, finished: bool },
}

/// How the turn ended.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnEnd {
    /// The reply is complete (possibly after continuations and a correction).
    Complete { text: String, finish_reason: Option<FinishReason> },
    /// The user pressed Stop; `text` is what had been produced.
    Stopped { text: String },
    /// The model call failed for good (retries and fallbacks are the router's job).
    Failed { text: String, message: String, retryable: bool },
    /// The wall-clock limit passed.
    TimedOut { text: String },
    /// The per-turn step limit stopped it; `text` is what had been said.
    Incomplete { text: String },
    /// The plan stopped moving (told to go on and did nothing, or the same call again)
    /// with steps open; `text` is what had been said.
    Unfinished { text: String },
}

/// What the driver must do next, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Call the model with this transcript; `with_tools` false means answer in words.
    CallModel { messages: Vec<ChatMessage>, with_tools: bool },
    /// Run these calls (in parallel) and report `ToolsFinished` in the same order.
    RunTools(Vec<ToolCall>),
    /// Store this message in the conversation (tool calls and their results).
    Record(ChatMessage),
    /// Tell the user.
    Note(TurnNote),
    /// The turn is over; store the final reply.
    Finish(TurnEnd),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    AwaitingModel,
    AwaitingTools(Vec<ToolCall>),
    Done,
}

#[derive(Debug, Clone)]
pub struct Turn {
    limits: TurnLimits,
    /// What the next model call sees: the prompt plus everything this turn added.
    transcript: Vec<ChatMessage>,
    /// The visible reply so far (merged continuations).
    reply: String,
    iterations: u32,
    /// Model calls since the turn began or a step of its plan last closed.
    calls_in_step: u32,
    continuations: u32,
    corrected: bool,
    tools_called: Vec<String>,
    /// The last model call answered tool results: its text starts a new paragraph.
    after_tools: bool,
    /// The plan, to carry on while it has open steps.
    plan: PlanWatch,
    phase: Phase,
}

impl Turn {
    /// Starts a turn on `prompt` (system message, history, the user's message).
    pub fn start(prompt: Vec<ChatMessage>, limits: TurnLimits) -> (Self, Vec<Effect>) {
        let mut turn = Self {
            limits,
            transcript: prompt,
            reply: String::new(),
            iterations: 0,
            calls_in_step: 0,
            continuations: 0,
            corrected: false,
            tools_called: Vec::new(),
            after_tools: false,
            plan: PlanWatch::default(),
            phase: Phase::AwaitingModel,
        };
        let call = turn.call_model();
        (turn, vec![call])
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Model calls made so far.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// The conversation's plan as the turn starts; `fresh` when it was made for this turn.
    pub(crate) fn plan_at_start(&mut self, items: Vec<PlanItem>, fresh: bool) {
        self.plan = if fresh { PlanWatch::made_for_this_turn(items) } else { PlanWatch::new(items) };
    }

    /// The plan after a round of tools (before `ToolsFinished` is handled). A step
    /// closed: the next one has the whole allowance of calls.
    pub(crate) fn observe_plan(&mut self, items: Vec<PlanItem>) {
        let closed_before = progress(self.plan.items()).0;
        self.plan.observe(items);
        if progress(self.plan.items()).0 > closed_before {
            self.calls_in_step = 0;
        }
    }

    /// Model calls still allowed: in this step, and in the turn.
    fn calls_left(&self) -> u32 {
        let in_step = self.limits.max_iterations.saturating_sub(self.calls_in_step);
        let in_turn = self.limits.max_iterations.saturating_mul(STEP_ALLOWANCES_PER_TURN).saturating_sub(self.iterations);
        in_step.min(in_turn)
    }

    /// No model call is allowed after the one that just answered.
    fn out_of_calls(&self) -> bool {
        self.calls_left() == 0
    }

    /// The next model call is the last one allowed.
    fn next_call_is_last(&self) -> bool {
        self.calls_left() <= 1
    }

    /// What was done and what is left, when the turn ends early on a plan it worked on.
    fn plan_left(&self) -> Option<Effect> {
        self.plan.working().then(|| Effect::Note(TurnNote::PlanSummary { items: self.plan.items().to_vec(), finished: false }))
    }

    /// Advances the turn. Events that make no sense in the current phase (a late
    /// tool result after Stop, say) are ignored.
    pub fn handle(&mut self, event: TurnEvent) -> Vec<Effect> {
        match (event, std::mem::replace(&mut self.phase, Phase::Done)) {
            (_, Phase::Done) => Vec::new(),
            (TurnEvent::StopRequested, phase) => {
                let mut effects = self.cancel_pending(phase, "not run: the user stopped the reply");
                effects.extend(self.plan_left());
                effects.push(Effect::Finish(TurnEnd::Stopped { text: self.reply.clone() }));
                effects
            }
            (TurnEvent::DeadlineReached, phase) => {
                let mut effects = self.cancel_pending(phase, "not run: the turn ran out of time");
                effects.extend(self.plan_left());
                effects.push(Effect::Finish(TurnEnd::TimedOut { text: self.reply.clone() }));
                effects
            }
            (TurnEvent::ModelFailed { message, retryable }, Phase::AwaitingModel) => {
                vec![Effect::Finish(TurnEnd::Failed { text: self.reply.clone(), message, retryable })]
            }
            (TurnEvent::ModelReplied(completion), Phase::AwaitingModel) => self.on_reply(completion),
            (TurnEvent::ToolsFinished(results), Phase::AwaitingTools(calls)) => self.on_tools(calls, results),
            (_, phase) => {
                // Out of order (tool results while waiting for the model, …): ignore.
                self.phase = phase;
                Vec::new()
            }
        }
    }

    fn call_model(&mut self) -> Effect {
        self.phase = Phase::AwaitingModel;
        // The last allowed call offers no tools: the model must answer in words.
        let with_tools = !self.next_call_is_last();
        Effect::CallModel { messages: self.transcript.clone(), with_tools }
    }

    fn on_reply(&mut self, completion: Completion) -> Vec<Effect> {
        self.iterations += 1;
        self.calls_in_step += 1;
        let Completion { text, tool_calls, finish_reason, .. } = completion;
        if std::mem::take(&mut self.after_tools) && !self.reply.is_empty() && !text.is_empty() {
            self.reply.push_str("\n\n");
        }

        if !tool_calls.is_empty() {
            self.reply.push_str(&text);
            let message = ChatMessage::assistant_with_tools(text, tool_calls.clone());
            self.transcript.push(message.clone());
            let mut effects = vec![Effect::Record(message)];
            if self.out_of_calls() {
                // Past the cap: pair each call with a result so the transcript stays
                // valid, and end the turn with what was said.
                effects.extend(self.unrun_results(&tool_calls, "not run: the step limit for one reply was reached"));
                effects.push(Effect::Note(TurnNote::IterationCap));
                effects.extend(self.plan_left());
                effects.push(Effect::Finish(TurnEnd::Incomplete { text: self.reply.clone() }));
                return effects;
            }
            if self.plan.repeats(&tool_calls) {
                // Going round in circles on a plan: stop, and say what is done and left.
                effects.extend(self.unrun_results(&tool_calls, "not run: this exact call already succeeded in this reply"));
                effects.extend(self.plan_left());
                effects.push(Effect::Finish(TurnEnd::Unfinished { text: self.reply.clone() }));
                return effects;
            }
            self.tools_called.extend(tool_calls.iter().map(|c| c.name.clone()));
            self.phase = Phase::AwaitingTools(tool_calls.clone());
            effects.push(Effect::RunTools(tool_calls));
            return effects;
        }

        let can_call_again = !self.out_of_calls();
        if finish_reason == Some(FinishReason::Length) && self.continuations < self.limits.max_continuations && can_call_again {
            self.continuations += 1;
            self.reply.push_str(&text);
            self.transcript.push(ChatMessage::assistant(text));
            self.transcript.push(ChatMessage::user(CONTINUE_PROMPT));
            return vec![Effect::Note(TurnNote::Continued { attempt: self.continuations }), self.call_model()];
        }

        let full = format!("{}{}", self.reply, text);
        if !self.corrected && can_call_again {
            if let Some(claim) = unbacked_claim(&full, &self.tools_called) {
                return self.correct(claim, text);
            }
        }
        match self.plan.after_words(!self.next_call_is_last()) {
            AfterWords::Stand => self.finish_complete(full, finish_reason, None),
            AfterWords::GoOn => {
                self.reply.push_str(&text);
                self.after_tools = true;
                self.transcript.push(ChatMessage::assistant(text));
                self.transcript.push(ChatMessage::user(go_on_prompt(self.plan.items())));
                let (done, total) = progress(self.plan.items());
                vec![Effect::Note(TurnNote::PlanGoesOn { done, total }), self.call_model()]
            }
            AfterWords::Finished(items) => self.finish_complete(full, finish_reason, Some(TurnNote::PlanSummary { items, finished: true })),
            AfterWords::Stuck(items) => {
                self.phase = Phase::Done;
                vec![Effect::Note(TurnNote::PlanSummary { items, finished: false }), Effect::Finish(TurnEnd::Unfinished { text: full })]
            }
        }
    }

    fn finish_complete(&mut self, text: String, finish_reason: Option<FinishReason>, note: Option<TurnNote>) -> Vec<Effect> {
        self.phase = Phase::Done;
        let mut effects: Vec<Effect> = note.map(Effect::Note).into_iter().collect();
        effects.push(Effect::Finish(TurnEnd::Complete { text, finish_reason }));
        effects
    }

    /// The model that answered cannot call tools (the offline demo): a claim in its
    /// reply is not corrected, since the correction could only be echoed back.
    pub fn answered_without_tools(&mut self) {
        self.corrected = true;
    }

    fn correct(&mut self, claim: Claim, text: String) -> Vec<Effect> {
        self.corrected = true;
        // The claim is superseded: the corrected answer replaces it.
        self.reply.clear();
        self.transcript.push(ChatMessage::assistant(text));
        self.transcript.push(ChatMessage::user(claim.correction()));
        vec![Effect::Note(TurnNote::CorrectiveRetry { check: claim.check_name() }), self.call_model()]
    }

    fn on_tools(&mut self, calls: Vec<ToolCall>, results: Vec<ToolResult>) -> Vec<Effect> {
        let mut effects = Vec::new();
        for call in &calls {
            // Pair by id; a result the driver lost becomes an explicit error.
            let message = match results.iter().find(|r| r.call_id == call.id) {
                Some(r) => {
                    if !r.is_error {
                        self.plan.succeeded(call);
                    }
                    ChatMessage::tool_result(&call.id, &r.content, r.is_error)
                }
                None => ChatMessage::tool_result(&call.id, r#"{"error":"the tool produced no result"}"#, true),
            };
            self.transcript.push(message.clone());
            effects.push(Effect::Record(message));
        }
        self.after_tools = true;
        effects.push(self.call_model());
        effects
    }

    fn cancel_pending(&mut self, phase: Phase, why: &str) -> Vec<Effect> {
        self.phase = Phase::Done;
        match phase {
            Phase::AwaitingTools(calls) => self.unrun_results(&calls, why),
            _ => Vec::new(),
        }
    }

    fn unrun_results(&mut self, calls: &[ToolCall], why: &str) -> Vec<Effect> {
        calls
            .iter()
            .map(|call| {
                let message = ChatMessage::tool_result(&call.id, serde_json::json!({ "error": why }).to_string(), true);
                self.transcript.push(message.clone());
                Effect::Record(message)
            })
            .collect()
    }
}
