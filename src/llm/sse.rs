//! An incremental Server-Sent Events decoder: bytes in, `data` payloads out.
//!
//! Chunks from the network split lines anywhere (even inside a UTF-8 sequence), so
//! the decoder buffers raw bytes and only decodes complete lines.

/// Accumulates bytes and yields the `data` of each complete event.
#[derive(Debug, Default)]
pub struct SseDecoder {
    buffer: Vec<u8>,
    data: Vec<String>,
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds a chunk; returns the data payloads of the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<String> {
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
    pub fn finish(&mut self) -> Vec<String> {
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
            self.data
                .push(value.strip_prefix(' ').unwrap_or(value).to_string());
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
