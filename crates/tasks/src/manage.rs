//! The user's side of the tasks: make one from words ("every weekday at 8"), list them
//! with their next time and last runs, pause, resume, remove, and run one now (which also
//! answers a late occurrence Sidecar asked about).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::Serialize;
use sidecar_domain::Lang;

use crate::catch_up::CatchUp;
use crate::error::TasksError;
use crate::rows::{NewTask, Run, Task, TaskKind, TasksStore};
use crate::runs::RunState;
use crate::schedule::Schedule;
use crate::service::{Tasks, Work};
use crate::CONVERSATION_KIND;

/// The longest "skip if older than" a task takes: a week.
const MAX_SKIP_MINUTES: u32 = 7 * 24 * 60;
/// A title made from the prompt is cut at this many characters.
const TITLE_CHARS: usize = 48;
/// The longest prompt a task keeps: a page of instructions. A longer one would reach the
/// model cut to fit its window without a word, and the run be recorded as done.
pub const MAX_PROMPT_CHARS: usize = 8_000;
/// Runs shown with each task.
const RUNS_SHOWN: u32 = 5;
/// A brief later than this is skipped.
const BRIEF_LATE_MINUTES: u32 = 180;
/// The tool the model makes tasks with ([`crate::tool`]); a task is never given it.
pub const SCHEDULE_TOOL: &str = "schedule_task";

/// A task as the user asks for it.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, ts_rs::TS)]
pub struct TaskRequest {
    /// Its name; the prompt's first words when empty.
    #[serde(default)]
    pub title: Option<String>,
    /// What Sidecar does at its time.
    pub prompt: String,
    /// When, as people say it: "every weekday at 8", "cada domingo a las 21", "in two hours".
    pub when: String,
    /// The tools it may use without asking, fixed now.
    #[serde(default)]
    pub tools: Vec<String>,
    pub catch_up: CatchUp,
    /// Delivered even in quiet hours and after `/quiet`.
    #[serde(default)]
    pub always_deliver: bool,
}

/// A task as lists show it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct TaskView {
    pub id: i64,
    pub kind: TaskKind,
    pub title: String,
    pub prompt: String,
    /// Its schedule in words, in the user's language.
    pub when: String,
    pub next: Option<DateTime<Utc>>,
    pub tools: Vec<String>,
    pub catch_up: CatchUp,
    pub always_deliver: bool,
    pub paused: Option<String>,
    /// A late occurrence waits for the user's answer (run it now or not).
    pub asked: bool,
    /// The last runs, newest first.
    pub runs: Vec<Run>,
}

/// A task's time in words, in the zone it was made in ("every weekday at 08:00",
/// "Tuesday 1 December at 09:00").
pub(crate) fn when_words(task: &Task, lang: Lang) -> String {
    match &task.schedule {
        Schedule::Once { at } => sidecar_dates::moment_words(at.with_timezone(&task.zone), lang),
        Schedule::Repeat { rule, start, zone } => sidecar_dates::rule_words(rule, start.with_timezone(zone), lang),
    }
}

/// The instructions a run gives the model: the task's prompt, or its first
/// [`MAX_PROMPT_CHARS`] characters when it was kept before there was a limit, with how
/// long it was (to be said: the run would otherwise seem to follow all of it).
pub fn runnable_prompt(prompt: &str) -> (&str, Option<usize>) {
    match prompt.char_indices().nth(MAX_PROMPT_CHARS) {
        Some((end, _)) => (&prompt[..end], Some(prompt.chars().count())),
        None => (prompt, None),
    }
}

fn title_of(request: &TaskRequest) -> String {
    let given = request.title.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let text = given.unwrap_or(request.prompt.trim());
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.char_indices().nth(TITLE_CHARS) {
        Some((cut, _)) => format!("{}…", words[..cut].trim_end()),
        None => words,
    }
}

impl Tasks {
    /// Makes a task from the user's words. `known_tools` are the tools there are (a
    /// task cannot be given one that does not exist); `zone` is the user's.
    pub async fn add(&self, request: &TaskRequest, known_tools: &[&str], now: DateTime<Utc>, zone: Tz, lang: Lang) -> Result<Task, TasksError> {
        let prompt = request.prompt.trim();
        if prompt.is_empty() {
            return Err(TasksError::NoPrompt);
        }
        let chars = prompt.chars().count();
        if chars > MAX_PROMPT_CHARS {
            return Err(TasksError::PromptTooLong { chars, limit: MAX_PROMPT_CHARS });
        }
        if let CatchUp::SkipOlderThan { minutes } = request.catch_up {
            if minutes == 0 || minutes > MAX_SKIP_MINUTES {
                return Err(TasksError::SkipMinutes);
            }
        }
        // A task does not make tasks: it is given only what works for it.
        let known: Vec<&str> = known_tools.iter().copied().filter(|t| *t != SCHEDULE_TOOL).collect();
        if let Some(unknown) = request.tools.iter().find(|t| !known.contains(&t.as_str())) {
            return Err(TasksError::UnknownTool(unknown.clone(), known.join(", ")));
        }
        let reading = sidecar_dates::parse(&request.when, now, zone, sidecar_dates::Options::new(lang))?;
        let schedule = match reading.rrule {
            Some(rule) => Schedule::Repeat { rule, start: reading.at, zone: reading.zone },
            None => Schedule::Once { at: reading.at },
        };
        let mut tools = request.tools.clone();
        tools.sort();
        tools.dedup();
        let new = NewTask {
            kind: TaskKind::Prompt,
            title: &title_of(request),
            prompt,
            schedule: &schedule,
            catch_up: request.catch_up,
            tools: &tools,
            always_deliver: request.always_deliver,
            zone,
        };
        let task = self.store().task_table().add(new).await?;
        self.changed();
        Ok(task)
    }

    /// Every task with its next time and last runs, oldest first.
    pub async fn list(&self, now: DateTime<Utc>, lang: Lang) -> Result<Vec<TaskView>, TasksError> {
        let table = self.store().task_table();
        let mut views = Vec::new();
        for task in table.all().await? {
            let runs = table.runs(task.id, RUNS_SHOWN).await?;
            let handled = table.handled(&task).await?;
            let next = task.paused.is_none().then(|| task.schedule.next_after(handled.max(now))).flatten();
            views.push(TaskView {
                id: task.id,
                kind: task.kind,
                when: when_words(&task, lang),
                asked: runs.first().is_some_and(|r| r.state == RunState::Asked),
                title: task.title,
                prompt: task.prompt,
                next,
                tools: task.tools,
                catch_up: task.catch_up,
                always_deliver: task.always_deliver,
                paused: task.paused,
                runs,
            });
        }
        Ok(views)
    }

    /// Stops a task running by itself until resumed.
    pub async fn pause(&self, id: i64, lang: Lang) -> Result<(), TasksError> {
        let reason = crate::words::paused_by_user(lang);
        self.found(id, self.store().task_table().set_paused(id, Some(&reason)).await?)
    }

    /// Lets a paused task run again: from its next time, not the ones missed meanwhile.
    pub async fn resume(&self, id: i64, now: DateTime<Utc>) -> Result<(), TasksError> {
        let table = self.store().task_table();
        let task = table.one(id).await?.ok_or(TasksError::NoSuchTask(id))?;
        // What fell due while it was paused is recorded as skipped, so it is not caught up.
        if let Some(missed) = task.schedule.between(table.handled(&task).await?, now, 1).pop() {
            table.record(id, missed, RunState::Skipped).await?;
        }
        self.found(id, table.set_paused(id, None).await?)
    }

    pub async fn remove(&self, id: i64) -> Result<(), TasksError> {
        self.found(id, self.store().task_table().remove(id).await?)
    }

    /// Runs a task now: the late occurrence it asked about if there is one, else a run
    /// of its own at `now` (its schedule goes on as before).
    pub async fn run_now(&self, id: i64, now: DateTime<Utc>) -> Result<Work, TasksError> {
        let table = self.store().task_table();
        let task = table.one(id).await?.ok_or(TasksError::NoSuchTask(id))?;
        if let Some((run_id, occurrence)) = table.take_asked(id).await? {
            self.store().conversations().mark_task_questions_handled(id).await?;
            return Ok(Work::Run { task, run_id, occurrence, late: true, folded: 0 });
        }
        let run_id = table.record(id, now, RunState::Attempting).await?.ok_or(TasksError::AlreadyRan(id))?;
        Ok(Work::Run { task, run_id, occurrence: now, late: false, folded: 0 })
    }

    /// The user said no to a late occurrence Sidecar asked about; whether one waited.
    pub async fn decline_asked(&self, id: i64) -> Result<bool, TasksError> {
        let declined = self.store().task_table().decline_asked(id).await?;
        self.store().conversations().mark_task_questions_handled(id).await?;
        Ok(declined)
    }

    /// What Sidecar named itself (the brief, the conversation results arrive in) is
    /// called in `lang`, the language the app now speaks (the first-hour m4: they stayed
    /// English after a switch to Spanish). Names the user gave stay.
    pub async fn follow_language(&self, lang: Lang) -> Result<(), TasksError> {
        let briefs = Lang::ALL.map(crate::words::brief_title);
        self.store().task_table().retitle(TaskKind::Brief, crate::words::brief_title(lang), &briefs).await?;
        let conversations = Lang::ALL.map(crate::words::tasks_conversation);
        self.store().conversations().retitle_set_aside(CONVERSATION_KIND, crate::words::tasks_conversation(lang), &conversations).await?;
        Ok(())
    }

    /// The morning brief, when the user turned it on.
    pub async fn brief(&self) -> Result<Option<Task>, TasksError> {
        Ok(self.store().task_table().all().await?.into_iter().find(|t| t.kind == TaskKind::Brief))
    }

    /// Turns the morning brief on at `at` (the user's wall-clock time, every day), moves
    /// it, or turns it off (`None`). It may use `tools` (the weather) without asking; a
    /// brief missed by more than three hours is skipped (a brief at noon is noise); it is
    /// delivered in quiet hours, since the user chose its time.
    pub async fn set_brief(
        &self,
        at: Option<chrono::NaiveTime>,
        tools: &[String],
        now: DateTime<Utc>,
        zone: Tz,
        lang: Lang,
    ) -> Result<Option<Task>, TasksError> {
        let table = self.store().task_table();
        let existing = self.brief().await?;
        let same = |task: &Task| matches!((&task.schedule, at), (Schedule::Repeat { start, zone: z, .. }, Some(at)) if start.with_timezone(z).time() == at && *z == zone);
        if let Some(task) = existing.as_ref().filter(|t| same(t)) {
            return Ok(Some(task.clone()));
        }
        if let Some(task) = existing {
            table.remove(task.id).await?;
        }
        let Some(at) = at else {
            self.changed();
            return Ok(None);
        };
        let local = now.with_timezone(&zone);
        let today = local.date_naive().and_time(at);
        let first = [today, today + chrono::Duration::days(1)]
            .into_iter()
            .filter_map(|t| t.and_local_timezone(zone).earliest())
            .map(|t| t.with_timezone(&Utc))
            .find(|t| *t > now)
            .expect("tomorrow at that time is after now");
        let schedule = Schedule::Repeat { rule: "FREQ=DAILY".into(), start: first, zone };
        let title = crate::words::brief_title(lang);
        let new = NewTask {
            kind: TaskKind::Brief,
            title,
            prompt: title,
            schedule: &schedule,
            catch_up: CatchUp::SkipOlderThan { minutes: BRIEF_LATE_MINUTES },
            tools,
            // The user picked its time: quiet hours (until 8:00 by default) do not hold it.
            always_deliver: true,
            zone,
        };
        let task = table.add(new).await?;
        self.changed();
        Ok(Some(task))
    }

    /// The user's thumb on a brief, which the next briefs are told.
    pub async fn rate_brief(&self, message_id: i64, liked: bool, text: &str) -> Result<(), TasksError> {
        let opening: String = text.split_whitespace().take(12).collect::<Vec<_>>().join(" ");
        Ok(self.store().task_table().rate_brief(message_id, liked, &opening).await?)
    }

    fn found(&self, id: i64, there: bool) -> Result<(), TasksError> {
        if !there {
            return Err(TasksError::NoSuchTask(id));
        }
        self.changed();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_kept_before_the_limit_runs_cut_and_says_how_long_it_was() {
        assert_eq!(runnable_prompt("Check the trains"), ("Check the trains", None));
        let long = "é".repeat(MAX_PROMPT_CHARS + 5);
        let (cut, was) = runnable_prompt(&long);
        assert_eq!((cut.chars().count(), was), (MAX_PROMPT_CHARS, Some(MAX_PROMPT_CHARS + 5)));
        let exact = "a".repeat(MAX_PROMPT_CHARS);
        assert_eq!(runnable_prompt(&exact).1, None);
    }
}
