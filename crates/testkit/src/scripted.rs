//! The scripted server: one listener on loopback, a reply per request in order, the
//! requests recorded.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with one request.
#[derive(Debug, Clone)]
pub enum Reply {
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

/// How Sidecar's planning request begins (`sidecar_agent`'s planner asks a request of
/// several steps to be planned alone before its first step). A scripted server answers
/// it with no plan, unrecorded and out of its script, unless made with
/// [`ScriptedServer::start_planning`]: a test scripts the planning only when it is about it.
pub const PLANNING_STARTS: &str = "You plan a request before anyone works on it.";

/// Whether `body` is Sidecar's planning request.
fn is_planning(body: &serde_json::Value) -> bool {
    body["messages"][0]["content"].as_str().is_some_and(|c| c.starts_with(PLANNING_STARTS))
}

/// The answer to a planning request no test scripted: words, so the request runs unplanned.
fn no_plan() -> Reply {
    let said =
        |delta: serde_json::Value, finish: Option<&str>| serde_json::json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}).to_string();
    Reply::Stream { events: vec![said(serde_json::json!({"content": "No plan."}), None), said(serde_json::json!({}), Some("stop"))], delay: Duration::ZERO }
}

/// A recorded request: its body as JSON.
pub type Recorded = Arc<Mutex<Vec<serde_json::Value>>>;

/// An OpenAI-compatible model on loopback; `base_url` ends in `/v1`.
pub struct ScriptedServer {
    pub base_url: String,
    pub requests: Recorded,
    /// The request heads (request line and headers), lower-cased.
    pub heads: Arc<Mutex<Vec<String>>>,
}

impl ScriptedServer {
    /// Serves `replies` in order, one per request; the last one repeats. A planning
    /// request is answered with no plan, out of the script (see [`PLANNING_STARTS`]).
    pub async fn start(replies: Vec<Reply>) -> Self {
        Self::serving(replies, false).await
    }

    /// As [`ScriptedServer::start`], the planning request scripted and recorded like any.
    pub async fn start_planning(replies: Vec<Reply>) -> Self {
        Self::serving(replies, true).await
    }

    async fn serving(replies: Vec<Reply>, plans: bool) -> Self {
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
                tokio::spawn(async move { serve(socket, &replies, &next, recorded, seen_heads, plans).await });
            }
        });
        Self { base_url: format!("http://127.0.0.1:{port}/v1"), requests, heads }
    }

    /// Answers each request with what `respond` makes of its JSON body (for long
    /// replays where the order of requests is not known in advance).
    pub async fn responding(respond: impl Fn(&serde_json::Value) -> Reply + Send + Sync + 'static) -> Self {
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
                    if is_planning(&json) {
                        return write_reply(socket, no_plan()).await;
                    }
                    let reply = respond(&json);
                    recorded.lock().unwrap().push(json);
                    write_reply(socket, reply).await;
                });
            }
        });
        Self { base_url: format!("http://127.0.0.1:{port}/v1"), requests, heads: Arc::default() }
    }

    pub fn request_count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    pub fn last_request(&self) -> serde_json::Value {
        self.requests.lock().unwrap().last().cloned().expect("a request")
    }
}

/// Serves one request: a model list for a GET (a provider check, like a real server's
/// `/models`), else the next scripted reply, in the order requests arrive.
async fn serve(
    mut socket: TcpStream,
    replies: &[Reply],
    next: &std::sync::atomic::AtomicUsize,
    recorded: Recorded,
    heads: Arc<Mutex<Vec<String>>>,
    plans: bool,
) {
    let Some((head, body)) = read_request(&mut socket).await else { return };
    if !plans && is_planning(&serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null)) {
        return write_reply(socket, no_plan()).await;
    }
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
pub async fn read_request(socket: &mut TcpStream) -> Option<(String, Vec<u8>)> {
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
