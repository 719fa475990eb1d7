//! Imports of other apps' histories treat the file as untrusted and are idempotent: the
//! same export imported twice stores nothing the second time (and says so), a message
//! twice in one file is kept once, a byte order mark is skipped, times outside 1970–now
//! are not believed, and a message with no readable text is reported, not dropped
//! without a word.

use std::sync::Arc;

use sidecar::Companion;

async fn open(dir: &std::path::Path) -> Arc<Companion> {
    crate::support::core().open_in(&dir.join("data")).await
}

async fn messages(core: &Companion) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(core.store().pool()).await.unwrap();
    n
}

const CHATGPT: &str = r#"[{"title": "Trip", "current_node": "d",
  "mapping": {
    "a": {"message": {"id": "a", "author": {"role": "user"}, "create_time": 1700000000, "content": {"content_type": "text", "parts": ["Where should I go in Portugal?"]}}, "parent": null},
    "b": {"message": {"id": "b", "author": {"role": "assistant"}, "create_time": 999999999999, "content": {"content_type": "text", "parts": ["Porto, in the year 33658."]}}, "parent": "a"},
    "c": {"message": {"id": "c", "author": {"role": "user"}, "create_time": 1700000005, "content": {"content_type": "text", "parts": "not a list"}}, "parent": "b"},
    "d": {"message": {"id": "d", "author": {"role": "assistant"}, "create_time": 1700000009, "content": {"content_type": "text", "parts": ["Enjoy the Douro."]}}, "parent": "c"}
  }}]"#;

#[tokio::test]
async fn the_same_export_imported_twice_stores_its_messages_once() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    // With a byte order mark, as some editors save it.
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), CHATGPT.as_bytes()].concat();
    let first = core.data().import_chat_export(&with_bom).await.unwrap();
    assert_eq!((first.conversations, first.messages, first.already), (1, 3, 0), "{first:?}");
    let said: Vec<&str> = first.problems.iter().map(|(_, why)| why.as_str()).collect();
    assert!(said.iter().any(|why| why.contains("1 message(s) without readable text left out")), "{said:?}");
    assert!(said.iter().any(|why| why.contains("not between 1970 and now")), "{said:?}");
    let (year,): (String,) = sqlx::query_as("SELECT created_at FROM messages WHERE external_id = 'b'").fetch_one(core.store().pool()).await.unwrap();
    assert!(year.starts_with("20"), "an unbelievable time is not stored: {year}");
    let stored = messages(&core).await;
    let again = core.data().import_chat_export(CHATGPT.as_bytes()).await.unwrap();
    assert_eq!((again.conversations, again.messages, again.already), (0, 0, 3), "{again:?}");
    assert_eq!(messages(&core).await, stored, "nothing doubled");
    let (conversations,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM conversations").fetch_one(core.store().pool()).await.unwrap();
    assert!(conversations <= 2, "no empty conversation for an import that added nothing: {conversations}");
}

#[tokio::test]
async fn json_lines_are_kept_once_by_id_or_by_words_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let file = "\u{feff}{\"role\":\"user\",\"content\":\"hola\",\"id\":\"m1\"}\n\
                {\"role\":\"user\",\"content\":\"hola\",\"id\":\"m1\"}\n\
                {\"role\":\"assistant\",\"content\":\"¿qué tal?\",\"timestamp\":\"2023-10-22T09:55:00Z\"}\n\
                {\"role\":\"user\",\"content\":\"ok\"}\n";
    let first = core.data().import_jsonl(file.as_bytes()).await.unwrap();
    assert_eq!((first.imported, first.already), (3, 1), "the id twice in the file is kept once: {first:?}");
    assert!(first.problems.is_empty(), "the byte order mark is no problem: {:?}", first.problems);
    let again = core.data().import_jsonl(file.as_bytes()).await.unwrap();
    // A line with neither id nor time cannot be known again: it is stored once more.
    assert_eq!((again.imported, again.already), (1, 3), "{again:?}");
    // The same id from another app with other words is another message.
    let other = core.data().import_jsonl(b"{\"role\":\"user\",\"content\":\"adios\",\"id\":\"m1\"}\n").await.unwrap();
    assert_eq!((other.imported, other.already), (1, 0));
}

/// A list of something else, or not a list at all, is refused with what was expected.
#[tokio::test]
async fn a_file_that_is_no_export_says_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let neither = core.data().import_chat_export(br#"[{"hello": 1}]"#).await.unwrap_err().to_string();
    assert!(neither.contains("neither a ChatGPT export") && neither.contains("nor a Claude export"), "{neither}");
    let no_list = core.data().import_chat_export(br#"{"mapping": {}}"#).await.unwrap_err().to_string();
    assert!(no_list.contains("a JSON list of conversations was expected"), "{no_list}");
    let cut = core.data().import_chat_export(&CHATGPT.as_bytes()[..CHATGPT.len() / 2]).await.unwrap_err().to_string();
    assert!(cut.contains("a JSON list of conversations was expected"), "{cut}");
    assert_eq!(messages(&core).await, 0, "nothing stored from a file that is not whole");
}
