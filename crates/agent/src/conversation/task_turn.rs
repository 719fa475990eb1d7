//! A scheduled task's turn (issue 46): its prompt answered with a small context of its
//! own (the system prompt every turn starts with, the time, the task's words; not the
//! chat's history), offered only the tools the task was given, which run without asking
//! (any other call that acts asks, as always). Its prompt and reply are kept in the
//! conversation set aside for tasks; nothing streams to the window, which reads them
//! from there.

use std::sync::OnceLock;

use tokio_util::sync::CancellationToken;

use super::ConversationService;
use crate::context::compact::Compactions;
use crate::context::engine::limits_with_tools;
use crate::context::fit::{self, Limits};
use crate::driver::{drive, Shaper, TurnContext, TurnRules, WindowTooSmall};
use crate::error::TurnError;
use crate::turn::TurnEnd;
use sidecar_domain::Emitter;
use sidecar_llm::tokens::count_cached as count;
use sidecar_llm::ChatMessage;
use sidecar_llm::Usage;
use sidecar_store::MessageMeta;
use sidecar_store::NewMessage;
use sidecar_tasks::TaskTurn;

/// What a task's run produced.
#[derive(Debug, Clone)]
pub struct TaskReply {
    pub message_id: i64,
    pub text: String,
    pub usage: Option<Usage>,
}

/// Fits a task's calls: the time goes on its prompt, the guard keeps them in the budget.
struct TaskShaper<'a> {
    late: String,
    limits: Limits,
    compactions: &'a Compactions,
    window: usize,
    /// The message the time went on at the first call: later calls send the same.
    late_on: OnceLock<usize>,
}

impl Shaper for TaskShaper<'_> {
    fn shape(&self, mut messages: Vec<ChatMessage>) -> Result<Vec<ChatMessage>, WindowTooSmall> {
        let at = *self.late_on.get_or_init(|| sidecar_llm::per_turn::newest_user(&messages).unwrap_or(0));
        sidecar_llm::per_turn::attach_at(&mut messages, at, &sidecar_llm::per_turn::block(&self.late, ""));
        let (messages, report) = fit::fit(messages, &self.limits, self.compactions, &count);
        if report.overflows() {
            let system = messages.first().map_or(0, |m| fit::message_tokens(m, &count));
            return Err(WindowTooSmall { system, room: self.limits.budget, window: self.window });
        }
        Ok(messages)
    }

    fn tool_result_limit(&self) -> usize {
        self.limits.max_tool_result_tokens
    }
}

impl ConversationService {
    /// Whether only the built-in demo model would answer now (no provider is set up and
    /// no larger offline model chosen): tasks then do not run, and the brief is Sidecar's
    /// own list alone.
    pub fn only_demo_answers(&self) -> bool {
        self.with.models.only_demo()
    }

    /// Runs a scheduled task's prompt as a turn of its own. `Err` says why it could not
    /// run (no model, the budget, the time limit), in words.
    pub async fn run_task(&self, task: TaskTurn<'_>, cancel: CancellationToken) -> Result<TaskReply, TurnError> {
        let settings = self.with.models.settings();
        let said = ChatMessage::user(task.prompt);
        let meta = MessageMeta { task: Some(task.task_id), typed: task.shown.map(str::to_string), ..MessageMeta::default() };
        let asked_in = self.with.store.conversations().add_message(NewMessage::plain(task.conversation_id, &said).with_meta(&meta)).await?;
        let mut chain = tokio::select! {
            chain = self.with.models.chat_chain(None) => chain?,
            _ = cancel.cancelled() => return Err(TurnError::StoppedBeforeModel),
        };
        if chain.only_demo() {
            // Its run would be "done" with made-up results (the first hour's M2).
            return Err(TurnError::Failed(crate::words::intent::demo_cannot_run_tasks(self.with.lang)));
        }
        // A provider that is down fails the run, said as such: the demo standing in would
        // deliver invented results as the task's.
        chain.demo_stands_in = false;
        let tools = self.tools().granting(task.tools);
        let (_, limits) = limits_with_tools(&chain, &settings, &tools);
        let (now, zone) = (self.with.clock.now(), self.with.clock.zone());
        let shaper = TaskShaper {
            late: sidecar_llm::per_turn::head(now, zone, &[], None, None, None),
            limits,
            compactions: self.with.context.compactions(),
            window: chain.context_window() as usize,
            late_on: OnceLock::new(),
        };
        let prompt = vec![ChatMessage::system(self.with.context.base_system()), said];
        // Nothing streams: the window is on the user's chat, not on this one.
        let silent = Emitter::new(|_| {});
        let driven = drive(
            TurnContext {
                shaper: &shaper,
                conversation_id: task.conversation_id,
                asked_in,
                store: &self.with.store,
                events: &silent,
                tools: &tools,
                chain,
                summarize_chain: self.with.models.routed(sidecar_settings::Purpose::Summarize),
                channel: self.with.channel,
                clock: &self.with.clock,
                arrived: std::time::Instant::now(),
                rules: TurnRules::of(&settings),
                cancel,
                lang: self.with.lang,
                models: &self.with.models,
                plans: self.with.context.plans(),
                counted_as: "task",
            },
            prompt,
        )
        .await?;
        match driven.end {
            TurnEnd::Failed { message, .. } => Err(driven.failure.map(TurnError::Route).unwrap_or(TurnError::Failed(message))),
            TurnEnd::TimedOut { .. } => Err(TurnError::Failed(sidecar_llm::turn_timed_out(settings.llm.turn_timeout_secs, self.with.lang))),
            _ => Ok(TaskReply { message_id: driven.message_id, text: driven.text, usage: driven.meta.usage }),
        }
    }
}
