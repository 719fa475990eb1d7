//! A run of the morning brief: Sidecar's own list of the day, always, in the Tasks
//! conversation; a model able to (not the demo) adds a few lines after it. Delivered as
//! one; a model that fails costs the lines, never the brief. What it is made from is
//! gathered at each run: the day the features hold ([`Day`], from
//! [`super::TaskServices::day`]), the tasks' results since the last brief, and the
//! user's thumbs on earlier briefs.

use chrono::{DateTime, Duration, Utc};
use tokio_util::sync::CancellationToken;

use super::{Runner, TaskTurn};
use crate::brief::{facts, prompt, BriefParts};
use crate::events::TaskEvent;
use crate::rows::{Task, TasksStore};
use crate::runs::RunState;
use sidecar_store::MessageStatus;

/// Earlier briefs' thumbs the next brief is told.
const OPINIONS: u32 = 4;
/// The weather tool a brief may use without asking, when there is one.
pub const WEATHER: &str = "get_weather";

/// The day as the features above this crate hold it, for the brief.
#[derive(Debug, Clone, Default)]
pub struct Day {
    /// The calendar's events from now to the end of the day.
    pub events: Vec<DayEvent>,
    /// Reminders still to come: when, and what.
    pub reminders: Vec<(DateTime<Utc>, String)>,
    /// Work left open: the titles of checkpoints in progress or paused.
    pub open_work: Vec<String>,
    /// Where the user said the weather is looked up.
    pub place: Option<String>,
    /// Mail of the last day from people who matter, as "Ana Ruiz: El piso (asks about
    /// Thursday 10 December, 18:00)", newest first.
    pub mail: Vec<String>,
    /// How many other mails came that day (counted, never read).
    pub other_mail: u32,
}

/// An event of the day, as the calendar has it.
#[derive(Debug, Clone)]
pub struct DayEvent {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub all_day: bool,
    pub summary: String,
}

impl Runner {
    pub(super) async fn run_brief(&self, task: &Task, run_id: i64, conversation_id: i64, cancel: &CancellationToken) -> Option<i64> {
        let lang = self.services.lang();
        let parts = self.brief_parts(task, run_id).await;
        let facts = facts(&parts, lang);
        let facts_id = self.post(conversation_id, task.id, &facts, MessageStatus::Complete).await;
        let (mut text, mut kept, mut tokens) = (facts.clone(), facts_id, (0, 0));
        if !self.services.only_demo() {
            let prompt = prompt(&parts, lang);
            let turn = TaskTurn { conversation_id, task_id: task.id, prompt: &prompt, shown: Some(&task.title), tools: &task.tools };
            match self.services.run_turn(turn, cancel.child_token()).await {
                Ok(reply) => {
                    text = format!("{facts}\n\n{}", reply.text.trim());
                    kept = Some(reply.message_id);
                    tokens = reply.tokens;
                }
                Err(error) => tracing::info!(%error, "the brief went out as Sidecar's list alone"),
            }
        }
        for id in [facts_id, kept].into_iter().flatten() {
            if let Err(error) = self.tasks.store().conversations().mark_task_reply(id, task.id, true).await {
                tracing::warn!(%error, "a brief's message was not marked as its");
            }
        }
        if let Err(error) = self.tasks.keep_reply(run_id, kept, tokens.0, tokens.1).await {
            tracing::warn!(%error, "the brief's tokens were not kept");
        }
        if let Err(error) = self.tasks.finish(task.id, run_id, Ok(&text), lang).await {
            tracing::warn!(%error, "the brief's run could not be ended");
        }
        self.tasks.publish(TaskEvent::TaskRunFinished { task_id: task.id, run_id, conversation_id, message_id: kept, ok: true });
        self.deliver(task, &text, kept).await;
        kept
    }

    /// What today's brief is made from, for the run `run_id` of the brief `task`.
    async fn brief_parts(&self, task: &Task, run_id: i64) -> BriefParts {
        let (now, zone, lang) = (self.clock.now(), self.clock.zone(), self.services.lang());
        let table = self.tasks.store().task_table();
        // What tasks produced since the last brief (or the last day, for the first one).
        let previous = table.runs(task.id, 5).await.unwrap_or_default().into_iter().find(|r| r.id != run_id && r.state == RunState::Done);
        let since = previous.map_or(now - Duration::days(1), |r| r.occurrence);
        let end_of_day = self.clock.start_of(self.clock.local_today() + Duration::days(1));
        let day = self.services.day(now, end_of_day).await;
        let hour = |at: DateTime<Utc>| at.with_timezone(&zone).format("%H:%M").to_string();
        BriefParts {
            today: sidecar_dates::day_words(self.clock.local_today(), lang),
            events: day
                .events
                .iter()
                .map(|e| match e.all_day {
                    true => format!("{}: {}", crate::words::all_day(lang), e.summary),
                    false => format!("{}–{} {}", hour(e.start), hour(e.end), e.summary),
                })
                .collect(),
            reminders: day
                .reminders
                .iter()
                .filter(|(due, _)| *due >= now && *due < end_of_day)
                .map(|(due, message)| format!("{} {message}", hour(*due)))
                .collect(),
            overnight: table.results_since(since).await.unwrap_or_default(),
            following: day.open_work,
            opinions: table.brief_opinions(OPINIONS).await.unwrap_or_default(),
            weather_in: day.place.filter(|_| task.tools.iter().any(|t| t == WEATHER)),
            mail: day.mail,
            other_mail: day.other_mail,
        }
    }
}
