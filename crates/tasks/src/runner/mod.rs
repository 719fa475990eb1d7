//! The tasks at work: the loop that looks at them, runs what is due as a turn of its own,
//! keeps the run's reply and tokens, and delivers the result (see [`deliver`]). What a
//! run needs from the features above this crate (the agent's task turn, quiet hours,
//! the outbox, the day for the brief) it asks [`TaskServices`], which the assembly fills.
//!
//! A late occurrence whose task asks is put to the user in the Tasks conversation.

mod brief;
mod deliver;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_llm::ChatMessage;
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::StoreError;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::events::TaskEvent;
use crate::manage::runnable_prompt;
use crate::rows::{Task, TaskKind};
use crate::service::{Tasks, Work};

pub use brief::{Day, DayEvent, WEATHER};
pub use deliver::TaskNote;

/// Longest sleep between two looks at the wall clock: a suspended machine or a clock
/// that jumped is noticed within this (a monotonic sleep does not count the suspend).
const MAX_SLEEP: Duration = Duration::from_secs(30);

/// An error from a service above this crate, kept as it came.
pub type ServiceError = Box<dyn std::error::Error + Send + Sync>;

/// A task's turn, as the agent runs it in the Tasks conversation.
#[derive(Debug, Clone, Copy)]
pub struct TaskTurn<'a> {
    pub conversation_id: i64,
    pub task_id: i64,
    pub prompt: &'a str,
    /// What the window shows for the prompt when it is not the prompt itself (the
    /// brief's name in place of the data it was made from).
    pub shown: Option<&'a str>,
    /// The tools the task was given when it was made.
    pub tools: &'a [String],
}

/// What a task's turn produced.
#[derive(Debug, Clone)]
pub struct TurnReply {
    pub message_id: i64,
    pub text: String,
    /// Prompt and completion tokens.
    pub tokens: (u64, u64),
}

/// A turn that gave no reply, in the user's words (the run's failure, said in Tasks).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct TurnFailed(pub String);

/// What a run needs from the features above this crate; the assembly fills it.
pub trait TaskServices: Send + Sync {
    /// The language Sidecar speaks now.
    fn lang(&self) -> Lang;
    /// Runs a task's turn (the agent's, with the tools the task was given).
    fn run_turn<'a>(&'a self, turn: TaskTurn<'a>, cancel: CancellationToken) -> BoxFuture<'a, Result<TurnReply, TurnFailed>>;
    /// Only the demo model answers: the brief is Sidecar's own list alone.
    fn only_demo(&self) -> bool;
    /// Sidecar is quiet now (a result not "always deliver" then waits).
    fn quiet(&self) -> BoxFuture<'_, Result<bool, ServiceError>>;
    /// A task's notification, and the phone when the user is away.
    fn notify(&self, note: TaskNote) -> BoxFuture<'_, Result<(), ServiceError>>;
    /// What the brief tells of the day from `from` to `to` (the end of the user's day).
    fn day(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> BoxFuture<'_, Day>;
    /// The computer saves power now (a low battery, not charging): tasks not set to
    /// always deliver wait.
    fn saving_power(&self) -> BoxFuture<'_, bool> {
        Box::pin(async { false })
    }
}

/// Runs the tasks: [`Runner::run`] is the loop the assembly spawns.
pub struct Runner {
    tasks: Arc<Tasks>,
    clock: Clock,
    services: Arc<dyn TaskServices>,
}

impl Runner {
    pub fn new(tasks: Arc<Tasks>, clock: Clock, services: Arc<dyn TaskServices>) -> Self {
        Self { tasks, clock, services }
    }

    /// The conversation task results arrive in (made the first time).
    pub async fn conversation(&self) -> Result<i64, StoreError> {
        let title = crate::words::tasks_conversation(self.services.lang());
        self.tasks.store().conversations().set_aside(crate::CONVERSATION_KIND, title).await
    }

    /// The loop: the runs a crash cut first, then a look at every next time (at most
    /// [`MAX_SLEEP`] apart, and at once when a task changes), until `cancel`.
    pub async fn run(self: Arc<Self>, cancel: CancellationToken) {
        match self.tasks.recover().await {
            Ok(cut) => {
                for work in cut {
                    self.do_work(work, &cancel).await;
                }
            }
            Err(error) => tracing::warn!(%error, "the tasks a crash cut could not be read"),
        }
        loop {
            let next = self.run_due(&cancel).await;
            let now = self.clock.now();
            let wait = next.map_or(MAX_SLEEP, |at| (at - now).to_std().unwrap_or_default().min(MAX_SLEEP));
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.tasks.until_changed() => {}
                _ = cancel.cancelled() => return,
            }
        }
    }

    /// One look: the results quiet held back, notified if it is over; then runs what is
    /// due now, asks about what its policy asks about. When the next occurrence falls due.
    pub async fn run_due(&self, cancel: &CancellationToken) -> Option<DateTime<Utc>> {
        self.deliver_held_results().await;
        let saving_power = self.services.saving_power().await;
        let look = match self.tasks.look_saving(self.clock.now(), saving_power).await {
            Ok(look) => look,
            Err(error) => {
                tracing::warn!(%error, "could not look at the tasks");
                return None;
            }
        };
        for work in look.work {
            self.do_work(work, cancel).await;
        }
        look.next
    }

    /// Runs task `id` now (Settings' and the CLI's Run now, and the answer to a late
    /// occurrence Sidecar asked about); the run's reply, or what went wrong.
    pub async fn run_now(&self, id: i64) -> Result<Option<i64>, crate::TasksError> {
        let work = self.tasks.run_now(id, self.clock.now()).await?;
        Ok(self.do_work(work, &CancellationToken::new()).await)
    }

    async fn do_work(&self, work: Work, cancel: &CancellationToken) -> Option<i64> {
        let conversation_id = match self.conversation().await {
            Ok(id) => id,
            Err(error) => {
                tracing::warn!(%error, "the Tasks conversation could not be opened");
                return None;
            }
        };
        match work {
            Work::Run { task, run_id, occurrence, late, folded } => {
                let span = tracing::info_span!("task_run", task_id = task.id, run_id, %occurrence, late, folded);
                self.run_work(&task, run_id, conversation_id, cancel).instrument(span).await
            }
            Work::Ask { task, occurrence } => {
                let lang = self.services.lang();
                let due = sidecar_dates::moment_words(occurrence.with_timezone(&self.clock.zone()), lang);
                let text = crate::words::ask_late(lang, &task.title, &due);
                let message_id = self.post(conversation_id, task.id, &text, MessageStatus::Complete).await?;
                self.tasks.publish(TaskEvent::TaskAsks { task_id: task.id, conversation_id, message_id });
                self.deliver(&task, &text, Some(message_id)).await;
                Some(message_id)
            }
        }
    }

    /// A run of `task`: its turn, its reply and tokens kept, its end recorded (a third
    /// failure pauses it), a failure said in Tasks, the result delivered.
    async fn run_work(&self, task: &Task, run_id: i64, conversation_id: i64, cancel: &CancellationToken) -> Option<i64> {
        self.tasks.publish(TaskEvent::TaskRunStarted { task_id: task.id, run_id });
        if task.kind == TaskKind::Brief {
            return self.run_brief(task, run_id, conversation_id, cancel).await;
        }
        let lang = self.services.lang();
        let (prompt, cut_from) = runnable_prompt(&task.prompt);
        if let Some(chars) = cut_from {
            let said = crate::words::prompt_cut(lang, &task.title, chars, crate::manage::MAX_PROMPT_CHARS);
            self.post(conversation_id, task.id, &said, MessageStatus::Complete).await;
        }
        let turn = TaskTurn { conversation_id, task_id: task.id, prompt, shown: None, tools: &task.tools };
        let outcome = match self.services.run_turn(turn, cancel.child_token()).await {
            Ok(reply) => {
                if let Err(error) = self.tasks.store().conversations().mark_task_reply(reply.message_id, task.id, false).await {
                    tracing::warn!(%error, "a task's reply was not marked as its");
                }
                if let Err(error) = self.tasks.keep_reply(run_id, Some(reply.message_id), reply.tokens.0, reply.tokens.1).await {
                    tracing::warn!(%error, "a task's tokens were not kept");
                }
                Ok(reply)
            }
            Err(failed) => Err(failed.0),
        };
        let ended = outcome.as_ref().map(|reply| reply.text.as_str()).map_err(String::as_str);
        let paused = self.tasks.finish(task.id, run_id, ended, lang).await.unwrap_or_else(|error| {
            tracing::warn!(%error, "a task's run could not be ended");
            None
        });
        let (message_id, body) = match &outcome {
            Ok(reply) => (Some(reply.message_id), reply.text.clone()),
            Err(why) => {
                let failed = crate::words::failed(lang, &task.title, why);
                let text = paused.map_or(failed.clone(), |paused| format!("{failed}\n\n{paused}"));
                (self.post(conversation_id, task.id, &text, MessageStatus::Error).await, text)
            }
        };
        let ok = outcome.is_ok();
        self.tasks.publish(TaskEvent::TaskRunFinished { task_id: task.id, run_id, conversation_id, message_id, ok });
        self.deliver(task, &body, message_id).await;
        message_id
    }

    /// Sidecar's own line in the Tasks conversation (a question, a failure, the brief's
    /// list): never sent back to a model.
    async fn post(&self, conversation_id: i64, task_id: i64, text: &str, status: MessageStatus) -> Option<i64> {
        let meta = MessageMeta { command: true, task: Some(task_id), ..MessageMeta::default() };
        let said = ChatMessage::assistant(text);
        let new = NewMessage { conversation_id, message: &said, status, finish_reason: None, meta: Some(&meta), channel: None, once_per: None };
        match self.tasks.store().conversations().add_message(new).await {
            Ok(id) => Some(id),
            Err(error) => {
                tracing::warn!(%error, "a task's line could not be kept");
                None
            }
        }
    }
}
