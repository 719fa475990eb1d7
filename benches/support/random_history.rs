//! A large history for latency figures: messages of random words, each with a random
//! unit vector under the local model's name (a scan does not care what vectors say,
//! and embedding 100,000 messages takes half an hour here). The caller then has their
//! densities measured (`catch_up`), as the background indexer does.

use sidecar::Companion;

pub(crate) const WORDS: &[&str] = &[
    "coffee",
    "garden",
    "meeting",
    "doctor",
    "sister",
    "project",
    "deadline",
    "recipe",
    "train",
    "holiday",
    "piano",
    "running",
    "budget",
    "invoice",
    "birthday",
    "cat",
    "allergy",
    "peanut",
    "gluten",
    "rosario",
    "madrid",
    "tokyo",
    "book",
    "movie",
    "series",
    "weather",
    "rain",
    "morning",
    "evening",
    "weekend",
    "lunch",
    "dinner",
    "tea",
    "music",
    "concert",
    "dentist",
    "appointment",
    "flight",
    "hotel",
    "museum",
    "bicycle",
    "market",
    "bread",
    "cheese",
    "wine",
    "exam",
    "course",
    "spanish",
    "portuguese",
    "guitar",
    "yoga",
    "swim",
    "marathon",
    "promotion",
    "salary",
    "rent",
];

/// Stores `count` messages with their vectors in the current conversation.
pub(crate) async fn fill(core: &Companion, count: usize, rng: &mut fastrand::Rng) {
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let mut tx = core.store().pool().begin().await.unwrap();
    for i in 0..count {
        let words: Vec<&str> = (0..rng.usize(8..30)).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO messages (conversation_id, role, content, status, created_at) VALUES (?, ?, ?, 'complete', ?) RETURNING id")
                .bind(conversation)
                .bind(if i % 2 == 0 { "user" } else { "assistant" })
                .bind(words.join(" "))
                .bind(format!("2026-01-01T00:00:{:02}.000Z", i % 60))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        random_vector(&mut tx, "message", id, rng).await;
    }
    tx.commit().await.unwrap();
}

/// Stores `count` mails of random words from senders at example.org, makes the domain
/// matter (so the mail feature puts every one in reach of recall, as it does after a
/// sync), and gives each a random vector as `fill` does messages. Returns how long
/// putting them in reach took.
pub(crate) async fn fill_mails(core: &Companion, count: usize, rng: &mut fastrand::Rng) -> std::time::Duration {
    let mut tx = core.store().pool().begin().await.unwrap();
    let (folder,): (i64,) = sqlx::query_as("INSERT INTO mail_folders (name, read) VALUES ('INBOX', 1) RETURNING id").fetch_one(&mut *tx).await.unwrap();
    for i in 0..count {
        let words: Vec<&str> = (0..rng.usize(30..120)).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        sqlx::query("INSERT INTO mails (folder_id, uid, from_address, from_name, subject, sent_at, body) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .bind(folder)
            .bind(i as i64 + 1)
            .bind(format!("sender{}@example.org", i % 50))
            .bind(format!("Sender {}", i % 50))
            .bind(words[..3].join(" "))
            .bind(format!("2026-01-01T00:00:{:02}+00:00", i % 60))
            .bind(words.join(" "))
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let started = std::time::Instant::now();
    core.mail().set_who_matters(&["example.org".to_string()]).await.unwrap();
    let took = started.elapsed();
    let ids = core.store().recall_index().mail_ids().await.unwrap();
    let mut tx = core.store().pool().begin().await.unwrap();
    for id in ids {
        random_vector(&mut tx, "mail", id, rng).await;
    }
    tx.commit().await.unwrap();
    took
}

/// A random unit vector for item `kind` `id` under the local model's name.
async fn random_vector(tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>, kind: &str, id: i64, rng: &mut fastrand::Rng) {
    let mut v: Vec<f32> = (0..384).map(|_| rng.f32() - 0.5).collect();
    sidecar_memory::normalize(&mut v);
    sqlx::query("INSERT INTO embeddings (kind, ref_id, model, vector) VALUES (?, ?, ?, ?)")
        .bind(kind)
        .bind(id)
        .bind(sidecar_memory::LOCAL_MODEL)
        .bind(sidecar_memory::Quantized::from_f32(&v).to_blob())
        .execute(&mut **tx)
        .await
        .unwrap();
}

/// A query of two of the words.
pub(crate) fn query(rng: &mut fastrand::Rng) -> String {
    format!("{} {}", WORDS[rng.usize(..WORDS.len())], WORDS[rng.usize(..WORDS.len())])
}
