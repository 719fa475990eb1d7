//! Token counts with tiktoken's cl100k_base: exact for OpenAI's GPT-4 family and a
//! close, consistent estimate for other models. The encoder is built once, and counts
//! are cached by content so a long history is not re-encoded on every model call.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use tiktoken_rs::CoreBPE;

fn encoder() -> &'static CoreBPE {
    static ENCODER: OnceLock<CoreBPE> = OnceLock::new();
    ENCODER.get_or_init(|| tiktoken_rs::cl100k_base().expect("the cl100k table ships inside tiktoken-rs"))
}

/// Tokens in `text`.
pub fn count(text: &str) -> usize {
    encoder().encode_ordinary(text).len()
}

/// Entries kept before the cache starts over (a few MB at most).
const CACHE_LIMIT: usize = 200_000;

/// Like [`count`], remembered by a hash of the text.
pub fn count_cached(text: &str) -> usize {
    static CACHE: OnceLock<Mutex<HashMap<(u64, usize), usize>>> = OnceLock::new();
    if text.len() < 64 {
        return count(text);
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let key = (hasher.finish(), text.len());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(n) = cache.lock().expect("token cache").get(&key) {
        return *n;
    }
    let n = count(text);
    let mut cache = cache.lock().expect("token cache");
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(key, n);
    n
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
