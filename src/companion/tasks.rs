//! Scheduled tasks in the assembly: the loop that looks at them, runs what is due as a
//! turn of its own (the conversation service's task turn), keeps the run's reply and
//! tokens, and delivers the result: in the Tasks conversation always, as a notification
//! and on the phone (when away) unless Sidecar is quiet and the task is not "always
//! deliver". A late occurrence whose task asks is put to the user there.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::Companion;
use crate::events::CoreEvent;
use sidecar_domain::said_whole;
use sidecar_llm::ChatMessage;
use sidecar_outbox::{Kind, Outgoing};
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_tasks::TaskEvent;
use sidecar_tasks::Tasks;
use sidecar_tasks::Work;

/// Longest sleep between two looks at the wall clock: a suspended machine or a clock
/// that jumped is noticed within this (a monotonic sleep does not count the suspend).
const MAX_SLEEP: Duration = Duration::from_secs(30);
/// The time a morning brief is offered at when turned on.
const BRIEF_DEFAULT: &str = "07:30";
/// A result's notification body is cut here; the whole is in the Tasks conversation.
const BODY_CHARS: usize = 240;

/// Settings → Tasks: the tasks, the tools one can be given, and what runs took today.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct TasksPage {
    pub tasks: Vec<sidecar_tasks::TaskView>,
    /// The tools a task can be given: the name a task keeps, and what a person calls it
    /// (the description is the model's).
    pub tools: Vec<(String, String)>,
    /// "Skip it when late" skips past this many minutes unless the user says otherwise.
    pub default_skip_minutes: u32,
    /// Prompt tokens, completion tokens and runs of scheduled tasks since midnight.
    pub tokens_today: (u64, u64, u64),
    /// The user's zone, which the next times are shown in.
    pub zone: String,
    /// The morning brief's time ("07:30"), when it is on.
    pub brief_at: Option<String>,
    /// The time the brief is offered at when it is turned on.
    pub brief_default: String,
    /// Where the brief looks up the weather, when the user said.
    pub brief_place: Option<String>,
    /// There is a weather tool for the brief to use.
    pub brief_weather: bool,
    /// Task notifications that went out today, and the most a day (past it, results
    /// wait in Tasks and come together the next day).
    pub notified_today: (u32, u32),
    /// Only the demo model answers: tasks cannot run (the page says so, and what to do).
    pub demo_only: bool,
}

impl Companion {
    /// Scheduled tasks: make, list, pause, resume, remove, run now.
    pub fn tasks(&self) -> &Arc<Tasks> {
        &self.tasks
    }

    /// Settings → Tasks in one read.
    pub async fn tasks_page(&self) -> Result<TasksPage, crate::CompanionError> {
        let tools = self.conversation.tools();
        // The turn's own plumbing (finding tools, a plan) is no work to give a task.
        let plumbing = [sidecar_tasks::NAME, "find_tools", "update_plan"];
        let tools = tools.tools().filter(|t| !plumbing.contains(&t.name())).map(|t| (t.name().to_string(), t.title(self.lang))).collect();
        let midnight = sidecar_store::utc(self.clock.local_midnight());
        Ok(TasksPage {
            tasks: self.tasks.list(self.clock.now(), self.lang).await?,
            tools,
            default_skip_minutes: sidecar_tasks::DEFAULT_SKIP_MINUTES,
            tokens_today: self.tasks.tokens_since(Some(&midnight)).await?,
            zone: self.clock.zone().name().to_string(),
            brief_at: self.tasks.brief().await?.and_then(|task| match task.schedule {
                sidecar_tasks::Schedule::Repeat { start, zone, .. } => Some(start.with_timezone(&zone).format("%H:%M").to_string()),
                sidecar_tasks::Schedule::Once { .. } => None,
            }),
            brief_default: BRIEF_DEFAULT.to_string(),
            brief_place: self.models.settings().user.place.clone(),
            brief_weather: self.conversation.tools().tools().any(|t| t.name() == super::brief::WEATHER),
            notified_today: (self.tasks.notified_since(self.clock.local_midnight()).await?, sidecar_tasks::NOTIFICATIONS_PER_DAY),
            demo_only: self.models.only_demo(),
        })
    }

    /// Makes a task from Settings or the CLI, with the tools there are now.
    pub async fn add_task(&self, request: &sidecar_tasks::TaskRequest) -> Result<sidecar_tasks::Task, crate::CompanionError> {
        let tools = self.conversation.tools();
        let known: Vec<&str> = tools.tools().map(|t| t.name()).collect();
        Ok(self.tasks.add(request, &known, self.clock.now(), self.clock.zone(), self.lang).await?)
    }

    /// The conversation task results arrive in (made the first time).
    pub async fn tasks_conversation(&self) -> Result<i64, crate::CompanionError> {
        Ok(self.store.conversations().set_aside(sidecar_tasks::CONVERSATION_KIND, sidecar_tasks::tasks_conversation(self.lang)).await?)
    }

    /// The loop: the runs a crash cut first, then a look at every next time (at most
    /// [`MAX_SLEEP`] apart, and at once when a task changes), until `cancel`.
    pub async fn run_tasks(self: Arc<Self>, cancel: CancellationToken) {
        match self.tasks.recover().await {
            Ok(cut) => {
                for work in cut {
                    self.do_task_work(work, &cancel).await;
                }
            }
            Err(error) => tracing::warn!(%error, "the tasks a crash cut could not be read"),
        }
        loop {
            let next = self.run_due_tasks(&cancel).await;
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
    pub async fn run_due_tasks(&self, cancel: &CancellationToken) -> Option<DateTime<Utc>> {
        self.deliver_held_results().await;
        let look = match self.tasks.look(self.clock.now()).await {
            Ok(look) => look,
            Err(error) => {
                tracing::warn!(%error, "could not look at the tasks");
                return None;
            }
        };
        for work in look.work {
            self.do_task_work(work, cancel).await;
        }
        look.next
    }

    /// Runs task `id` now (Settings' and the CLI's Run now, and the answer to a late
    /// occurrence Sidecar asked about); the run's reply, or what went wrong.
    pub async fn run_task_now(&self, id: i64) -> Result<Option<i64>, crate::CompanionError> {
        let work = self.tasks.run_now(id, self.clock.now()).await?;
        Ok(self.do_task_work(work, &CancellationToken::new()).await)
    }

    async fn do_task_work(&self, work: Work, cancel: &CancellationToken) -> Option<i64> {
        let conversation_id = match self.tasks_conversation().await {
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
                let due = sidecar_dates::moment_words(occurrence.with_timezone(&self.clock.zone()), self.lang);
                let text = sidecar_tasks::ask_late(self.lang, &task.title, &due);
                let message_id = self.post_in_tasks(conversation_id, task.id, &text, MessageStatus::Complete).await?;
                self.events.publish(CoreEvent::Tasks(TaskEvent::TaskAsks { task_id: task.id, conversation_id, message_id }));
                self.deliver_task(&task, &text, Some(message_id)).await;
                Some(message_id)
            }
        }
    }

    /// A run of `task`: its turn, its reply and tokens kept, its end recorded (a third
    /// failure pauses it), a failure said in Tasks, the result delivered.
    async fn run_work(&self, task: &sidecar_tasks::Task, run_id: i64, conversation_id: i64, cancel: &CancellationToken) -> Option<i64> {
        self.events.publish(CoreEvent::Tasks(TaskEvent::TaskRunStarted { task_id: task.id, run_id }));
        if task.kind == sidecar_tasks::TaskKind::Brief {
            return self.run_brief(task, run_id, conversation_id, cancel).await;
        }
        let (prompt, cut_from) = sidecar_tasks::runnable_prompt(&task.prompt);
        if let Some(chars) = cut_from {
            let said = sidecar_tasks::prompt_cut(self.lang, &task.title, chars, sidecar_tasks::MAX_PROMPT_CHARS);
            self.post_in_tasks(conversation_id, task.id, &said, MessageStatus::Complete).await;
        }
        let turn = sidecar_agent::TaskTurn { conversation_id, task_id: task.id, prompt, shown: None, tools: &task.tools };
        let ran = self.conversation.run_task(turn, cancel.child_token()).await;
        let (outcome, message_id) = match &ran {
            Ok(reply) => {
                if let Err(error) = self.store.conversations().mark_task_reply(reply.message_id, task.id, false).await {
                    tracing::warn!(%error, "a task's reply was not marked as its");
                }
                let usage = reply.usage.unwrap_or_default();
                if let Err(error) = self.tasks.keep_reply(run_id, Some(reply.message_id), usage.input_tokens.into(), usage.output_tokens.into()).await {
                    tracing::warn!(%error, "a task's tokens were not kept");
                }
                (Ok(reply.text.as_str()), Some(reply.message_id))
            }
            Err(error) => (Err(said_whole(error, self.lang)), None),
        };
        let ok = outcome.is_ok();
        let said = match &outcome {
            Ok(text) => Ok(*text),
            Err(why) => Err(why.as_str()),
        };
        let paused = self.tasks.finish(task.id, run_id, said, self.lang).await.unwrap_or_else(|error| {
            tracing::warn!(%error, "a task's run could not be ended");
            None
        });
        let message_id = match (&outcome, message_id) {
            (Ok(_), id) => id,
            (Err(why), _) => {
                let failed = sidecar_tasks::failed(self.lang, &task.title, why);
                let text = paused.map_or(failed.clone(), |paused| format!("{failed}\n\n{paused}"));
                self.post_in_tasks(conversation_id, task.id, &text, MessageStatus::Error).await
            }
        };
        self.events.publish(CoreEvent::Tasks(TaskEvent::TaskRunFinished { task_id: task.id, run_id, conversation_id, message_id, ok }));
        let body = match &outcome {
            Ok(text) => text.to_string(),
            Err(_) => self.message_text(message_id).await.unwrap_or_default(),
        };
        self.deliver_task(task, &body, message_id).await;
        message_id
    }

    /// Sidecar's own line in the Tasks conversation (a question, a failure): never sent
    /// back to a model.
    pub(crate) async fn post_in_tasks(&self, conversation_id: i64, task_id: i64, text: &str, status: MessageStatus) -> Option<i64> {
        let meta = MessageMeta { command: true, task: Some(task_id), ..MessageMeta::default() };
        let said = ChatMessage::assistant(text);
        let new = NewMessage { conversation_id, message: &said, status, finish_reason: None, meta: Some(&meta), channel: None, once_per: None };
        match self.store.conversations().add_message(new).await {
            Ok(id) => Some(id),
            Err(error) => {
                tracing::warn!(%error, "a task's line could not be kept");
                None
            }
        }
    }

    async fn message_text(&self, message_id: Option<i64>) -> Option<String> {
        Some(self.store.conversations().message(message_id?).await.ok()??.content)
    }

    /// A notification and the phone (when away), unless the task is not one to deliver
    /// always and Sidecar is quiet or the day's task notifications are spent: then the
    /// result waits in Tasks (it is there either way) and is notified later, together
    /// with any others.
    pub(crate) async fn deliver_task(&self, task: &sidecar_tasks::Task, text: &str, message_id: Option<i64>) {
        if !task.always_deliver {
            match self.may_notify_tasks().await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::info!(task_id = task.id, "quiet or the day's notifications spent: the result waits in Tasks, notified later");
                    if let Some(message_id) = message_id {
                        if let Err(error) = self.tasks.hold(task.id, message_id).await {
                            tracing::warn!(%error, "a result held back was not kept to notify later");
                        }
                    }
                    return;
                }
                Err(error) => return tracing::warn!(%error, "whether Sidecar may notify is unknown: the result waits in the Tasks conversation"),
            }
        }
        self.notify_task(task.title.clone(), text, message_id, task.id).await;
    }

    /// Not quiet, and fewer than [`sidecar_tasks::NOTIFICATIONS_PER_DAY`] task
    /// notifications went out today.
    async fn may_notify_tasks(&self) -> Result<bool, crate::CompanionError> {
        if self.proactive.quiet_now().await?.quiet {
            return Ok(false);
        }
        Ok(self.tasks.may_notify(self.clock.local_midnight()).await?)
    }

    /// Once Sidecar may notify again: the results held back, in one notification (each
    /// task's title and the start of its result; the Tasks conversation has them whole).
    async fn deliver_held_results(&self) {
        if !self.tasks.any_held().await.unwrap_or(false) || !self.may_notify_tasks().await.unwrap_or(false) {
            return;
        }
        let held = match self.tasks.take_held().await {
            Ok(held) if !held.is_empty() => held,
            Ok(_) => return,
            Err(error) => return tracing::warn!(%error, "the results held back could not be read"),
        };
        let lines: Vec<String> = held.iter().map(|(_, title, text)| format!("{title}: {}", text.lines().next().unwrap_or_default())).collect();
        let last = held.last().map(|(id, _, _)| *id);
        self.notify_task(sidecar_tasks::held_title(self.lang, held.len()), &lines.join("\n"), last, 0).await;
    }

    /// A task's notification (and the phone when away): `title`, the start of `text`.
    async fn notify_task(&self, title: String, text: &str, message_id: Option<i64>, task_id: i64) {
        let body: String = text.chars().take(BODY_CHARS).collect();
        let body = if body.len() < text.len() { format!("{}…", body.trim_end()) } else { body };
        let outgoing = Outgoing {
            kind: Kind::Task,
            title,
            body,
            chat: text.to_string(),
            message_type: None,
            reminder_id: None,
            late: false,
            message_id,
            occurrence: None,
        };
        let router = self.proactive.router();
        match router.whereabouts().await {
            Ok((prefs, presence)) => {
                let routed = router.send(outgoing, &prefs, presence).await;
                tracing::info!(task_id, delivered = ?routed.delivered, failed = routed.failed.len(), "a task's result was delivered");
                if let Err(error) = self.tasks.notified(self.clock.now()).await {
                    tracing::warn!(%error, "a task's notification was not counted");
                }
            }
            Err(error) => tracing::warn!(%error, "where to deliver a task's result is unknown"),
        }
    }
}
