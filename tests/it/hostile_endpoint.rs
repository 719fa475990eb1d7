//! The loopback endpoint as an attacker on the same computer would try it: `/mcp`
//! through the official MCP client with and without a token (the name a client gives
//! is only a label), a browser's Origin, Host headers that only start like this
//! computer's, slow and half-open connections by the hundred, and a property test over
//! random names, tokens, Origins and scopes on `/mcp` and `/v1`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{json, Value};
use sidecar::Companion;
use sidecar_memory::Category;
use sidecar_serve::McpEndpoint;
use sidecar_serve::Scope;

use crate::support;

const HEALTH: &str = "I am allergic to peanuts";
const CELLO: &str = "I play the cello on Thursdays";

async fn open(dir: &Path) -> Arc<Companion> {
    let core = support::core().settings("[llm]\nmax_retries = 0\n[connections]\napi_requests_per_minute = 100000\n").open_in(dir).await;
    core.remember(HEALTH, Category::Health).await.unwrap();
    core.remember(CELLO, Category::General).await.unwrap();
    core
}

async fn serve(core: &Companion) -> (McpEndpoint, std::net::SocketAddr) {
    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    (endpoint, address)
}

/// The official MCP Python client against `url`, under `label`, with `env` (token, Origin).
async fn python_client(url: String, label: &str, env: Vec<(&'static str, String)>, calls: Value) -> Value {
    let label = label.to_string();
    tokio::task::spawn_blocking(move || {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/sidecar_client.py");
        let mut command = Command::new(support::python());
        command.arg(&script).arg(&url).arg(&label).arg(calls.to_string()).env_remove("SIDECAR_MCP_TOKEN").env_remove("SIDECAR_MCP_ORIGIN");
        for (key, value) in env {
            command.env(key, value);
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "the client failed: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_needs_a_token_and_the_name_a_client_gives_is_only_a_label() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let hosting = core.hosting();
    // The user allowed Claude Desktop with the health scope, and gave Cursor a token
    // for general memory only.
    hosting.connections.allow("Claude Desktop", &[Scope::ReadMemory, Scope::Health]).await.unwrap();
    let cursor = hosting.tokens.issue("cursor", &[Scope::ReadMemory]).await.unwrap().token;
    let (endpoint, address) = serve(&core).await;
    let url = format!("http://{address}/mcp");
    let facts = json!([["list_facts", {}]]);

    let bare = python_client(url.clone(), "Claude Desktop", vec![], facts.clone()).await;
    assert!(bare["refused"].as_str().is_some_and(|r| r.contains("Authorization: Bearer")), "no token: {bare}");
    let wrong = python_client(url.clone(), "Claude Desktop", vec![("SIDECAR_MCP_TOKEN", "sk-sidecar-0000".into())], facts.clone()).await;
    assert!(wrong["refused"].as_str().is_some_and(|r| r.contains("not one Sidecar gave")), "a made-up token: {wrong}");

    // Cursor's token, claiming to be Claude Desktop: served as Cursor, without health.
    let posing = python_client(url.clone(), "Claude Desktop", vec![("SIDECAR_MCP_TOKEN", cursor.clone())], facts.clone()).await;
    let text = posing["results"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("cello") && !text.contains("peanuts"), "{posing}");
    let activity = hosting.connections.activity("cursor", 10).await.unwrap();
    assert!(activity.iter().any(|a| a.action == "list_facts" && a.allowed), "{activity:?}");
    assert!(hosting.connections.activity("Claude Desktop", 10).await.unwrap().is_empty(), "nothing was done as Claude Desktop");

    // A web page's Origin is refused even with the token.
    let page =
        python_client(url.clone(), "cursor", vec![("SIDECAR_MCP_TOKEN", cursor.clone()), ("SIDECAR_MCP_ORIGIN", "https://evil.example".into())], facts.clone())
            .await;
    assert!(page["refused"].as_str().is_some_and(|r| r.contains("web page")), "{page}");

    // A forgotten token stops working at once.
    hosting.tokens.forget("cursor").await.unwrap();
    let forgotten = python_client(url, "cursor", vec![("SIDECAR_MCP_TOKEN", cursor)], facts).await;
    assert!(forgotten["refused"].as_str().is_some_and(|r| r.contains("not one Sidecar gave")), "{forgotten}");
    endpoint.stop();
}

/// One raw request; the status and what came back.
fn raw(address: std::net::SocketAddr, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_only_starts_like_this_computer_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let token = core.hosting().tokens.issue("script", &[Scope::ReadMemory, Scope::Health]).await.unwrap().token;
    let (_endpoint, address) = serve(&core).await;
    let ask = |host: &str, path: &str| {
        let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n");
        tokio::task::spawn_blocking(move || raw(address, &request))
    };
    let (status, body) = ask(&format!("127.0.0.1:{}", address.port()), "/v1/facts").await.unwrap();
    assert_eq!(status, 200, "{body}");
    for host in ["[::1]evil.example", "localhost:@evil.example", "localhost.evil.example", "127.0.0.1:80@evil.example"] {
        for path in ["/v1/facts", "/mcp"] {
            let (status, body) = ask(host, path).await.unwrap();
            assert_eq!(status, 403, "{host} {path}: {body}");
            assert!(!body.contains("peanuts"), "{host} {path}: {body}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_silent_connections_neither_take_the_api_down_nor_stay_open() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let token = core.hosting().tokens.issue("script", &[Scope::ReadMemory]).await.unwrap().token;
    let (_endpoint, address) = serve(&core).await;
    // 300 connections, more than the cap and few enough for a 1,024-descriptor limit:
    // half say nothing, half stop in the middle of a request's head.
    let silent: Vec<TcpStream> = (0..300)
        .map(|n| {
            let mut stream = TcpStream::connect(address).unwrap();
            if n % 2 == 1 {
                stream.write_all(b"GET /v1/facts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").unwrap();
            }
            stream
        })
        .collect();
    // A real request still gets its answer.
    let http = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap();
    for _ in 0..5 {
        let response = http.get(format!("http://{address}/v1/facts")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert!(response.text().await.unwrap().contains("cello"));
    }
    // Every silent connection is closed by the endpoint: pushed out at the cap, or
    // when its head does not arrive in time.
    let closed = tokio::task::spawn_blocking(move || {
        silent
            .into_iter()
            .filter(|stream| {
                let mut stream = stream.try_clone().unwrap();
                stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let mut byte = [0u8; 512];
                // EOF, a reset, or hyper's 408 then EOF: closed either way; a timeout is not.
                loop {
                    match stream.read(&mut byte) {
                        Ok(0) => return true,
                        Ok(_) => continue,
                        Err(e) => return e.kind() != std::io::ErrorKind::WouldBlock && e.kind() != std::io::ErrorKind::TimedOut,
                    }
                }
            })
            .count()
    })
    .await
    .unwrap();
    assert_eq!(closed, 300);
}

/// Sends one JSON-RPC message to `/mcp`; the status, the session id and the message
/// that answers it (from JSON or from the event stream).
async fn rpc(http: &reqwest::Client, url: &str, headers: &[(String, String)], session: Option<&str>, message: Value) -> (u16, Option<String>, Option<Value>) {
    let mut request = http.post(url).header("Accept", "application/json, text/event-stream").json(&message);
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    if let Some(session) = session {
        request = request.header("Mcp-Session-Id", session);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let session = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(String::from);
    let text = response.text().await.unwrap_or_default();
    let answer = serde_json::from_str::<Value>(&text).ok().or_else(|| {
        text.lines().filter_map(|l| l.strip_prefix("data:")).filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok()).find(|m| m.get("id").is_some())
    });
    (status, session, answer)
}

/// A whole MCP exchange: initialize under `label`, then call `tool`. The tool's text, or
/// the status that stopped it, or the tool's refusal.
async fn mcp_call(http: &reqwest::Client, url: &str, headers: &[(String, String)], label: &str, tool: &str, arguments: Value) -> Result<String, String> {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": label, "version": "1"}}});
    let (status, session, _) = rpc(http, url, headers, None, init).await;
    if status != 200 {
        return Err(format!("initialize: {status}"));
    }
    let (status, _, _) = rpc(http, url, headers, session.as_deref(), json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    if status >= 300 {
        return Err(format!("initialized: {status}"));
    }
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    let (status, _, answer) = rpc(http, url, headers, session.as_deref(), call).await;
    let answer = answer.ok_or(format!("tools/call: {status}, no answer"))?;
    let result = &answer["result"];
    let text = result["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect::<Vec<_>>().join("\n");
    if result["isError"].as_bool() == Some(true) || answer.get("error").is_some() {
        return Err(format!("refused: {text}{}", answer["error"]));
    }
    Ok(text)
}

#[derive(Debug, Clone)]
enum Step {
    Issue(usize, Vec<Scope>),
    Revoke(usize),
    Forget(usize),
    Ask { client: usize, label: usize, token: Presented, origin: usize, action: usize, over_mcp: bool },
}

#[derive(Debug, Clone, Copy)]
enum Presented {
    Current,
    Stale,
    MadeUp,
    None,
}

const LABELS: [&str; 4] = ["c0", "c1", "c2", "Claude Desktop"];
const ORIGINS: [Option<&str>; 4] = [None, Some("http://localhost:5173"), Some("https://evil.example"), Some("null")];
/// (MCP tool, REST method and path, the scope it needs, whether it writes).
const ACTIONS: [(&str, &str, &str, Scope, bool); 4] = [
    ("list_facts", "GET", "/v1/facts", Scope::ReadMemory, false),
    ("list_reminders", "GET", "/v1/reminders", Scope::Reminders, false),
    ("remember_fact", "POST", "/v1/facts", Scope::WriteMemory, true),
    ("send_message", "POST", "/v1/messages", Scope::Messages, true),
];

fn step() -> impl Strategy<Value = Step> {
    let scopes = proptest::sample::subsequence(vec![Scope::ReadMemory, Scope::WriteMemory, Scope::Reminders, Scope::Messages, Scope::Health], 0..=5);
    let presented = prop_oneof![Just(Presented::Current), Just(Presented::Stale), Just(Presented::MadeUp), Just(Presented::None)];
    prop_oneof![
        (0..3usize, scopes).prop_map(|(c, s)| Step::Issue(c, s)),
        (0..3usize).prop_map(Step::Revoke),
        (0..3usize).prop_map(Step::Forget),
        (0..3usize, 0..LABELS.len(), presented, 0..ORIGINS.len(), 0..ACTIONS.len(), any::<bool>())
            .prop_map(|(client, label, token, origin, action, over_mcp)| Step::Ask { client, label, token, origin, action, over_mcp }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]
    #[test]
    fn no_request_without_a_valid_token_for_an_allowed_client_reads_or_changes_anything(steps in proptest::collection::vec(step(), 1..20)) {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async move {
            let dir = tempfile::tempdir().unwrap();
            let core = open(dir.path()).await;
            let (_endpoint, address) = serve(&core).await;
            let http = reqwest::Client::new();
            let mut current: [Option<String>; 3] = Default::default();
            let mut old: [Vec<String>; 3] = Default::default();
            let mut allowed: [Option<Vec<Scope>>; 3] = Default::default();
            for step in steps {
                let hosting = core.hosting();
                match step {
                    Step::Issue(c, scopes) => {
                        let made = hosting.tokens.issue(&format!("c{c}"), &scopes).await.unwrap().token;
                        old[c].extend(current[c].replace(made));
                        allowed[c] = Some(scopes);
                    }
                    Step::Revoke(c) => {
                        hosting.connections.revoke(&format!("c{c}")).await.unwrap();
                        allowed[c] = None;
                    }
                    Step::Forget(c) => {
                        hosting.tokens.forget(&format!("c{c}")).await.unwrap();
                        old[c].extend(current[c].take());
                    }
                    Step::Ask { client, label, token, origin, action, over_mcp } => {
                        let presented = match token {
                            Presented::Current => current[client].clone(),
                            Presented::Stale => old[client].last().cloned(),
                            Presented::MadeUp => Some(format!("sk-sidecar-{client}{label}")),
                            Presented::None => None,
                        };
                        let mut headers = Vec::new();
                        if let Some(token) = &presented {
                            headers.push(("Authorization".to_string(), format!("Bearer {token}")));
                        }
                        if let Some(origin) = ORIGINS[origin] {
                            headers.push(("Origin".to_string(), origin.to_string()));
                        }
                        let (tool, method, path, scope, writes) = ACTIONS[action];
                        let (facts_before, history_before) = (core.knowledge().facts().len(), core.conversation().history(100).await.unwrap().len());
                        let text = format!("Likes tea {client}{label}");
                        // Each MCP tool is sent what its schema takes and refuses any other field:
                        // `remember_fact` takes `fact` and `category`, `list_reminders` takes nothing;
                        // /v1/facts takes `text`.
                        let arguments = match (tool, over_mcp) {
                            ("remember_fact", true) => json!({"fact": text, "category": "General"}),
                            ("list_reminders", true) => json!({}),
                            _ => json!({"text": text}),
                        };
                        let answered = if over_mcp {
                            mcp_call(&http, &format!("http://{address}/mcp"), &headers, LABELS[label], tool, arguments.clone()).await
                        } else {
                            let mut request = http.request(method.parse().unwrap(), format!("http://{address}{path}"));
                            for (name, value) in &headers {
                                request = request.header(name.as_str(), value.as_str());
                            }
                            if writes {
                                request = request.json(&arguments);
                            }
                            let response = request.send().await.unwrap();
                            let status = response.status().as_u16();
                            let body = response.text().await.unwrap_or_default();
                            if status < 300 { Ok(body) } else { Err(format!("{status}: {body}")) }
                        };
                        let valid = matches!(token, Presented::Current) && presented.is_some();
                        let page = ORIGINS[origin].is_some_and(|o| !o.starts_with("http://localhost"));
                        let scopes = allowed[client].clone().filter(|_| valid && !page);
                        let may = scopes.as_ref().is_some_and(|s| s.contains(&scope));
                        let said = format!("{tool} over {} by c{client} as {:?} ({token:?}, origin {:?}, allowed {:?}): {answered:?}", if over_mcp { "mcp" } else { "rest" }, LABELS[label], ORIGINS[origin], allowed[client]);
                        assert_eq!(answered.is_ok(), may, "{said}");
                        let shown = answered.clone().unwrap_or_else(|e| e);
                        assert!(!shown.contains("cello") || may, "{said}");
                        assert!(!shown.contains("peanuts") || scopes.as_ref().is_some_and(|s| s.contains(&Scope::Health)), "{said}");
                        if !may {
                            assert_eq!(core.knowledge().facts().len(), facts_before, "a refused request saved a fact: {said}");
                            assert_eq!(core.conversation().history(100).await.unwrap().len(), history_before, "a refused request posted a message: {said}");
                        }
                    }
                }
            }
        });
    }
}
