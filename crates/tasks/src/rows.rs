//! The tasks and their runs in Sidecar's database. A run is keyed by its task and its
//! occurrence (UNIQUE): a second attempt at the same occurrence, from a second look or a
//! second process, finds it taken and does nothing.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use sidecar_store::utc;
use sidecar_store::Store;
use sidecar_store::StoreError;

use crate::catch_up::CatchUp;
use crate::runs::RunState;
use crate::schedule::Schedule;

/// What a task runs: the user's words, or the morning brief made at each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, sqlx::Type, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[sqlx(rename_all = "lowercase")]
pub enum TaskKind {
    Prompt,
    Brief,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: i64,
    pub kind: TaskKind,
    /// Its name in lists and notifications.
    pub title: String,
    pub prompt: String,
    pub schedule: Schedule,
    pub catch_up: CatchUp,
    pub tools: Vec<String>,
    /// The user's zone when it was made (a repeat keeps its times there).
    pub zone: Tz,
    /// Its result is delivered even in quiet hours and after `/quiet`.
    pub always_deliver: bool,
    /// Why it is paused; `None`: it runs.
    pub paused: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A task about to be stored.
pub struct NewTask<'a> {
    pub kind: TaskKind,
    pub title: &'a str,
    pub prompt: &'a str,
    pub schedule: &'a Schedule,
    pub catch_up: CatchUp,
    pub tools: &'a [String],
    pub always_deliver: bool,
    /// The user's zone now.
    pub zone: Tz,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct Run {
    pub id: i64,
    pub task_id: i64,
    pub occurrence: DateTime<Utc>,
    pub state: RunState,
    pub outcome: Option<String>,
    /// Its reply in the Tasks conversation.
    pub message_id: Option<i64>,
    pub prompt_tokens: Option<i64>,
    pub completion_tokens: Option<i64>,
}

type TaskRow = (i64, TaskKind, String, String, Option<String>, DateTime<Utc>, String, String, String, bool, Option<String>, DateTime<Utc>);

fn decode(error: String) -> StoreError {
    StoreError::Query(sqlx::Error::Decode(error.into()))
}

fn catch_up_text(policy: CatchUp) -> String {
    match policy {
        CatchUp::RunNow => "run_now".into(),
        CatchUp::Ask => "ask".into(),
        CatchUp::SkipOlderThan { minutes } => format!("skip_older_than:{minutes}"),
    }
}

fn catch_up_of(text: &str) -> Result<CatchUp, StoreError> {
    match text {
        "run_now" => Ok(CatchUp::RunNow),
        "ask" => Ok(CatchUp::Ask),
        other => other
            .strip_prefix("skip_older_than:")
            .and_then(|m| m.parse().ok())
            .map(|minutes| CatchUp::SkipOlderThan { minutes })
            .ok_or_else(|| decode(format!("unknown catch-up policy {other:?}"))),
    }
}

fn task_of(row: TaskRow) -> Result<Task, StoreError> {
    let (id, kind, title, prompt, rule, start, zone, catch_up, tools, always_deliver, paused, created_at) = row;
    let zone = zone.parse::<Tz>().map_err(|_| decode(format!("{zone:?} is not an IANA zone")))?;
    let schedule = match rule {
        Some(rule) => Schedule::Repeat { rule, start, zone },
        None => Schedule::Once { at: start },
    };
    let tools = serde_json::from_str(&tools).map_err(|e| decode(e.to_string()))?;
    Ok(Task { id, kind, title, prompt, schedule, catch_up: catch_up_of(&catch_up)?, tools, zone, always_deliver, paused, created_at })
}

const TASK_COLUMNS: &str = "id, kind, title, prompt, rule, start, zone, catch_up, tools, always_deliver, paused, created_at";
const RUN_COLUMNS: &str = "id, task_id, occurrence, state, outcome, message_id, prompt_tokens, completion_tokens";

/// Tasks and their runs. A handle on the store: `store.task_table()`.
pub struct TaskTable<'a> {
    store: &'a Store,
}

pub trait TasksStore {
    fn task_table(&self) -> TaskTable<'_>;
}

impl TasksStore for Store {
    fn task_table(&self) -> TaskTable<'_> {
        TaskTable { store: self }
    }
}

impl TaskTable<'_> {
    pub async fn add(&self, new: NewTask<'_>) -> Result<Task, StoreError> {
        let (rule, start, zone) = match new.schedule {
            Schedule::Once { at } => (None, *at, new.zone.name().to_string()),
            Schedule::Repeat { rule, start, zone } => (Some(rule.as_str()), *start, zone.name().to_string()),
        };
        let tools = serde_json::to_string(new.tools).map_err(|e| decode(e.to_string()))?;
        let row: TaskRow = sqlx::query_as(sidecar_store::columns_sql!(
            "INSERT INTO tasks (kind, title, prompt, rule, start, zone, catch_up, tools, always_deliver, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             RETURNING {TASK_COLUMNS}"
        ))
        .bind(new.kind)
        .bind(new.title)
        .bind(new.prompt)
        .bind(rule)
        .bind(utc(start))
        .bind(zone)
        .bind(catch_up_text(new.catch_up))
        .bind(tools)
        .bind(new.always_deliver)
        .bind(self.store.now())
        .fetch_one(self.store.pool())
        .await?;
        task_of(row)
    }

    /// Tasks of `kind` still called one of `ours` are called `title` (their prompt too,
    /// where it was the name).
    pub async fn retitle(&self, kind: TaskKind, title: &str, ours: &[&str]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        for old in ours.iter().filter(|old| **old != title) {
            sqlx::query("UPDATE tasks SET prompt = ? WHERE kind = ? AND prompt = ?").bind(title).bind(kind).bind(old).execute(&mut *tx).await?;
            sqlx::query("UPDATE tasks SET title = ? WHERE kind = ? AND title = ?").bind(title).bind(kind).bind(old).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// One task, if it is there.
    pub async fn one(&self, id: i64) -> Result<Option<Task>, StoreError> {
        let row: Option<TaskRow> =
            sqlx::query_as(sidecar_store::columns_sql!("SELECT {TASK_COLUMNS} FROM tasks WHERE id = ?")).bind(id).fetch_optional(self.store.pool()).await?;
        row.map(task_of).transpose()
    }

    /// Every task, oldest first.
    pub async fn all(&self) -> Result<Vec<Task>, StoreError> {
        let rows: Vec<TaskRow> =
            sqlx::query_as(sidecar_store::columns_sql!("SELECT {TASK_COLUMNS} FROM tasks ORDER BY id")).fetch_all(self.store.pool()).await?;
        rows.into_iter().map(task_of).collect()
    }

    /// Pauses a task with the reason said to the user, or lets it run again (`None`);
    /// whether there was such a task.
    pub async fn set_paused(&self, id: i64, reason: Option<&str>) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE tasks SET paused = ? WHERE id = ?").bind(reason).bind(id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes a task and its runs; whether there was such a task.
    pub async fn remove(&self, id: i64) -> Result<bool, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("DELETE FROM task_runs WHERE task_id = ?").bind(id).execute(&mut *tx).await?;
        let done = sqlx::query("DELETE FROM tasks WHERE id = ?").bind(id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records what was decided for an occurrence (`attempting`, `skipped`, `asked`); the
    /// run's id, or `None` when the occurrence already has its run.
    pub async fn record(&self, task_id: i64, occurrence: DateTime<Utc>, state: RunState) -> Result<Option<i64>, StoreError> {
        let now = self.store.now();
        let ended = (state != RunState::Attempting).then_some(now.as_str());
        let row: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO task_runs (task_id, occurrence, state, started_at, ended_at, pid, pid_started) VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (task_id, occurrence) DO NOTHING RETURNING id",
        )
        .bind(task_id)
        .bind(utc(occurrence))
        .bind(state)
        .bind(&now)
        .bind(ended)
        .bind(sidecar_domain::process::this())
        .bind(sidecar_domain::process::this_started())
        .fetch_optional(self.store.pool())
        .await?;
        Ok(row.map(|r| r.0))
    }

    /// Ends an attempt as done or failed, with what it produced or what went wrong;
    /// whether it was still attempting (a run ends once).
    pub async fn end(&self, run_id: i64, state: RunState, outcome: &str) -> Result<bool, StoreError> {
        if RunState::Attempting.end(state).is_err() {
            return Ok(false);
        }
        let done = sqlx::query("UPDATE task_runs SET state = ?, ended_at = ?, outcome = ? WHERE id = ? AND state = 'attempting'")
            .bind(state)
            .bind(self.store.now())
            .bind(outcome)
            .bind(run_id)
            .execute(self.store.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The late occurrence a task asked about, now to run: its record goes back to
    /// attempting. Its id and occurrence, or `None` when none waits.
    pub async fn take_asked(&self, task_id: i64) -> Result<Option<(i64, DateTime<Utc>)>, StoreError> {
        Ok(sqlx::query_as(
            "UPDATE task_runs SET state = 'attempting', ended_at = NULL
             WHERE id = (SELECT id FROM task_runs WHERE task_id = ? AND state = 'asked' ORDER BY occurrence DESC LIMIT 1)
             RETURNING id, occurrence",
        )
        .bind(task_id)
        .fetch_optional(self.store.pool())
        .await?)
    }

    /// The user said not to run the late occurrence asked about: it is skipped.
    pub async fn decline_asked(&self, task_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE task_runs SET state = 'skipped' WHERE task_id = ? AND state = 'asked'").bind(task_id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Keeps where a run's reply is and the tokens it took.
    pub async fn keep_reply(&self, run_id: i64, message_id: Option<i64>, prompt_tokens: u64, completion_tokens: u64) -> Result<(), StoreError> {
        sqlx::query("UPDATE task_runs SET message_id = ?, prompt_tokens = ?, completion_tokens = ? WHERE id = ?")
            .bind(message_id)
            .bind(prompt_tokens as i64)
            .bind(completion_tokens as i64)
            .bind(run_id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The results of runs that ended done since `since`, oldest first: (task, result),
    /// briefs left out.
    pub async fn results_since(&self, since: DateTime<Utc>) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT t.title, r.outcome FROM task_runs r JOIN tasks t ON t.id = r.task_id
             WHERE r.state = 'done' AND t.kind = 'prompt' AND r.outcome IS NOT NULL AND r.ended_at >= ? ORDER BY r.ended_at",
        )
        .bind(utc(since))
        .fetch_all(self.store.pool())
        .await?)
    }

    /// Holds a result quiet kept from being notified (the Tasks conversation has it).
    pub async fn hold(&self, task_id: i64, message_id: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT OR IGNORE INTO task_held (message_id, task_id, held_at) VALUES (?, ?, ?)")
            .bind(message_id)
            .bind(task_id)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The results held, oldest first: (message, task title, the message's text); and
    /// they are held no longer.
    pub async fn take_held(&self) -> Result<Vec<(i64, String, String)>, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let held = sqlx::query_as(
            "SELECT h.message_id, t.title, COALESCE(m.content, '') FROM task_held h JOIN tasks t ON t.id = h.task_id
             LEFT JOIN messages m ON m.id = h.message_id ORDER BY h.held_at, h.message_id",
        )
        .fetch_all(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM task_held").execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(held)
    }

    /// A task's notification went out at `at` (those older than two days are let go).
    pub async fn notified(&self, at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM task_notifications WHERE at < ?").bind(utc(at - chrono::Duration::days(2))).execute(self.store.pool()).await?;
        sqlx::query("INSERT INTO task_notifications (at) VALUES (?)").bind(utc(at)).execute(self.store.pool()).await?;
        Ok(())
    }

    /// Task notifications that went out since `since`.
    pub async fn notified_since(&self, since: DateTime<Utc>) -> Result<u32, StoreError> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM task_notifications WHERE at >= ?").bind(utc(since)).fetch_one(self.store.pool()).await?;
        Ok(count as u32)
    }

    /// Whether any result is held.
    pub async fn any_held(&self) -> Result<bool, StoreError> {
        Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM task_held").fetch_one(self.store.pool()).await? > 0)
    }

    /// The user's thumb on a brief (a second press changes it).
    pub async fn rate_brief(&self, message_id: i64, liked: bool, opening: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO brief_feedback (message_id, liked, opening, at) VALUES (?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET liked = excluded.liked, at = excluded.at")
            .bind(message_id)
            .bind(liked)
            .bind(opening)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The briefs the user rated, newest first: (liked, their first words).
    pub async fn brief_opinions(&self, limit: u32) -> Result<Vec<(bool, String)>, StoreError> {
        Ok(sqlx::query_as("SELECT liked, opening FROM brief_feedback ORDER BY at DESC, message_id DESC LIMIT ?")
            .bind(limit)
            .fetch_all(self.store.pool())
            .await?)
    }

    /// The tokens scheduled runs took since `since` (RFC 3339), or overall: prompt, completion, runs.
    pub async fn tokens_since(&self, since: Option<&str>) -> Result<(u64, u64, u64), StoreError> {
        let (prompt, completion, runs): (i64, i64, i64) = sqlx::query_as(
            "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0), COUNT(prompt_tokens) FROM task_runs
             WHERE ?1 IS NULL OR started_at >= ?1",
        )
        .bind(since)
        .fetch_one(self.store.pool())
        .await?;
        Ok((prompt as u64, completion as u64, runs as u64))
    }

    /// A task's last `limit` runs, newest first.
    pub async fn runs(&self, task_id: i64, limit: u32) -> Result<Vec<Run>, StoreError> {
        Ok(sqlx::query_as(sidecar_store::columns_sql!("SELECT {RUN_COLUMNS} FROM task_runs WHERE task_id = ? ORDER BY occurrence DESC LIMIT ?"))
            .bind(task_id)
            .bind(limit)
            .fetch_all(self.store.pool())
            .await?)
    }

    /// The latest occurrence a task handled (its creation time when none).
    pub async fn handled(&self, task: &Task) -> Result<DateTime<Utc>, StoreError> {
        let latest: Option<(DateTime<Utc>,)> = sqlx::query_as("SELECT occurrence FROM task_runs WHERE task_id = ? ORDER BY occurrence DESC LIMIT 1")
            .bind(task.id)
            .fetch_optional(self.store.pool())
            .await?;
        Ok(latest.map_or(task.created_at, |(at,)| at))
    }

    /// Runs a crash left attempting, to run again under their own record: only those
    /// whose process is gone (`sidecar tasks run` may still be at one when the daemon
    /// starts).
    pub async fn interrupted(&self) -> Result<Vec<Run>, StoreError> {
        let owners: Vec<(i64, Option<i64>, Option<i64>)> =
            sqlx::query_as("SELECT id, pid, pid_started FROM task_runs WHERE state = 'attempting' ORDER BY id").fetch_all(self.store.pool()).await?;
        let gone = owners
            .into_iter()
            .filter(|(_, pid, started)| pid.is_none_or(|pid| !sidecar_domain::process::runs(pid, *started)))
            .map(|(id, ..)| id)
            .collect::<Vec<_>>();
        let mut runs = Vec::new();
        for id in gone {
            let run: Option<Run> = sqlx::query_as(sidecar_store::columns_sql!("SELECT {RUN_COLUMNS} FROM task_runs WHERE id = ?"))
                .bind(id)
                .fetch_optional(self.store.pool())
                .await?;
            runs.extend(run);
        }
        Ok(runs)
    }
}
