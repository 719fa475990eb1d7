//! The SQLite store on real files: migrations, persistence across reopen, an unwritable
//! folder and a damaged file refused.

use sidecar_domain::ChatMessage;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::Role;
use sidecar_store::Store;
use sidecar_store::DB_FILE;

#[tokio::test]
async fn migrations_create_the_schema_on_a_fresh_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("nested/data")).await.unwrap();
    assert!(dir.path().join("nested/data").join(DB_FILE).exists());
    let tables: Vec<(String,)> = sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetch_all(store.pool()).await.unwrap();
    let names: Vec<&str> = tables.iter().map(|t| t.0.as_str()).collect();
    for expected in ["_sqlx_migrations", "conversations", "messages", "usage", "self_corrections"] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode").fetch_one(store.pool()).await.unwrap();
    assert_eq!(mode, "wal");
    store.close().await;
    // Opening again does not re-run or fail on applied migrations.
    let again = Store::open(&dir.path().join("nested/data")).await.unwrap();
    let (applied,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(again.pool()).await.unwrap();
    assert!(applied >= 1);
}

#[tokio::test]
async fn messages_survive_reopen_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let conversation = {
        let store = Store::open(dir.path()).await.unwrap();
        let conversation = store.conversations().current_conversation().await.unwrap();
        for (role, text, status) in [
            (Role::User, "hola, ¿me recuerdas?", MessageStatus::Complete),
            (Role::Assistant, "¡Claro que sí!", MessageStatus::Complete),
            (Role::User, "cuéntame algo", MessageStatus::Complete),
            (Role::Assistant, "Había una", MessageStatus::Stopped),
        ] {
            store.conversations().add_message(NewMessage { status, ..NewMessage::plain(conversation, &ChatMessage::new(role, text)) }).await.unwrap();
        }
        store.close().await;
        conversation
    };
    let store = Store::open(dir.path()).await.unwrap();
    assert_eq!(store.conversations().current_conversation().await.unwrap(), conversation);
    let messages = store.conversations().recent_messages(conversation, 10).await.unwrap();
    let texts: Vec<&str> = messages.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["hola, ¿me recuerdas?", "¡Claro que sí!", "cuéntame algo", "Había una"]);
    assert_eq!(messages[3].status, MessageStatus::Stopped);
    assert_eq!(messages[0].role, Role::User);
    // A window returns the most recent ones, still oldest first.
    let last_two = store.conversations().recent_messages(conversation, 2).await.unwrap();
    assert_eq!(last_two[0].content, "cuéntame algo");
}

#[tokio::test]
async fn an_unwritable_data_dir_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let error = Store::open(&file.join("data")).await.unwrap_err().to_string();
    assert!(error.contains("cannot create the data directory"), "{error}");
}

#[tokio::test]
async fn a_database_damaged_mid_file_is_refused_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).await.unwrap();
        let conversation = store.conversations().current_conversation().await.unwrap();
        for i in 0..400 {
            let line = ChatMessage::new(Role::User, format!("message number {i} with some words to fill the pages"));
            store.conversations().add_message(NewMessage::plain(conversation, &line)).await.unwrap();
        }
        // Everything in the main file, so the damage is not hidden behind the WAL.
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(store.pool()).await.unwrap();
        store.close().await;
    }
    let path = dir.path().join(DB_FILE);
    let mut bytes = std::fs::read(&path).unwrap();
    // Scribble over the start of every page in the middle third of the file (not the
    // header); some are free pages, most hold the tables.
    let page = 4096;
    let pages = bytes.len() / page;
    for n in pages / 3..pages * 2 / 3 {
        for b in &mut bytes[n * page + 8..n * page + 200] {
            *b = 0x5a;
        }
    }
    std::fs::write(&path, &bytes).unwrap();
    let error = Store::open(dir.path()).await.unwrap_err().to_string();
    assert!(error.contains("is damaged") && error.contains("restore the file from a copy"), "{error}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the damaged file is left exactly as it was");
}
