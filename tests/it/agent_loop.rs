//! The agent loop end to end against scripted OpenAI-compatible servers: tool rounds,
//! parallel calls, bad calls, provider faults, retries, fallback, continuation, the
//! iteration cap, Stop, and claim-versus-action correction.

use std::sync::Arc;
use std::time::Duration;

use crate::support::tools::{FailingTool, HangingTool, RendezvousTool};
use crate::support::{delta, finish, reply_events, stream, tool_call_events, usage, Reply, ScriptedServer};
use chrono::TimeZone;
use serde_json::Value;
use sidecar::events::Notice;
use sidecar::{Companion, CompanionError, CoreEvent};
use sidecar_agent::ChatEvent;
use sidecar_llm::Role;
use sidecar_store::MessageStatus;
use tokio::sync::broadcast::Receiver;

/// Providers as (id, base_url, model); the chat chain follows this order.
fn settings(providers: &[(&str, &str, &str)], extra: &str) -> String {
    let mut text = String::new();
    for (id, url, model) in providers {
        text.push_str(&format!("[[providers]]\nid = \"{id}\"\nbase_url = \"{url}\"\nmodel = \"{model}\"\n"));
    }
    text.push_str(&format!("[user]\ntimezone = \"Europe/Madrid\"\n[llm]\nretry_base_ms = 10\nresponse_timeout_secs = 5\nidle_timeout_secs = 5\n{extra}\n"));
    text
}

async fn open(dir: &std::path::Path, settings: String) -> Arc<Companion> {
    crate::support::core().settings(&settings).at(chrono::Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()).open_in(dir).await
}

async fn single(server: &ScriptedServer, dir: &std::path::Path) -> Arc<Companion> {
    open(dir, settings(&[("primary", &server.base_url, "gpt-4o-mini")], "")).await
}

fn drain(bus: &mut Receiver<CoreEvent>) -> Vec<CoreEvent> {
    std::iter::from_fn(|| bus.try_recv().ok()).collect()
}

fn notices(events: &[CoreEvent]) -> Vec<Notice> {
    events
        .iter()
        .filter_map(|e| match e {
            CoreEvent::Chat(ChatEvent::Notice { notice, .. }) => Some(notice.clone()),
            _ => None,
        })
        .collect()
}

/// The messages of request `n` (0-based) as (role, content, tool_call_id).
fn request_messages(server: &ScriptedServer, n: usize) -> Vec<Value> {
    server.requests.lock().unwrap()[n]["messages"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_two_step_tool_loop_runs_the_tool_and_answers_with_its_result() {
    let server =
        ScriptedServer::start(vec![stream(tool_call_events(&[("call_1", "get_current_time", "{}")])), stream(reply_events(&["It is 13:00 in Madrid."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut bus = core.events().subscribe();

    let outcome = core.send("what time is it?").await.unwrap();
    assert_eq!(outcome.reply, "It is 13:00 in Madrid.");
    assert_eq!(server.request_count(), 2);

    // The first request offered the tools with their schemas.
    let first = server.requests.lock().unwrap()[0].clone();
    let offered: Vec<&str> = first["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert!(offered.contains(&"get_current_time") && offered.contains(&"read_url"), "{offered:?}");
    // The second carries the call and its result, paired by id.
    let second = request_messages(&server, 1);
    let n = second.len();
    assert_eq!(second[n - 2]["role"], "assistant");
    assert_eq!(second[n - 2]["tool_calls"][0]["function"]["name"], "get_current_time");
    assert_eq!(second[n - 1]["role"], "tool");
    assert_eq!(second[n - 1]["tool_call_id"], "call_1");
    let result: Value = serde_json::from_str(second[n - 1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(result["timezone"], "Europe/Madrid");
    assert_eq!(result["local"], "2026-11-21T13:00:00+01:00");

    let events = drain(&mut bus);
    assert!(events.iter().any(|e| matches!(e, CoreEvent::Chat(ChatEvent::ToolStarted { name, .. }) if name == "get_current_time")));
    assert!(events.iter().any(|e| matches!(e, CoreEvent::Chat(ChatEvent::ToolFinished { is_error: false, .. }))));
    // Stored in order: question, call, result, answer.
    let roles: Vec<Role> = core.conversation().history(10).await.unwrap().iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
    // Both calls recorded with a cost from the price table.
    let totals = core.usage_totals(None).await.unwrap();
    assert_eq!(totals.calls, 2);
    assert!(totals.cost_usd > 0.0 && totals.unpriced_calls == 0, "{totals:?}");
    let expected = (30.0 * 0.15 + 10.0 * 0.60 + 20.0 * 0.15 + 1.0 * 0.60) / 1e6;
    assert!((outcome.meta.cost_usd.unwrap() - expected).abs() < 1e-12, "{:?}", outcome.meta);
}

#[tokio::test]
async fn two_calls_in_one_step_run_in_parallel() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("a", "rendezvous", r#"{"who":"a"}"#), ("b", "rendezvous", r#"{"who":"b"}"#)])),
        stream(reply_events(&["Both met."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut tools = sidecar_tools::ToolRegistry::new();
    tools.register(RendezvousTool::new(2));
    core.set_tools(tools);

    core.send("meet").await.unwrap();
    let second = request_messages(&server, 1);
    let results: Vec<&Value> = second.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(results.len(), 2);
    // Each call waited for the other: only possible if they ran at the same time.
    assert_eq!(results[0]["content"], r#"{"met":"a"}"#);
    assert_eq!(results[1]["content"], r#"{"met":"b"}"#);
}

#[tokio::test]
async fn bad_calls_go_back_to_the_model_as_tool_errors() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[
            ("bad_json", "get_current_time", "{\"timezone\": "),
            ("unknown", "launch_rockets", "{}"),
            ("schema", "get_weather", r#"{"city": "Paris"}"#),
            ("fails", "flaky_service", "{}"),
        ])),
        stream(reply_events(&["Sorry, none of that worked."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut tools = sidecar::companion::default_tools(&core.settings(), core.clock().clone());
    tools.register(FailingTool);
    core.set_tools(tools);

    let outcome = core.send("do everything").await.unwrap();
    assert_eq!(outcome.status, MessageStatus::Complete);
    let second = request_messages(&server, 1);
    let error_of = |id: &str| -> String {
        let m = second.iter().find(|m| m["tool_call_id"] == id).unwrap();
        let content: Value = serde_json::from_str(m["content"].as_str().unwrap()).unwrap();
        content["error"].as_str().unwrap().to_string()
    };
    assert!(error_of("bad_json").contains("not valid JSON"), "{}", error_of("bad_json"));
    let unknown = error_of("unknown");
    assert!(unknown.contains("no tool called \"launch_rockets\"") && unknown.contains("get_weather"), "{unknown}");
    let schema = error_of("schema");
    assert!(schema.contains("schema") && schema.contains("city"), "{schema}");
    assert_eq!(error_of("fails"), "the service is down for maintenance");
    let stored = core.conversation().history(10).await.unwrap();
    assert_eq!(stored.iter().filter(|m| m.role == Role::Tool && m.is_error).count(), 4);
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out_then_succeeds() {
    let server = ScriptedServer::start(vec![Reply::RateLimited { retry_after_secs: 1 }, stream(reply_events(&["Here I am."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut bus = core.events().subscribe();
    let outcome = core.send("hello?").await.unwrap();
    assert_eq!(outcome.reply, "Here I am.");
    assert_eq!(server.request_count(), 2);
    let notices = notices(&drain(&mut bus));
    assert!(matches!(&notices[..], [Notice::Retrying { attempt: 1, delay_ms, .. }] if *delay_ms >= 1000), "{notices:?}");
}

#[tokio::test]
async fn when_the_primary_is_down_the_fallback_answers_and_says_so() {
    let backup = ScriptedServer::start(vec![stream(reply_events(&["Backup here."]))]).await;
    let dead = format!("http://127.0.0.1:{}/v1", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port());
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("primary", &dead, "gpt-4o"), ("backup", &backup.base_url, "deepseek-chat")], "max_retries = 1")).await;
    let mut bus = core.events().subscribe();
    let outcome = core.send("anyone?").await.unwrap();
    assert_eq!(outcome.reply, "Backup here.");
    assert_eq!(outcome.meta.provider.as_deref(), Some("backup"));
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("primary"));
    let notices = notices(&drain(&mut bus));
    assert!(matches!(notices.last(), Some(Notice::FallingBack { from, to, .. }) if from == "primary" && to == "backup"), "{notices:?}");
    // The marker is stored with the reply, for the UI after a restart.
    let stored = core.conversation().history(5).await.unwrap();
    assert_eq!(stored.last().unwrap().meta.as_ref().unwrap().0.fallback_from.as_deref(), Some("primary"));
}

#[tokio::test]
async fn a_model_pinned_to_the_conversation_never_falls_back() {
    let primary = ScriptedServer::start(vec![Reply::Status { code: 503, body: "{\"error\":\"down\"}".into() }]).await;
    let backup = ScriptedServer::start(vec![stream(reply_events(&["Backup here."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("primary", &primary.base_url, "gpt-4o"), ("backup", &backup.base_url, "m")], "max_retries = 1")).await;
    core.conversation().pin_provider(Some("primary")).await.unwrap();
    let error = core.send("hi").await.unwrap_err();
    assert!(error.to_string().contains("the provider's server had a problem"), "{error}");
    assert_eq!(primary.request_count(), 2, "retried, but only on the pinned provider");
    assert_eq!(backup.request_count(), 0);
}

#[tokio::test]
async fn a_reply_that_already_streamed_is_not_silently_resent() {
    let primary = ScriptedServer::start(vec![Reply::CutAfter { events: vec![delta("Half an ans")] }]).await;
    let backup = ScriptedServer::start(vec![stream(reply_events(&["Whole answer."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("primary", &primary.base_url, "m"), ("backup", &backup.base_url, "m")], "")).await;
    let error = core.send("question").await.unwrap_err();
    assert!(error.is_retryable());
    assert_eq!((primary.request_count(), backup.request_count()), (1, 0));
    let last = core.conversation().history(5).await.unwrap().pop().unwrap();
    assert_eq!((last.content.as_str(), last.status), ("Half an ans", MessageStatus::Interrupted));
}

#[tokio::test]
async fn a_reply_cut_by_the_length_limit_is_continued_and_merged() {
    let server = ScriptedServer::start(vec![
        stream(vec![delta("The three colours are red, gre"), finish("length"), usage(10, 8)]),
        stream(reply_events(&["en and blue."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut bus = core.events().subscribe();
    let outcome = core.send("name three colours").await.unwrap();
    assert_eq!(outcome.reply, "The three colours are red, green and blue.");
    assert_eq!(outcome.meta.continued, 1);
    let second = request_messages(&server, 1);
    assert_eq!(second[second.len() - 2]["content"], "The three colours are red, gre");
    assert!(second.last().unwrap()["content"].as_str().unwrap().contains("Continue exactly where it stopped"));
    assert!(notices(&drain(&mut bus)).contains(&Notice::Continued { attempt: 1 }));
    // One merged reply is stored, not the pieces.
    let stored = core.conversation().history(5).await.unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[1].content, outcome.reply);
}

#[tokio::test]
async fn continuation_is_bounded() {
    let cut = || stream(vec![delta("more "), finish("length"), usage(5, 5)]);
    let server = ScriptedServer::start(vec![cut(), cut(), cut(), cut()]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("p", &server.base_url, "m")], "max_continuations = 2")).await;
    let outcome = core.send("talk forever").await.unwrap();
    assert_eq!(server.request_count(), 3);
    assert_eq!(outcome.reply, "more more more ");
    assert_eq!(outcome.finish_reason.as_deref(), Some("length"));
}

#[tokio::test]
async fn the_iteration_cap_ends_a_turn_that_keeps_calling_tools() {
    let server = ScriptedServer::start(vec![stream(tool_call_events(&[("again", "get_current_time", "{}")]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("p", &server.base_url, "m")], "max_iterations = 3")).await;
    let mut bus = core.events().subscribe();
    let outcome = core.send("loop").await.unwrap();
    assert_eq!(server.request_count(), 3);
    // The last allowed call offered no tools, asking for an answer in words.
    let requests = server.requests.lock().unwrap().clone();
    assert!(requests[1]["tools"].is_array());
    assert!(requests[2].get("tools").is_none(), "{}", requests[2]);
    assert!(outcome.meta.iteration_cap);
    assert_eq!(outcome.status, sidecar_store::MessageStatus::Incomplete);
    assert!(outcome.reply.contains("I reached the limit of 3 steps for one reply"), "{}", outcome.reply);
    assert!(notices(&drain(&mut bus)).contains(&Notice::IterationCap));
    // Every call still has its result, so the next turn's history is valid.
    let stored = core.conversation().history(20).await.unwrap();
    let calls = stored.iter().filter(|m| m.tool_calls.is_some()).count();
    let results = stored.iter().filter(|m| m.role == Role::Tool).count();
    assert_eq!(calls, results);
}

#[tokio::test]
async fn stop_during_a_tool_run_ends_the_turn_and_pairs_the_call() {
    let server = ScriptedServer::start(vec![stream(tool_call_events(&[("job", "slow_job", "{}")]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut tools = sidecar_tools::ToolRegistry::new();
    tools.register(HangingTool);
    core.set_tools(tools);
    let mut bus = core.events().subscribe();
    let turn = tokio::spawn({
        let core = core.clone();
        async move { core.send("run the slow job").await }
    });
    loop {
        if let CoreEvent::Chat(ChatEvent::ToolStarted { .. }) = bus.recv().await.unwrap() {
            break;
        }
    }
    assert!(core.conversation().stop());
    let outcome = tokio::time::timeout(Duration::from_secs(5), turn).await.unwrap().unwrap().unwrap();
    assert_eq!(outcome.status, MessageStatus::Stopped);
    let stored = core.conversation().history(10).await.unwrap();
    let result = stored.iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(result.is_error && result.content.contains("stopped"), "{}", result.content);
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn a_claimed_action_without_a_tool_call_gets_one_corrective_retry() {
    let server = ScriptedServer::start(vec![
        stream(reply_events(&["Done! I've set a reminder for 9 tomorrow."])),
        stream(reply_events(&["Sorry, I can't set reminders yet, so none was created."])),
        stream(reply_events(&["Sure, I'll remind you at 5."])),
        stream(reply_events(&["Actually no reminder exists; I can't make them yet."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let mut bus = core.events().subscribe();

    let outcome = core.send("remind me at 9 tomorrow").await.unwrap();
    assert_eq!(outcome.reply, "Sorry, I can't set reminders yet, so none was created.");
    assert!(outcome.meta.corrected);
    let second = request_messages(&server, 1);
    assert!(second.last().unwrap()["content"].as_str().unwrap().contains("did not call set_reminder"));
    assert!(notices(&drain(&mut bus)).iter().any(|n| matches!(n, Notice::Corrected { check } if check == "claimed_reminder_without_tool")));

    // The same failure again within the cooldown is corrected but noted only once,
    // and the note goes with the next prompt, late (the system prompt does not move).
    core.send("and at 5?").await.unwrap();
    let (notes,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM self_corrections").fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(notes, 1);
    let third = request_messages(&server, 2);
    let late = crate::support::late_block(&serde_json::json!({ "messages": third }));
    assert!(late.contains("without calling set_reminder"), "{late}");
    assert!(!third[0]["content"].as_str().unwrap().contains("without calling set_reminder"));
    // Usage counts both turns as claims the check caught.
    let measures = core.usage_report().await.unwrap().today.turns;
    assert_eq!((measures.turns, measures.claimed_without_acting), (2, 2), "{measures:?}");
}

#[tokio::test]
async fn retry_after_a_failure_mid_tool_loop_picks_up_from_the_tool_results() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("t", "get_current_time", "{}")])),
        Reply::Status { code: 400, body: "{\"error\":{\"message\":\"bad request\"}}".into() },
        stream(reply_events(&["It is 13:00."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = single(&server, dir.path()).await;
    let error = core.send("time?").await.unwrap_err();
    assert!(matches!(error, CompanionError::Route(_)), "{error:?}");
    let outcome = core.conversation().retry().await.unwrap();
    assert_eq!(outcome.reply, "It is 13:00.");
    let third = request_messages(&server, 2);
    assert_eq!(third.last().unwrap()["role"], "tool");
}

#[tokio::test]
async fn the_wall_clock_limit_ends_a_turn_stuck_in_a_tool() {
    let server = ScriptedServer::start(vec![stream(tool_call_events(&[("job", "slow_job", "{}")]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&[("p", &server.base_url, "m")], "turn_timeout_secs = 0.3")).await;
    let mut tools = sidecar_tools::ToolRegistry::new();
    tools.register(HangingTool);
    core.set_tools(tools);
    let mut bus = core.events().subscribe();
    let error = tokio::time::timeout(Duration::from_secs(5), core.send("run it")).await.unwrap().unwrap_err();
    assert!(error.to_string().contains("took longer than 0.3 s") && !error.to_string().contains("llm."), "{error}");
    assert!(notices(&drain(&mut bus)).contains(&Notice::TimedOut));
    let stored = core.conversation().history(10).await.unwrap();
    let result = stored.iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(result.content.contains("ran out of time"), "{}", result.content);
}

#[tokio::test]
async fn self_correction_notes_respect_cooldown_and_expire() {
    use chrono::Duration as D;
    let dir = tempfile::tempdir().unwrap();
    let store = sidecar_store::Store::open(dir.path()).await.unwrap();
    let t0 = chrono::Utc.with_ymd_and_hms(2026, 11, 21, 8, 0, 0).unwrap();
    let (cooldown, ttl) = (D::hours(2), D::hours(24));
    assert!(store.corrections().record_correction("claimed_reminder_without_tool", "note A", t0, cooldown, ttl).await.unwrap());
    // Within the cooldown the same check is not noted again; another check is.
    assert!(!store.corrections().record_correction("claimed_reminder_without_tool", "note A2", t0 + D::minutes(90), cooldown, ttl).await.unwrap());
    assert!(store.corrections().record_correction("claimed_fact_saved_without_tool", "note B", t0 + D::minutes(90), cooldown, ttl).await.unwrap());
    // After the cooldown it is noted again.
    assert!(store.corrections().record_correction("claimed_reminder_without_tool", "note A3", t0 + D::hours(3), cooldown, ttl).await.unwrap());
    assert_eq!(store.corrections().active_corrections(t0 + D::hours(4)).await.unwrap(), ["note A", "note B", "note A3"]);
    // Each expires a day after it was made.
    assert_eq!(store.corrections().active_corrections(t0 + D::hours(26)).await.unwrap(), ["note A3"]);
    assert_eq!(store.corrections().purge_expired_corrections(t0 + D::hours(26)).await.unwrap(), 2);
}
