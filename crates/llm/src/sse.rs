//! Server-Sent Events: an incremental decoder, and the HTTP plumbing every streaming
//! provider shares (timeouts, HTTP errors with `Retry-After`, broken streams).
//!
//! Chunks from the network split lines anywhere (even inside a UTF-8 sequence), so
//! the decoder buffers raw bytes and only decodes complete lines.

use std::time::Duration;

use futures_util::StreamExt;

use super::{parse_retry_after, preview, LlmError, TimeoutPhase};

pub use super::timeouts::Timeouts;

/// An HTTP client suited to streaming model calls: connect timeout only, because a
/// whole-request timeout would cut long replies; the stream has its own idle timeout.
pub fn http_client(timeouts: &Timeouts) -> reqwest::Client {
    reqwest::Client::builder().connect_timeout(timeouts.connect).build().expect("a TLS backend is compiled in")
}

/// How to send one streaming request and read its errors.
pub(crate) struct HttpOptions<'a> {
    pub url: &'a str,
    pub timeouts: Timeouts,
    /// Extracts the provider's own message from an error body, if it has one.
    pub error_message: fn(&str) -> Option<String>,
}

/// Sends `request` and feeds the `data` of each SSE event to `on_event` until the
/// body ends. A clean end is `Ok`: whether the reply was complete is the caller's
/// call, since only it knows its wire format's end markers.
pub(crate) async fn stream_events(
    request: reqwest::RequestBuilder,
    options: HttpOptions<'_>,
    mut on_event: impl FnMut(&str) -> Result<(), LlmError>,
) -> Result<(), LlmError> {
    let timeouts = options.timeouts;
    let response = tokio::time::timeout(timeouts.respond, request.send())
        .await
        .map_err(|_| LlmError::Timeout { phase: TimeoutPhase::Respond, after: timeouts.respond })?
        .map_err(|e| send_error(options.url, e, timeouts.connect))?;

    let status = response.status();
    if !status.is_success() {
        let retry_after = response.headers().get(reqwest::header::RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
        let body = response.text().await.unwrap_or_default();
        let message = (options.error_message)(&body).unwrap_or_else(|| {
            let body = body.trim();
            // An empty body adds nothing to what the status means.
            if body.is_empty() {
                String::new()
            } else {
                preview(body, 300)
            }
        });
        tracing::warn!(status = status.as_u16(), %message, "the model server answered with an error status");
        return Err(LlmError::Http { status: status.as_u16(), message, retry_after });
    }

    let mut body = response.bytes_stream();
    let mut decoder = SseDecoder::new();
    loop {
        let next =
            tokio::time::timeout(timeouts.idle, body.next()).await.map_err(|_| LlmError::Timeout { phase: TimeoutPhase::Stream, after: timeouts.idle })?;
        let payloads = match next {
            Some(Ok(bytes)) => decoder.push(&bytes),
            Some(Err(e)) => return Err(LlmError::Interrupted { detail: e.to_string() }),
            None => {
                for payload in decoder.finish() {
                    on_event(&payload)?;
                }
                return Ok(());
            }
        };
        for payload in payloads {
            on_event(&payload)?;
        }
    }
}

fn send_error(url: &str, e: reqwest::Error, connect: Duration) -> LlmError {
    if e.is_timeout() {
        return LlmError::Timeout { phase: TimeoutPhase::Connect, after: connect };
    }
    // reqwest nests the interesting part (connection refused, DNS) in the source chain.
    let (detail, offline) = match crate::offline::ConnectFailure::read(url, &e) {
        crate::offline::ConnectFailure::Offline(said) => (format!("{said}. Check the network connection"), true),
        crate::offline::ConnectFailure::Other(_) => {
            (format!("{}. Is it running, and is the address in Settings right?", crate::offline::last_cause(&e)), false)
        }
    };
    LlmError::Unreachable { url: url.to_string(), detail, offline }
}

/// Accumulates bytes and yields the `data` of each complete event.
#[derive(Debug, Default)]
pub(crate) struct SseDecoder {
    buffer: Vec<u8>,
    data: Vec<String>,
}

impl SseDecoder {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Feeds a chunk; returns the data payloads of the events it completed.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        self.buffer.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let line = String::from_utf8_lossy(&line);
            self.take_line(&line, &mut events);
        }
        events
    }

    /// Ends the input: an event left without its blank line is still delivered,
    /// because some servers close right after the last `data:` line.
    pub(crate) fn finish(&mut self) -> Vec<String> {
        let mut events = Vec::new();
        if !self.buffer.is_empty() {
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.buffer)).into_owned();
            self.take_line(rest.trim_end_matches('\r'), &mut events);
        }
        self.dispatch(&mut events);
        events
    }

    fn take_line(&mut self, line: &str, events: &mut Vec<String>) {
        if line.is_empty() {
            self.dispatch(events);
        } else if let Some(value) = line.strip_prefix("data:") {
            self.data.push(value.strip_prefix(' ').unwrap_or(value).to_string());
        }
        // Comments (":"), `event:`, `id:` and `retry:` lines carry nothing we use.
    }

    fn dispatch(&mut self, events: &mut Vec<String>) {
        if !self.data.is_empty() {
            events.push(self.data.join("\n"));
            self.data.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_events_across_arbitrary_chunks() {
        let stream = "data: {\"a\":1}\n\n: keepalive\n\ndata: caf\u{e9}\r\n\r\ndata: [DONE]\n\n";
        let bytes = stream.as_bytes();
        for split in 1..bytes.len() {
            let mut d = SseDecoder::new();
            let mut out = d.push(&bytes[..split]);
            out.extend(d.push(&bytes[split..]));
            out.extend(d.finish());
            assert_eq!(out, vec!["{\"a\":1}", "café", "[DONE]"], "split at {split}");
        }
    }

    #[test]
    fn joins_multiline_data_and_flushes_unterminated_event() {
        let mut d = SseDecoder::new();
        let mut out = d.push(b"data: one\ndata: two\n\ndata: tail");
        out.extend(d.finish());
        assert_eq!(out, vec!["one\ntwo", "tail"]);
    }
}
