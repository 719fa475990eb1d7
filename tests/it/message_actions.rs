//! A message's actions: Regenerate writes the last reply again and keeps the one it
//! replaced as a version to flip back to; Edit replaces a sent message and answers it
//! anew. What was replaced is kept but never shown nor sent to the model; a reminder
//! posted meanwhile stays where it was.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use sidecar::Companion;
use sidecar_agent::TurnError;
use sidecar_llm::ChatMessage;
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::Role;

use crate::support::{reply_events, stream, ScriptedServer};

async fn open(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().provider("p", base_url).open_in(dir).await
}

/// Each request is answered "Reply N", N counting from 1.
async fn numbered_replies() -> ScriptedServer {
    let n = Arc::new(AtomicUsize::new(0));
    ScriptedServer::responding(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst) + 1;
        stream(reply_events(&[&format!("Reply {i}")]))
    })
    .await
}

fn said(core: &[sidecar_store::Message]) -> Vec<String> {
    core.iter().map(|m| m.content.clone()).collect()
}

fn prompt_texts(request: &serde_json::Value) -> Vec<String> {
    request["messages"].as_array().unwrap().iter().filter(|m| m["role"] != "system").map(crate::support::said).collect()
}

#[tokio::test]
async fn regenerate_keeps_versions_to_flip_between_and_the_model_sees_only_the_one_shown() {
    let server = numbered_replies().await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let chat = core.conversation();

    assert_eq!(chat.reply_versions().await.unwrap(), None, "nothing said yet");
    assert!(matches!(chat.regenerate().await, Err(TurnError::NothingToRegenerate)));

    core.send("Name a colour").await.unwrap();
    let versions = chat.reply_versions().await.unwrap().unwrap();
    assert_eq!((versions.count, versions.current), (1, 1));

    let again = chat.regenerate().await.unwrap();
    assert_eq!(again.reply, "Reply 2");
    assert_eq!(prompt_texts(&server.last_request()), ["Name a colour"], "the replaced reply is not sent back");
    assert_eq!(said(&core.conversation().history(50).await.unwrap()), ["Name a colour", "Reply 2"], "the user message is not stored twice");
    let versions = chat.reply_versions().await.unwrap().unwrap();
    assert_eq!((versions.count, versions.current), (2, 2));

    chat.regenerate().await.unwrap();
    assert_eq!(chat.reply_versions().await.unwrap().unwrap().count, 3);

    // Flip back to the first: it is what is shown and what the model sees next.
    let shown = chat.show_version(1).await.unwrap();
    assert_eq!((shown.count, shown.current), (3, 1));
    assert_eq!(said(&core.conversation().history(50).await.unwrap()), ["Name a colour", "Reply 1"]);
    assert!(matches!(chat.show_version(7).await, Err(TurnError::NoVersion(7))));
    core.send("Another").await.unwrap();
    assert_eq!(prompt_texts(&server.last_request()), ["Name a colour", "Reply 1", "Another"]);
    // The new turn has its own versions; the old ones stay in the database.
    assert_eq!(chat.reply_versions().await.unwrap().unwrap().count, 1);
    let kept: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE set_aside = 1").fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(kept.0, 2, "versions 2 and 3 are kept");
    assert_eq!(core.chats().list(None).await.unwrap().1[0].message_count, 4, "the list counts what is shown");
}

#[tokio::test]
async fn edit_sets_aside_the_message_and_what_followed_then_answers_the_new_text() {
    let server = numbered_replies().await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("I live in Lisbn").await.unwrap();
    core.send("What's the weather like there?").await.unwrap();
    let history = core.conversation().history(50).await.unwrap();
    let typo = history.iter().find(|m| m.content == "I live in Lisbn").unwrap().id;
    let reply_id = history.iter().find(|m| m.role == Role::Assistant).unwrap().id;

    // A reminder posted meanwhile was not part of the exchange: it stays.
    let reminder = ChatMessage::assistant("⏰ Water the plants");
    let meta = MessageMeta { proactive: Some("reminder".into()), ..MessageMeta::default() };
    let conversation = history[0].conversation_id;
    core.store().conversations().add_message(NewMessage { meta: Some(&meta), ..NewMessage::plain(conversation, &reminder) }).await.unwrap();

    assert!(matches!(core.conversation().edit(reply_id, "x".into()).await, Err(TurnError::NotEditable)), "only the user's own messages");
    assert!(matches!(core.conversation().edit(typo, "  ".into()).await, Err(TurnError::Empty(_))));

    let outcome = core.conversation().edit(typo, "I live in Lisbon".into()).await.unwrap();
    assert_eq!(outcome.status, MessageStatus::Complete);
    let history = core.conversation().history(50).await.unwrap();
    assert_eq!(said(&history), ["⏰ Water the plants", "I live in Lisbon", "Reply 3"]);
    assert_eq!(outcome.user_message_id, history[1].id, "the outcome names the new message");
    let sent = prompt_texts(&server.last_request());
    assert!(!sent.iter().any(|t| t.contains("Lisbn") || t.contains("weather")), "nothing set aside reaches the model: {sent:?}");
    assert!(core.recall_service().search("Lisbn", 10).await.unwrap().hits.is_empty(), "nor memory search");
}

#[tokio::test]
async fn a_command_answer_is_not_regenerated() {
    let server = numbered_replies().await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("Hello").await.unwrap();
    core.send("/status").await.unwrap();
    assert_eq!(core.conversation().reply_versions().await.unwrap(), None);
    assert!(matches!(core.conversation().regenerate().await, Err(TurnError::NothingToRegenerate)));
    assert_eq!(server.request_count(), 1);
}

/// Sidecar's own answer to a request it carried out (the model down, so nothing
/// followed) is not offered for Regenerate: it used to vanish with "there is no reply
/// to write again".
#[tokio::test]
async fn sidecars_own_answer_alone_is_not_offered_for_regenerate() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{port}/v1")).await;
    let outcome = core.send("remind me to water the plants in 20 minutes").await.unwrap();
    assert!(outcome.meta.intent);
    assert_eq!(core.conversation().reply_versions().await.unwrap(), None);
    assert!(matches!(core.conversation().regenerate().await, Err(TurnError::NothingToRegenerate)));
    assert_eq!(core.conversation().history(10).await.unwrap().len(), 2, "the answer is still there");
}
