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
        let mut v: Vec<f32> = (0..384).map(|_| rng.f32() - 0.5).collect();
        sidecar_memory::normalize(&mut v);
        sqlx::query("INSERT INTO embeddings (kind, ref_id, model, vector) VALUES ('message', ?, ?, ?)")
            .bind(id)
            .bind(sidecar_memory::LOCAL_MODEL)
            .bind(sidecar_memory::Quantized::from_f32(&v).to_blob())
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

/// A query of two of the words.
pub(crate) fn query(rng: &mut fastrand::Rng) -> String {
    format!("{} {}", WORDS[rng.usize(..WORDS.len())], WORDS[rng.usize(..WORDS.len())])
}
