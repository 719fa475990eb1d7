//! A Bot API–compatible server on loopback: what Telegram's servers do for a bot
//! using long polling, scripted so a test can play the user's phone (`say`), a
//! server that repeats an update, voice notes (`send_voice`, with `getFile` and the file's
//! download), reactions (`react`), floods (`flood`, 429 with `retry_after`), or goes
//! away and comes back (`go_away`, `come_back`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// A call the bot made.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub method: String,
    pub body: Value,
    pub at: Instant,
    /// What the server answered: false for a refused (429) or dropped call.
    pub accepted: bool,
}

#[derive(Default)]
struct State {
    updates: Vec<Value>,
    next_message_id: i64,
    calls: Vec<Call>,
    /// The next this-many sendMessage calls get 429 with this retry_after.
    flood: (u32, u32),
    /// Update ids are numbered from here (Telegram picks a random start after a quiet week).
    first_update_id: i64,
    /// (chat, message id) of each message the bot sent.
    sent_ids: Vec<(i64, i64)>,
    /// The voice notes' bytes, by file id.
    files: std::collections::HashMap<String, Vec<u8>>,
    /// The voice notes the bot sent: (chat, the OGG file's bytes).
    voices_sent: Vec<(i64, Vec<u8>)>,
}

#[derive(Clone)]
pub(crate) struct FakeBotApi {
    pub api_url: String,
    state: Arc<Mutex<State>>,
    news: Arc<Notify>,
    up: Arc<AtomicBool>,
}

/// A Telegram message object as the Bot API sends it.
pub(crate) fn message_json(chat: i64, message_id: i64, text: &str) -> Value {
    json!({
        "message_id": message_id,
        "date": 1_700_000_000,
        "chat": {"id": chat, "type": "private", "first_name": "Ana"},
        "from": {"id": chat, "is_bot": false, "first_name": "Ana"},
        "text": text,
    })
}

impl FakeBotApi {
    pub(crate) async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = Self {
            api_url: format!("http://127.0.0.1:{port}"),
            state: Arc::new(Mutex::new(State { next_message_id: 1, first_update_id: 1, ..State::default() })),
            news: Arc::default(),
            up: Arc::new(AtomicBool::new(true)),
        };
        let serving = server.clone();
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { return };
                let server = serving.clone();
                tokio::spawn(async move { server.answer(socket).await });
            }
        });
        server
    }

    /// The user writes `text` in `chat`; returns the update's message id.
    pub(crate) fn say(&self, chat: i64, text: &str) -> i64 {
        let mut state = self.state.lock().unwrap();
        let id = state.next_message_id;
        state.next_message_id += 1;
        let update_id = state.updates.len() as i64 + state.first_update_id;
        state.updates.push(json!({"update_id": update_id, "message": message_json(chat, id, text)}));
        drop(state);
        self.news.notify_waiters();
        id
    }

    /// The user sends a voice note of `seconds` (OGG/Opus `bytes`, as phones record them)
    /// in `chat`; returns the update's message id.
    pub(crate) fn send_voice(&self, chat: i64, bytes: Vec<u8>, seconds: u32) -> i64 {
        let mut state = self.state.lock().unwrap();
        let id = state.next_message_id;
        state.next_message_id += 1;
        let file_id = format!("voice-{id}");
        let mut message = message_json(chat, id, "");
        message.as_object_mut().unwrap().remove("text");
        message["voice"] =
            json!({"file_id": file_id, "file_unique_id": format!("u{id}"), "duration": seconds, "mime_type": "audio/ogg", "file_size": bytes.len()});
        state.files.insert(file_id, bytes);
        let update_id = state.updates.len() as i64 + state.first_update_id;
        state.updates.push(json!({"update_id": update_id, "message": message}));
        drop(state);
        self.news.notify_waiters();
        id
    }

    /// The user presses the inline button whose data is `data`, under the bot's last
    /// message to `chat`.
    pub(crate) fn press(&self, chat: i64, data: &str) {
        let mut state = self.state.lock().unwrap();
        let update_id = state.updates.len() as i64 + state.first_update_id;
        let query = json!({
            "id": format!("cbq-{update_id}"),
            "from": {"id": chat, "is_bot": false, "first_name": "Ana"},
            "message": message_json(chat, state.next_message_id, "the question"),
            "chat_instance": "ci-1",
            "data": data,
        });
        state.updates.push(json!({"update_id": update_id, "callback_query": query}));
        drop(state);
        self.news.notify_waiters();
    }

    /// The user of `chat` changes their reactions on message `message_id` from `old`
    /// to `new` (emoji).
    pub(crate) fn react(&self, chat: i64, message_id: i64, old: &[&str], new: &[&str]) {
        let mut state = self.state.lock().unwrap();
        let update_id = state.updates.len() as i64 + state.first_update_id;
        let emoji = |list: &[&str]| list.iter().map(|e| json!({"type": "emoji", "emoji": e})).collect::<Vec<_>>();
        let reaction = json!({
            "chat": {"id": chat, "type": "private", "first_name": "Ana"},
            "message_id": message_id,
            "user": {"id": chat, "is_bot": false, "first_name": "Ana"},
            "date": 1_700_000_100,
            "old_reaction": emoji(old),
            "new_reaction": emoji(new),
        });
        state.updates.push(json!({"update_id": update_id, "message_reaction": reaction}));
        drop(state);
        self.news.notify_waiters();
    }

    /// The ids of the messages the bot sent to `chat`, in order.
    pub(crate) fn sent_ids(&self, chat: i64) -> Vec<i64> {
        self.state.lock().unwrap().sent_ids.iter().filter(|(to, _)| *to == chat).map(|(_, id)| *id).collect()
    }

    /// Delivers an update again with a new update id (a server repeating itself).
    pub(crate) fn repeat(&self, chat: i64, message_id: i64, text: &str) {
        let mut state = self.state.lock().unwrap();
        let update_id = state.updates.len() as i64 + state.first_update_id;
        state.updates.push(json!({"update_id": update_id, "message": message_json(chat, message_id, text)}));
        drop(state);
        self.news.notify_waiters();
    }

    /// Numbers the updates still to come from `id` on.
    pub(crate) fn number_updates_from(&self, id: i64) {
        let mut state = self.state.lock().unwrap();
        state.first_update_id = id - state.updates.len() as i64;
    }

    /// The next `times` sendMessage calls are refused with 429 and `retry_after`.
    pub(crate) fn flood(&self, times: u32, retry_after_secs: u32) {
        self.state.lock().unwrap().flood = (times, retry_after_secs);
    }

    /// Every connection is dropped until `come_back`, in-flight polls included.
    pub(crate) fn go_away(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.news.notify_waiters();
    }

    pub(crate) fn come_back(&self) {
        self.up.store(true, Ordering::SeqCst);
    }

    pub(crate) fn calls(&self, method: &str) -> Vec<Call> {
        self.state.lock().unwrap().calls.iter().filter(|c| c.method.eq_ignore_ascii_case(method)).cloned().collect()
    }

    /// Texts the bot sent to `chat` (accepted ones), in order.
    pub(crate) fn sent_to(&self, chat: i64) -> Vec<String> {
        self.calls("sendMessage")
            .into_iter()
            .filter(|c| c.accepted && c.body["chat_id"].as_i64() == Some(chat))
            .map(|c| c.body["text"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Waits until `chat` has received `count` messages; returns them.
    pub(crate) async fn wait_for_sent(&self, chat: i64, count: usize, within: Duration) -> Vec<String> {
        let until = Instant::now() + within;
        loop {
            let sent = self.sent_to(chat);
            if sent.len() >= count || Instant::now() > until {
                return sent;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn record(&self, method: &str, body: &Value, accepted: bool) {
        self.state.lock().unwrap().calls.push(Call { method: method.to_string(), body: body.clone(), at: Instant::now(), accepted });
    }

    async fn answer(&self, mut socket: TcpStream) {
        if !self.up.load(Ordering::SeqCst) {
            return; // dropped: the client sees a network error
        }
        let Some((head, body)) = super::read_request(&mut socket).await else { return };
        let path = head.split_whitespace().nth(1).unwrap_or_default().to_string();
        let method = path.rsplit('/').next().unwrap_or_default().to_string();
        if method == "sendvoice" {
            return self.take_voice(socket, &body).await;
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if path.starts_with("/file/bot") {
            // A file's download: `file/bot<token>/voice/<file id>.oga`.
            self.record("download", &json!({"path": path}), true);
            let path = path.replace("%2f", "/");
            let file_id = path.rsplit('/').next().unwrap_or_default().trim_end_matches(".oga");
            let bytes = self.state.lock().unwrap().files.get(file_id).cloned();
            return write_bytes(socket, bytes).await;
        }
        let reply = match method.as_str() {
            "getfile" => {
                self.record(&method, &body, true);
                let file_id = body["file_id"].as_str().unwrap_or_default().to_string();
                let size = self.state.lock().unwrap().files.get(&file_id).map(Vec::len);
                match size {
                    Some(size) => {
                        json!({"ok": true, "result": {"file_id": file_id, "file_unique_id": "u", "file_size": size, "file_path": format!("voice/{file_id}.oga")}})
                    }
                    None => json!({"ok": false, "error_code": 400, "description": "Bad Request: invalid file_id"}),
                }
            }
            "getupdates" => match self.updates_after(&body).await {
                Some(updates) => json!({"ok": true, "result": updates}),
                None => return, // went away mid-poll
            },
            "sendmessage" => {
                let flooded = {
                    let mut state = self.state.lock().unwrap();
                    let (times, after) = state.flood;
                    (times > 0).then(|| {
                        state.flood.0 -= 1;
                        after
                    })
                };
                if let Some(after) = flooded {
                    self.record(&method, &body, false);
                    let refused = json!({"ok": false, "error_code": 429, "description": format!("Too Many Requests: retry after {after}"), "parameters": {"retry_after": after}});
                    return write_json(socket, 429, &refused).await;
                }
                self.record(&method, &body, true);
                let chat = body["chat_id"].as_i64().unwrap_or_default();
                let id = {
                    let mut state = self.state.lock().unwrap();
                    state.next_message_id += 1;
                    let id = state.next_message_id;
                    state.sent_ids.push((chat, id));
                    id
                };
                json!({"ok": true, "result": message_json(chat, id, body["text"].as_str().unwrap_or_default())})
            }
            "getme" => json!({"ok": true, "result": {"id": 42, "is_bot": true, "first_name": "Sidecar", "username": "sidecar_test_bot"}}),
            _ => {
                self.record(&method, &body, true);
                json!({"ok": true, "result": true})
            }
        };
        write_json(socket, 200, &reply).await;
    }

    /// The voice notes the bot sent to `chat`, in order.
    pub(crate) fn voices_sent_to(&self, chat: i64) -> Vec<Vec<u8>> {
        self.state.lock().unwrap().voices_sent.iter().filter(|(to, _)| *to == chat).map(|(_, bytes)| bytes.clone()).collect()
    }

    /// `sendVoice`, a multipart form: the chat and the file's bytes are read out of it.
    async fn take_voice(&self, socket: TcpStream, form: &[u8]) {
        let text = String::from_utf8_lossy(form);
        let chat = text
            .split("name=\"chat_id\"")
            .nth(1)
            .and_then(|rest| rest.split("\r\n\r\n").nth(1))
            .and_then(|v| v.split("\r\n").next())
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or_default();
        let start = form.windows(4).position(|w| w == b"OggS").unwrap_or(form.len());
        // The file runs to the form's closing boundary (CRLF then "--").
        let end = form.windows(4).rposition(|w| w == b"\r\n--").filter(|end| *end > start).unwrap_or(form.len());
        self.record("sendVoice", &json!({"chat_id": chat, "bytes": end - start}), true);
        let id = {
            let mut state = self.state.lock().unwrap();
            state.voices_sent.push((chat, form[start..end].to_vec()));
            state.next_message_id += 1;
            state.next_message_id
        };
        write_json(socket, 200, &json!({"ok": true, "result": message_json(chat, id, "")})).await;
    }

    /// Updates from the asked offset on, waiting up to the poll's timeout (at most
    /// 2 s here) for one to come; `None` if the server went away meanwhile.
    async fn updates_after(&self, body: &Value) -> Option<Vec<Value>> {
        self.record("getUpdates", body, true);
        let offset = body["offset"].as_i64().unwrap_or(0);
        let wait = Duration::from_secs(body["timeout"].as_u64().unwrap_or(0).min(2));
        let until = Instant::now() + wait;
        loop {
            let news = self.news.notified();
            if !self.up.load(Ordering::SeqCst) {
                return None;
            }
            let found: Vec<Value> = self.state.lock().unwrap().updates.iter().filter(|u| u["update_id"].as_i64().unwrap() >= offset).cloned().collect();
            let left = until.saturating_duration_since(Instant::now());
            if !found.is_empty() || left.is_zero() {
                return Some(found);
            }
            let _ = tokio::time::timeout(left, news).await;
        }
    }
}

async fn write_bytes(mut socket: TcpStream, bytes: Option<Vec<u8>>) {
    let (code, bytes) = match bytes {
        Some(bytes) => (200, bytes),
        None => (404, b"not found".to_vec()),
    };
    let head = format!("HTTP/1.1 {code} X\r\ncontent-type: application/octet-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", bytes.len());
    let _ = socket.write_all(head.as_bytes()).await;
    let _ = socket.write_all(&bytes).await;
    let _ = socket.shutdown().await;
}

async fn write_json(mut socket: TcpStream, code: u16, body: &Value) {
    let body = body.to_string();
    let head = format!("HTTP/1.1 {code} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len());
    let _ = socket.write_all(head.as_bytes()).await;
    let _ = socket.write_all(body.as_bytes()).await;
    let _ = socket.shutdown().await;
}
