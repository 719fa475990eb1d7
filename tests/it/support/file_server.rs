//! A file server on loopback, as Hugging Face serves model files: HEAD announces
//! the length and the SHA-256 (`X-Linked-Etag`), GET honours `Range: bytes=N-` with
//! 206, and it can be told to cut the first download part-way.

use std::path::Path;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A request the server saw.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Seen {
    pub method: String,
    /// The `Range` header's first byte, if one was sent.
    pub range_from: Option<u64>,
}

#[derive(Default)]
struct Script {
    /// The next GET stops after this many bytes (then the connection closes).
    cut_after: Option<u64>,
    seen: Vec<Seen>,
    bytes_sent: u64,
}

#[derive(Clone)]
pub(crate) struct FileServer {
    pub url: String,
    body: Arc<Vec<u8>>,
    script: Arc<Mutex<Script>>,
}

impl FileServer {
    /// Serves `body` at `/models/NAME`, announcing `etag` as its digest (if given).
    pub(crate) async fn start(name: &str, body: Vec<u8>, etag: Option<String>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/models/{name}", listener.local_addr().unwrap());
        let server = Self { url, body: Arc::new(body), script: Arc::default() };
        let this = server.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let this = this.clone();
                let etag = etag.clone();
                tokio::spawn(async move { this.answer(socket, etag.as_deref()).await });
            }
        });
        server
    }

    /// Serves the file at `path`.
    pub(crate) async fn serving(path: &Path, name: &str, etag: Option<String>) -> Self {
        Self::start(name, std::fs::read(path).unwrap(), etag).await
    }

    /// The next download is cut after `bytes`.
    pub(crate) fn cut_next_after(&self, bytes: u64) {
        self.script.lock().unwrap().cut_after = Some(bytes);
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.script.lock().unwrap().seen.clone()
    }

    /// Body bytes sent over all requests.
    pub(crate) fn bytes_sent(&self) -> u64 {
        self.script.lock().unwrap().bytes_sent
    }

    async fn answer(&self, mut socket: TcpStream, etag: Option<&str>) {
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if socket.read(&mut byte).await.unwrap_or(0) == 0 {
                return;
            }
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head).to_string();
        let method = head.split_whitespace().next().unwrap_or("").to_string();
        let range_from = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("range: bytes=").map(str::to_string))
            .and_then(|r| r.trim_end_matches('-').trim().trim_end_matches('-').parse::<u64>().ok());
        let cut = {
            let mut script = self.script.lock().unwrap();
            script.seen.push(Seen { method: method.clone(), range_from });
            if method == "GET" {
                script.cut_after.take()
            } else {
                None
            }
        };
        let total = self.body.len() as u64;
        let etag_line = etag.map(|e| format!("X-Linked-Etag: \"{e}\"\r\n")).unwrap_or_default();
        if method == "HEAD" {
            let reply = format!("HTTP/1.1 200 OK\r\nContent-Length: {total}\r\n{etag_line}Accept-Ranges: bytes\r\nConnection: close\r\n\r\n");
            let _ = socket.write_all(reply.as_bytes()).await;
            return;
        }
        let from = range_from.unwrap_or(0);
        if from >= total && total > 0 {
            let reply = format!("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{total}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            let _ = socket.write_all(reply.as_bytes()).await;
            return;
        }
        let status =
            if range_from.is_some() { format!("206 Partial Content\r\nContent-Range: bytes {from}-{}/{total}", total - 1) } else { "200 OK".to_string() };
        let reply = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n", total - from);
        if socket.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
        let end = cut.map(|c| (from + c).min(total)).unwrap_or(total);
        for chunk in self.body[from as usize..end as usize].chunks(64 * 1024) {
            if socket.write_all(chunk).await.is_err() {
                return;
            }
            self.script.lock().unwrap().bytes_sent += chunk.len() as u64;
        }
        let _ = socket.flush().await;
        // A cut: the connection closes with the length promised unmet.
    }
}

/// The built-in SmolLM2 GGUF, from the offline runtime folder.
pub(crate) fn smollm2_gguf() -> std::path::PathBuf {
    super::runtime().join(sidecar_domain::runtime_files::DEMO_MODEL_FILE)
}
