//! Forgetting is for real (issue 74): a conversation deleted for good leaves none of its
//! words in any file of the data folder (the database, its WAL, the search index, freed
//! pages), while the conversation kept is still there, found the same way; and a message
//! deleted goes the same way, with its reply and what quotes it.

use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use sidecar_domain::Clock;

use crate::support::{reply_events, stream, ScriptedServer};

/// The files under `dir` that hold `word` (as written, or in lower case as the search
/// index keeps it).
pub(crate) fn files_with(dir: &Path, word: &str) -> Vec<String> {
    let holds = |bytes: &[u8], w: &str| bytes.windows(w.len()).any(|b| b == w.as_bytes());
    crate::backup::files(dir).into_iter().filter(|(_, bytes)| holds(bytes, word) || holds(bytes, &word.to_lowercase())).map(|(path, _)| path).collect()
}

#[tokio::test]
async fn a_conversation_deleted_for_good_leaves_no_word_in_any_file() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Anotado."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let offset = Arc::new(AtomicI64::new(0));
    let start = Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap();
    let hands = offset.clone();
    let clock = Clock::new(Arc::new(move || start + chrono::Duration::seconds(hands.load(Ordering::SeqCst))), chrono_tz::Europe::Madrid);
    let data = dir.path().join("app");
    let core = crate::support::core().provider("p", &server.base_url).clock(clock).open_in(&data).await;

    core.send("Mi vecina Zenobia Quintanilla guarda la llave bajo la maceta turquesa").await.unwrap();
    let secret = core.chats().list(None).await.unwrap().0;
    offset.fetch_add(60, Ordering::SeqCst);
    core.context().new_conversation().await.unwrap();
    core.send("Recuerda que el fontanero Anselmo viene el lunes").await.unwrap();
    for word in ["Zenobia", "Quintanilla", "turquesa", "Anselmo"] {
        assert!(!files_with(&data, word).is_empty(), "{word} is stored before anything is deleted");
    }

    core.chats().delete(secret).await.unwrap();
    offset.fetch_add(sidecar_agent::UNDO_SECONDS + 1, Ordering::SeqCst);
    core.chats().list(None).await.unwrap();
    for word in ["Zenobia", "Quintanilla", "turquesa"] {
        assert_eq!(files_with(&data, word), Vec::<String>::new(), "{word} is still in a file");
    }
    assert!(!files_with(&data, "Anselmo").is_empty(), "the conversation kept is kept");
    assert!(!core.recall_service().search("Anselmo fontanero", 500).await.unwrap().hits.is_empty(), "and found");
    core.shutdown().await;
}

/// The reply quotes what it answers, as replies do; the neighbour is kept as a fact first.
fn echoing(request: &serde_json::Value) -> sidecar_testkit::Reply {
    let (said, answered) = crate::support::last_said(request);
    if said.contains("Zenobia") && !answered {
        let fact = r#"{"fact": "Su vecina Zenobia guarda su llave", "category": "Relationships"}"#;
        return stream(sidecar_testkit::tool_call_events(&[("f1", "remember_fact", fact)]));
    }
    stream(reply_events(&["Sobre eso: ", said.trim_matches('"')]))
}

#[tokio::test]
async fn a_message_deleted_goes_for_good_with_its_reply_and_what_quotes_it() {
    let server = ScriptedServer::responding(echoing).await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("app");
    let core = crate::support::core().provider("p", &server.base_url).open_in(&data).await;
    core.send("Mi vecina Zenobia Quintanilla guarda la llave bajo la maceta turquesa").await.unwrap();
    core.send("El fontanero Anselmo viene el lunes a las diez").await.unwrap();
    core.send("/checkpoint").await.unwrap();
    core.send("Y la caldera hace un ruido raro").await.unwrap();
    let history = core.conversation().history(50).await.unwrap();
    let secret = history.iter().find(|m| m.content.contains("Zenobia") && m.role == sidecar_llm::Role::User).unwrap().id;
    let replies =
        |history: &[sidecar_store::Message]| history.iter().filter(|m| m.role == sidecar_llm::Role::Assistant && m.content.contains("Anselmo")).count();
    assert_eq!(replies(&history), 1, "{history:?}");
    let anselmo_reply = history.iter().find(|m| m.role == sidecar_llm::Role::Assistant && m.content.contains("Anselmo")).unwrap().id;
    assert!(!files_with(&data, "Quintanilla").is_empty() && core.context().checkpoints().await.unwrap().len() == 1);

    // The user's message goes with its reply (which quoted it) and the checkpoint quoting it.
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text.contains("Zenobia")));
    let forgotten = core.forget_exchange(secret).await.unwrap();
    assert_eq!(forgotten.messages, 5, "the message, its reply (tool call, result, words), and the answer naming the checkpoint after it");
    // What was learned from it is named, for the user to forget too (the window asks).
    let learned: Vec<&str> = forgotten.learned.iter().map(|f| f.fact.text.as_str()).collect();
    assert_eq!(learned, ["Su vecina Zenobia guarda su llave"]);
    let fact = &forgotten.learned[0];
    core.knowledge().delete(fact.line, &fact.fact.text).await.unwrap();
    for word in ["Zenobia", "Quintanilla", "turquesa"] {
        assert_eq!(files_with(&data, word), Vec::<String>::new(), "{word} is still in a file");
    }
    assert!(core.context().checkpoints().await.unwrap().is_empty(), "the checkpoint quoted it");
    let left: Vec<String> = core.conversation().history(50).await.unwrap().into_iter().map(|m| m.content).collect();
    assert!(left.iter().any(|m| m.contains("Anselmo")) && left.iter().any(|m| m.contains("caldera")), "{left:?}");

    // A reply goes whole; the question stays.
    let forgotten = core.forget_exchange(anselmo_reply).await.unwrap();
    assert_eq!((forgotten.messages, forgotten.learned.len()), (1, 0));
    let history = core.conversation().history(50).await.unwrap();
    assert!(history.iter().any(|m| m.content == "El fontanero Anselmo viene el lunes a las diez") && replies(&history) == 0, "{history:?}");
    // The conversation goes on, its prompt whole.
    core.send("¿Y mañana?").await.unwrap();
    let last = server.requests.lock().unwrap().last().unwrap()["messages"].to_string();
    assert!(!last.contains("Zenobia") && last.contains("Anselmo"), "{last}");
    assert!(core.forget_exchange(999_999).await.is_err(), "no such message: said");
    core.shutdown().await;
}
