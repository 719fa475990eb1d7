//! Shrinks a large tool output to a token limit without a model, so identifiers
//! survive exactly (a model asked to summarise an API answer tends to write
//! "[repo-name-1]" where the real name was).
//!
//! JSON keeps identifiers, names, titles, URLs, numbers, booleans and dates; long free
//! text is shortened; long lists keep their first items and say how many there were.
//! Anything else keeps its beginning and end with a marker in between.

use serde_json::{Map, Value};

use sidecar_domain::content_key;
use sidecar_domain::shorten;
use sidecar_domain::truncate_middle;
use sidecar_domain::Memo;

/// Keys whose string values are kept whole (up to `KEY_TEXT_CHARS`).
const KEY_FIELDS: &[&str] = &[
    "id",
    "uid",
    "uuid",
    "key",
    "slug",
    "name",
    "full_name",
    "title",
    "login",
    "user",
    "author",
    "url",
    "html_url",
    "href",
    "link",
    "uri",
    "email",
    "number",
    "state",
    "status",
    "type",
    "kind",
    "date",
    "time",
    "created_at",
    "updated_at",
    "published",
    "published_at",
    "start",
    "end",
    "city",
    "country",
    "language",
    "price",
    "currency",
];
const KEY_TEXT_CHARS: usize = 300;
/// Other text is cut to this many characters.
const FREE_TEXT_CHARS: usize = 80;
const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// Fields were filtered and lists shortened; still valid JSON.
    Json,
    /// The middle was cut.
    Truncated,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Compacted {
    pub text: String,
    pub method: Method,
}

/// What the context service remembers of long tool outputs while it runs: the model's
/// summaries of them, and the compactions already made. The guard runs before every
/// call and would otherwise compact the same large results again and again. Owned by
/// the context service (one per companion), not by the process.
pub struct Compactions {
    /// Model summaries of long non-JSON tool outputs, by the output's content.
    summaries: Memo<(u64, usize), String>,
    /// Compactions, by content and limit.
    compacted: Memo<(u64, usize, usize), String>,
}

impl Default for Compactions {
    fn default() -> Self {
        Self { summaries: Memo::new(2_000), compacted: Memo::new(2_000) }
    }
}

impl Compactions {
    /// Records a model's summary of a long non-JSON tool output; the guard sends it in
    /// place of the cut text from then on (the full output stays stored).
    pub(crate) fn remember_summary(&self, original: &str, summary: &str) {
        self.summaries.insert(content_key(original), summary.to_string());
    }

    /// [`compact`], remembered. A model summary recorded with
    /// [`Compactions::remember_summary`] is preferred for text when it fits.
    pub(crate) fn compact(&self, text: &str, max_tokens: usize, count: &dyn Fn(&str) -> usize) -> String {
        let (hash, len) = content_key(text);
        if let Some(summary) = self.summaries.get(&(hash, len)).filter(|s| count(s) <= max_tokens) {
            return summary;
        }
        let key = (hash, len, max_tokens);
        self.compacted.get(&key).unwrap_or_else(|| {
            let done = compact(text, max_tokens, count).text;
            self.compacted.insert(key, done.clone());
            done
        })
    }
}

/// `text` brought under `max_tokens` (as counted by `count`).
pub(crate) fn compact(text: &str, max_tokens: usize, count: &dyn Fn(&str) -> usize) -> Compacted {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        if value.is_object() || value.is_array() {
            if let Some(text) = compact_json(value, max_tokens, count) {
                return Compacted { text, method: Method::Json };
            }
        }
    }
    Compacted { text: truncate_middle(text, max_tokens, count), method: Method::Truncated }
}

fn compact_json(value: Value, max_tokens: usize, count: &dyn Fn(&str) -> usize) -> Option<String> {
    let reduced = reduce(value, "", 0);
    let mut candidate = reduced.clone();
    let total = longest_list_len(&reduced);
    let mut keep = total;
    loop {
        let text = serde_json::to_string(&candidate).ok()?;
        if count(&text) <= max_tokens {
            return Some(text);
        }
        if keep <= 1 {
            return None;
        }
        keep = (keep * 2 / 3).max(1);
        candidate = reduced.clone();
        shorten_longest_list(&mut candidate, keep, total);
    }
}

fn is_key_field(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    KEY_FIELDS.contains(&key.as_str()) || key.ends_with("_id") || key.ends_with("_url") || key.ends_with("_at")
}

fn looks_like_url(s: &str) -> bool {
    s.starts_with("http://") || s.starts_with("https://")
}

/// "2026-11-21", "2026-11-21T10:00:00Z" and the like.
fn looks_like_date(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() <= 40 && b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[7] == b'-'
}

fn reduce(value: Value, key: &str, depth: usize) -> Value {
    match value {
        Value::String(s) => {
            if looks_like_url(&s) || looks_like_date(&s) {
                Value::String(s)
            } else if is_key_field(key) {
                Value::String(shorten(&s, KEY_TEXT_CHARS))
            } else {
                Value::String(shorten(&s, FREE_TEXT_CHARS))
            }
        }
        Value::Array(items) if depth < MAX_DEPTH => Value::Array(items.into_iter().map(|v| reduce(v, key, depth + 1)).collect()),
        Value::Object(map) if depth < MAX_DEPTH => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    let reduced = reduce(v, &k, depth + 1);
                    (k, reduced)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(_) | Value::Object(_) => Value::String("…".into()),
        other => other,
    }
}

/// The longest list at the top or one level down (where API results live).
fn longest_list_len(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.values().filter_map(Value::as_array).map(Vec::len).max().unwrap_or(0),
        _ => 0,
    }
}

fn shorten_longest_list(value: &mut Value, keep: usize, total: usize) {
    let note = Value::String(format!("showing {keep} of {total} items; the full result is stored"));
    match value {
        Value::Array(items) => {
            items.truncate(keep);
            let items = std::mem::take(items);
            *value = serde_json::json!({ "items": items, "_note": note });
        }
        Value::Object(map) => {
            let longest = map.iter().filter_map(|(k, v)| v.as_array().map(|a| (k.clone(), a.len()))).max_by_key(|(_, len)| *len).map(|(k, _)| k);
            if let Some(key) = longest {
                if let Some(Value::Array(items)) = map.get_mut(&key) {
                    items.truncate(keep);
                }
                map.insert(format!("_{key}_note"), note);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidecar_llm::tokens::count;

    fn search_result(n: usize) -> String {
        let items: Vec<Value> = (0..n)
            .map(|i| {
                serde_json::json!({
                    "id": 1000 + i,
                    "full_name": format!("acme/project-{i}"),
                    "html_url": format!("https://example.com/acme/project-{i}"),
                    "description": "A very long description that goes on and on about what this project does, why it exists and who maintains it, repeated. ".repeat(3),
                    "stargazers_count": i * 7,
                    "updated_at": "2026-11-20T10:00:00Z",
                    "owner": { "login": "acme", "avatar_url": "https://example.com/a.png", "bio": null },
                })
            })
            .collect();
        serde_json::json!({ "total_count": n, "items": items }).to_string()
    }

    #[test]
    fn json_keeps_identifiers_urls_numbers_and_dates_exactly() {
        let raw = search_result(40);
        let out = compact(&raw, 1500, &count);
        assert_eq!(out.method, Method::Json);
        assert!(count(&out.text) <= 1500);
        let value: Value = serde_json::from_str(&out.text).expect("still JSON");
        let first = &value["items"][0];
        assert_eq!(first["id"], 1000);
        assert_eq!(first["full_name"], "acme/project-0");
        assert_eq!(first["html_url"], "https://example.com/acme/project-0");
        assert_eq!(first["updated_at"], "2026-11-20T10:00:00Z");
        assert_eq!(value["total_count"], 40);
        assert!(first["description"].as_str().unwrap().ends_with('…'));
    }

    #[test]
    fn a_list_too_long_keeps_its_first_items_and_says_so() {
        let raw = search_result(200);
        let out = compact(&raw, 800, &count);
        assert_eq!(out.method, Method::Json);
        assert!(count(&out.text) <= 800);
        let value: Value = serde_json::from_str(&out.text).unwrap();
        let kept = value["items"].as_array().unwrap().len();
        assert!(kept > 0 && kept < 200);
        assert_eq!(value["_items_note"], format!("showing {kept} of 200 items; the full result is stored"));
        assert_eq!(value["items"][0]["full_name"], "acme/project-0");
    }

    #[test]
    fn compaction_is_deterministic() {
        let raw = search_result(120);
        assert_eq!(compact(&raw, 700, &count), compact(&raw, 700, &count));
    }

    #[test]
    fn a_recorded_model_summary_replaces_the_cut_text() {
        let text = format!("UNIQUE-SUMMARY-TEST {}", "prose ".repeat(4000));
        let compactions = Compactions::default();
        assert!(compactions.compact(&text, 200, &count).contains("cut here to fit"));
        compactions.remember_summary(&text, "The page says three things: A, B and C.");
        assert_eq!(compactions.compact(&text, 200, &count), "The page says three things: A, B and C.");
        assert!(compactions.compact(&text, 5, &count).contains("cut here"), "a summary too long for the limit is not used");
        assert!(Compactions::default().compact(&text, 200, &count).contains("cut here to fit"), "another companion's summaries are its own");
    }

    #[test]
    fn plain_text_keeps_beginning_and_end() {
        let text = format!("START {} END", "word ".repeat(5000));
        let out = compact(&text, 300, &count);
        assert_eq!(out.method, Method::Truncated);
        assert!(count(&out.text) <= 300);
        assert!(out.text.starts_with("START"));
        assert!(out.text.ends_with("END"));
        assert!(out.text.contains("cut here to fit the context"));
    }
}
