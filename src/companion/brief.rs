//! The morning brief in the assembly: turned on at a time, run as Sidecar's own list of
//! the day with a model's few lines after it where one is able, gathered at each run
//! from the features that hold the day (reminders, the tasks' results, open work, the
//! user's thumbs on earlier briefs), and the thumbs kept.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use tokio_util::sync::CancellationToken;

use super::Companion;
use crate::events::CoreEvent;
use sidecar_agent::CheckpointStatus;
use sidecar_domain::said_whole;
use sidecar_store::MessageStatus;
use sidecar_tasks::BriefParts;
use sidecar_tasks::Task;
use sidecar_tasks::TaskEvent;
use sidecar_tasks::TasksStore;

/// Earlier briefs' thumbs the next brief is told.
const OPINIONS: u32 = 4;
/// The weather tool a brief may use without asking, when there is one.
pub(super) const WEATHER: &str = "get_weather";

impl Companion {
    /// Turns the morning brief on at `at` ("07:30", the user's time) every day, moves
    /// it, or turns it off (`None`).
    pub async fn set_brief(&self, at: Option<&str>) -> Result<Option<Task>, crate::CompanionError> {
        let at = at.map(|t| NaiveTime::parse_from_str(t.trim(), "%H:%M").map_err(|_| sidecar_tasks::TasksError::NotATime(t.to_string()))).transpose()?;
        let tools: Vec<String> = self.conversation.tools().tools().filter(|t| t.name() == WEATHER).map(|t| t.name().to_string()).collect();
        Ok(self.tasks.set_brief(at, &tools, self.clock.now(), self.clock.zone(), self.preferences.lang()).await?)
    }

    /// Where the brief looks up the weather ("Madrid"); empty takes it away, and the
    /// brief leaves the weather out.
    pub async fn set_brief_place(&self, place: &str) -> Result<(), crate::CompanionError> {
        let place = sidecar_tasks::read_place(place)?;
        self.models.settings_owner().change(sidecar_settings::Change::Place(place))?;
        Ok(())
    }

    /// The user's thumb on a brief (a message in the Tasks conversation).
    pub async fn rate_brief(&self, message_id: i64, liked: bool) -> Result<(), crate::CompanionError> {
        let text = self.store.conversations().message(message_id).await?.map(|m| m.content).unwrap_or_default();
        Ok(self.tasks.rate_brief(message_id, liked, &text).await?)
    }

    /// A run of the brief: Sidecar's own list of the day, always, in the Tasks
    /// conversation; a model able to (not the demo) adds a few lines after it. Delivered
    /// as one; a model that fails costs the lines, never the brief.
    pub(crate) async fn run_brief(&self, task: &Task, run_id: i64, conversation_id: i64, cancel: &CancellationToken) -> Option<i64> {
        let lang = self.preferences.lang();
        let parts = self.brief_parts(task, run_id).await;
        let facts = sidecar_tasks::facts(&parts, lang);
        let facts_id = self.post_in_tasks(conversation_id, task.id, &facts, MessageStatus::Complete).await;
        let (mut text, mut kept, mut usage) = (facts.clone(), facts_id, sidecar_llm::Usage::default());
        if !self.conversation.only_demo_answers() {
            let prompt = sidecar_tasks::prompt(&parts, lang);
            let turn = sidecar_agent::TaskTurn { conversation_id, task_id: task.id, prompt: &prompt, shown: Some(&task.title), tools: &task.tools };
            match self.conversation.run_task(turn, cancel.child_token()).await {
                Ok(reply) => {
                    text = format!("{facts}\n\n{}", reply.text.trim());
                    kept = Some(reply.message_id);
                    usage = reply.usage.unwrap_or_default();
                }
                Err(error) => tracing::info!(error = %said_whole(&error, lang), "the brief went out as Sidecar's list alone"),
            }
        }
        for id in [facts_id, kept].into_iter().flatten() {
            if let Err(error) = self.store.conversations().mark_task_reply(id, task.id, true).await {
                tracing::warn!(%error, "a brief's message was not marked as its");
            }
        }
        if let Err(error) = self.tasks.keep_reply(run_id, kept, usage.input_tokens.into(), usage.output_tokens.into()).await {
            tracing::warn!(%error, "the brief's tokens were not kept");
        }
        if let Err(error) = self.tasks.finish(task.id, run_id, Ok(&text), lang).await {
            tracing::warn!(%error, "the brief's run could not be ended");
        }
        self.events.publish(CoreEvent::Tasks(TaskEvent::TaskRunFinished { task_id: task.id, run_id, conversation_id, message_id: kept, ok: true }));
        self.deliver_task(task, &text, kept).await;
        kept
    }

    /// What today's brief is made from, for the run `run_id` of the brief `task`.
    async fn brief_parts(&self, task: &Task, run_id: i64) -> BriefParts {
        let (now, zone) = (self.clock.now(), self.clock.zone());
        let table = self.store.task_table();
        // What tasks produced since the last brief (or the last day, for the first one).
        let previous = table.runs(task.id, 5).await.unwrap_or_default().into_iter().find(|r| r.id != run_id && r.state == sidecar_tasks::RunState::Done);
        let since = previous.map_or(now - Duration::days(1), |r| r.occurrence);
        let end_of_day: DateTime<Utc> = self.clock.start_of(self.clock.local_today() + Duration::days(1));
        let reminders = self.reminders.pending().await.unwrap_or_default();
        BriefParts {
            today: sidecar_dates::day_words(self.clock.local_today(), self.preferences.lang()),
            events: self.todays_events().await,
            reminders: reminders
                .iter()
                .filter(|r| r.due_at >= now && r.due_at < end_of_day)
                .map(|r| format!("{} {}", r.due_at.with_timezone(&zone).format("%H:%M"), r.message))
                .collect(),
            overnight: table.results_since(since).await.unwrap_or_default(),
            following: self
                .context
                .checkpoints()
                .await
                .unwrap_or_default()
                .into_iter()
                .filter(|c| matches!(c.status, CheckpointStatus::InProgress | CheckpointStatus::Paused))
                .map(|c| c.body.title)
                .collect(),
            opinions: table.brief_opinions(OPINIONS).await.unwrap_or_default(),
            weather_in: self.models.settings().user.place.clone().filter(|_| task.tools.iter().any(|t| t == WEATHER)),
        }
    }
}
