//! The database encrypted at rest (issue 74): how long converting a large plain database
//! takes at the first start after the user turns encryption on, and back, and what
//! opening and reading an encrypted one costs beside a plain one. Prints figures; asserts
//! nothing.
//!
//! The database is filled with messages of random words (each indexed for full-text
//! search, as Sidecar's are) until the file reaches `ENCRYPT_MB` megabytes (1,024
//! unless said). Run: `cargo bench --profile dev --bench encryption`.

#[path = "support/random_history.rs"]
#[allow(dead_code)]
mod random_history;

use std::time::{Duration, Instant};

use sidecar_store::{convert, DatabaseKey, Store, DB_FILE};

const BATCH: usize = 5_000;
const QUERIES: usize = 300;

fn megabytes(dir: &std::path::Path) -> f64 {
    std::fs::metadata(dir.join(DB_FILE)).map(|m| m.len()).unwrap_or(0) as f64 / 1e6
}

/// Median and p95 of `QUERIES` two-word full-text queries, in ms.
async fn words(store: &Store, rng: &mut fastrand::Rng) -> (f64, f64) {
    let mut times: Vec<Duration> = Vec::with_capacity(QUERIES);
    for _ in 0..QUERIES {
        let query = random_history::query(rng);
        let started = Instant::now();
        store.recall_index().word_matches(&query, 20).await.unwrap();
        times.push(started.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(times[QUERIES / 2]), ms(times[QUERIES * 95 / 100]))
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
    let (plain_median, plain_p95) = words(&store, &mut rng).await;
    store.close().await;
    println!("a plain database of {messages} messages, {:.0} MB, filled in {:.0} s", megabytes(dir.path()), filling.elapsed().as_secs_f64());

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
    let (median, p95) = words(&store, &mut rng).await;
    println!("full-text queries ({QUERIES}, two words, 20 best): plain median {plain_median:.1} ms, p95 {plain_p95:.1} ms; encrypted median {median:.1} ms, p95 {p95:.1} ms");
    store.close().await;

    let started = Instant::now();
    convert(dir.path(), Some(&key), None).await.unwrap();
    println!("making it plain again: {:.1} s", started.elapsed().as_secs_f64());
}
