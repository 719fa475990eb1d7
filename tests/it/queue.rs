//! The inbox's queue (seed §4): messages sent while a reply streams wait their turn and
//! are answered in order; a waiting one can be cancelled; commands and Stop are
//! answered at once, even mid-turn.

use std::sync::Arc;
use std::time::Duration;

use sidecar::{Companion, CompanionError, CoreEvent};
use sidecar_agent::ChatEvent;
use sidecar_agent::TurnError;
use sidecar_store::Role;
use tokio::sync::broadcast::Receiver;

use crate::support::{delta, reply_events, Reply, ScriptedServer};

async fn companion(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().provider("s", base_url).settings("[llm]\nmax_retries = 0\n").open_in(dir).await
}

/// A reply that streams slowly until stopped, then quick ones that echo what was asked.
fn scripted() -> impl Fn(&serde_json::Value) -> Reply + Send + Sync + 'static {
    |request| {
        let messages = request["messages"].as_array().unwrap();
        let asked = crate::support::said(messages.last().unwrap());
        if asked == "tell me a long story" {
            let mut events = vec![delta("Once")];
            events.extend((0..200).map(|_| delta(" and on")));
            Reply::Stream { events, delay: Duration::from_millis(20) }
        } else {
            Reply::Stream { events: reply_events(&[&format!("answer to {asked}")]), delay: Duration::ZERO }
        }
    }
}

async fn wait_for(events: &mut Receiver<CoreEvent>, what: impl Fn(&CoreEvent) -> bool) -> CoreEvent {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let event = events.recv().await.unwrap();
            if what(&event) {
                return event;
            }
        }
    })
    .await
    .expect("the event came")
}

fn queued_texts(event: &CoreEvent) -> Option<Vec<String>> {
    match event {
        CoreEvent::Chat(ChatEvent::Queue { items }) => Some(items.iter().map(|m| m.text.clone()).collect()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_messages_sent_while_a_reply_streams_are_answered_in_order_and_one_can_be_cancelled() {
    let server = ScriptedServer::responding(scripted()).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();

    let first = tokio::spawn({
        let core = core.clone();
        async move { core.send("tell me a long story").await }
    });
    wait_for(&mut events, |e| matches!(e, CoreEvent::Chat(ChatEvent::Delta { .. }))).await;
    let mut queued = Vec::new();
    for text in ["one", "two", "three"] {
        let core = core.clone();
        queued.push(tokio::spawn(async move { core.send(text).await }));
        let listed = wait_for(&mut events, |e| queued_texts(e).is_some_and(|t| t.last().map(String::as_str) == Some(text))).await;
        assert_eq!(queued_texts(&listed).unwrap().len(), queued.len());
    }
    let waiting = core.conversation().queued();
    assert_eq!(waiting.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["one", "two", "three"]);
    assert!(core.conversation().cancel_queued(waiting[1].id), "two is cancelled before its turn");
    assert!(!core.conversation().cancel_queued(waiting[1].id));
    // Nothing queued was stored or sent yet: the story is still being written.
    assert!(core.conversation().history(20).await.unwrap().iter().all(|m| m.content != "one"));

    assert!(core.conversation().stop(), "Stop ends the story only");
    let story = first.await.unwrap().unwrap();
    assert!(story.reply.starts_with("Once"));
    let [one, two, three] = <[_; 3]>::try_from(queued).ok().unwrap();
    assert_eq!(one.await.unwrap().unwrap().reply, "answer to one");
    assert!(matches!(two.await.unwrap(), Err(CompanionError::Turn(TurnError::QueuedCancelled))));
    assert_eq!(three.await.unwrap().unwrap().reply, "answer to three");

    let history: Vec<(Role, String)> = core.conversation().history(20).await.unwrap().into_iter().map(|m| (m.role, m.content)).collect();
    let said: Vec<&str> = history.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(said[..2], ["tell me a long story", story.reply.as_str()]);
    assert_eq!(said[2..], ["one", "answer to one", "three", "answer to three"]);
    assert!(core.conversation().queued().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_is_answered_mid_turn_and_stop_ends_the_reply() {
    let server = ScriptedServer::responding(scripted()).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let story = tokio::spawn({
        let core = core.clone();
        async move { core.send("tell me a long story").await }
    });
    wait_for(&mut events, |e| matches!(e, CoreEvent::Chat(ChatEvent::Delta { .. }))).await;

    let quiet = core.send("/quiet 30m").await.unwrap();
    assert!(quiet.reply.starts_with("Quiet until"), "{}", quiet.reply);
    assert!(!story.is_finished(), "the story goes on while the command is answered");
    assert!(core.proactive().status().await.unwrap().quiet_until.is_some());

    let stopped = core.send("/stop").await.unwrap();
    assert_eq!(stopped.reply, "Stopped the reply; what arrived is kept.");
    let story = story.await.unwrap().unwrap();
    assert_eq!(story.status, sidecar_store::MessageStatus::Stopped);
    assert_eq!(core.send("/stop").await.unwrap().reply, "No reply is being written.");
    assert_eq!(server.request_count(), 1, "commands never reach the model");
}
