//! The one redactor every text from outside goes through before a person or a log
//! file sees it: error bodies from model servers and tool services, and every log
//! line. Some servers echo the key they were sent (a 401 that quotes the
//! `Authorization` header); that echo must never reach the screen or `logs/`.
//!
//! It removes every key Sidecar has used (registered by `Secrets` when it stores or
//! reads one, and where a key from the environment is resolved for a request) and anything shaped like one (`Bearer …`, `sk-…`), so a key
//! Sidecar never saw, pasted into a reply by a confused server, goes too.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock, RwLock};

use regex::Regex;

/// What a removed secret becomes.
pub(crate) const REDACTED: &str = "[redacted]";
/// Keys shorter than this are not searched for: they would match ordinary words.
const MIN_KEY_LEN: usize = 8;

/// Key-shaped text; a constant pattern, not state.
static SHAPES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(\bbearer\s+|\bx-api-key\W+|\bapi[_-]?key\W+|\bsk-)[A-Za-z0-9._~+/=-]{8,}").expect("valid regex"));

/// The keys this process has used, and the scrubbing of text against them. A clone
/// shares the same keys: the assembly makes one, hands it to the log writer and to
/// `Secrets`, and each feature that resolves a key (or reads text from outside) holds a
/// clone. Without one (tests, a tool alone), `Redactor::default()` still removes
/// key-shaped text.
#[derive(Clone, Default)]
pub struct Redactor {
    keys: Arc<RwLock<Vec<String>>>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the keys themselves.
        f.debug_struct("Redactor").field("keys", &self.keys.read().map(|k| k.len()).unwrap_or(0)).finish()
    }
}

impl Redactor {
    /// Remembers `key` so it is removed from every text from now on.
    pub fn register(&self, key: &str) {
        let key = key.trim();
        if key.len() < MIN_KEY_LEN {
            return;
        }
        let mut keys = self.keys.write().unwrap_or_else(|e| e.into_inner());
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }

    /// `text` without any registered key or key-shaped token.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for key in self.keys.read().unwrap_or_else(|e| e.into_inner()).iter() {
            if out.contains(key.as_str()) {
                out = Cow::Owned(out.replace(key.as_str(), REDACTED));
            }
        }
        if SHAPES.is_match(&out) {
            out = Cow::Owned(SHAPES.replace_all(&out, |c: &regex::Captures<'_>| format!("{}{REDACTED}", &c[1])).into_owned());
        }
        out
    }
}

/// A log writer that scrubs each line before passing it on.
pub(crate) struct Scrubbing<W> {
    pub(crate) writer: W,
    pub(crate) redactor: Redactor,
}

impl<W: std::io::Write> std::io::Write for Scrubbing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.writer.write_all(self.redactor.scrub(&text).as_bytes())?;
        // The whole buffer was taken, whatever its scrubbed length.
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_keys_and_key_shapes_are_removed() {
        let redactor = Redactor::default();
        redactor.register("gsk_live_0123456789abcdef");
        let body = r#"{"error":"invalid key gsk_live_0123456789abcdef","hint":"Authorization: Bearer abcDEF123456789xyz","other":"sk-proj-AAAAbbbbCCCC1111"}"#;
        let clean = redactor.scrub(body);
        assert!(!clean.contains("gsk_live_0123456789abcdef"), "{clean}");
        assert!(!clean.contains("abcDEF123456789xyz"), "{clean}");
        assert!(!clean.contains("AAAAbbbbCCCC1111"), "{clean}");
        assert!(clean.contains("invalid key [redacted]") && clean.contains("Bearer [redacted]"), "{clean}");
        assert_eq!(redactor.scrub("nothing secret here"), "nothing secret here");
    }

    #[test]
    fn short_keys_are_not_searched_for() {
        let redactor = Redactor::default();
        redactor.register("abc");
        assert_eq!(redactor.scrub("abcdef"), "abcdef");
    }

    #[test]
    fn a_clone_shares_the_keys_and_another_redactor_does_not() {
        let redactor = Redactor::default();
        redactor.clone().register("tg-bot-token-0123456789");
        assert_eq!(redactor.scrub("token tg-bot-token-0123456789"), "token [redacted]");
        assert_eq!(Redactor::default().scrub("token tg-bot-token-0123456789"), "token tg-bot-token-0123456789");
    }
}
