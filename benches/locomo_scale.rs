//! Recall latency at 100,000 messages of real text with real vectors: LoCoMo's ten
//! conversations (their messages and the vectors the local model gave them, from the
//! stores `locomo_recall` keeps in `LOCOMO_DIR`) copied until there are 100,000, each
//! copy a year later than the one before, and LoCoMo's own questions asked of it.
//! `benches/recall.rs` measures the same with random words and random vectors; this is
//! the figure a user's real history sees. Prints figures; asserts nothing.
//!
//! Run `locomo_recall` once first, then
//! `LOCOMO=target/locomo.json LOCOMO_DIR=target/locomo-stores cargo bench --bench locomo_scale`
//! (with the `LOCOMO_EMBEDDINGS` and `LOCOMO_DIR` it ran with, for another embedder).

#[path = "support/locomo.rs"]
mod locomo;

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};
use sidecar_memory::RecallMode;

const MESSAGES: usize = 100_000;
const QUERIES: usize = 300;

/// One stored message of a LoCoMo store, with its vector and the model that made it.
type Said = (String, String, String, Vec<u8>, String);

#[tokio::main]
async fn main() {
    let set = locomo::load();
    let Some(stores) = std::env::var_os("LOCOMO_DIR").map(std::path::PathBuf::from) else {
        eprintln!("set LOCOMO_DIR to where locomo_recall kept its stores");
        std::process::exit(2);
    };
    let mut said: Vec<Said> = Vec::new();
    for conversation in &set.conversations {
        let url = format!("sqlite:{}?mode=ro", stores.join(&conversation.name).join("sidecar.db").display());
        let pool = sqlx::SqlitePool::connect(&url).await.expect("run locomo_recall first: it keeps the embedded stores");
        let rows: Vec<Said> = sqlx::query_as(
            "SELECT m.role, m.content, m.created_at, e.vector, e.model FROM messages m JOIN embeddings e ON e.kind = 'message' AND e.ref_id = m.id ORDER BY m.id",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        said.extend(rows);
    }
    assert!(!said.is_empty(), "the stores hold no embedded messages");

    let dir = tempfile::tempdir().unwrap();
    // The embedder the stores were embedded with (`LOCOMO_EMBEDDINGS` as for locomo_recall).
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), locomo::settings())).await.unwrap();
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let loading = Instant::now();
    let mut tx = core.store().pool().begin().await.unwrap();
    for i in 0..MESSAGES {
        let (role, content, created_at, vector, model) = &said[i % said.len()];
        let copy = (i / said.len()) as i64;
        let at = created_at.parse::<chrono::DateTime<chrono::Utc>>().unwrap() + chrono::Duration::days(365 * copy);
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, ?, ?, 'complete', ?) RETURNING id")
                .bind(conversation)
                .bind(role)
                .bind(content)
                .bind(sidecar_store::utc(at))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        sqlx::query("INSERT INTO embeddings (kind, ref_id, model, vector) VALUES ('message', ?, ?, ?)")
            .bind(id)
            .bind(model)
            .bind(vector)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    println!("{MESSAGES} messages ({} real ones, copied) stored in {:.1} s", said.len(), loading.elapsed().as_secs_f64());
    let measuring = Instant::now();
    core.meaning().catch_up(None).await.unwrap();
    println!("loading their vectors and measuring densities: {:.1} s", measuring.elapsed().as_secs_f64());

    let questions: Vec<&str> = set.conversations.iter().flat_map(|c| c.questions.iter().map(|q| q.question.as_str())).collect();
    let step = (questions.len() / QUERIES).max(1);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    for (name, mode) in [("words only", RecallMode::Words), ("hybrid", RecallMode::Hybrid)] {
        let mut times: Vec<Duration> = questions.iter().step_by(step).take(QUERIES).map(|_| Duration::ZERO).collect();
        for (time, question) in times.iter_mut().zip(questions.iter().step_by(step)) {
            let started = Instant::now();
            core.recall_service().search_in(question, 2000, mode).await.unwrap();
            *time = started.elapsed();
        }
        times.sort();
        let n = times.len();
        println!(
            "recall, {name}, {n} of LoCoMo's questions at 2k tokens: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            ms(times[n / 2]),
            ms(times[n * 95 / 100]),
            ms(times[n - 1])
        );
    }
}
