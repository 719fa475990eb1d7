//! `sidecar mcp` and `sidecar ask` with an MCP server: the commands a user types, and a
//! call that needs permission where there is no one to ask.

use std::path::Path;
use std::process::Command;

use crate::support::{self, reply_events, stream, tool_call_events, ScriptedServer};

fn sidecar(data: &Path, base_url: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    cmd.env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("settings.toml"))
        .env_remove("SIDECAR_MCP_CONFIG")
        .env("SIDECAR_LLM_BASE_URL", base_url)
        .env("SIDECAR_LLM_MODEL", "gpt-4o-mini")
        .env("SIDECAR_RUNTIME", "off");
    cmd
}

fn run(data: &Path, base: &str, args: &[&str]) -> (bool, String, String) {
    let out = sidecar(data, base).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[tokio::test]
async fn a_server_added_on_the_command_line_asks_until_allowed_and_sidecar_ask_never_runs_it_unasked() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("call_1", "mcp__fixture__echo", r#"{"message":"hola"}"#)])),
        stream(reply_events(&["I could not."])),
        stream(tool_call_events(&[("call_2", "mcp__fixture__echo", r#"{"message":"hola"}"#)])),
        stream(reply_events(&["Done."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let (data, base) = (dir.path().to_path_buf(), server.base_url.clone());
    let python = support::python();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    tokio::task::spawn_blocking(move || {
        let (ok, out, err) = run(&data, &base, &["mcp", "add", "fixture", "--", python.to_str().unwrap(), script.to_str().unwrap()]);
        assert!(ok && out.contains("Added fixture"), "{out}{err}");
        let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(data.join("mcp.json")).unwrap()).unwrap();
        assert_eq!(written["mcpServers"]["fixture"]["args"][0], script.to_str().unwrap());

        let (ok, out, err) = run(&data, &base, &["mcp", "tools", "fixture", "--json"]);
        assert!(ok, "{err}");
        let tools: serde_json::Value = serde_json::from_str(&out).unwrap();
        let echo = tools.as_array().unwrap().iter().find(|t| t["tool"] == "echo").unwrap();
        assert_eq!((echo["permission"].as_str(), echo["called_as"].as_str()), (Some("asks"), Some("mcp__fixture__echo")));

        // No terminal: the call waits for permission nobody can give, and does not run.
        let (ok, out, err) = run(&data, &base, &["ask", "--json", "echo hola"]);
        assert!(ok, "{err}");
        let asked: serde_json::Value = serde_json::from_str(&out).unwrap();
        let call = &asked["tool_calls"][0];
        assert_eq!((call["name"].as_str(), call["denied"].as_bool()), (Some("mcp__fixture__echo"), Some(true)), "{asked}");
        assert!(call["result"].as_str().unwrap().contains("fixture/echo"), "{call}");

        let (ok, out, _) = run(&data, &base, &["mcp", "allow", "fixture/echo"]);
        assert!(ok && out.contains("fixture/echo runs without asking"), "{out}");
        let (_, out, _) = run(&data, &base, &["mcp", "tools", "fixture", "--json"]);
        assert!(out.contains("\"permission\": \"allowed\""), "{out}");
        let (ok, out, err) = run(&data, &base, &["ask", "--json", "echo hola"]);
        assert!(ok, "{err}");
        let asked: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(asked["tool_calls"][0]["denied"], false, "{asked}");
        assert!(asked["tool_calls"][0]["result"].as_str().unwrap().contains("hola"), "{asked}");

        let (_, out, _) = run(&data, &base, &["mcp", "list"]);
        assert!(out.contains("fixture: ") && out.contains("allows echo"), "{out}");
        let (ok, out, _) = run(&data, &base, &["mcp", "rm", "fixture"]);
        assert!(ok && out.contains("Removed fixture"), "{out}");
        let (_, out, _) = run(&data, &base, &["mcp", "list", "--json"]);
        let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(listed["grants"].as_array().unwrap().len(), 0, "{listed}");
    })
    .await
    .unwrap();
}

/// Imported servers come in off: a plain `sidecar ask` starts none of them (issue 69,
/// 14; five imported servers were five programs started for one question).
#[tokio::test]
async fn an_imported_server_does_not_start_with_the_next_ask() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hi."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let (data, base) = (dir.path().to_path_buf(), server.base_url.clone());
    tokio::task::spawn_blocking(move || {
        let started = data.join("started");
        let theirs = data.join("cursor-mcp.json");
        let servers: serde_json::Map<String, serde_json::Value> = (0..5)
            .map(|n| (format!("s{n}"), serde_json::json!({"command": "sh", "args": ["-c", format!("echo {n} >> '{}'; sleep 5", started.display())]})))
            .collect();
        std::fs::write(&theirs, serde_json::json!({ "mcpServers": servers }).to_string()).unwrap();
        let (ok, out, err) = run(&data, &base, &["mcp", "import", theirs.to_str().unwrap()]);
        assert!(ok && out.contains("added s0, s1, s2, s3, s4"), "{out}{err}");
        let (ok, out, err) = run(&data, &base, &["ask", "hello"]);
        assert!(ok && out.contains("Hi."), "{out}{err}");
        assert!(!started.exists(), "no imported server started: {:?}", std::fs::read_to_string(&started));
    })
    .await
    .unwrap();
}

#[test]
fn import_takes_claude_desktops_servers_and_keeps_ours() {
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude_desktop_config.json");
    std::fs::write(
        &claude,
        r#"{"mcpServers":{"filesystem":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"]}},"globalShortcut":"Ctrl+Space"}"#,
    )
    .unwrap();
    let (ok, out, err) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "import", claude.to_str().unwrap()]);
    assert!(ok && out.contains("added filesystem") && out.contains("off until you turn it on"), "{out}{err}");
    let (_, out, _) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "list"]);
    assert!(out.contains("filesystem (off)"), "{out}");
    let (ok, out, _) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "on", "filesystem"]);
    assert!(ok && out.contains("filesystem is on"), "{out}");
    let (_, out, _) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "list"]);
    assert!(out.contains("filesystem: ") && !out.contains("(off)"), "{out}");
    let (ok, _, err) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "off", "nothing"]);
    assert!(!ok && err.contains("no MCP server called \"nothing\""), "{err}");
    let (ok, out, _) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "import", claude.to_str().unwrap()]);
    assert!(ok && out.contains("already here, kept as they are: filesystem"), "{out}");
    std::fs::write(&claude, "{ not json").unwrap();
    let (ok, _, err) = run(dir.path(), "http://127.0.0.1:9", &["mcp", "import", claude.to_str().unwrap()]);
    assert!(!ok && err.contains("claude_desktop_config.json is not a valid MCP configuration"), "{err}");
}
