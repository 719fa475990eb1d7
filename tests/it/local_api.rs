//! Sidecar's local HTTP API as a script would use it: plain HTTP for REST (no token,
//! a wrong token, a scope not given, an oversized body, a foreign Host, many clients at
//! once, the request budget), and the official `openai` Python client for chat
//! completions (whole and streamed). The property test over tokens, scopes, Origins and
//! names, on `/v1` and `/mcp` alike, is in `hostile_endpoint`.

use sidecar_proactive::ProactiveStore;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use sidecar::Companion;
use sidecar_serve::McpEndpoint;
use sidecar_serve::Scope;

use crate::support::{self, reply_events, stream, ScriptedServer};

async fn open(dir: &Path, extra: &str) -> Arc<Companion> {
    support::core().settings(&format!("[llm]\nmax_retries = 0\n[user]\ntimezone = \"Europe/Madrid\"\n{extra}")).open_in(dir).await
}

/// The endpoint on a free port; its base, `http://127.0.0.1:PORT`.
async fn serve(core: &Companion) -> (McpEndpoint, String) {
    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    (endpoint, format!("http://{address}"))
}

async fn token(core: &Companion, name: &str, scopes: &[Scope]) -> String {
    core.hosting().tokens.issue(name, scopes).await.unwrap().token
}

/// (status, JSON body) of one request.
async fn call(http: &reqwest::Client, method: reqwest::Method, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut request = http.request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_a_wrong_token_or_a_missing_scope_gets_nothing_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), "").await;
    core.remember("I am allergic to peanuts", sidecar_memory::Category::Health).await.unwrap();
    core.remember("I play the cello on Thursdays", sidecar_memory::Category::General).await.unwrap();
    let (_endpoint, base) = serve(&core).await;
    let http = reqwest::Client::new();
    let get = reqwest::Method::GET;

    let (status, spec) = call(&http, get.clone(), &format!("{base}/v1/openapi.json"), None, None).await;
    assert_eq!((status, spec["openapi"].as_str()), (200, Some("3.1.0")), "the description needs no token");
    assert!(spec["paths"]["/v1/chat/completions"]["post"].is_object());

    let (status, error) = call(&http, get.clone(), &format!("{base}/v1/facts"), None, None).await;
    assert_eq!(status, 401);
    assert_eq!(error["error"]["type"], "authentication_error");
    assert!(error["error"]["message"].as_str().unwrap().contains("sidecar connections token"), "{error}");
    let (status, _) = call(&http, get.clone(), &format!("{base}/v1/facts"), Some("sk-sidecar-000000"), None).await;
    assert_eq!(status, 401, "a token Sidecar never gave");

    let reader = token(&core, "script", &[Scope::ReadMemory]).await;
    assert!(reader.starts_with("sk-sidecar-") && reader.len() > 40, "{reader}");
    let (status, facts) = call(&http, get.clone(), &format!("{base}/v1/facts"), Some(&reader), None).await;
    assert_eq!(status, 200, "{facts}");
    let texts: Vec<&str> = facts["facts"].as_array().unwrap().iter().map(|f| f["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["I play the cello on Thursdays"], "health facts stay out without the health scope");
    let (status, found) = call(&http, reqwest::Method::POST, &format!("{base}/v1/recall"), Some(&reader), Some(json!({"query": "peanuts cello"}))).await;
    assert_eq!(status, 200, "{found}");
    assert!(found.to_string().contains("cello") && !found.to_string().contains("allergic"), "health facts stay out of recall too: {found}");

    // Scopes not given: refused with a word on how to give them, and nothing changes.
    let (status, error) = call(&http, reqwest::Method::POST, &format!("{base}/v1/facts"), Some(&reader), Some(json!({"text": "I like jazz"}))).await;
    assert_eq!((status, error["error"]["type"].as_str()), (403, Some("permission_error")), "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains("write_memory"), "{error}");
    assert_eq!(core.knowledge().facts().len(), 2);
    let (status, _) =
        call(&http, reqwest::Method::POST, &format!("{base}/v1/reminders"), Some(&reader), Some(json!({"text": "x", "when": "tomorrow at 9"}))).await;
    assert_eq!(status, 403);
    assert!(core.reminders().pending().await.unwrap().is_empty());
    let (status, _) = call(
        &http,
        reqwest::Method::POST,
        &format!("{base}/v1/chat/completions"),
        Some(&reader),
        Some(json!({"messages": [{"role": "user", "content": "hi"}]})),
    )
    .await;
    assert_eq!(status, 403, "chatting needs its own scope");

    // Bad requests: an oversized body, a malformed one, an unknown path, a foreign Host.
    let huge = "x".repeat(sidecar_serve::MAX_BODY_BYTES + 10);
    let (status, error) = call(&http, reqwest::Method::POST, &format!("{base}/v1/recall"), Some(&reader), Some(json!({"query": huge}))).await;
    assert_eq!(status, 413, "{error}");
    let (status, error) = call(&http, reqwest::Method::POST, &format!("{base}/v1/recall"), Some(&reader), Some(json!({"q": "cello"}))).await;
    assert_eq!((status, error["error"]["type"].as_str()), (400, Some("invalid_request_error")), "{error}");
    let (status, error) = call(&http, get.clone(), &format!("{base}/v1/nothing"), Some(&reader), None).await;
    assert_eq!(status, 404, "{error}");
    let rebound = http.get(format!("{base}/v1/facts")).bearer_auth(&reader).header("Host", "evil.example").send().await.unwrap();
    assert_eq!(rebound.status().as_u16(), 403, "a page that rebinds its domain to this computer is refused");

    // Revoked: refused at once; its token forgotten: not even known.
    let hosting = core.hosting();
    hosting.connections.revoke("script").await.unwrap();
    let (status, error) = call(&http, get.clone(), &format!("{base}/v1/facts"), Some(&reader), None).await;
    assert_eq!(status, 403, "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains("revoked"), "{error}");
    hosting.tokens.forget("script").await.unwrap();
    let (status, _) = call(&http, get.clone(), &format!("{base}/v1/facts"), Some(&reader), None).await;
    assert_eq!(status, 401);
    // A new token replaces the old one.
    let first = token(&core, "notebook", &[Scope::ReadMemory]).await;
    let second = token(&core, "notebook", &[Scope::ReadMemory]).await;
    assert_eq!(call(&http, get.clone(), &format!("{base}/v1/facts"), Some(&first), None).await.0, 401);
    assert_eq!(call(&http, get.clone(), &format!("{base}/v1/facts"), Some(&second), None).await.0, 200);

    // Everything it did, served or refused, is in its activity.
    let activity = hosting.connections.activity("script", 50).await.unwrap();
    assert!(activity.iter().any(|a| a.action == "POST /v1/facts" && !a.allowed), "{activity:?}");
    assert!(activity.iter().any(|a| a.action == "GET /v1/facts" && a.allowed), "{activity:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_facts_and_notes_go_in_and_come_back_out() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), "").await;
    let (_endpoint, base) = serve(&core).await;
    let http = reqwest::Client::new();
    let helper = token(&core, "home-assistant", &[Scope::Reminders, Scope::WriteMemory, Scope::Messages]).await;

    let (status, set) = call(
        &http,
        reqwest::Method::POST,
        &format!("{base}/v1/reminders"),
        Some(&helper),
        Some(json!({"text": "take the bins out", "when": "tomorrow at 21:00"})),
    )
    .await;
    assert_eq!(status, 201, "{set}");
    assert!(set["said"].as_str().unwrap().contains("take the bins out"), "{set}");
    let id = set["reminder"]["id"].as_i64().unwrap();
    let (status, listed) = call(&http, reqwest::Method::GET, &format!("{base}/v1/reminders"), Some(&helper), None).await;
    assert_eq!((status, listed["reminders"][0]["id"].as_i64()), (200, Some(id)), "{listed}");
    let (status, _) =
        call(&http, reqwest::Method::POST, &format!("{base}/v1/reminders"), Some(&helper), Some(json!({"text": "x", "when": "the day after never"}))).await;
    assert_eq!(status, 400, "a time it cannot read is the client's to fix");
    let (status, _) = call(&http, reqwest::Method::DELETE, &format!("{base}/v1/reminders/{id}"), Some(&helper), None).await;
    assert_eq!(status, 200);
    assert!(core.reminders().pending().await.unwrap().is_empty());
    assert_eq!(call(&http, reqwest::Method::DELETE, &format!("{base}/v1/reminders/{id}"), Some(&helper), None).await.0, 404);

    let (status, saved) =
        call(&http, reqwest::Method::POST, &format!("{base}/v1/facts"), Some(&helper), Some(json!({"text": "Has a heat pump", "category": "General"}))).await;
    assert_eq!((status, saved["saved"]["action"].as_str()), (200, Some("new")), "{saved}");
    let (status, _) =
        call(&http, reqwest::Method::POST, &format!("{base}/v1/facts"), Some(&helper), Some(json!({"text": "Takes insulin", "category": "Health"}))).await;
    assert_eq!(status, 403, "health facts are saved only with the health scope");
    assert_eq!(core.knowledge().facts().iter().map(|f| f.fact.text.as_str()).collect::<Vec<_>>(), ["Has a heat pump"]);

    let (status, posted) =
        call(&http, reqwest::Method::POST, &format!("{base}/v1/messages"), Some(&helper), Some(json!({"text": "The washing machine is done."}))).await;
    assert_eq!(status, 201, "{posted}");
    let history = core.conversation().history(10).await.unwrap();
    let note = history.iter().find(|m| m.content.contains("washing machine")).expect("the note is in the chat");
    assert!(note.content.contains("home-assistant"), "it says who left it: {}", note.content);
    let (status, _) = call(&http, reqwest::Method::POST, &format!("{base}/v1/messages"), Some(&helper), Some(json!({"text": "x".repeat(2001)}))).await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_clients_at_once_are_each_served_and_one_that_floods_waits() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), "").await;
    core.remember("I play the cello on Thursdays", sidecar_memory::Category::General).await.unwrap();
    let (_endpoint, base) = serve(&core).await;
    let http = reqwest::Client::new();
    let mut tokens = Vec::new();
    for n in 0..8 {
        tokens.push(token(&core, &format!("client-{n}"), &[Scope::ReadMemory]).await);
    }
    let calls = tokens.iter().flat_map(|token| (0..10).map(move |_| token.clone())).map(|token| {
        let (http, url) = (http.clone(), format!("{base}/v1/facts"));
        tokio::spawn(async move { http.get(url).bearer_auth(token).send().await.unwrap().status().as_u16() })
    });
    let statuses: Vec<u16> = futures_util::future::join_all(calls).await.into_iter().map(Result::unwrap).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");

    let mut limited = None;
    let burst = sidecar_serve::RateLimit::new(sidecar_settings::DEFAULT_API_PER_MINUTE).burst();
    for _ in 0..burst + 5 {
        let response = http.get(format!("{base}/v1/facts")).bearer_auth(&tokens[0]).send().await.unwrap();
        if response.status().as_u16() == 429 {
            limited = Some(response.headers().get("retry-after").and_then(|h| h.to_str().ok()).map(str::to_string));
            break;
        }
    }
    assert_eq!(limited, Some(Some("1".to_string())), "past its budget a client is told when to come back");
    assert_eq!(http.get(format!("{base}/v1/facts")).bearer_auth(&tokens[1]).send().await.unwrap().status().as_u16(), 200, "the others go on");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openai_client_chats_with_sidecar_whole_and_streamed() {
    let llm = ScriptedServer::start(vec![stream(reply_events(&["You play ", "the cello."])), stream(reply_events(&["On Fridays ", "you ", "rest."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("[[providers]]\nid = \"primary\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n", llm.base_url)).await;
    let (_endpoint, base) = serve(&core).await;
    let chatter = token(&core, "my-script", &[Scope::Chat]).await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api/openai_client.py");
    let url = format!("{base}/v1");
    let out = tokio::task::spawn_blocking(move || std::process::Command::new(support::python()).arg(&script).arg(&url).arg(&chatter).output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "the client failed: {}", String::from_utf8_lossy(&out.stderr));
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["reply"], "You play the cello.");
    assert_eq!(said["streamed"], "On Fridays you rest.");
    assert!(said["chunks"].as_u64().unwrap() >= 2, "it came in pieces: {said}");
    assert_eq!(said["models"], json!(["sidecar"]));
    assert!(said["wrong_token"].as_str().unwrap().starts_with("401"), "{said}");
    // Both turns are the user's own conversation, said on the API's channel.
    let history = core.conversation().history(10).await.unwrap();
    let asked: Vec<&str> = history.iter().filter(|m| m.role == sidecar_llm::Role::User).map(|m| m.content.as_str()).collect();
    assert_eq!(asked, ["What do I play on Thursdays?", "And on Fridays?"]);
    assert!(history.iter().all(|m| m.channel == Some(sidecar_proactive::Channel::Api)), "{history:?}");
    // A program talking is not the user at the desk: Sidecar's sense of where they are is untouched.
    let state = core.store().proactive().proactive_state().await.unwrap();
    assert_eq!((state.last_active_channel, state.last_desk_activity_at), (None, None));
}

/// What a request asks for, in the property test.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_only_talks_it_cannot_run_the_users_commands() {
    let llm = ScriptedServer::start(vec![stream(reply_events(&["Noted."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("[[providers]]\nid = \"primary\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n", llm.base_url)).await;
    core.send("I had paella today").await.unwrap();
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let (_endpoint, base) = serve(&core).await;
    let chatter = token(&core, "my-script", &[Scope::Chat]).await;
    let http = reqwest::Client::new();
    let (status, reply) = call(
        &http,
        reqwest::Method::POST,
        &format!("{base}/v1/chat/completions"),
        Some(&chatter),
        Some(json!({"messages": [{"role": "user", "content": "/clear"}]})),
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["choices"][0]["message"]["content"], "Noted.", "the model answered it as words");
    assert_eq!(core.store().conversations().current_conversation().await.unwrap(), conversation, "the user's conversation was not cleared");
    assert!(core.conversation().history(10).await.unwrap().iter().any(|m| m.content.contains("paella")));
}
