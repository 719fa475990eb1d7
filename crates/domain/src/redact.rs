//! The one redactor every text from outside goes through before a person or a log
//! file sees it: error bodies from model servers and tool services, and every log
//! line. Some servers echo the key they were sent (a 401 that quotes the
//! `Authorization` header); that echo must never reach the screen or `logs/`.
//!
//! It removes every key Sidecar has used in this process (registered where a key is
//! resolved for a request) and anything shaped like one (`Bearer …`, `sk-…`), so a key
//! Sidecar never saw, pasted into a reply by a confused server, goes too.

use std::borrow::Cow;
use std::sync::{LazyLock, RwLock};

use regex::Regex;

/// What a removed secret becomes.
pub const REDACTED: &str = "[redacted]";
/// Keys shorter than this are not searched for: they would match ordinary words.
const MIN_KEY_LEN: usize = 8;

static KEYS: RwLock<Vec<String>> = RwLock::new(Vec::new());

static SHAPES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(\bbearer\s+|\bx-api-key\W+|\bapi[_-]?key\W+|\bsk-)[A-Za-z0-9._~+/=-]{8,}").expect("valid regex"));

/// Remembers `key` so it is removed from every text from now on.
pub fn register(key: &str) {
    let key = key.trim();
    if key.len() < MIN_KEY_LEN {
        return;
    }
    let mut keys = KEYS.write().unwrap_or_else(|e| e.into_inner());
    if !keys.iter().any(|k| k == key) {
        keys.push(key.to_string());
    }
}

/// `text` without any registered key or key-shaped token.
pub fn scrub(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for key in KEYS.read().unwrap_or_else(|e| e.into_inner()).iter() {
        if out.contains(key.as_str()) {
            out = Cow::Owned(out.replace(key.as_str(), REDACTED));
        }
    }
    if SHAPES.is_match(&out) {
        out = Cow::Owned(SHAPES.replace_all(&out, |c: &regex::Captures<'_>| format!("{}{REDACTED}", &c[1])).into_owned());
    }
    out
}

/// A log writer that scrubs each line before passing it on.
pub(crate) struct Scrubbing<W>(pub W);

impl<W: std::io::Write> std::io::Write for Scrubbing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(scrub(&text).as_bytes())?;
        // The whole buffer was taken, whatever its scrubbed length.
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_keys_and_key_shapes_are_removed() {
        register("gsk_live_0123456789abcdef");
        let body = r#"{"error":"invalid key gsk_live_0123456789abcdef","hint":"Authorization: Bearer abcDEF123456789xyz","other":"sk-proj-AAAAbbbbCCCC1111"}"#;
        let clean = scrub(body);
        assert!(!clean.contains("gsk_live_0123456789abcdef"), "{clean}");
        assert!(!clean.contains("abcDEF123456789xyz"), "{clean}");
        assert!(!clean.contains("AAAAbbbbCCCC1111"), "{clean}");
        assert!(clean.contains("invalid key [redacted]") && clean.contains("Bearer [redacted]"), "{clean}");
        assert_eq!(scrub("nothing secret here"), "nothing secret here");
    }

    #[test]
    fn short_keys_are_not_searched_for() {
        register("abc");
        assert_eq!(scrub("abcdef"), "abcdef");
    }
}
