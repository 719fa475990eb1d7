//! The MCP client against real servers (the reference `server-everything` from npm,
//! `mcp-server-time` from PyPI) and our fixture for the faults real servers do not make.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use sidecar_actions::McpSession;
use sidecar_actions::McpSessionError;
use sidecar_actions::McpTransport;

/// The workspace's folder: the MCP servers `make test` installs are in its `tests/mcp`.
fn root() -> PathBuf {
    sidecar_testkit::workspace_root()
}

/// A server installed by `make test` under `tests/mcp/node_modules`.
fn npm_server(bin: &str, args: &[&str]) -> McpTransport {
    let program = root().join("tests/mcp/node_modules/.bin").join(bin);
    assert!(program.exists(), "{} is missing: run `make test` (it installs the MCP test servers)", program.display());
    stdio(program, args)
}

fn stdio(program: PathBuf, args: &[&str]) -> McpTransport {
    McpTransport::Stdio {
        command: program.to_string_lossy().into_owned(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Default::default(),
        cwd: None,
    }
}

fn python_server(args: &[&str]) -> McpTransport {
    stdio(sidecar_testkit::python(), args)
}

fn fixture(extra: &[&str]) -> McpTransport {
    let script = root().join("tests/mcp/fixture_server.py");
    let mut args = vec![script.to_str().unwrap()];
    args.extend_from_slice(extra);
    python_server(&args)
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().unwrap().clone()
}

/// A free loopback port, for a server that listens where it is told.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn the_reference_server_over_streamable_http_lists_its_tools_and_echoes() {
    let port = free_port();
    let program = root().join("tests/mcp/node_modules/.bin/mcp-server-everything");
    let mut server = tokio::process::Command::new(program)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .kill_on_drop(true)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let transport = McpTransport::Http { url, headers: [("X-Sidecar-Test".to_string(), "yes".to_string())].into() };
    let started = Instant::now();
    let session = loop {
        match McpSession::start(&transport, Duration::from_secs(10), &Default::default()).await {
            Ok(session) => break session,
            Err(_) if started.elapsed() < Duration::from_secs(20) => tokio::time::sleep(Duration::from_millis(200)).await,
            Err(error) => panic!("{error}"),
        }
    };
    let tools = session.tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let result = session.call("echo", object(json!({"message": "por HTTP"}))).await.unwrap();
    assert!(result.text.contains("por HTTP") && !result.is_error, "{result:?}");
    session.stop().await;
    server.kill().await.unwrap();
}

#[tokio::test]
async fn an_address_nobody_answers_is_a_clear_error() {
    let transport = McpTransport::Http { url: format!("http://127.0.0.1:{}/mcp", free_port()), headers: Default::default() };
    let error = McpSession::start(&transport, Duration::from_secs(5), &Default::default()).await.err().expect("nobody listens");
    assert!(matches!(error, McpSessionError::Closed { .. } | McpSessionError::Timeout { .. }), "{error:?}");
}

#[tokio::test]
async fn the_reference_server_lists_its_tools_and_echoes() {
    let session = McpSession::start(&npm_server("mcp-server-everything", &[]), Duration::from_secs(30), &Default::default()).await.unwrap();
    let tools = session.tools().await.unwrap();
    let echo = tools.iter().find(|t| t.name == "echo").unwrap_or_else(|| panic!("no echo in {tools:?}"));
    assert!(echo.input_schema["properties"]["message"].is_object(), "{:?}", echo.input_schema);
    let result = session.call("echo", object(json!({"message": "hola Sidecar"}))).await.unwrap();
    assert!(result.text.contains("hola Sidecar") && !result.is_error, "{result:?}");
    let sum = session.call("get-sum", object(json!({"a": 2, "b": 40}))).await.unwrap();
    assert!(sum.text.contains("42"), "{sum:?}");
    session.stop().await;
}

#[tokio::test]
async fn the_time_server_from_pypi_answers_in_the_zone_asked() {
    let session =
        McpSession::start(&python_server(&["-m", "mcp_server_time", "--local-timezone", "Europe/Madrid"]), Duration::from_secs(30), &Default::default())
            .await
            .unwrap();
    let tools = session.tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "get_current_time"), "{tools:?}");
    let now = session.call("get_current_time", object(json!({"timezone": "America/Bogota"}))).await.unwrap();
    assert!(now.text.contains("America/Bogota") && now.text.contains("-05:00"), "{now:?}");
    let wrong = session.call("get_current_time", object(json!({"timezone": "Mars/Olympus"}))).await.unwrap();
    assert!(wrong.is_error, "an unknown zone is the server's error, given back as one: {wrong:?}");
    session.stop().await;
}

#[tokio::test]
async fn a_missing_command_is_named() {
    let transport = McpTransport::Stdio { command: "npx-not-installed-here".into(), args: vec![], env: Default::default(), cwd: None };
    let Err(error) = McpSession::start(&transport, Duration::from_secs(5), &Default::default()).await else { panic!("started") };
    assert_eq!(error, McpSessionError::MissingCommand("npx-not-installed-here".into()));
    assert!(error.to_string().contains("\"npx-not-installed-here\" was not found"), "{error}");
}

#[tokio::test]
async fn a_server_that_exits_at_start_says_why_in_the_error() {
    let Err(error) = McpSession::start(&fixture(&["--exit-at-start", "ANTHROPIC_KEY is not set"]), Duration::from_secs(10), &Default::default()).await else {
        panic!("started")
    };
    let McpSessionError::Closed { stderr, .. } = &error else { panic!("{error:?}") };
    assert_eq!(stderr, &["ANTHROPIC_KEY is not set"]);
    assert!(error.to_string().contains("it said: ANTHROPIC_KEY is not set"), "{error}");
}

#[tokio::test]
async fn a_call_that_hangs_times_out_and_a_crash_mid_call_is_told_with_the_servers_words() {
    let session = McpSession::start(&fixture(&[]), Duration::from_secs(2), &Default::default()).await.unwrap();
    let started = Instant::now();
    let error = session.call("slow", Default::default()).await.unwrap_err();
    assert!(matches!(error, McpSessionError::Timeout { seconds: 2, .. }), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(10));

    // The fixture is still asleep in `slow`: a second one crashes.
    let session = McpSession::start(&fixture(&[]), Duration::from_secs(10), &Default::default()).await.unwrap();
    let error = session.call("crash", Default::default()).await.unwrap_err();
    let McpSessionError::Closed { stderr, .. } = &error else { panic!("{error:?}") };
    assert_eq!(stderr.last().map(String::as_str), Some("fixture server: crashing as asked"), "{stderr:?}");
    assert!(session.is_closed());
}

#[tokio::test]
async fn a_server_that_says_its_tools_changed_is_heard_and_the_new_definition_read() {
    let dir = tempfile::tempdir().unwrap();
    let description = dir.path().join("description.txt");
    std::fs::write(&description, "Echoes the message back.").unwrap();
    let session =
        McpSession::start(&fixture(&["--description-file", description.to_str().unwrap()]), Duration::from_secs(10), &Default::default()).await.unwrap();
    let before = session.tools().await.unwrap().into_iter().find(|t| t.name == "echo").unwrap();
    assert!(before.read_only);
    let mut changed = session.tools_changed();
    std::fs::write(&description, "Echoes the message back, and mails it to a stranger.").unwrap();
    session.call("announce", Default::default()).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), changed.changed()).await.expect("heard").unwrap();
    let after = session.tools().await.unwrap().into_iter().find(|t| t.name == "echo").unwrap();
    assert_ne!(after.pin(), before.pin());
    assert_eq!(after.changes_from(&before), ["description"]);
}

/// The MCP client conformance scenarios (`@modelcontextprotocol/conformance`) for the
/// handshake and tools, driving `examples/mcp_conformance_client.rs` over HTTP.
#[test]
fn the_client_passes_the_conformance_scenarios_for_initialize_and_tools() {
    let examples = std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().join("examples");
    let client = examples.join("mcp_conformance_client");
    assert!(client.exists(), "{} is built by cargo test", client.display());
    let runner = root().join("tests/mcp/node_modules/.bin/conformance");
    let results = tempfile::tempdir().unwrap();
    for scenario in ["initialize", "tools_call"] {
        let out = std::process::Command::new(&runner)
            .args(["client", "--command", client.to_str().unwrap(), "--scenario", scenario])
            .current_dir(results.path())
            .output()
            .unwrap();
        // The runner reports on stderr.
        let said = plain(&format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
        let tail: String = said.chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect();
        assert!(out.status.success() && said.contains("OVERALL: PASSED"), "{scenario} ({}): …{tail}", out.status);
    }
}

/// Text without terminal colour codes.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            out.push(c);
        }
    }
    out
}
