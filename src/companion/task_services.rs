//! What the tasks' runner asks of the features above its crate, filled from them: the
//! agent's task turn, quiet hours, the outbox, and the day the brief tells (the
//! calendar, the reminders, the open checkpoints, the place for the weather).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use sidecar_agent::CheckpointStatus;
use sidecar_agent::ContextService;
use sidecar_agent::ConversationService;
use sidecar_calendar::CalendarService;
use sidecar_domain::said_whole;
use sidecar_domain::Lang;
use sidecar_llm::Models;
use sidecar_outbox::{Kind, Outgoing};
use sidecar_proactive::ProactiveService;
use sidecar_reminders::ReminderService;
use sidecar_settings::Preferences;
use sidecar_tasks::{Day, DayEvent, ServiceError, TaskNote, TaskServices, TaskTurn, TurnFailed, TurnReply};

pub(super) struct ForTasks {
    pub(super) conversation: Arc<ConversationService>,
    pub(super) proactive: Arc<ProactiveService>,
    pub(super) reminders: Arc<ReminderService>,
    pub(super) calendar: Arc<CalendarService>,
    pub(super) mail: Arc<sidecar_mail::MailService>,
    pub(super) context: Arc<ContextService>,
    pub(super) models: Arc<Models>,
    pub(super) preferences: Arc<Preferences>,
    pub(super) computer: Arc<dyn sidecar_computer::Computer>,
}

impl TaskServices for ForTasks {
    fn lang(&self) -> Lang {
        self.preferences.lang()
    }

    fn run_turn<'a>(&'a self, turn: TaskTurn<'a>, cancel: CancellationToken) -> BoxFuture<'a, Result<TurnReply, TurnFailed>> {
        Box::pin(async move {
            match self.conversation.run_task(turn, cancel).await {
                Ok(reply) => {
                    let usage = reply.usage.unwrap_or_default();
                    Ok(TurnReply { message_id: reply.message_id, text: reply.text, tokens: (usage.input_tokens.into(), usage.output_tokens.into()) })
                }
                Err(error) => Err(TurnFailed(said_whole(&error, self.lang()))),
            }
        })
    }

    fn only_demo(&self) -> bool {
        self.conversation.only_demo_answers()
    }

    fn quiet(&self) -> BoxFuture<'_, Result<bool, ServiceError>> {
        Box::pin(async move { Ok(self.proactive.quiet_now().await?.quiet) })
    }

    fn notify(&self, note: TaskNote) -> BoxFuture<'_, Result<(), ServiceError>> {
        Box::pin(async move {
            let TaskNote { title, body, text, message_id, task_id } = note;
            let outgoing =
                Outgoing { kind: Kind::Task, title, body, chat: text, message_type: None, reminder_id: None, late: false, message_id, occurrence: None };
            let router = self.proactive.router();
            let (prefs, presence) = router.whereabouts().await?;
            let routed = router.send(outgoing, &prefs, presence).await;
            tracing::info!(task_id, delivered = ?routed.delivered, held = ?routed.held, failed = routed.failed.len(), "a task's result was delivered");
            Ok(())
        })
    }

    fn saving_power(&self) -> BoxFuture<'_, bool> {
        Box::pin(async move { self.computer.state().await.saving_power() })
    }

    fn day(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> BoxFuture<'_, Day> {
        Box::pin(async move {
            let events = self.calendar.between(from, to).await.unwrap_or_default();
            let reminders = self.reminders.pending().await.unwrap_or_default();
            let checkpoints = self.context.checkpoints().await.unwrap_or_default();
            let (mail, other_mail) = self.mail.brief(from - chrono::Duration::days(1), self.lang()).await.unwrap_or_default();
            Day {
                events: events.into_iter().map(|o| DayEvent { start: o.start, end: o.end, all_day: o.all_day, summary: o.summary }).collect(),
                reminders: reminders.into_iter().map(|r| (r.due_at, r.message)).collect(),
                open_work: checkpoints
                    .into_iter()
                    .filter(|c| matches!(c.status, CheckpointStatus::InProgress | CheckpointStatus::Paused))
                    .map(|c| c.body.title)
                    .collect(),
                place: self.models.settings().user.place.clone(),
                mail,
                other_mail,
            }
        })
    }
}
