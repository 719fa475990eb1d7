//! Scheduled-task figures (issue 46). Prints; asserts nothing.
//!
//! - wake-up delay: from each task's time to its run starting, over once-tasks due a
//!   quarter of a second apart, run by the real loop on the real store against a
//!   scripted model that answers at once;
//! - prompt tokens of a task's run and of a morning brief (the whole request: the system
//!   prompt, the task or the day's data, the time, the tools' definitions), counted with
//!   the o200k tokenizer, and the brief's with a day's mail (and Sidecar's own list);
//! - the cost of a look: 1,000 tasks, and a task every minute handled a month ago.
//!
//! Run: `cargo bench --bench tasks`

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::time::Instant;

use chrono::{Duration, Utc};
use sidecar::{Companion, CompanionOptions, CoreEvent};
use sidecar_tasks::CatchUp;
use sidecar_tasks::NewTask;
use sidecar_tasks::Schedule;
use sidecar_tasks::TaskEvent;
use sidecar_tasks::Tasks;
use sidecar_tasks::TasksStore;
use support::{reply_events, stream, ScriptedServer};
use tokio_util::sync::CancellationToken;

const RUNS: usize = 120;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Sunny, 14 °C; nothing before 10."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = toml::from_str(&format!(
        "[[providers]]\nid = \"bench\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n[user]\ntimezone = \"Europe/Madrid\"\n",
        server.base_url
    ))
    .unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();

    // Wake-up delay.
    let first = Utc::now() + Duration::seconds(2);
    let mut due = HashMap::new();
    let tools = vec!["get_weather".to_string(), "web_search".to_string()];
    for i in 0..RUNS {
        let at = first + Duration::milliseconds(250 * i as i64);
        let schedule = Schedule::Once { at };
        let new = NewTask {
            kind: sidecar_tasks::TaskKind::Prompt,
            title: "Weather",
            prompt: "Check the weather in Madrid and my reminders for today, and tell me what to expect in three lines.",
            schedule: &schedule,
            catch_up: CatchUp::RunNow,
            tools: &tools,
            always_deliver: true,
            zone: chrono_tz::Europe::Madrid,
        };
        let task = core.store().task_table().add(new).await.unwrap();
        due.insert(task.id, at);
    }
    let mut events = core.events().subscribe();
    let cancel = CancellationToken::new();
    let looping = tokio::spawn(core.task_runner().clone().run(cancel.clone()));
    let mut delays = Vec::new();
    while delays.len() < RUNS {
        if let Ok(CoreEvent::Tasks(TaskEvent::TaskRunStarted { task_id, .. })) = events.recv().await {
            delays.push((Utc::now() - due[&task_id]).num_microseconds().unwrap() as f64 / 1000.0);
        }
    }
    cancel.cancel();
    let _ = looping.await;
    delays.sort_by(f64::total_cmp);
    println!("Scheduled tasks: wake-up delay over {RUNS} runs due 250 ms apart (real loop, real store, scripted model)");
    println!("  p50 {:.1} ms · p99 {:.1} ms · max {:.1} ms", percentile(&delays, 0.5), percentile(&delays, 0.99), delays[RUNS - 1]);

    // Prompt tokens of one run: what the model is sent.
    let request = server.requests.lock().unwrap().last().cloned().unwrap();
    let messages = sidecar_llm::tokens::count(&request["messages"].to_string());
    let tools_tokens = sidecar_llm::tokens::count(&request["tools"].to_string());
    println!(
        "  prompt of a run with 2 tools: {} tokens ({} messages, {} tool definitions; counted over the JSON sent)",
        messages + tools_tokens,
        messages,
        tools_tokens
    );

    // A morning brief's prompt, with a day's worth in it: five reminders today and the
    // results of the runs above (the last day's, capped).
    for hour in 0..5 {
        core.reminders().set(&format!("Call the plumber about the boiler, take {hour}"), &format!("in {} hours", hour + 1)).await.ok();
    }
    let brief = core.set_brief(Some("07:30")).await.unwrap().unwrap();
    core.task_runner().run_now(brief.id).await.unwrap();
    let request = server.requests.lock().unwrap().last().cloned().unwrap();
    let brief_tokens = sidecar_llm::tokens::count(&request["messages"].to_string()) + sidecar_llm::tokens::count(&request["tools"].to_string());
    println!("  prompt of a morning brief (5 reminders, 8 task results, the weather tool): {brief_tokens} tokens (goal ≤ 2,000)");
    let list = |core: &Companion| {
        let store = core.store().clone();
        async move {
            let (text,): (String,) =
                sqlx::query_as("SELECT content FROM messages WHERE content LIKE 'Today,%' ORDER BY id DESC LIMIT 1").fetch_one(store.pool()).await.unwrap();
            sidecar_llm::tokens::count(&text)
        }
    };
    // Run again with nothing new (the task results went out in the first), then again with
    // a day's mail: what the mail adds to each, alone.
    core.task_runner().run_now(brief.id).await.unwrap();
    let request = server.requests.lock().unwrap().last().cloned().unwrap();
    let without_mail = sidecar_llm::tokens::count(&request["messages"].to_string()) + sidecar_llm::tokens::count(&request["tools"].to_string());
    let list_before = list(&core).await;

    // A day's mail: 12 from people who matter (a third ask by a date, with long bodies)
    // and 30 from others.
    let (folder,): (i64,) =
        sqlx::query_as("INSERT INTO mail_folders (name, read) VALUES ('INBOX', 1) RETURNING id").fetch_one(core.store().pool()).await.unwrap();
    for i in 0..42 {
        let from = if i < 12 { format!("friend{i}@example.org") } else { format!("news{i}@shop.example") };
        let body =
            if i % 3 == 0 { "¿Te va bien el jueves a las 6 para ver el piso? ".repeat(40) } else { "Some news about the project and the budget. ".repeat(40) };
        sqlx::query("INSERT INTO mails (folder_id, uid, from_address, from_name, subject, sent_at, body) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .bind(folder)
            .bind(i + 1)
            .bind(&from)
            .bind(format!("Person {i}"))
            .bind(format!("About the flat, part {i}"))
            .bind((Utc::now() - Duration::hours(2)).to_rfc3339())
            .bind(body)
            .execute(core.store().pool())
            .await
            .unwrap();
    }
    core.mail().set_who_matters(&["example.org".to_string()]).await.unwrap();
    core.task_runner().run_now(brief.id).await.unwrap();
    let request = server.requests.lock().unwrap().last().cloned().unwrap();
    let with_mail = sidecar_llm::tokens::count(&request["messages"].to_string()) + sidecar_llm::tokens::count(&request["tools"].to_string());
    println!(
        "  the next brief's prompt: {without_mail} tokens without mail, {with_mail} with a day's mail (12 from people who matter, 30 others): none of it reaches the model"
    );
    println!(
        "  Sidecar's own list of that day: {list_before} tokens, {} with the mail (8 mails named with what they ask, the rest counted)",
        list(&core).await
    );
    core.shutdown().await;

    // The cost of a look.
    let dir = tempfile::tempdir().unwrap();
    let store = sidecar_store::Store::open(dir.path()).await.unwrap();
    let now = Utc::now();
    for i in 0..1_000 {
        let schedule = Schedule::Repeat { rule: "FREQ=DAILY".into(), start: now + Duration::minutes(i), zone: chrono_tz::Europe::Madrid };
        store
            .task_table()
            .add(NewTask {
                kind: sidecar_tasks::TaskKind::Prompt,
                title: "t",
                prompt: "p",
                schedule: &schedule,
                catch_up: CatchUp::Ask,
                tools: &[],
                always_deliver: false,
                zone: chrono_tz::Europe::Madrid,
            })
            .await
            .unwrap();
    }
    let tasks = Tasks::new(store.clone(), sidecar_domain::Emitter::new(|_| {}));
    let started = Instant::now();
    let look = tasks.look(now).await.unwrap();
    println!(
        "  a look at 1,000 daily tasks (none due): {:.1} ms, next in {} s",
        started.elapsed().as_secs_f64() * 1000.0,
        (look.next.unwrap() - now).num_seconds()
    );
    let minutely = Schedule::Repeat { rule: "FREQ=MINUTELY".into(), start: now - Duration::days(30), zone: chrono_tz::Europe::Madrid };
    let started = Instant::now();
    let planned = sidecar_tasks::plan(&minutely, CatchUp::RunNow, now - Duration::days(30), now);
    println!(
        "  a task every minute, back after 30 days away: planned in {:.1} ms ({} missed times folded into one run)",
        started.elapsed().as_secs_f64() * 1000.0,
        planned.due.map_or(0, |d| d.folded)
    );
}
