//! The provider fault matrix through the whole companion: each fault ends in one
//! clear sentence that says what happened and what to do, and nothing is invented.

use std::time::{Duration, Instant};

use sidecar::Companion;

use crate::support::{reply_events, stream, Reply, ScriptedServer};

async fn open(dir: &std::path::Path, providers: &[&str], llm: &str) -> std::sync::Arc<Companion> {
    let mut text = String::new();
    for (i, url) in providers.iter().enumerate() {
        text.push_str(&format!("[[providers]]\nid = \"p{i}\"\nbase_url = \"{url}\"\nmodel = \"m\"\n"));
    }
    text.push_str(&format!("[llm]\n{llm}\n"));
    crate::support::core().settings(&text).open_in(dir).await
}

#[tokio::test]
async fn an_empty_200_says_the_provider_sent_an_empty_reply() {
    let server = ScriptedServer::start(vec![Reply::Status { code: 200, body: String::new() }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[&server.base_url], "max_retries = 0").await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("the provider sent an empty reply"), "{error}");
    assert!(!error.contains("what arrived is kept") && !error.contains("What arrived is kept"), "{error}");
}

#[tokio::test]
async fn only_done_and_no_words_is_an_empty_reply_too() {
    let server = ScriptedServer::start(vec![stream(vec![])]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[&server.base_url], "max_retries = 0").await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("empty reply"), "{error}");
}

#[tokio::test]
async fn a_hang_says_the_provider_stopped_answering_and_what_to_do() {
    let server = ScriptedServer::start(vec![Reply::Hang]).await;
    let dir = tempfile::tempdir().unwrap();
    // The default retries (2) stay: a hang is not waited out again on the same provider.
    let core = open(dir.path(), &[&server.base_url], "response_timeout_secs = 1").await;
    let started = Instant::now();
    let error = core.send("hello").await.unwrap_err().to_string();
    // What it did not do and what to do, in words: no settings key in the chat.
    assert!(error.contains("the provider stopped answering: it did not start answering within 1 s") && error.contains("pick a faster model"), "{error}");
    assert!(!error.contains("_timeout") && !error.contains("settings.toml"), "{error}");
    assert_eq!(server.request_count(), 1, "not asked again");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_hanging_provider_hands_over_to_the_next_one() {
    let hung = ScriptedServer::start(vec![Reply::Hang]).await;
    let working = ScriptedServer::start(vec![stream(reply_events(&["here"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[&hung.base_url, &working.base_url], "response_timeout_secs = 1").await;
    let outcome = core.send("hello").await.unwrap();
    assert_eq!(outcome.reply, "here");
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("p0"));
}

#[tokio::test]
async fn a_stream_that_goes_silent_says_so() {
    let server = ScriptedServer::start(vec![Reply::StallAfter { events: vec![crate::support::delta("partial")] }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[&server.base_url], "idle_timeout_secs = 1").await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("stopped answering: it did not send more of the reply within 1 s") && !error.contains("_timeout"), "{error}");
    let history = core.conversation().history(5).await.unwrap();
    assert!(history.iter().any(|m| m.content == "partial"), "what arrived is kept");
}
