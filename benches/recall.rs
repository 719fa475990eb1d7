//! `recall` latency over 100,000 stored messages (FTS5, bm25): median and p95 over
//! many queries, through the same path the tool uses. Prints figures; asserts nothing.
//!
//! Run: `cargo bench --bench recall`

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};

const MESSAGES: usize = 100_000;
const QUERIES: usize = 300;

const WORDS: &[&str] = &[
    "coffee", "garden", "meeting", "doctor", "sister", "project", "deadline", "recipe", "train", "holiday", "piano",
    "running", "budget", "invoice", "birthday", "cat", "allergy", "peanut", "gluten", "rosario", "madrid", "tokyo",
    "book", "movie", "series", "weather", "rain", "morning", "evening", "weekend", "lunch", "dinner", "tea", "music",
    "concert", "dentist", "appointment", "flight", "hotel", "museum", "bicycle", "market", "bread", "cheese", "wine",
    "exam", "course", "spanish", "portuguese", "guitar", "yoga", "swim", "marathon", "promotion", "salary", "rent",
];

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), Default::default())).await.unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let conversation = core.store().conversations().current_conversation().await.unwrap();

    let loading = Instant::now();
    let pool = core.store().pool();
    let mut tx = pool.begin().await.unwrap();
    for i in 0..MESSAGES {
        let words: Vec<&str> = (0..rng.usize(8..30)).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        sqlx::query("INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, ?, ?, 'complete', ?)")
            .bind(conversation)
            .bind(if i % 2 == 0 { "user" } else { "assistant" })
            .bind(words.join(" "))
            .bind(format!("2026-01-01T00:00:{:02}.000Z", i % 60))
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let loaded = loading.elapsed();

    let mut times: Vec<Duration> = Vec::with_capacity(QUERIES);
    let mut hits = 0;
    for _ in 0..QUERIES {
        let query = format!("{} {}", WORDS[rng.usize(..WORDS.len())], WORDS[rng.usize(..WORDS.len())]);
        let started = Instant::now();
        let results = core.recall(&query, 1500).await.unwrap();
        times.push(started.elapsed());
        hits += results.hits.len();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("recall over {MESSAGES} messages ({QUERIES} two-word queries, results packed into 1,500 tokens):");
    println!(
        "  median {:.1} ms, p95 {:.1} ms, max {:.1} ms; {:.1} hits per query (loading the messages and the index took {:.1} s)",
        ms(times[QUERIES / 2]),
        ms(times[QUERIES * 95 / 100]),
        ms(times[QUERIES - 1]),
        hits as f64 / QUERIES as f64,
        loaded.as_secs_f64()
    );
}
