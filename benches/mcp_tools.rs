//! Figures for tools that act: tool-schema tokens per request with three MCP servers
//! attached (server-everything, server-filesystem, mcp-server-time) and a notes folder,
//! with and without the per-turn choice; and the time Sidecar adds between the model's
//! tool call and the MCP result (permission check, dispatch, result wrapping) beyond
//! the server's own time. Prints figures; asserts nothing.
//!
//! Run: `cargo bench --bench mcp_tools` (after `make test` installed the servers).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sidecar::{Companion, CompanionOptions};
use sidecar_actions::McpSession;
use sidecar_actions::McpTransport;
use sidecar_llm::ToolCall;
use sidecar_tools::CallScope;
use support::{reply_events, stream, ScriptedServer};

/// One conversation, turn by turn, with the tool each turn needs (our own table: a
/// sanity check of the choice, not a measure of it on the world).
const TURNS: &[(&str, Option<&str>)] = &[
    ("What time is it in Tokyo right now?", Some("mcp__time__get_current_time")),
    ("Convert 9am Madrid time to New York time", Some("mcp__time__convert_time")),
    ("Can you list the files in my project folder?", Some("mcp__files__list_directory")),
    ("Write a file called todo.txt with my shopping list", Some("mcp__files__write_file")),
    ("Add a line to my notes about the trip", Some("append_content")),
    ("Echo this message back to me", Some("mcp__everything__echo")),
    ("Add 2 and 40", Some("mcp__everything__get-sum")),
    ("Tell me a joke", None),
    ("Remind me to call mum tomorrow at 9", None),
    ("¿Qué tiempo hace en Buenos Aires?", None),
];

fn schema_tokens(request: &Value) -> usize {
    request["tools"].as_array().map(|tools| tools.iter().map(|t| sidecar_llm::tokens::count(&t.to_string())).sum()).unwrap_or(0)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    choice_figures(root, false).await;
    let (dir, core) = choice_figures(root, true).await;
    // Overhead: the fixture's echo through the registry (gate with a standing grant,
    // dispatch, wrapping) against the same call on a bare session.
    let script = root.join("tests/mcp/fixture_server.py");
    std::fs::write(dir.path().join("mcp.json"), json!({ "mcpServers": { "fixture": { "command": support::python(), "args": [script] } } }).to_string())
        .unwrap();
    core.mcp().reload().unwrap();
    core.mcp().settle(Duration::from_secs(20)).await;
    let identity = sidecar_actions::McpConfig::load(&dir.path().join("mcp.json")).unwrap().servers["fixture"].identity();
    core.permissions().set_standing("fixture", &identity, None, true).await.unwrap();
    let registry = core.tools();
    let call = ToolCall { id: "c".into(), name: "mcp__fixture__echo".into(), arguments: r#"{"message": "hola"}"#.into() };
    let bare = McpSession::start(
        &McpTransport::Stdio { command: support::python().display().to_string(), args: vec![script.display().to_string()], env: Default::default(), cwd: None },
        Duration::from_secs(10),
        &Default::default(),
    )
    .await
    .unwrap();
    let arguments = json!({"message": "hola"}).as_object().cloned().unwrap();
    let (mut through, mut direct) = (Vec::new(), Vec::new());
    for _ in 0..200 {
        let started = Instant::now();
        let outcome = registry.run(&call, CallScope::default()).await;
        through.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(!outcome.is_error, "{}", outcome.content);
        let started = Instant::now();
        bare.call("echo", arguments.clone()).await.unwrap();
        direct.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (through, direct) = (median(through), median(direct));
    println!(
        "MCP call, model's tool call to result: {through:.2} ms through Sidecar, {direct:.2} ms on a bare session: {:.2} ms added (goal ≤ 20 ms)",
        through - direct
    );
    core.mcp().stop_all();
}

/// Opens Sidecar with the three servers and the notes folder, and prints what each
/// turn of `TURNS` carries: by meaning (the in-process embedder) or by words alone.
async fn choice_figures(root: &Path, meaning: bool) -> (tempfile::TempDir, Arc<Companion>) {
    let bin = root.join("tests/mcp/node_modules/.bin");
    let python = support::python();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("vault")).unwrap();
    let config = json!({ "mcpServers": {
        "everything": { "command": bin.join("mcp-server-everything") },
        "files": { "command": bin.join("mcp-server-filesystem"), "args": [dir.path()] },
        "time": { "command": python, "args": ["-m", "mcp_server_time", "--local-timezone", "Europe/Madrid"] },
    }});
    std::fs::write(dir.path().join("mcp.json"), config.to_string()).unwrap();
    let server = ScriptedServer::start(TURNS.iter().map(|_| stream(reply_events(&["ok"]))).collect()).await;
    // The embedder's weights are found beside the offline model's Python.
    let (backend, local) = if meaning { ("local", format!("[local_model]\npython = {:?}\n", python)) } else { ("off", String::new()) };
    let settings = toml::from_str(&format!(
        "[[providers]]\nid = \"bench\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n[tools]\nnotes_folder = \"{}\"\n[memory.embeddings]\nbackend = \"{backend}\"\n{local}",
        server.base_url,
        dir.path().join("vault").display()
    ))
    .unwrap();
    let core: Arc<Companion> = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    core.mcp().reload().unwrap();
    core.mcp().settle(Duration::from_secs(60)).await;
    let all = core.tools();
    let every: usize = all
        .specs()
        .iter()
        .map(|s| {
            sidecar_llm::tokens::count(
                &json!({"type": "function", "function": {"name": s.name, "description": s.description, "parameters": s.parameters}}).to_string(),
            )
        })
        .sum();
    let attached: usize = core.mcp().servers().iter().map(|s| s.tools.len()).sum();
    let how = if meaning { "by meaning" } else { "by words (no embedder)" };
    println!("tools attached: {} ({attached} from 3 MCP servers, 8 note tools, the rest Sidecar's own)", all.names().len());
    println!("tool-schema tokens per request without the choice: {every}");
    println!("the choice {how}:");
    let (mut chosen, mut hits, mut wanted) = (Vec::new(), 0, 0);
    for (turn, needs) in TURNS {
        core.send(turn).await.unwrap();
        let request = server.last_request();
        chosen.push(schema_tokens(&request) as f64);
        let extras: Vec<String> = request["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["function"]["name"].as_str())
            .filter(|n| n.starts_with("mcp__") || n.ends_with("_note") || n.ends_with("_folder") || *n == "append_content")
            .map(str::to_string)
            .collect();
        let hit = needs.map(|n| extras.iter().any(|e| e == n));
        wanted += usize::from(needs.is_some());
        hits += usize::from(hit == Some(true));
        let mark = match hit {
            Some(true) => "✓",
            Some(false) => "✗",
            None => " ",
        };
        println!("  {mark} {turn:<55} {:>5} tokens  {}", schema_tokens(&request), extras.join(", "));
    }
    println!("tool-schema tokens per request with the choice {how}: median {:.0}, max {:.0} (goal ≤ 2,000); the tool a turn needs carried in {hits} of {wanted} turns", median(chosen.clone()), chosen.iter().cloned().fold(0.0, f64::max));
    core.mcp().stop_all();
    (dir, core)
}
