//! What an MCP server last wrote on stderr, to explain its failures: a bounded tail of
//! bytes, read in chunks, so a server that floods its stderr (with or without newlines)
//! costs at most [`TAIL_BYTES`] however much it writes. Lines are made from the tail
//! when they are asked for, scrubbed of secrets.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use sidecar_domain::Redactor;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The bytes of stderr kept.
pub const TAIL_BYTES: usize = 16 * 1024;
/// How many of the last lines explain a failure, and how long each may be.
const LINES: usize = 20;
const LINE_CHARS: usize = 500;

/// The tail, shared between the reader and the session, and what scrubs its lines.
#[derive(Clone, Default)]
pub(crate) struct StderrTail(Arc<Mutex<Tail>>, Redactor);

#[derive(Default)]
struct Tail {
    bytes: VecDeque<u8>,
    /// Bytes were dropped from the front: the first line kept may be a part of one.
    cut: bool,
}

impl StderrTail {
    /// An empty tail whose lines are scrubbed with `redactor`.
    pub(crate) fn new(redactor: Redactor) -> Self {
        Self(Arc::default(), redactor)
    }

    /// Reads `pipe` to its end, keeping only its last [`TAIL_BYTES`].
    pub(crate) async fn keep(self, mut pipe: impl AsyncRead + Unpin) {
        let mut chunk = vec![0u8; 8 * 1024];
        while let Ok(read) = pipe.read(&mut chunk).await {
            if read == 0 {
                break;
            }
            self.push(&chunk[..read]);
        }
    }

    fn push(&self, data: &[u8]) {
        let mut tail = self.0.lock().expect("stderr lock");
        let data = &data[data.len().saturating_sub(TAIL_BYTES)..];
        let over = (tail.bytes.len() + data.len()).saturating_sub(TAIL_BYTES);
        if over > 0 {
            tail.bytes.drain(..over);
            tail.cut = true;
        }
        tail.bytes.extend(data);
    }

    /// The last lines, oldest first: blank ones left out, each scrubbed and cut short.
    pub(crate) fn lines(&self) -> Vec<String> {
        let tail = self.0.lock().expect("stderr lock");
        let bytes: Vec<u8> = tail.bytes.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.split('\n').collect();
        if tail.cut && lines.len() > 1 {
            lines.remove(0);
        }
        let kept: Vec<String> = lines
            .into_iter()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| self.1.scrub(&l.chars().take(LINE_CHARS).collect::<String>()).into_owned())
            .collect();
        kept[kept.len().saturating_sub(LINES)..].to_vec()
    }

    /// How many bytes are held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.0.lock().expect("stderr lock").bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_flood_without_newlines_keeps_only_the_tail() {
        let tail = StderrTail::default();
        let flood = vec![b'x'; 5 * 1024 * 1024];
        tail.clone().keep(&flood[..]).await;
        assert_eq!(tail.held(), TAIL_BYTES);
        let lines = tail.lines();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].len(), LINE_CHARS);
    }

    #[tokio::test]
    async fn the_last_lines_come_back_scrubbed_and_a_cut_line_is_dropped() {
        let tail = StderrTail::default();
        let mut text = "y".repeat(TAIL_BYTES);
        for n in 0..30 {
            text.push_str(&format!("\nline {n}"));
        }
        text.push_str("\nkey sk-abcdefghijklmnopqrstuvwxyz0123456789\n\n");
        tail.clone().keep(text.as_bytes()).await;
        let lines = tail.lines();
        assert_eq!(lines.len(), LINES);
        assert_eq!(lines[0], "line 11");
        assert!(!lines.last().unwrap().contains("abcdefghijklmnop"), "{lines:?}");
    }
}
