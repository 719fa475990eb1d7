//! The seeds' purge (agent mode 3.2, issue 75 item 3) as the user's `[retention]`
//! choices: a total size the database keeps under (the seeds' 50 MB), the oldest chats
//! going first and never a pinned one, the current one or a fact; a chat untouched for
//! N hours closed, summed up by a checkpoint and offered to continue; both off by default.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use sidecar::events::CoreEvent;
use sidecar_agent::ChatEvent;
use sidecar_memory::Category;
use sidecar_settings::RetentionSettings;

use crate::chats::open;
use crate::support::{reply_events, stream, ScriptedServer};

/// An old chat stored as it would have been `days_ago` days before the test's clock:
/// twenty messages of about 100 KB each (hex, which no page compresses).
async fn old_chat(core: &sidecar::Companion, days_ago: i64) -> i64 {
    let at = sidecar_store::utc(core.clock().now() - chrono::Duration::days(days_ago));
    let (id,): (i64,) = sqlx::query_as("INSERT INTO conversations (title, created_at, updated_at) VALUES (?, ?, ?) RETURNING id")
        .bind(format!("Charla de hace {days_ago} días"))
        .bind(&at)
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
    id
}

async fn listed(core: &sidecar::Companion) -> Vec<i64> {
    core.chats().list(None).await.unwrap().1.iter().map(|c| c.id).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_fifty_megabytes_the_oldest_chats_go_but_never_a_pinned_one_the_current_one_or_a_fact() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Anotado."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url, Arc::new(AtomicI64::new(0))).await;
    core.remember("Mi hermana Lucía vive en Valencia", Category::Relationships).await.unwrap();
    core.send("Hola, ¿qué tal?").await.unwrap();
    let current = core.chats().list(None).await.unwrap().0;
    // Thirty old chats, about 2 MB each, the oldest first; the oldest is pinned.
    let mut old = Vec::new();
    for days_ago in (1..=30).rev() {
        old.push(old_chat(&core, days_ago).await);
    }
    core.chats().pin(old[0], true).await.unwrap();
    let before = core.store().used_bytes().await.unwrap();
    assert!(before > 60_000_000, "{before}");

    // By default nothing goes, however big.
    let report = core.tidy().await.unwrap();
    assert_eq!(report.conversations_over_size, 0);
    assert_eq!(listed(&core).await.len(), 31);

    let limit = RetentionSettings { max_size_mb: Some(50), ..Default::default() };
    core.set_retention(limit).unwrap();
    let report = core.tidy().await.unwrap();
    assert!(report.used_bytes <= 50_000_000 && !report.still_over_size, "{report:?}");
    let gone = report.conversations_over_size as usize;
    assert!((5..=12).contains(&gone), "only what the limit needs: {report:?}");
    let left = listed(&core).await;
    // The oldest unpinned ones went, in order; the pinned one, the newer ones and the
    // current one stayed, and so did the fact.
    assert!(old[1..=gone].iter().all(|id| !left.contains(id)), "{left:?}");
    assert!(left.contains(&old[0]) && left.contains(&current) && old[gone + 1..].iter().all(|id| left.contains(id)));
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text.contains("Lucía")), "facts live in the memory files");
    let file = std::fs::metadata(dir.path().join("sidecar.db")).unwrap().len();
    assert!(file <= 51_000_000, "the room is given back to the disk: {file}");

    // A limit what is left cannot meet (all pinned): nothing pinned goes, and it says so.
    for id in left.iter().filter(|id| **id != current) {
        core.chats().pin(*id, true).await.unwrap();
    }
    core.set_retention(RetentionSettings { max_size_mb: Some(10), ..Default::default() }).unwrap();
    let report = core.tidy().await.unwrap();
    assert!(report.still_over_size && report.conversations_over_size == 0, "{report:?}");
    let mut still = listed(&core).await;
    still.sort();
    let mut left = left;
    left.sort();
    assert_eq!(still, left);

    let refused = core.set_retention(RetentionSettings { max_size_mb: Some(1), ..Default::default() }).unwrap_err().to_string();
    assert!(refused.contains("retention.max_size_mb must be from 10"), "{refused}");
}

#[tokio::test]
async fn a_chat_untouched_for_the_hours_chosen_is_summed_up_closed_and_offered_to_continue() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["De acuerdo, lo apunto."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let offset = Arc::new(AtomicI64::new(0));
    let core = open(dir.path(), &server.base_url, offset.clone()).await;
    let mut events = core.events().subscribe();
    core.send("Estoy organizando la mudanza a Valencia para marzo").await.unwrap();
    let first = core.chats().list(None).await.unwrap().0;

    // Off by default: a day later the chat is still the current one.
    offset.fetch_add(24 * 3600, Ordering::SeqCst);
    core.tidy().await.unwrap();
    assert_eq!(core.chats().list(None).await.unwrap().0, first);

    core.set_retention(RetentionSettings { close_idle_hours: Some(2), ..Default::default() }).unwrap();
    core.send("¿Qué me queda por hacer?").await.unwrap();
    // An hour: not yet.
    offset.fetch_add(3600, Ordering::SeqCst);
    core.tidy().await.unwrap();
    assert_eq!(core.chats().list(None).await.unwrap().0, first);
    // Two hours and a minute: closed, summed up, and the new chat offers to go on.
    offset.fetch_add(3600 + 60, Ordering::SeqCst);
    core.tidy().await.unwrap();
    let opened = core.chats().list(None).await.unwrap().0;
    assert_ne!(opened, first);
    let closed = loop {
        match events.try_recv() {
            Ok(CoreEvent::Chat(ChatEvent::ConversationClosed { conversation_id, opened, checkpoint_id })) => break (conversation_id, opened, checkpoint_id),
            Ok(_) => continue,
            Err(error) => panic!("no closed chat said: {error:?}"),
        }
    };
    let checkpoint_id = closed.2.expect("summed up");
    assert_eq!((closed.0, closed.1), (first, opened));
    let checkpoint = core.context().checkpoints().await.unwrap().into_iter().find(|c| c.id == checkpoint_id).unwrap();
    assert_eq!(checkpoint.trigger, "idle");
    assert_eq!(core.context().continuation_offer().await.unwrap().map(|c| c.id), Some(checkpoint_id));
    assert!(core.chats().list(None).await.unwrap().1.iter().any(|c| c.id == first), "closed, not deleted");

    // The new chat is empty: it stays open however long it waits.
    offset.fetch_add(10 * 3600, Ordering::SeqCst);
    core.tidy().await.unwrap();
    assert_eq!(core.chats().list(None).await.unwrap().0, opened);
    // An incognito chat is only ever left by the user.
    core.context().new_incognito().await.unwrap();
    core.send("Esto no se guarda").await.unwrap();
    let incognito = core.chats().list(None).await.unwrap().0;
    offset.fetch_add(10 * 3600, Ordering::SeqCst);
    core.tidy().await.unwrap();
    assert_eq!(core.chats().list(None).await.unwrap().0, incognito);
}
