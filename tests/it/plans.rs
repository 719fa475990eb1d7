//! Plans carried out: ten multi-step tasks against a scripted model that plans with
//! `update_plan` and works step by step (some lazily), and two on which it gets stuck.
//! Every step runs exactly once, the turn goes on when the model stops to talk with
//! steps open, the reply ends with what each step produced, and a stuck model ends
//! with what is done and what is left.

use std::sync::Arc;

use sidecar::Companion;
use sidecar_store::PlanOutcome;

use crate::support::plan_tasks::{self, Behaviour, Task};
use crate::support::{late_block, ScriptedServer};

/// The tools a request offered, by name.
fn offered(request: &serde_json::Value) -> Vec<String> {
    request["tools"].as_array().map(|t| t.iter().map(|t| t["function"]["name"].as_str().unwrap().to_string()).collect()).unwrap_or_default()
}

async fn open(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    // A morning that runs on: "today at 16" is still ahead whatever hour the tests run.
    let started = std::time::Instant::now();
    let morning = chrono::DateTime::parse_from_rfc3339("2026-11-24T08:00:00Z").unwrap().with_timezone(&chrono::Utc);
    let clock =
        sidecar_domain::Clock::new(std::sync::Arc::new(move || morning + chrono::Duration::from_std(started.elapsed()).unwrap()), chrono_tz::Europe::Madrid);
    crate::support::core().provider("p", base_url).settings("[user]\ntimezone = \"Europe/Madrid\"\n").clock(clock).open_in(dir).await
}

#[tokio::test]
async fn ten_multi_step_tasks_run_every_step_once_and_sum_up() {
    let tasks: Vec<Task> = plan_tasks::tasks().into_iter().chain(plan_tasks::stuck_tasks()).collect();
    let tasks = Arc::new(tasks);
    let scripted = tasks.clone();
    let server = ScriptedServer::responding(move |request| plan_tasks::respond(&scripted, request)).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    assert!(tasks.len() >= 12);
    for task in tasks.iter() {
        let before = server.request_count();
        let outcome = core.send(task.request).await.unwrap();
        let requests = server.requests.lock().unwrap().clone();
        let first = requests[before..]
            .iter()
            .find(|r| r["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").is_some_and(|m| crate::support::said(m) == task.request))
            .expect("the task reached the model");
        assert!(
            late_block(first).contains(sidecar_agent::PLAN_HINT) || task.behaviour == Behaviour::Talks,
            "{}: the first call is asked to plan",
            task.request
        );
        let calls = plan_tasks::calls_for(&requests, task);
        match task.behaviour {
            Behaviour::Diligent | Behaviour::LazyAfter(_) => {
                assert!(plan_tasks::each_step_once(task, &calls), "{}: {calls:?}", task.request);
                for step in &task.steps {
                    assert!(outcome.reply.contains(&format!("✓ {}: {}", step.text, step.result)), "{}: {}", task.request, outcome.reply);
                }
                assert_eq!(outcome.meta.plan, Some(PlanOutcome::Finished), "{}", task.request);
                assert_eq!(outcome.meta.plan_nudges, u32::from(matches!(task.behaviour, Behaviour::LazyAfter(_))), "{}", task.request);
                assert_eq!(outcome.status.as_str(), "complete");
            }
            Behaviour::Stuck | Behaviour::Talks => {
                assert_eq!(outcome.meta.plan, Some(PlanOutcome::Abandoned), "{}", task.request);
                assert_eq!(outcome.status.as_str(), "incomplete");
                for step in &task.steps[1..] {
                    assert!(outcome.reply.contains(step.text), "{}: what is left is named: {}", task.request, outcome.reply);
                }
                let left = if task.request.starts_with("Buscá") { "**Falta**" } else { "**Left to do**" };
                assert!(outcome.reply.contains(left) || outcome.reply.contains("**Left to do**"), "{}", outcome.reply);
                // Stuck: the repeated call was not run a second time.
                let runs = calls.iter().filter(|(name, _)| name == task.steps[0].tool).count();
                assert!(runs <= 2, "{}: {runs}", task.request);
            }
        }
    }
    // The side effects happened once each: one reminder per reminder step.
    let reminders = core.reminders().pending().await.unwrap();
    for task in tasks.iter().filter(|t| matches!(t.behaviour, Behaviour::Diligent | Behaviour::LazyAfter(_))) {
        for step in task.steps.iter().filter(|s| s.tool == "set_reminder") {
            let message = step.arguments["message"].as_str().unwrap();
            assert_eq!(reminders.iter().filter(|r| r.message == message).count(), 1, "{message}");
        }
    }
    // Usage counts the turns' measures.
    let measures = core.usage_report().await.unwrap().all_time.turns;
    assert_eq!((measures.plans_finished, measures.plans_abandoned), (10, 2), "{measures:?}");
    assert_eq!(measures.turns, tasks.len() as i64);
    assert!(measures.reinforced >= 1, "a long conversation had the rules said again: {measures:?}");
    assert_eq!(measures.claimed_without_acting, 0);
}

/// The plans (agent-mode 2.4): a plan of twelve steps finishes in one reply without the
/// user saying "go on" (eight calls in all used to end it around step six: the
/// allowance now counts per step), and a step that names an earlier one waits for it
/// (started too soon, `update_plan` refuses and says which step is missing).
#[tokio::test]
async fn a_twelve_step_plan_with_a_dependency_finishes_without_being_told_to_go_on() {
    use crate::support::{reply_events, stream, tool_call_events};
    use serde_json::json;
    const ZONES: [&str; 12] = [
        "Europe/Madrid",
        "Europe/Lisbon",
        "Europe/Paris",
        "Europe/Rome",
        "Europe/Berlin",
        "Europe/Vienna",
        "Europe/Prague",
        "Europe/Warsaw",
        "Europe/Athens",
        "Europe/Helsinki",
        "Europe/Dublin",
        "Europe/Oslo",
    ];
    let plan = |done: usize, in_progress: Option<usize>| {
        let items: Vec<serde_json::Value> = (1..=12)
            .map(|n| {
                let status = if n <= done {
                    "done"
                } else if Some(n) == in_progress {
                    "in_progress"
                } else {
                    "pending"
                };
                let mut item = json!({"text": format!("Time in {}", ZONES[n - 1]), "status": status});
                if n <= done {
                    item["result"] = json!("noted");
                }
                if n == 7 {
                    item["after"] = json!([6]);
                }
                item
            })
            .collect();
        json!({ "items": items }).to_string()
    };
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = calls.clone();
    let server = ScriptedServer::responding(move |_| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        match n {
            0 => stream(tool_call_events(&[("p0", "update_plan", &plan(0, Some(1)))])),
            // Step 7 started before step 6 is done: refused.
            1 => stream(tool_call_events(&[("early", "update_plan", &plan(0, Some(7)))])),
            2..=13 => {
                let step = n - 1;
                let zone = json!({"timezone": ZONES[step - 1]}).to_string();
                let (time, progress) = (format!("t{step}"), format!("p{step}"));
                stream(tool_call_events(&[(&time, "get_current_time", &zone), (&progress, "update_plan", &plan(step, None))]))
            }
            _ => stream(reply_events(&["All twelve times noted."])),
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let outcome = core.send("Look up the time in these twelve cities one by one and note each").await.unwrap();
    assert_eq!(outcome.meta.plan, Some(PlanOutcome::Finished), "{}", outcome.reply);
    assert_eq!(outcome.meta.plan_nudges, 0, "never told to go on");
    assert_eq!(outcome.status.as_str(), "complete", "{}", outcome.reply);
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 15, "twelve steps, the plan, the refused start and the words");
    let requests = server.requests.lock().unwrap().clone();
    let refused = requests[2]["messages"].as_array().unwrap().iter().find(|m| m["tool_call_id"] == "early").unwrap()["content"].as_str().unwrap().to_string();
    assert!(refused.contains("waits for step 6") && refused.contains("not done yet"), "{refused}");
    for zone in ZONES {
        assert!(outcome.reply.contains(&format!("✓ Time in {zone}: noted")), "{zone}: {}", outcome.reply);
    }
}

/// The scratchpad (context engineering 16): offered while a plan is open, the notes the
/// model writes come back whole in the tool's result (never cleared within the turn), ride
/// beside the plan in the per-turn block from the next turn on, show in the plan panel (an
/// event, and the current notes after a restart), and go with the plan: kept while its
/// steps are open, gone at the end of the turn that finishes it.
#[tokio::test]
async fn the_scratchpad_rides_with_the_plan_and_goes_with_it() {
    use crate::support::{reply_events, stream, tool_call_events};
    let planned = r#"{"steps": [{"text": "Compare hotels"}, {"text": "Book the cheaper one", "after": [1]}]}"#;
    let plan = |first: &str, second: &str| {
        serde_json::json!({"items": [{"text": "Compare hotels", "status": first}, {"text": "Book the cheaper one", "status": second, "after": [1]}]})
            .to_string()
    };
    let server = ScriptedServer::start_planning(vec![
        stream(reply_events(&[planned])),
        stream(tool_call_events(&[("n1", "write_scratchpad", r#"{"text": "Hotel Alfama: 120 € a night"}"#)])),
        stream(tool_call_events(&[("n2", "write_scratchpad", r#"{"text": "Hotel Baixa: 95 € a night", "append": true}"#)])),
        stream(tool_call_events(&[("p2", "update_plan", &plan("done", "pending"))])),
        // It stops to ask, and asked to go on, asks again: the turn ends with a step open.
        stream(reply_events(&["Baixa is cheaper; shall I book it?"])),
        stream(reply_events(&["Shall I book Baixa?"])),
        // The next turns: one that reads the notes, one that finishes the plan, one after.
        stream(reply_events(&["Baixa, at 95 € a night."])),
        stream(tool_call_events(&[("p3", "update_plan", &plan("done", "done"))])),
        stream(reply_events(&["Booked."])),
        stream(reply_events(&["Anything else?"])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    core.send("Compare the two hotels and then book the cheaper one").await.unwrap();
    let requests = server.requests.lock().unwrap().clone();
    assert!(offered(&requests[1]).contains(&"write_scratchpad".to_string()), "offered beside the plan");
    // Within the turn the model reads its notes in the tool's result, whole.
    let results: Vec<String> =
        requests[3]["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").map(|m| m["content"].as_str().unwrap().to_string()).collect();
    assert!(results.last().unwrap().ends_with("Hotel Alfama: 120 € a night\nHotel Baixa: 95 € a night"), "{results:?}");
    let mut shown = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let sidecar::CoreEvent::Chat(sidecar_agent::ChatEvent::ScratchpadUpdated { text, .. }) = event {
            shown.push(text);
        }
    }
    assert_eq!(shown, ["Hotel Alfama: 120 € a night", "Hotel Alfama: 120 € a night\nHotel Baixa: 95 € a night"], "the panel shows them");

    // A step is open: the notes stay with the conversation, after a restart too, and the
    // next turn reads them beside the plan.
    core.shutdown().await;
    drop(core);
    let core = open(dir.path(), &server.base_url).await;
    assert_eq!(core.context().scratchpad().await.unwrap(), "Hotel Alfama: 120 € a night\nHotel Baixa: 95 € a night");
    core.send("Which was cheaper?").await.unwrap();
    let next = late_block(&server.requests.lock().unwrap()[6]);
    assert!(next.contains("<scratchpad>") && next.contains("Hotel Alfama: 120 € a night\nHotel Baixa: 95 € a night"), "{next}");
    assert!(next.contains("<plan>"), "beside the plan: {next}");
    assert_eq!(core.context().scratchpad().await.unwrap(), "Hotel Alfama: 120 € a night\nHotel Baixa: 95 € a night", "an open plan keeps them");
    core.send("Yes, book it").await.unwrap();
    assert_eq!(core.context().scratchpad().await.unwrap(), "", "the plan is done: its notes went with it");
    core.send("Thanks").await.unwrap();
    let after = server.requests.lock().unwrap()[9].clone();
    assert!(!late_block(&after).contains("<scratchpad>"));
    assert!(!offered(&after).contains(&"write_scratchpad".to_string()), "no plan open: no scratchpad offered");
}

/// A request of several steps is planned in a request of its own before the first step
/// (agent mode 10): no tools offered, the steps capped at a batch of tool calls each; the
/// plan is saved and shown before any step runs, and the turn carries it as its own. A
/// planner answer with no plan, or one over the cap of steps, leaves the request one plain
/// task, as before (the model may still plan as it goes).
#[tokio::test]
async fn a_request_of_several_steps_is_planned_first_and_a_failed_plan_runs_as_one_task() {
    use crate::support::{reply_events, stream, tool_call_events};
    let planned = r#"{"steps": [{"text": "Find the train times to Porto"}, {"text": "Remind me of the 9:10 train", "after": [1]}]}"#;
    let done = serde_json::json!({"items": [
        {"text": "Find the train times to Porto", "status": "done", "result": "9:10 and 11:40"},
        {"text": "Remind me of the 9:10 train", "status": "done"}
    ]})
    .to_string();
    let too_many = serde_json::json!({"steps": (0..21).map(|n| serde_json::json!({"text": format!("step {n}")})).collect::<Vec<_>>()}).to_string();
    let server = ScriptedServer::start_planning(vec![
        stream(reply_events(&[planned])),
        stream(tool_call_events(&[("p1", "update_plan", &done)])),
        stream(reply_events(&["Trains at 9:10 and 11:40."])),
        // The planner answers in words: the request is one plain task.
        stream(reply_events(&["I'll just do it."])),
        stream(reply_events(&["Done, plainly."])),
        // The planner's plan is over the cap of steps: one plain task again.
        stream(reply_events(&[&too_many])),
        stream(reply_events(&["Done, plainly again."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let outcome = core.send("Find the train times to Porto and then set a reminder for the 9:10 train").await.unwrap();
    let requests = server.requests.lock().unwrap().clone();
    let planning = &requests[0];
    assert!(planning["tools"].as_array().is_none_or(|t| t.is_empty()), "the planning request offers no tools");
    let asked = planning["messages"][0]["content"].as_str().unwrap();
    assert!(asked.contains("at most 8 tool calls") && asked.contains("at most 20 steps"), "{asked}");
    // The plan is shown before the first step, and the first call works from it.
    let first = late_block(&requests[1]);
    assert!(first.contains("[>] Find the train times to Porto\n[ ] Remind me of the 9:10 train (after 1)"), "{first}");
    assert!(!first.contains(sidecar_agent::PLAN_HINT), "planned already: not asked to plan");
    let mut order = Vec::new();
    while let Ok(event) = events.try_recv() {
        match event {
            sidecar::CoreEvent::Chat(sidecar_agent::ChatEvent::PlanUpdated { items, .. }) => order.push(format!("plan {}", items.len())),
            sidecar::CoreEvent::Chat(sidecar_agent::ChatEvent::ToolStarted { name, .. }) => order.push(name),
            _ => {}
        }
    }
    assert_eq!(order.first().map(String::as_str), Some("plan 2"), "shown before any step: {order:?}");
    assert_eq!(outcome.meta.plan, Some(PlanOutcome::Finished), "the turn carried the plan as its own");
    assert!(outcome.reply.contains("✓ Find the train times to Porto: 9:10 and 11:40"), "{}", outcome.reply);

    for (request, reply) in [
        ("Check the weather in Lisbon and then remind me to pack an umbrella", "Done, plainly."),
        ("Search the ferry times and then book a table", "Done, plainly again."),
    ] {
        let before = server.request_count();
        let outcome = core.send(request).await.unwrap();
        assert_eq!(outcome.reply, reply);
        let requests = server.requests.lock().unwrap().clone();
        assert_eq!(requests.len(), before + 2, "one planning request, one plain turn");
        let plain = late_block(&requests[before + 1]);
        assert!(plain.contains(sidecar_agent::PLAN_HINT) && !plain.contains("[>]"), "one plain task, free to plan as it goes: {plain}");
        assert!(!sidecar_agent::plan_is_open(&core.context().plan().await.unwrap()), "no plan was made");
    }
}
