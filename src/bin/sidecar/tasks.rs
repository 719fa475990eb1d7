//! `sidecar tasks`: scheduled tasks from the terminal: add, list, run, pause, resume, rm.

use std::sync::Arc;

use clap::{Subcommand, ValueEnum};
use serde_json::json;
use sidecar::Companion;
use sidecar_tasks::CatchUp;
use sidecar_tasks::TaskRequest;
use sidecar_tasks::TaskView;

#[derive(Subcommand)]
pub(crate) enum TasksCommand {
    /// Makes a task: Sidecar does PROMPT at the time WHEN says, on its own, and delivers
    /// the result in the Tasks conversation and as a notification.
    Add {
        /// When, as you would say it: "every weekday at 8", "cada domingo a las 21",
        /// "in two hours", "tomorrow at 9:30", or ISO 8601.
        #[arg(long)]
        when: String,
        /// Its name in lists and notifications (default: the prompt's first words).
        #[arg(long)]
        title: Option<String>,
        /// A tool it may use without asking (repeat for more); others ask at run time.
        #[arg(long = "tool")]
        tools: Vec<String>,
        /// What a time missed while Sidecar was closed becomes.
        #[arg(long, value_enum, default_value = "skip")]
        if_missed: IfMissed,
        /// With --if-missed skip: skipped only when more than this many minutes late.
        #[arg(long, default_value_t = 120)]
        skip_after: u32,
        /// Delivered even in quiet hours and after /quiet.
        #[arg(long)]
        always_deliver: bool,
        #[arg(long)]
        json: bool,
        /// What to do (several words are joined with spaces).
        #[arg(required = true, num_args = 1..)]
        prompt: Vec<String>,
    },
    /// Lists the tasks with their next time and last runs.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Runs a task now (or the late time it asked about) and prints its result.
    Run {
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Stops a task running by itself until resumed.
    Pause { id: i64 },
    /// Lets a paused task run again from its next time.
    Resume { id: i64 },
    /// Deletes a task and its runs.
    Rm { id: i64 },
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum IfMissed {
    /// Run once when Sidecar is back, however late.
    Run,
    /// Ask whether to run it.
    Ask,
    /// Skip it when more than --skip-after minutes late.
    Skip,
}

pub(crate) async fn tasks(companion: &Arc<Companion>, command: TasksCommand) -> anyhow::Result<i32> {
    let (lang, now) = (companion.lang(), companion.clock().now());
    let tasks = companion.tasks();
    match command {
        TasksCommand::Add { when, title, tools, if_missed, skip_after, always_deliver, json, prompt } => {
            let catch_up = match if_missed {
                IfMissed::Run => CatchUp::RunNow,
                IfMissed::Ask => CatchUp::Ask,
                IfMissed::Skip => CatchUp::SkipOlderThan { minutes: skip_after },
            };
            let request = TaskRequest { title, prompt: prompt.join(" "), when, tools, catch_up, always_deliver };
            let task = match companion.add_task(&request).await {
                Ok(task) => task,
                Err(error) => return said(companion, &error, json),
            };
            let view = tasks.list(now, lang).await?.into_iter().find(|v| v.id == task.id).expect("just made");
            if json {
                println!("{}", serde_json::to_string(&view)?);
            } else {
                println!("task {} made: {}", view.id, line(companion, &view));
            }
            Ok(0)
        }
        TasksCommand::List { json } => {
            let views = tasks.list(now, lang).await?;
            if json {
                println!("{}", serde_json::to_string(&views)?);
            } else if views.is_empty() {
                println!("no tasks yet: `sidecar tasks add --when \"every weekday at 8\" check the weather in Madrid`");
            } else {
                for view in &views {
                    println!("{:>4}  {}", view.id, line(companion, view));
                }
            }
            Ok(0)
        }
        TasksCommand::Run { id, json } => {
            let ran = match companion.task_runner().run_now(id).await {
                Ok(ran) => ran,
                Err(error) => return said(companion, &error, json),
            };
            let run = tasks.list(now, lang).await?.into_iter().find(|v| v.id == id).and_then(|v| v.runs.into_iter().next());
            let ok = run.as_ref().is_some_and(|r| r.state == sidecar_tasks::RunState::Done);
            let text = match ran {
                Some(id) => companion.store().conversations().message(id).await?.map(|m| m.content).unwrap_or_default(),
                None => String::new(),
            };
            if json {
                println!("{}", json!({"ok": ok, "message_id": ran, "reply": text}));
            } else {
                println!("{text}");
            }
            Ok(if ok { 0 } else { 1 })
        }
        TasksCommand::Pause { id } => done(companion, tasks.pause(id, lang).await.map_err(Into::into), "paused"),
        TasksCommand::Resume { id } => done(companion, tasks.resume(id, now).await.map_err(Into::into), "resumed"),
        TasksCommand::Rm { id } => done(companion, tasks.remove(id).await.map_err(Into::into), "removed"),
    }
}

/// One task on a line: its name, when, the next time, its tools, and why it is paused.
fn line(companion: &Companion, view: &TaskView) -> String {
    let next = match (&view.paused, view.next) {
        (Some(why), _) => format!("paused: {why}"),
        (None, Some(at)) => format!("next {}", at.with_timezone(&companion.zone()).format("%a %Y-%m-%d %H:%M")),
        (None, None) => "done".to_string(),
    };
    let tools = if view.tools.is_empty() { String::new() } else { format!(" · tools: {}", view.tools.join(", ")) };
    let last = view.runs.first().map(|r| format!(" · last: {:?}", r.state).to_lowercase()).unwrap_or_default();
    // A title and its words are the user's or a model's: printed, they must not drive the terminal.
    let one_line = sidecar_domain::one_line;
    format!("{} · {} · {}{tools}{last}", one_line(&view.title), one_line(&view.when), one_line(&next))
}

fn done(companion: &Companion, result: Result<(), sidecar::CompanionError>, what: &str) -> anyhow::Result<i32> {
    match result {
        Ok(()) => {
            println!("{what}");
            Ok(0)
        }
        Err(error) => said(companion, &error, false),
    }
}

fn said<E: sidecar_domain::Worded + 'static>(companion: &Companion, error: &E, json: bool) -> anyhow::Result<i32> {
    let message = sidecar_domain::said_whole(error, companion.lang());
    if json {
        println!("{}", json!({"ok": false, "error": message}));
    } else {
        eprintln!("sidecar: {message}");
    }
    Ok(1)
}
