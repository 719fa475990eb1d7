//! Plans carried out, on a scripted model: ten multi-step tasks (some with a model that
//! stops to talk half-way) and two on which it gets stuck. Prints, per task, the model
//! calls, the nudges to go on, whether every step ran exactly once and whether the
//! reply names each step's result (or what is left). Asserts nothing.
//!
//! Run: `cargo bench --bench plans`

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::sync::Arc;

use sidecar::{Companion, CompanionOptions};
use sidecar_store::PlanOutcome;
use support::plan_tasks::{self, Behaviour, Task};
use support::ScriptedServer;

#[tokio::main]
async fn main() {
    let tasks: Arc<Vec<Task>> = Arc::new(plan_tasks::tasks().into_iter().chain(plan_tasks::stuck_tasks()).collect());
    let scripted = tasks.clone();
    let server = ScriptedServer::responding(move |request| plan_tasks::respond(&scripted, request)).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = toml::from_str(&format!(
        "[[providers]]\nid = \"bench\"\nbase_url = \"{}\"\nmodel = \"scripted\"\n[user]\ntimezone = \"Europe/Madrid\"\n",
        server.base_url
    ))
    .unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    println!("  task                                        steps  calls  nudges  each step once  results named  ended");
    let (mut finished, mut whole) = (0, 0);
    for task in tasks.iter() {
        let before = server.request_count();
        let outcome = core.send(task.request).await.unwrap();
        let calls = server.request_count() - before;
        let requests = server.requests.lock().unwrap().clone();
        let once = plan_tasks::each_step_once(task, &plan_tasks::calls_for(&requests, task));
        let named = match task.behaviour {
            Behaviour::Stuck | Behaviour::Talks => task.steps[1..].iter().all(|s| outcome.reply.contains(s.text)),
            _ => task.steps.iter().all(|s| outcome.reply.contains(&format!("{}: {}", s.text, s.result))),
        };
        let ended = match outcome.meta.plan {
            Some(PlanOutcome::Finished) => "finished",
            Some(PlanOutcome::Abandoned) => "what is left",
            None => "no plan",
        };
        finished += usize::from(outcome.meta.plan == Some(PlanOutcome::Finished));
        whole += usize::from(named);
        let title: String = task.request.replace('\n', " ").chars().take(42).collect();
        println!(
            "  {title:<42}  {:>5}  {calls:>5}  {:>6}  {:>14}  {:>13}  {ended}",
            task.steps.len(),
            outcome.meta.plan_nudges,
            if once || matches!(task.behaviour, Behaviour::Stuck | Behaviour::Talks) { "yes" } else { "no" },
            if named { "yes" } else { "no" }
        );
    }
    println!("  {finished} of {} tasks finished, {whole} replies name every result or what is left", tasks.len());
    core.shutdown().await;
}
