//! Whole turns through the companion: storage, events, Stop, failures and Retry,
//! against a scripted model server.

use std::sync::Arc;
use std::time::Duration;

use crate::support::{delta, reply_events, Reply, ScriptedServer};
use sidecar::{Companion, CompanionError, CoreEvent};
use sidecar_agent::ChatEvent;
use sidecar_agent::TurnError;
use sidecar_store::MessageStatus;
use sidecar_store::Role;
use tokio::sync::broadcast::Receiver;

fn settings_for(base_url: &str) -> String {
    format!(
        r#"
        [[providers]]
        id = "scripted"
        base_url = "{base_url}"
        model = "scripted-model"
        [llm]
        response_timeout_secs = 5
        idle_timeout_secs = 5
        "#
    )
}

async fn companion(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().settings(&settings_for(base_url)).open_in(dir).await
}

fn drain(events: &mut Receiver<CoreEvent>) -> Vec<CoreEvent> {
    let mut out = Vec::new();
    while let Ok(e) = events.try_recv() {
        out.push(e);
    }
    out
}

#[tokio::test]
async fn a_turn_streams_events_and_stores_both_messages_and_usage() {
    let server = ScriptedServer::start(vec![Reply::Stream { events: reply_events(&["Hola", ", ", "Ana"]), delay: Duration::from_millis(2) }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();

    let outcome = core.send("  hola, soy Ana  ").await.unwrap();
    assert_eq!(outcome.reply, "Hola, Ana");
    assert_eq!(outcome.status, MessageStatus::Complete);
    assert_eq!(outcome.usage.unwrap().output_tokens, 3);

    let events = drain(&mut events);
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            CoreEvent::Chat(ChatEvent::TurnStarted { .. }) => Some("started"),
            CoreEvent::Chat(ChatEvent::Delta { .. }) => Some("delta"),
            CoreEvent::Chat(ChatEvent::TurnFinished { .. }) => Some("finished"),
            CoreEvent::Chat(ChatEvent::TurnFailed { .. }) => Some("failed"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["started", "delta", "delta", "delta", "finished"]);

    // The prompt carries a system message with the day, then the user's words trimmed,
    // with the time to the minute in the per-turn block after them.
    let request = server.last_request();
    assert_eq!(request["messages"][0]["role"], "system");
    assert!(request["messages"][0]["content"].as_str().unwrap().contains("Today is "));
    let (said, late) = sidecar_llm::per_turn::split(request["messages"][1]["content"].as_str().unwrap());
    assert_eq!(said, "hola, soy Ana");
    assert!(late.unwrap().starts_with("Current date and time"));

    let history = core.conversation().history(10).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!((history[0].role, history[0].content.as_str()), (Role::User, "hola, soy Ana"));
    assert_eq!((history[1].role, history[1].content.as_str()), (Role::Assistant, "Hola, Ana"));
    let (calls, output): (i64, i64) = sqlx::query_as("SELECT COUNT(*), SUM(output_tokens) FROM usage WHERE provider = 'scripted' AND purpose = 'chat'")
        .fetch_one(core.store().pool())
        .await
        .unwrap();
    assert_eq!((calls, output), (1, 3));
}

#[tokio::test]
async fn history_is_sent_back_to_the_model_on_the_next_turn() {
    let server = ScriptedServer::start(vec![
        Reply::Stream { events: reply_events(&["Nice to meet you"]), delay: Duration::ZERO },
        Reply::Stream { events: reply_events(&["You are Ana"]), delay: Duration::ZERO },
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    core.send("I am Ana").await.unwrap();
    core.send("who am I?").await.unwrap();
    let messages = server.last_request()["messages"].as_array().unwrap().clone();
    let contents: Vec<String> = messages[1..].iter().map(crate::support::said).collect();
    assert_eq!(contents, ["I am Ana", "Nice to meet you", "who am I?"]);
}

#[tokio::test]
async fn stop_keeps_what_was_streamed_as_a_stopped_reply() {
    let mut events = vec![delta("Once"), delta(" upon")];
    events.extend((0..50).map(|_| delta(" and on")));
    let server = ScriptedServer::start(vec![Reply::Stream { events, delay: Duration::from_millis(40) }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut bus = core.events().subscribe();

    let turn = tokio::spawn({
        let core = core.clone();
        async move { core.send("tell me a story").await }
    });
    // Stop once the second piece has arrived.
    let mut seen = 0;
    while seen < 2 {
        if let CoreEvent::Chat(ChatEvent::Delta { .. }) = bus.recv().await.unwrap() {
            seen += 1;
        }
    }
    assert!(core.conversation().stop());
    let outcome = turn.await.unwrap().unwrap();
    assert_eq!(outcome.status, MessageStatus::Stopped);
    assert!(outcome.reply.starts_with("Once upon"), "{}", outcome.reply);
    assert!(outcome.reply.len() < "Once upon".len() + 50 * 7);
    let history = core.conversation().history(10).await.unwrap();
    assert_eq!(history[1].status, MessageStatus::Stopped);
    assert_eq!(history[1].content, outcome.reply);
    // Nothing is running now.
    assert!(!core.conversation().stop());
}

#[tokio::test]
async fn a_broken_stream_keeps_the_partial_reply_and_retry_answers_once() {
    let server = ScriptedServer::start(vec![
        Reply::CutAfter { events: vec![delta("Par"), delta("tial")] },
        Reply::Stream { events: reply_events(&["Full answer"]), delay: Duration::ZERO },
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut bus = core.events().subscribe();

    let error = core.send("question").await.unwrap_err();
    assert!(matches!(error, CompanionError::Route(_)), "{error:?}");
    assert!(error.is_retryable());
    let failed = drain(&mut bus).into_iter().any(|e| matches!(e, CoreEvent::Chat(ChatEvent::TurnFailed { retryable: true, .. })));
    assert!(failed, "a TurnFailed event is published");
    let history = core.conversation().history(10).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1].status, MessageStatus::Interrupted);
    assert_eq!(history[1].content, "Partial");

    let outcome = core.conversation().retry().await.unwrap();
    assert_eq!(outcome.reply, "Full answer");
    // The question is asked once, and the broken reply is not fed back to the model.
    let messages = server.last_request()["messages"].as_array().unwrap().clone();
    let contents: Vec<String> = messages[1..].iter().map(crate::support::said).collect();
    assert_eq!(contents, ["question"]);
    let users = core.conversation().history(10).await.unwrap().iter().filter(|m| m.role == Role::User).count();
    assert_eq!(users, 1);
    // Once answered, there is nothing left to retry.
    assert!(matches!(core.conversation().retry().await.unwrap_err(), TurnError::NothingToRetry));
}

#[tokio::test]
async fn one_turn_at_a_time_and_the_next_waits_for_it() {
    let server = ScriptedServer::start(vec![
        Reply::Stream { events: reply_events(&["slow", " reply"]), delay: Duration::from_millis(200) },
        Reply::Stream { events: reply_events(&["second answer"]), delay: Duration::ZERO },
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let first = tokio::spawn({
        let core = core.clone();
        async move { core.send("first").await }
    });
    while !matches!(events.recv().await.unwrap(), CoreEvent::Chat(ChatEvent::Delta { .. })) {}
    assert!(matches!(core.conversation().retry().await.unwrap_err(), TurnError::Busy), "Retry never queues");
    let second = core.send("second").await.unwrap();
    assert_eq!(first.await.unwrap().unwrap().reply, "slow reply");
    assert_eq!(second.reply, "second answer");
    assert!(matches!(core.send("   ").await.unwrap_err(), CompanionError::Turn(TurnError::Empty(_))));
}

#[tokio::test]
async fn no_provider_and_no_offline_model_says_what_to_do() {
    let core = crate::support::core().open().await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("SIDECAR_RUNTIME"), "{error}");
    // The message is kept, so Retry can answer it once a model is configured.
    assert_eq!(core.conversation().history(5).await.unwrap()[0].content, "hello");
    assert!(matches!(core.models().status(), sidecar::ModelStatus::Unavailable { .. }));
}
