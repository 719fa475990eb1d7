//! Text of any size: a 2 MB reply with no spaces, a 10 MB message, and a 2 MB line in
//! learnings.md must leave the conversation usable: later turns answer, recall
//! answers, and the prompt the model gets fits its window with the cut marked.

use std::sync::Arc;
use std::time::Duration;

use sidecar::Companion;
use sidecar_store::MessageStatus;

use crate::support::{reply_events, Reply, ScriptedServer};

fn settings_for(base_url: &str) -> String {
    format!(
        "[[providers]]\nid = \"scripted\"\nbase_url = \"{base_url}\"\nmodel = \"scripted-model\"\ncontext_window = 8192\n[llm]\nresponse_timeout_secs = 20\nidle_timeout_secs = 20\n"
    )
}

async fn companion(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().settings(&settings_for(base_url)).open_in(dir).await
}

fn prompt_chars(request: &serde_json::Value) -> usize {
    request["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap_or("").len()).sum()
}

#[tokio::test]
async fn a_two_megabyte_reply_without_spaces_leaves_the_conversation_usable() {
    let huge = "x".repeat(2_000_000);
    let server = ScriptedServer::start(vec![
        Reply::Stream { events: reply_events(&[&huge]), delay: Duration::ZERO },
        Reply::Stream { events: reply_events(&["still here"]), delay: Duration::ZERO },
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let first = core.send("say a lot").await.unwrap();
    assert_eq!(first.reply.len(), huge.len());

    let second = core.send("and now?").await.unwrap();
    assert_eq!(second.status, MessageStatus::Complete);
    assert_eq!(second.reply, "still here");
    let request = server.last_request();
    assert!(prompt_chars(&request) < 8192 * 8, "the prompt must fit the window: {} chars", prompt_chars(&request));
    assert!(request.to_string().contains("cut here to fit the context"), "the cut is marked");
    // The stored reply stays whole.
    let history = core.conversation().history(10).await.unwrap();
    assert!(history.iter().any(|m| m.content.len() == huge.len()));
    // Recall finds and shows it without choking.
    let results = core.recall_service().search(&"x".repeat(50), 2000).await.unwrap();
    assert!(results.hits.iter().map(|h| h.snippet.len()).sum::<usize>() < 100_000);
}

#[tokio::test]
async fn a_ten_megabyte_message_is_cut_for_the_prompt_and_kept_whole() {
    let server = ScriptedServer::start(vec![Reply::Stream { events: reply_events(&["ok"]), delay: Duration::ZERO }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let text: String = "palabra larga ".repeat(10_000_000 / 14);
    let outcome = core.send(&text).await.unwrap();
    assert_eq!(outcome.reply, "ok");
    assert!(prompt_chars(&server.last_request()) < 8192 * 8);
    let history = core.conversation().history(10).await.unwrap();
    assert!(history.iter().any(|m| m.content.len() == text.trim().len()));
}

#[tokio::test]
async fn a_two_megabyte_line_in_learnings_is_reported_not_fatal() {
    let server = ScriptedServer::start(vec![Reply::Stream { events: reply_events(&["ok"]), delay: Duration::ZERO }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = companion(dir.path(), &server.base_url).await;
    let learnings = core.knowledge().dir().join("learnings.md");
    std::fs::write(
        &learnings,
        format!(
            "## Preferences\n- [weight:2] likes tea | learned:2026-01-01 | confirmed:2026-01-01\n- [weight:2] {} | learned:2026-01-01 | confirmed:2026-01-01\n",
            "y".repeat(2_000_000)
        ),
    )
    .unwrap();
    let problems = core.knowledge().reload().unwrap();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 3);
    let outcome = core.send("hola").await.unwrap();
    assert_eq!(outcome.reply, "ok");
    let request = server.last_request().to_string();
    assert!(request.contains("likes tea"));
    assert!(!request.contains(&"y".repeat(10_000)));
}
