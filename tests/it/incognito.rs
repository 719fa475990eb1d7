//! An incognito chat (issue 74): nothing said in it becomes a fact, a vector, a summary or
//! a checkpoint; it is not in recall, search, the chat list or a backup made while it is
//! open; once left, none of its words is in any file of the data folder. A reminder asked
//! for there is kept and says where it came from.

use std::io::Read;
use std::path::Path;

use sidecar_testkit::{reply_events, stream, tool_call_events, ScriptedServer};

use crate::forget::files_with;

/// Words said only in the incognito chat.
const SECRET: [&str; 4] = ["Zenobia", "Quintanilla", "turquesa", "4321"];

/// The model: it tries to keep the neighbour's name as a fact once, else says "Vale".
async fn model() -> ScriptedServer {
    ScriptedServer::responding(|request| {
        let text = request["messages"].to_string();
        if text.contains("Zenobia") && !text.contains("\"role\":\"tool\"") {
            stream(tool_call_events(&[("k1", "remember_fact", r#"{"fact": "Su vecina Zenobia Quintanilla guarda la llave", "category": "Relationships"}"#)]))
        } else {
            stream(reply_events(&["Vale."]))
        }
    })
    .await
}

/// Whether the backup at `path` holds `word` anywhere in its files.
fn backup_holds(path: &Path, word: &str) -> bool {
    let mut content = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_end(&mut content).unwrap();
    content.windows(word.len()).any(|w| w == word.as_bytes())
}

#[tokio::test]
async fn an_incognito_chat_keeps_nothing_and_leaves_no_word_once_left() {
    let server = model().await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("app");
    let core = crate::support::core().provider("p", &server.base_url).settings("[user]\ntimezone = \"Europe/Madrid\"\n").open_in(&data).await;
    core.send("Mi fontanero Anselmo viene el lunes").await.unwrap();
    let facts_before = core.knowledge().facts().len();

    core.context().new_incognito().await.unwrap();
    core.send("Mi vecina Zenobia Quintanilla guarda la llave bajo la maceta turquesa").await.unwrap();
    let remember = core.send("Recuerda que mi PIN es 4321").await.unwrap();
    assert!(remember.reply.contains("chat de incógnito"), "said in the user's language: {}", remember.reply);
    core.send("Recuérdame regar las plantas mañana a las 9").await.unwrap();
    let checkpoint = core.send("/checkpoint").await.unwrap();
    assert!(checkpoint.reply.contains("keeps no checkpoints"), "{}", checkpoint.reply);
    assert!(core.context().checkpoints().await.unwrap().is_empty());

    // The model was not offered the fact tool, and was told why; its call saved nothing.
    let requests = server.requests.lock().unwrap().clone();
    let incognito_turn = requests.iter().find(|r| r["messages"].to_string().contains("Zenobia")).unwrap();
    let tools: Vec<&str> = incognito_turn["tools"].as_array().unwrap().iter().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert!(!tools.is_empty() && !tools.contains(&"remember_fact"), "{tools:?}");
    assert!(incognito_turn["messages"].to_string().contains("This is an incognito chat"));
    assert!(requests[0]["tools"].to_string().contains("remember_fact"), "offered outside incognito");
    assert_eq!(core.knowledge().facts().len(), facts_before, "no fact was saved");

    // While it is open: not in the list, not found, said to be incognito; not in a backup.
    let view = core.chats().view(None).await.unwrap();
    assert!(view.incognito && view.chats.iter().all(|c| c.id != view.current), "{view:?}");
    assert!(core.chats().view(Some("Zenobia")).await.unwrap().chats.is_empty());
    assert!(core.recall_service().search("Zenobia llave maceta", 500).await.unwrap().hits.is_empty());
    let backup = core.data().back_up(Some(&dir.path().join("b"))).await.unwrap();
    assert!(backup_holds(&backup.path, "Anselmo"), "the backup reads as it should");
    for word in SECRET {
        assert!(!backup_holds(&backup.path, word), "{word} is in a backup made during the incognito chat");
    }
    // The reminder it asked for is kept, and says where it came from.
    let pending = core.reminders().pending().await.unwrap();
    assert_eq!(pending.len(), 1);
    assert!(pending[0].message.contains("regar las plantas") && pending[0].from_incognito, "{:?}", pending[0]);

    // Leaving it (New chat) forgets it for good: no file holds its words.
    core.context().new_conversation().await.unwrap();
    for word in SECRET {
        assert_eq!(files_with(&data, word), Vec::<String>::new(), "{word} is still in a file");
    }
    assert!(!files_with(&data, "Anselmo").is_empty(), "the other conversation is kept");
    assert!(!core.recall_service().search("fontanero Anselmo", 500).await.unwrap().hits.is_empty(), "and found");
    assert!(core.reminders().pending().await.unwrap()[0].from_incognito, "the reminder is still kept");
    assert!(!core.chats().view(None).await.unwrap().incognito);
    core.shutdown().await;
}

#[tokio::test]
async fn an_incognito_chat_left_open_by_a_crash_or_a_quit_is_forgotten() {
    let server = model().await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("app");
    let open = || crate::support::core().provider("p", &server.base_url).open_in(&data);

    // A CLI command that only asks leaves the incognito chat as it was (the app's).
    let core = open().await;
    let answer = core.send("/incognito").await.unwrap();
    assert!(answer.conversation_changed, "the window moves to the new chat");
    assert!(answer.reply.contains("Incognito chat") || answer.reply.contains("Chat de incógnito"), "{}", answer.reply);
    core.send("Mi vecina Zenobia Quintanilla guarda la llave bajo la maceta turquesa").await.unwrap();
    core.shutdown().await;
    assert!(!files_with(&data, "Zenobia").is_empty(), "still there while its window may be open");

    // The app starts again (as after a crash): the chat left open is forgotten at once.
    let core = open().await;
    let running = core.run(sidecar::Face::headless(Vec::new())).await;
    assert_eq!(files_with(&data, "Zenobia"), Vec::<String>::new(), "forgotten at start");

    // One open when the app quits is forgotten as it ends.
    core.context().new_incognito().await.unwrap();
    core.send("La maceta turquesa está en el balcón").await.unwrap();
    running.stop().await;
    core.shutdown().await;
    assert_eq!(files_with(&data, "turquesa"), Vec::<String>::new(), "forgotten at quit");
}
