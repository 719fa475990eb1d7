//! Which tools each request carries with an MCP server and a notes folder attached:
//! Sidecar's own always, the others when the last turns are about them, `find_tools`
//! for the rest; the set offered stays fixed within a turn.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use sidecar::settings::Settings;
use sidecar::{Companion, CompanionOptions};

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
    let settings: Settings = toml::from_str(&format!(
        "[[providers]]\nid = \"p\"\nbase_url = \"{base_url}\"\nmodel = \"gpt-4o-mini\"\n[tools]\nnotes_folder = \"{}\"\n[memory.embeddings]\nbackend = \"off\"\n",
        vault.display()
    ))
    .unwrap();
    let core = Companion::open(CompanionOptions::new(dir.to_path_buf(), settings)).await.unwrap();
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
