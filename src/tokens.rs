//! Token counts with tiktoken's cl100k_base: exact for OpenAI's GPT-4 family and a
//! close, consistent estimate for other models. The encoder is built once, and counts
//! are cached by content so a long history is not re-encoded on every model call.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

use crate::memo::{content_key, Memo};

fn encoder() -> &'static CoreBPE {
    static ENCODER: OnceLock<CoreBPE> = OnceLock::new();
    ENCODER.get_or_init(|| tiktoken_rs::cl100k_base().expect("the cl100k table ships inside tiktoken-rs"))
}

/// Tokens in `text`.
pub fn count(text: &str) -> usize {
    encoder().encode_ordinary(text).len()
}

/// Like [`count`], remembered by content.
pub fn count_cached(text: &str) -> usize {
    // Entries kept before the cache starts over (a few MB at most).
    static COUNTS: Memo<(u64, usize), usize> = Memo::new(200_000);
    // Short texts too: a long history is mostly short messages, and encoding one costs
    // microseconds where a lookup costs tens of nanoseconds.
    if text.is_empty() {
        return 0;
    }
    let key = content_key(text);
    COUNTS.get(&key).unwrap_or_else(|| {
        let n = count(text);
        COUNTS.insert(key, n);
        n
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_like_cl100k() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello world"), 2);
        assert!(super::count("Es alérgico al maní") >= 5);
    }
}
