//! Small in-memory caches keyed by a text's content (its hash and length). Token
//! counts and compactions are asked for the same long texts on every model call.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// Identifies a text by content; not for security, only to find it again.
pub fn content_key(text: &str) -> (u64, usize) {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    (hasher.finish(), text.len())
}

/// A map that starts over when it reaches `limit` entries, so it never grows
/// without bound. For `static`s: `static M: Memo<_, _> = Memo::new(1_000);`.
pub struct Memo<K, V> {
    map: Mutex<Option<HashMap<K, V>>>,
    limit: usize,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    pub const fn new(limit: usize) -> Self {
        Self { map: Mutex::new(None), limit }
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.map.lock().expect("memo lock").as_ref().and_then(|m| m.get(key).cloned())
    }

    pub fn insert(&self, key: K, value: V) {
        let mut map = self.map.lock().expect("memo lock");
        let map = map.get_or_insert_with(HashMap::new);
        if map.len() >= self.limit {
            map.clear();
        }
        map.insert(key, value);
    }
}
