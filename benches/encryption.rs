//! The database encrypted at rest (issue 74): how long converting a large plain database
//! takes at the first start after the user turns encryption on, and back, and opening
//! the encrypted one. Prints figures; asserts nothing. (What reading costs encrypted is
//! the recall bench's: `RECALL_ENCRYPTED=1`.)
//!
//! The database is filled with messages of random words (each indexed for full-text
//! search, as Sidecar's are) until the file reaches `ENCRYPT_MB` megabytes (1,024
//! unless said). Run: `cargo bench --profile dev --bench encryption`.

#[path = "support/random_history.rs"]
#[allow(dead_code)]
mod random_history;

use std::time::Instant;

use sidecar_store::{convert, DatabaseKey, Store, DB_FILE};

const BATCH: usize = 5_000;

fn megabytes(dir: &std::path::Path) -> f64 {
    std::fs::metadata(dir.join(DB_FILE)).map(|m| m.len()).unwrap_or(0) as f64 / 1e6
}

#[tokio::main]
async fn main() {
    let target: f64 = std::env::var("ENCRYPT_MB").ok().and_then(|n| n.parse().ok()).unwrap_or(1024.0);
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut rng = fastrand::Rng::with_seed(11);
    let store = Store::open(dir.path()).await.unwrap();
    let conversation = store.conversations().current_conversation().await.unwrap();
    let filling = Instant::now();
    let mut messages = 0usize;
    while megabytes(dir.path()) < target {
        let mut tx = store.pool().begin().await.unwrap();
        for _ in 0..BATCH {
            let words: Vec<&str> = (0..rng.usize(80..240)).map(|_| random_history::WORDS[rng.usize(..random_history::WORDS.len())]).collect();
            sqlx::query(
                "INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, 'user', ?, 'complete', '2026-01-01T00:00:00.000Z')",
            )
            .bind(conversation)
            .bind(words.join(" "))
            .execute(&mut *tx)
            .await
            .unwrap();
            messages += 1;
        }
        tx.commit().await.unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(store.pool()).await.unwrap();
    }
    store.close().await;
    println!("a plain database of {messages} messages, {:.0} MB, filled in {:.0} s", megabytes(dir.path()), filling.elapsed().as_secs_f64());
    let started = Instant::now();
    Store::open(dir.path()).await.unwrap().close().await;
    println!("opening it plain (integrity check, migrations looked at): {:.2} s", started.elapsed().as_secs_f64());

    let key = DatabaseKey::generate();
    let started = Instant::now();
    let converted = convert(dir.path(), None, Some(&key)).await.unwrap();
    let took = started.elapsed().as_secs_f64();
    println!(
        "encrypting it (export, every table's rows counted in both files, quick check, rename): {took:.1} s, {:.0} MB/s ({} tables, {} rows)",
        megabytes(dir.path()) / took,
        converted.tables,
        converted.rows
    );

    let started = Instant::now();
    let store = Store::open_keyed(dir.path(), Some(&key)).await.unwrap();
    println!("opening the encrypted database (integrity check, migrations looked at): {:.2} s", started.elapsed().as_secs_f64());
    let conversation = store.conversations().current_conversation().await.unwrap();
    let started = Instant::now();
    let last = store.conversations().recent_messages(conversation, 50).await.unwrap();
    println!("its last 50 messages read: {:.1} ms ({} read)", started.elapsed().as_secs_f64() * 1000.0, last.len());
    store.close().await;

    let started = Instant::now();
    convert(dir.path(), Some(&key), None).await.unwrap();
    println!("making it plain again: {:.1} s", started.elapsed().as_secs_f64());
}
