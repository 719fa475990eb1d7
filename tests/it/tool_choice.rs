//! Which tools each request carries with an MCP server and a notes folder attached:
//! Sidecar's own always, the others when the last turns are about them, `find_tools`
//! for the rest; the set offered stays fixed within a turn.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use sidecar::Companion;

use crate::support::{self, reply_events, stream, tool_call_events, ScriptedServer};

fn offered(request: &Value) -> Vec<String> {
    request["tools"].as_array().map(|t| t.iter().map(|t| t["function"]["name"].as_str().unwrap().to_string()).collect()).unwrap_or_default()
}

async fn open(dir: &Path, base_url: &str) -> Arc<Companion> {
    let core = open_starting(dir, base_url).await;
    core.mcp().settle(Duration::from_secs(20)).await;
    core
}

/// The companion with its MCP server asked to start, not waited for.
async fn open_starting(dir: &Path, base_url: &str) -> Arc<Companion> {
    let vault = dir.join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let config = serde_json::json!({ "mcpServers": { "fixture": { "command": support::python(), "args": [script] } } });
    std::fs::write(dir.join("mcp.json"), config.to_string()).unwrap();
    // Words only: the choice is the same on every machine.
    let core = support::core()
        .settings(&format!(
            "[[providers]]\nid = \"p\"\nbase_url = \"{base_url}\"\nmodel = \"gpt-4o-mini\"\n[tools]\nnotes_folder = \"{}\"\n[memory.embeddings]\nbackend = \"off\"\n",
            vault.display()
        ))
        .open_in(dir)
        .await;
    core.mcp().reload().unwrap();
    core
}

#[tokio::test]
async fn each_turn_carries_sidecars_tools_and_only_the_others_it_is_about() {
    let server = ScriptedServer::start(vec![
        stream(reply_events(&["It is noon."])),
        stream(tool_call_events(&[("c1", "find_tools", r#"{"query": "echo a message"}"#)])),
        stream(reply_events(&["I can echo from your next message."])),
        stream(reply_events(&["Echoing."])),
        stream(reply_events(&["Still here."])),
        stream(reply_events(&["A new chat."])),
        stream(reply_events(&["Your notes."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    assert!(core.tools().names().contains(&"mcp__fixture__echo"), "{:?}", core.tools().names());

    core.send("What time is it?").await.unwrap();
    let first = offered(&server.last_request());
    for own in ["get_current_time", "set_reminder", "remember_fact", "find_tools"] {
        assert!(first.contains(&own.to_string()), "{own}: {first:?}");
    }
    assert!(!first.iter().any(|n| n.starts_with("mcp__") || n.ends_with("_note")), "{first:?}");

    // The model asks for a tool it was not given: the same turn keeps its set …
    core.send("Can you repeat things back to me?").await.unwrap();
    let asked = server.requests.lock().unwrap().clone();
    assert_eq!(offered(&asked[asked.len() - 1]), offered(&asked[asked.len() - 2]), "fixed within the turn");
    // … and the next turn carries what it found.
    core.send("Go on then").await.unwrap();
    assert!(offered(&server.last_request()).contains(&"mcp__fixture__echo".to_string()));
    core.mcp().stop_all();
    core.shutdown().await;
    drop(core);

    // Sidecar started again: the conversation's tools come back with it (issue 75, item 5)…
    let core = open(dir.path(), &server.base_url).await;
    core.send("Thanks").await.unwrap();
    let again = offered(&server.last_request());
    assert!(again.contains(&"mcp__fixture__echo".to_string()), "{again:?}");
    // … and stay with it: a new chat starts with Sidecar's own …
    core.context().new_conversation().await.unwrap();
    core.send("Thanks").await.unwrap();
    let fresh = offered(&server.last_request());
    assert!(!fresh.iter().any(|n| n.starts_with("mcp__") || n.ends_with("_note")), "{fresh:?}");
    // … and the note tools when it is about notes.
    core.send("Read my notes about the trip").await.unwrap();
    let notes = offered(&server.last_request());
    assert!(notes.contains(&"read_note".to_string()) && notes.contains(&"create_note".to_string()), "{notes:?}");
    core.mcp().stop_all();
}

#[tokio::test]
async fn a_message_sent_while_a_server_starts_waits_for_its_tools() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Echoing."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open_starting(dir.path(), &server.base_url).await;
    assert!(!core.tools().names().contains(&"mcp__fixture__echo"), "the server is still starting");

    core.send("Echo this message back to me").await.unwrap();
    assert!(offered(&server.last_request()).contains(&"mcp__fixture__echo".to_string()), "{:?}", offered(&server.last_request()));
    core.mcp().stop_all();
}

/// The companion on `backend`'s embedder (as Settings → Memory sets it), with the
/// reference `server-everything` from npm and the fixture as a "locker" server whose one
/// tool says what it does; tools by meaning, within the budget, as a user's are.
async fn open_by_meaning(dir: &Path, base_url: &str, backend: &str) -> Arc<Companion> {
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/node_modules/.bin/mcp-server-everything");
    assert!(everything.exists(), "{} is missing: run `make test`", everything.display());
    let described = dir.join("locker.txt");
    std::fs::write(&described, "Returns the code of the locker in a room of the office.").unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let config = serde_json::json!({ "mcpServers": {
        "everything": { "command": everything, "args": ["stdio"] },
        "locker": { "command": support::python(), "args": [fixture, "--description-file", described, "--echo-name", "locker_code"] },
    } });
    std::fs::write(dir.join("mcp.json"), config.to_string()).unwrap();
    let core = support::core()
        .settings(&format!("[[providers]]\nid = \"p\"\nbase_url = \"{base_url}\"\nmodel = \"gpt-4o-mini\"\n[memory.embeddings]\nbackend = \"{backend}\"\n"))
        .with_runtime()
        .open_in(dir)
        .await;
    core.mcp().reload().unwrap();
    core.mcp().settle(Duration::from_secs(30)).await;
    core
}

/// Issue 68: with EmbeddingGemma (the default from 8 GB) no MCP tool was ever offered,
/// its cosines being under e5-small's floor. Each embedder's own floor: a question
/// about a tool carries it, with e5-small, EmbeddingGemma and the words alone.
async fn a_question_carries_the_mcp_tool_it_is_about(backend: &str) {
    let asked = [
        ("What is the locker code for the blue room?", "mcp__locker__locker_code"),
        ("What is the sum of 1234 and 4321?", "mcp__everything__get-sum"),
        ("Show me the environment variables of the server", "mcp__everything__get-env"),
    ];
    let server = ScriptedServer::start(asked.iter().map(|_| stream(reply_events(&["Done."]))).collect()).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open_by_meaning(dir.path(), &server.base_url, backend).await;
    let tools = core.tools();
    let names = tools.names();
    for (_, tool) in asked {
        assert!(names.contains(&tool), "{tool} in {names:?}");
    }
    for (question, tool) in asked {
        core.context().new_conversation().await.unwrap();
        core.send(question).await.unwrap();
        let carried = offered(&server.last_request());
        assert!(carried.contains(&tool.to_string()), "{backend}: {question:?} did not carry {tool}: {carried:?}");
        assert!(carried.len() < names.len(), "{backend}: not every tool: {carried:?}");
    }
    core.mcp().stop_all();
}

#[tokio::test]
async fn a_question_carries_its_mcp_tool_with_e5_small() {
    a_question_carries_the_mcp_tool_it_is_about("local").await;
}

#[tokio::test]
async fn a_question_carries_its_mcp_tool_with_embeddinggemma() {
    a_question_carries_the_mcp_tool_it_is_about("gemma").await;
}

#[tokio::test]
async fn a_question_carries_its_mcp_tool_by_words_without_an_embedder() {
    a_question_carries_the_mcp_tool_it_is_about("off").await;
}
