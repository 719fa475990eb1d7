//! `sidecar mcp serve` driven by the official MCP Python SDK client, as Claude Desktop
//! or a script would: a client gets nothing until the user allows it, then only what
//! its scopes cover (health facts only with that scope), and a revocation holds at the
//! next call. Every call is in the client's activity.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::support;

fn sidecar(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    cmd.env("SIDECAR_DATA_DIR", data).env("SIDECAR_CONFIG", data.join("settings.toml")).env_remove("SIDECAR_MCP_CONFIG").env("SIDECAR_RUNTIME", "off");
    cmd
}

fn run(data: &Path, args: &[&str]) -> String {
    let out = sidecar(data).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Connects as `client`, makes `calls`, and returns (tools listed, each call's (error, text)).
fn connect(data: &Path, client: &str, calls: Value) -> (Vec<String>, Vec<(bool, String)>) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/sidecar_client.py");
    let out = Command::new(support::python())
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_sidecar"))
        .arg(client)
        .arg(calls.to_string())
        .env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("settings.toml"))
        .env("SIDECAR_RUNTIME", "off")
        .output()
        .unwrap();
    assert!(out.status.success(), "the client failed: {}", String::from_utf8_lossy(&out.stderr));
    let said: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let tools = said["tools"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
    let results = said["results"].as_array().unwrap().iter().map(|r| (r["error"].as_bool().unwrap(), r["text"].as_str().unwrap().to_string())).collect();
    (tools, results)
}

#[test]
fn a_client_gets_nothing_until_allowed_then_only_its_scopes_until_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    std::fs::write(data.join("settings.toml"), "[llm]\nmax_retries = 0\n[user]\ntimezone = \"Europe/Madrid\"\n").unwrap();
    run(data, &["remember", "Health", "I am allergic to peanuts"]);
    run(data, &["remember", "Preferences", "I cook Thai food without peanuts on Sundays"]);

    // A stranger: the tools are listed, every call is refused and says how to allow it.
    let (tools, results) = connect(data, "claude-desktop", json!([["recall", {"query": "peanuts"}], ["list_reminders", {}]]));
    assert_eq!(tools, ["cancel_reminder", "list_facts", "list_reminders", "recall", "remember_fact", "send_message", "set_reminder"]);
    assert!(results.iter().all(|(error, text)| *error && text.contains("sidecar connections allow claude-desktop")), "{results:?}");
    let (_, read) = connect(data, "claude-desktop", json!([["resource:sidecar://profile", {}]]));
    assert!(read[0].0 && read[0].1.contains("sidecar connections allow"), "resources wait for consent too: {read:?}");
    assert!(run(data, &["connections", "list"]).contains("claude-desktop  pending"));

    // Allowed to read memory: recall and facts answer, without health; reminders do not.
    run(data, &["connections", "allow", "claude-desktop", "--scopes", "read_memory"]);
    let (_, results) = connect(
        data,
        "claude-desktop",
        json!([["recall", {"query": "peanuts"}], ["list_facts", {}], ["set_reminder", {"message": "call mum", "when": "tomorrow at 9"}], ["resource:sidecar://facts", {}], ["resource:sidecar://profile", {}], ["send_message", {"text": "hello"}]]),
    );
    assert!(results[5].0 && results[5].1.contains("messages scope"), "a note needs the messages scope: {results:?}");
    assert!(!results[0].0 && results[0].1.contains("Thai food") && !results[0].1.contains("allergic"), "{results:?}");
    assert!(!results[1].0 && results[1].1.contains("Thai food") && !results[1].1.contains("allergic"), "{results:?}");
    assert!(results[2].0 && results[2].1.contains("reminders scope"), "{results:?}");
    assert!(!results[3].0 && results[3].1.contains("Thai food") && !results[3].1.contains("allergic"), "the facts resource holds health back too: {results:?}");
    assert!(!results[4].0, "the profile reads: {results:?}");
    // Another client is not let in by this one's consent.
    let (_, other) = connect(data, "some-script", json!([["recall", {"query": "peanuts"}]]));
    assert!(other[0].0, "{other:?}");

    // With health and reminders: the allergy shows, and a reminder is set in the user's zone.
    run(data, &["connections", "allow", "claude-desktop", "--scopes", "read_memory,health,reminders,messages"]);
    let (_, results) = connect(
        data,
        "claude-desktop",
        json!([["recall", {"query": "peanuts"}], ["set_reminder", {"message": "call mum", "when": "tomorrow at 9"}], ["list_reminders", {}], ["send_message", {"text": "Your flight leaves at 7."}], ["send_message", {"text": " "}]]),
    );
    assert!(!results[3].0, "{results:?}");
    assert!(results[4].0 && results[4].1.contains("empty"), "{results:?}");
    assert!(run(data, &["history"]).contains("From claude-desktop: Your flight leaves at 7."), "the note is in the user's chat, said as from the program");
    assert!(results[0].1.contains("allergic"), "{results:?}");
    assert!(!results[1].0, "{results:?}");
    assert!(results[2].1.contains("call mum") && results[2].1.contains("09:00"), "{results:?}");
    assert!(run(data, &["reminders"]).contains("call mum"), "the reminder is Sidecar's own");

    // Revoked: the next call is refused, and everything it did is listed.
    run(data, &["connections", "revoke", "claude-desktop"]);
    let (_, results) = connect(data, "claude-desktop", json!([["recall", {"query": "peanuts"}]]));
    assert!(results[0].0 && results[0].1.contains("revoked"), "{results:?}");
    let activity = run(data, &["connections", "activity", "claude-desktop"]);
    assert_eq!(activity.lines().filter(|l| l.contains("refused")).count(), 6, "{activity}");
    assert_eq!(activity.lines().filter(|l| l.contains("served")).count(), 9, "{activity}");
}

/// The same server over streamable HTTP from the running app: on loopback only, a
/// client is whoever holds the token it presents (made when the user allows it), and a
/// stopped endpoint answers nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_endpoint_serves_only_allowed_clients_on_loopback() {
    use sidecar_serve::McpEndpoint;
    let core = crate::support::core().settings("[llm]\nmax_retries = 0\n").open().await;
    core.remember("I play the cello on Thursdays", sidecar_memory::Category::General).await.unwrap();
    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    assert!(address.ip().is_loopback());
    let url = endpoint.view().url.unwrap();
    assert_eq!(url, format!("http://{address}/mcp"));
    let data = core.dir.path().to_path_buf();
    let over_http = |calls: Value, token: Option<String>| {
        let (url, data) = (url.clone(), data.clone());
        tokio::task::spawn_blocking(move || {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/sidecar_client.py");
            let mut command = Command::new(support::python());
            command.arg(&script).arg(&url).arg("cursor").arg(calls.to_string()).env("SIDECAR_DATA_DIR", &data).env_remove("SIDECAR_MCP_TOKEN");
            if let Some(token) = token {
                command.env("SIDECAR_MCP_TOKEN", token);
            }
            let out = command.output().unwrap();
            assert!(out.status.success(), "the client failed: {}", String::from_utf8_lossy(&out.stderr));
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        })
    };
    let refused = over_http(json!([["recall", {"query": "cello"}]]), None).await.unwrap();
    assert!(refused["refused"].as_str().unwrap().contains("sidecar connections token"), "{refused}");
    let token = core.hosting().tokens.issue("cursor", &[sidecar_serve::Scope::ReadMemory]).await.unwrap().token;
    let served = over_http(json!([["recall", {"query": "cello"}], ["resource:sidecar://facts", {}]]), Some(token)).await.unwrap();
    assert_eq!(served["results"][0]["error"], false, "{served}");
    assert!(served["results"][0]["text"].as_str().unwrap().contains("cello") && served["results"][1]["text"].as_str().unwrap().contains("cello"), "{served}");
    endpoint.stop();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(std::net::TcpStream::connect(address).is_err(), "stopped, nothing listens");
    assert_eq!(endpoint.view().url, None);
    // A port already taken is said, in the user's language, and nothing else breaks.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    assert!(endpoint.start(core.mcp_server(), core.local_api(), port, sidecar::words::Lang::Es).await.is_err());
    let view = endpoint.view();
    assert!(view.url.is_none() && view.problem.as_deref().is_some_and(|p| p.contains(&format!("No se pudo usar el puerto {port}"))), "{view:?}");
}

/// The MCP server conformance scenarios (`@modelcontextprotocol/conformance`) that fit a
/// server of tools and resources, against the HTTP endpoint: the handshake, ping, the
/// lists, and DNS rebinding protection (a page in a browser cannot reach it). The
/// runner cannot send a token, so a proxy adds one a user made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_endpoint_passes_the_conformance_scenarios_that_apply() {
    use sidecar_serve::McpEndpoint;
    let core = crate::support::core().settings("[llm]\nmax_retries = 0\n").open().await;
    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    let token = core.hosting().tokens.issue("conformance", &[sidecar_serve::Scope::ReadMemory]).await.unwrap().token;
    let url = format!("{}/mcp", support::token_proxy::start(format!("http://{address}"), token).await);
    let runner = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/node_modules/.bin/conformance");
    // The runner writes its results where it runs.
    let results = tempfile::tempdir().unwrap();
    for scenario in ["server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"] {
        let (runner, url, cwd) = (runner.clone(), url.clone(), results.path().to_path_buf());
        let out = tokio::task::spawn_blocking(move || {
            Command::new(&runner).args(["server", "--url", &url, "--scenario", scenario]).current_dir(cwd).output().unwrap()
        })
        .await
        .unwrap();
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && said.contains(", 0 failed") && !said.contains("FAILURE"), "{scenario}: {said}");
    }
    endpoint.stop();
}
