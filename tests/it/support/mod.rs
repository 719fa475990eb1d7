//! Test support: a scripted OpenAI-compatible HTTP server on loopback.
//!
//! Written on raw TCP rather than a mock framework so it can misbehave precisely:
//! cut a chunked stream mid-reply, close early, or never answer.

#![allow(dead_code)]

pub(crate) mod asker;
pub(crate) mod bot_api;
mod core;
pub(crate) mod file_server;
pub(crate) mod notifications;
pub(crate) mod plan_tasks;
pub(crate) mod radicale;
pub(crate) mod runtime;
pub(crate) mod test_clock;
pub(crate) mod token_proxy;
pub(crate) mod tools;
pub(crate) mod web_site;
#[allow(unused_imports)]
pub(crate) use core::{core, TestCore};
pub(crate) use runtime::runtime;

/// `[memory.embeddings]` on the light embedder (multilingual-e5-small). With the runtime
/// in place, "automatic" would start EmbeddingGemma's 1 GB server on a computer with the
/// memory for it; only what is about EmbeddingGemma wants that.
pub(crate) const LIGHT_EMBEDDER: &str = "[memory.embeddings]\nbackend = \"local\"\n";

/// The embedder the facts tests run with: `SIDECAR_TEST_EMBEDDER` (`local`, the default:
/// multilingual-e5-small; `gemma`: EmbeddingGemma, the default of a machine with 8 GB).
/// `make test` runs them with each (issue 68: a rule tuned on one embedder failed with
/// the other).
pub(crate) fn test_backend() -> String {
    std::env::var("SIDECAR_TEST_EMBEDDER").unwrap_or_else(|_| "local".into())
}

/// `settings` on the light embedder (see [`LIGHT_EMBEDDER`]).
pub(crate) fn light_embedder(settings: &mut sidecar_settings::Settings) {
    settings.memory.embeddings.backend = sidecar_settings::EmbeddingsBackend::Local;
}

/// A companion in `dir` on the embedder `backend` names (`local`, `gemma`…), in Madrid,
/// with the offline runtime beside it.
pub(crate) async fn open_on(dir: &std::path::Path, backend: &str) -> std::sync::Arc<sidecar::Companion> {
    let mut settings: sidecar_settings::Settings =
        toml::from_str(&format!("[user]\ntimezone = \"Europe/Madrid\"\n[memory.embeddings]\nbackend = \"{backend}\"\n")).unwrap();
    settings.local_model.runtime = Some(runtime());
    sidecar::Companion::open(sidecar::CompanionOptions::new(dir.to_path_buf(), settings)).await.unwrap()
}

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with one request.
#[derive(Debug, Clone)]
pub(crate) enum Reply {
    /// An SSE stream of these `data:` payloads, `delay` apart, then `[DONE]`.
    Stream { events: Vec<String>, delay: Duration },
    /// The SSE events, then the connection is dropped mid-body (no chunked terminator).
    CutAfter { events: Vec<String> },
    /// The SSE events, then a clean end of the body, with no finish reason or [DONE].
    EndsEarly { events: Vec<String> },
    /// A plain HTTP error.
    Status { code: u16, body: String },
    /// Raw SSE frames written as given (each should end with a blank line), with no
    /// `[DONE]`: the Anthropic format.
    Sse { frames: Vec<String> },
    /// HTTP 429 with a `Retry-After` header (seconds).
    RateLimited { retry_after_secs: u32 },
    /// Accepts the request and never answers.
    Hang,
    /// Sends headers and the events, then goes silent without closing.
    StallAfter { events: Vec<String> },
}

/// A recorded request: its body as JSON.
pub(crate) type Recorded = Arc<Mutex<Vec<serde_json::Value>>>;

pub(crate) struct ScriptedServer {
    pub base_url: String,
    pub requests: Recorded,
    /// The request heads (request line and headers), lower-cased.
    pub heads: Arc<Mutex<Vec<String>>>,
}

impl ScriptedServer {
    /// Serves `replies` in order, one per request; the last one repeats.
    pub(crate) async fn start(replies: Vec<Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests: Recorded = Arc::default();
        let recorded = requests.clone();
        let heads: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen_heads = heads.clone();
        let replies = Arc::new(replies);
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { return };
                let (replies, next) = (replies.clone(), next.clone());
                let recorded = recorded.clone();
                let seen_heads = seen_heads.clone();
                tokio::spawn(async move { serve(socket, &replies, &next, recorded, seen_heads).await });
            }
        });
        Self { base_url: format!("http://127.0.0.1:{port}/v1"), requests, heads }
    }

    /// Answers each request with what `respond` makes of its JSON body (for long
    /// replays where the order of requests is not known in advance).
    pub(crate) async fn responding(respond: impl Fn(&serde_json::Value) -> Reply + Send + Sync + 'static) -> Self {
        let respond = Arc::new(respond);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests: Recorded = Arc::default();
        let recorded = requests.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else { return };
                let recorded = recorded.clone();
                let respond = respond.clone();
                tokio::spawn(async move {
                    let Some((_, body)) = read_request(&mut socket).await else { return };
                    let json = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
                    let reply = respond(&json);
                    recorded.lock().unwrap().push(json);
                    write_reply(socket, reply).await;
                });
            }
        });
        Self { base_url: format!("http://127.0.0.1:{port}/v1"), requests, heads: Arc::default() }
    }

    pub(crate) fn request_count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    pub(crate) fn last_request(&self) -> serde_json::Value {
        self.requests.lock().unwrap().last().cloned().expect("a request")
    }
}

/// A chat.completion.chunk carrying `text`.
pub(crate) fn delta(text: &str) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]
    })
    .to_string()
}

/// The closing chunk with a finish reason.
pub(crate) fn finish(reason: &str) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]
    })
    .to_string()
}

/// The usage chunk OpenAI sends last when `stream_options.include_usage` is set.
pub(crate) fn usage(input: u32, output: u32) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [],
        "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output}
    })
    .to_string()
}

/// A reply that calls tools: each `(id, name, arguments)` streamed the way OpenAI does
/// (id and name first, arguments in two fragments), then `tool_calls` and usage.
pub(crate) fn tool_call_events(calls: &[(&str, &str, &str)]) -> Vec<String> {
    let mut events = Vec::new();
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        let chunk = |call: serde_json::Value| {
            serde_json::json!({
                "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
                "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]
            })
            .to_string()
        };
        events.push(chunk(serde_json::json!({
            "index": index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}
        })));
        let cut = arguments.len() / 2;
        let cut = (0..=cut).rev().find(|i| arguments.is_char_boundary(*i)).unwrap_or(0);
        for piece in [&arguments[..cut], &arguments[cut..]] {
            events.push(chunk(serde_json::json!({"index": index, "function": {"arguments": piece}})));
        }
    }
    events.push(finish("tool_calls"));
    events.push(usage(30, 10));
    events
}

/// An Anthropic SSE frame: `event: TYPE` and its JSON data.
pub(crate) fn anthropic_frame(data: serde_json::Value) -> String {
    format!("event: {}\ndata: {}\n\n", data["type"].as_str().unwrap_or("unknown"), data)
}

/// Streams `events` at once (no delay between them).
pub(crate) fn stream(events: Vec<String>) -> Reply {
    Reply::Stream { events, delay: Duration::ZERO }
}

/// A whole reply: the text in pieces, a finish reason and usage.
pub(crate) fn reply_events(pieces: &[&str]) -> Vec<String> {
    let mut events: Vec<String> = pieces.iter().map(|p| delta(p)).collect();
    events.push(finish("stop"));
    events.push(usage(20, pieces.len() as u32));
    events
}

/// Serves one request: a model list for a GET (a provider check, like a real server's
/// `/models`), else the next scripted reply, in the order requests arrive.
async fn serve(mut socket: TcpStream, replies: &[Reply], next: &std::sync::atomic::AtomicUsize, recorded: Recorded, heads: Arc<Mutex<Vec<String>>>) {
    let Some((head, body)) = read_request(&mut socket).await else { return };
    if head.starts_with("get ") {
        let list = r#"{"object":"list","data":[{"id":"scripted","object":"model"}]}"#;
        let response = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{list}", list.len());
        let _ = socket.write_all(response.as_bytes()).await;
        return;
    }
    let index = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let reply = replies[index.min(replies.len() - 1)].clone();
    heads.lock().unwrap().push(head);
    recorded.lock().unwrap().push(serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null));
    write_reply(socket, reply).await;
}

async fn write_reply(mut socket: TcpStream, reply: Reply) {
    match reply {
        Reply::Stream { events, delay } => {
            start_chunked(&mut socket).await;
            for e in events {
                tokio::time::sleep(delay).await;
                send_chunk(&mut socket, &format!("data: {e}\n\n")).await;
            }
            send_chunk(&mut socket, "data: [DONE]\n\n").await;
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
        Reply::CutAfter { events } => {
            start_chunked(&mut socket).await;
            for e in events {
                send_chunk(&mut socket, &format!("data: {e}\n\n")).await;
            }
            let _ = socket.flush().await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            // Dropped without the terminating zero-length chunk.
        }
        Reply::EndsEarly { events } => {
            start_chunked(&mut socket).await;
            for e in events {
                send_chunk(&mut socket, &format!("data: {e}\n\n")).await;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
        Reply::Status { code, body } => {
            let head = format!("HTTP/1.1 {code} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len());
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(body.as_bytes()).await;
        }
        Reply::Sse { frames } => {
            start_chunked(&mut socket).await;
            for frame in frames {
                send_chunk(&mut socket, &frame).await;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
        Reply::RateLimited { retry_after_secs } => {
            let body = r#"{"error":{"message":"rate limited"}}"#;
            let head = format!(
                "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: {retry_after_secs}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(body.as_bytes()).await;
        }
        Reply::Hang => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Reply::StallAfter { events } => {
            start_chunked(&mut socket).await;
            for e in events {
                send_chunk(&mut socket, &format!("data: {e}\n\n")).await;
            }
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
    }
}

async fn start_chunked(socket: &mut TcpStream) {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
    let _ = socket.write_all(head.as_bytes()).await;
}

async fn send_chunk(socket: &mut TcpStream, data: &str) {
    let framed = format!("{:x}\r\n{data}\r\n", data.len());
    let _ = socket.write_all(framed.as_bytes()).await;
    let _ = socket.flush().await;
}

/// Reads headers and a content-length body; returns the lower-cased head and the body.
pub(crate) async fn read_request(socket: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).to_ascii_lowercase();
    let length: usize = head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    while buffer.len() < header_end + length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    Some((head, buffer[header_end..].to_vec()))
}

/// The venv's Python, for the fixture servers written in Python: `SIDECAR_TEST_PYTHON`,
/// else the repository's `.venv` that `make test` creates.
pub(crate) fn python() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("SIDECAR_TEST_PYTHON") {
        return p.into();
    }
    let default = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    assert!(default.exists(), "the test venv is missing: run `make test` first, or set SIDECAR_TEST_PYTHON");
    default
}

/// What a message said, without the per-turn block Sidecar adds to the newest user message
/// of a request (the time, the plan, corrections).
pub(crate) fn said(message: &serde_json::Value) -> String {
    sidecar_llm::per_turn::split(message["content"].as_str().unwrap_or_default()).0.to_string()
}

/// The per-turn block of a request's newest user message that carries one (a turn's own
/// message; Sidecar's "go on with your plan" after it carries none).
pub(crate) fn late_block(request: &serde_json::Value) -> String {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .filter(|m| m["role"] == "user")
        .find_map(|m| sidecar_llm::per_turn::split(m["content"].as_str().unwrap_or_default()).1)
        .unwrap_or_default()
        .to_string()
}

/// A companion on `dir` with the settings in `config`, which it also writes to (as the
/// app does when Settings changes something).
pub(crate) async fn open_with_config(dir: &std::path::Path, config: &std::path::Path) -> std::sync::Arc<sidecar::Companion> {
    let settings = sidecar_settings::Settings::load(config).unwrap();
    sidecar::Companion::open(sidecar::CompanionOptions {
        config_path: Some(config.to_path_buf()),
        ..sidecar::CompanionOptions::new(dir.to_path_buf(), settings)
    })
    .await
    .unwrap()
}

/// Collects everything logged, at every level, into a shared buffer.
#[derive(Clone, Default)]
pub(crate) struct LogBuffer(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    /// Everything logged so far.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// A subscriber writing every level here, for `tracing::subscriber::set_default`.
    pub(crate) fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync {
        let writer = self.clone();
        tracing_subscriber::fmt().with_max_level(tracing::Level::TRACE).with_ansi(false).with_writer(move || writer.clone()).finish()
    }
}

/// A person reading (CMU Sphinx's test data, Debian's `pocketsphinx-testdata`) as a phone
/// sends it: Opus in an Ogg stream, made by `opusenc`. Both are installed by `make test`.
pub(crate) fn voice_note(clip: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("note.ogg");
    let wav = format!("/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-{clip}.wav");
    let made = std::process::Command::new("opusenc").args(["--quiet", "--bitrate", "24", &wav]).arg(&note).status().expect("opusenc (opus-tools)");
    assert!(made.success());
    std::fs::read(note).unwrap()
}
