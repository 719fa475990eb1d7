//! What the tidy costs (the seeds' purge, issue 75): the tidy with nothing to remove,
//! which runs every 30 minutes while Sidecar runs, on databases of about 60 and 200 MB;
//! and the size limit's first tidy bringing each under 50 MB (oldest chats removed one
//! at a time, their vectors cleared, then `VACUUM`). Prints figures; asserts nothing.
//!
//! Run: `cargo bench --bench tidy`

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};
use sidecar_settings::RetentionSettings;

const RUNS: usize = 5;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `chats` old chats of twenty messages of about 100 KB each (about 2 MB a chat).
async fn fill(core: &Companion, chats: i64) {
    for days_ago in (1..=chats).rev() {
        let at = sidecar_store::utc(core.clock().now() - chrono::Duration::hours(days_ago));
        let (id,): (i64,) = sqlx::query_as("INSERT INTO conversations (title, created_at, updated_at) VALUES ('old', ?1, ?1) RETURNING id")
            .bind(&at)
            .fetch_one(core.store().pool())
            .await
            .unwrap();
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
             INSERT INTO messages (conversation_id, role, content, created_at)
             SELECT ?1, CASE i % 2 WHEN 1 THEN 'user' ELSE 'assistant' END, 'mensaje ' || i || ' ' || hex(randomblob(50000)), ?2 FROM n",
        )
        .bind(id)
        .bind(&at)
        .execute(core.store().pool())
        .await
        .unwrap();
    }
}

async fn measure(chats: i64) {
    let dir = tempfile::tempdir().unwrap();
    let settings = toml::from_str("[user]\ntimezone = \"Europe/Madrid\"\n").unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    fill(&core, chats).await;
    let before = core.store().used_bytes().await.unwrap();
    let mut idle = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        core.tidy().await.unwrap();
        idle.push(start.elapsed());
    }
    idle.sort();
    core.set_retention(RetentionSettings { max_size_mb: Some(50), ..Default::default() }).unwrap();
    let start = Instant::now();
    let report = core.tidy().await.unwrap();
    let capped = start.elapsed();
    let start = Instant::now();
    core.tidy().await.unwrap();
    let after = start.elapsed();
    println!(
        "{:>4} MB, {chats} chats: a tidy with nothing to remove {:.1} ms (median of {RUNS}); under 50 MB: {} chats removed in {:.0} ms, {:.1} MB left; the next tidy {:.1} ms",
        before / 1_000_000,
        ms(idle[RUNS / 2]),
        report.conversations_over_size,
        ms(capped),
        report.used_bytes as f64 / 1e6,
        ms(after),
    );
    core.shutdown().await;
}

#[tokio::main]
async fn main() {
    measure(30).await;
    measure(100).await;
}
