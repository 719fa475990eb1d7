//! Past conversations: listed with titles and dates, searched, opened (the reply
//! continues there), renamed, deleted with undo and then for good (gone from recall),
//! and a memory search hit opening its conversation.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use sidecar::Companion;
use sidecar_domain::Clock;

use crate::support::{reply_events, stream, ScriptedServer};

pub(crate) async fn open(dir: &std::path::Path, base_url: &str, offset: Arc<AtomicI64>) -> Arc<Companion> {
    let start = Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap();
    let clock = Clock::new(Arc::new(move || start + chrono::Duration::seconds(offset.load(Ordering::SeqCst))), chrono_tz::Europe::Madrid);
    crate::support::core().provider("p", base_url).clock(clock).open_in(dir).await
}

#[tokio::test]
async fn conversations_are_listed_searched_opened_renamed_and_deleted_with_undo() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Noted."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let offset = Arc::new(AtomicI64::new(0));
    let core = open(dir.path(), &server.base_url, offset.clone()).await;
    let tick = |s: i64| offset.fetch_add(s, Ordering::SeqCst);

    core.send("My sister started a new job at the bakery on Main Street, and she loves it").await.unwrap();
    let first = core.chats().list(None).await.unwrap().0;
    tick(60);
    core.context().new_conversation().await.unwrap();
    let (current, empty_listed) = core.chats().list(None).await.unwrap();
    assert_eq!(empty_listed[0].id, current, "the new, empty conversation is listed while current");
    tick(60);
    core.send("Plan a weekend in Lisbon").await.unwrap();
    let second = current;

    let (current, list) = core.chats().list(None).await.unwrap();
    assert_eq!(current, second);
    assert_eq!(list.iter().map(|c| c.id).collect::<Vec<_>>(), [second, first], "newest activity first");
    assert_eq!(list[1].title.as_deref(), Some("My sister started a new job at the bakery on Main Street,…"));
    assert_eq!((list[1].message_count, list[1].renamed), (2, false));

    let (_, found) = core.chats().list(Some("bakery sister")).await.unwrap();
    assert_eq!(found.iter().map(|c| c.id).collect::<Vec<_>>(), [first], "every word must match");
    assert_eq!(found[0].matched.as_deref(), Some("My [sister] started a new job at the [bakery] on Main Street, and she loves it"), "the match is shown");
    assert_eq!(core.chats().list(None).await.unwrap().1[0].matched, None, "no search, no match to show");
    assert!(core.chats().list(Some("bakery lisbon")).await.unwrap().1.is_empty());

    core.chats().rename(first, "  Ana's   sister  ").await.unwrap();
    let (_, list) = core.chats().list(Some("ana's")).await.unwrap();
    assert_eq!((list[0].title.as_deref(), list[0].renamed), (Some("Ana's sister"), true));

    tick(60);
    core.chats().open(first).await.unwrap();
    let history = core.conversation().history(50).await.unwrap();
    assert!(history[0].content.contains("bakery"), "opening shows its messages");
    core.send("She got promoted already").await.unwrap();
    assert_eq!(core.conversation().history(50).await.unwrap().len(), 4, "the reply continued there");
    assert_eq!(core.chats().list(None).await.unwrap().1[0].id, first);

    // Delete: hidden at once, also from recall; undo brings it back.
    core.chats().delete(second).await.unwrap();
    assert!(!core.chats().list(None).await.unwrap().1.iter().any(|c| c.id == second));
    assert!(core.recall_service().search("Lisbon", 500).await.unwrap().hits.is_empty());
    assert!(core.chats().undelete(second).await.unwrap());
    assert!(core.chats().list(None).await.unwrap().1.iter().any(|c| c.id == second));
    assert!(!core.recall_service().search("Lisbon", 500).await.unwrap().hits.is_empty());

    // Deleted for good once the undo window has passed.
    core.chats().delete(second).await.unwrap();
    tick(sidecar_agent::UNDO_SECONDS + 1);
    core.chats().list(None).await.unwrap();
    assert!(!core.chats().undelete(second).await.unwrap(), "too late to undo");
    let left: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE conversation_id = ?").bind(second).fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(left.0, 0);

    // A memory search hit opens its conversation.
    core.context().new_conversation().await.unwrap();
    let hit = core.recall_service().search("promoted", 500).await.unwrap().hits.into_iter().find(|h| h.source == "message").unwrap();
    tick(1);
    assert_eq!(core.chats().open_at(hit.id).await.unwrap(), first);
    assert_eq!(core.chats().list(None).await.unwrap().0, first);
}

/// A pinned conversation stays at the top whatever is newer, until unpinned.
#[tokio::test]
async fn a_pinned_conversation_stays_at_the_top() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Noted."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let offset = Arc::new(AtomicI64::new(0));
    let core = open(dir.path(), &server.base_url, offset.clone()).await;
    core.send("Groceries for the week").await.unwrap();
    let first = core.chats().list(None).await.unwrap().0;
    offset.fetch_add(60, Ordering::SeqCst);
    core.context().new_conversation().await.unwrap();
    core.send("Plan a weekend in Lisbon").await.unwrap();
    let second = core.chats().list(None).await.unwrap().0;
    let order = |list: Vec<sidecar_store::ChatSummary>| list.iter().map(|c| (c.id, c.pinned)).collect::<Vec<_>>();
    assert_eq!(order(core.chats().list(None).await.unwrap().1), [(second, false), (first, false)]);
    core.chats().pin(first, true).await.unwrap();
    assert_eq!(order(core.chats().list(None).await.unwrap().1), [(first, true), (second, false)], "pinned first, though older");
    core.chats().pin(first, false).await.unwrap();
    assert_eq!(order(core.chats().list(None).await.unwrap().1), [(second, false), (first, false)]);
    assert!(core.chats().pin(9_999, true).await.is_err());
}

/// Retention (context-engineering 3.2): by default nothing is removed; with `keep_days`
/// set, conversations with nothing said for that long are deleted at the tidy (pinned
/// ones and the current one kept), removed for good a day later, and the vectors of
/// what is gone are cleared; a retention under a week is refused.
#[tokio::test]
async fn the_tidy_keeps_everything_by_default_and_applies_the_retention_the_user_sets() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Noted."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let offset = Arc::new(AtomicI64::new(0));
    let core = open(dir.path(), &server.base_url, offset.clone()).await;
    let day = 24 * 3600;
    core.send("An old chat about the garden").await.unwrap();
    let (old, _) = core.chats().list(None).await.unwrap();
    core.context().new_conversation().await.unwrap();
    core.send("An old chat I pinned").await.unwrap();
    let (pinned, _) = core.chats().list(None).await.unwrap();
    core.chats().pin(pinned, true).await.unwrap();
    offset.fetch_add(40 * day, Ordering::SeqCst);
    core.context().new_conversation().await.unwrap();
    core.send("A chat from today").await.unwrap();
    // A vector left behind by a message that is gone.
    sqlx::query("INSERT INTO embeddings (kind, ref_id, model, vector) VALUES ('message', 999999, 'm', x'00')").execute(core.store().pool()).await.unwrap();

    let report = core.tidy().await.unwrap();
    assert_eq!((report.conversations_expired, report.conversations_removed), (0, 0), "by default everything is kept");
    assert_eq!(report.vectors_removed, 1, "the orphaned vector is cleared");
    assert_eq!(core.chats().list(None).await.unwrap().1.len(), 3);

    let keep = |days| sidecar_settings::RetentionSettings { keep_days: Some(days), ..Default::default() };
    let refused = core.set_retention(keep(3)).unwrap_err().to_string();
    assert!(refused.contains("retention.keep_days must be from 7"), "{refused}");
    core.set_retention(keep(30)).unwrap();
    let settings = std::fs::read_to_string(dir.path().join("config/settings.toml")).unwrap_or_default();
    assert!(core.settings().retention.keep_days == Some(30), "{settings}");
    let report = core.tidy().await.unwrap();
    assert_eq!(report.conversations_expired, 1, "{report:?}");
    let listed: Vec<i64> = core.chats().list(None).await.unwrap().1.iter().map(|c| c.id).collect();
    assert!(!listed.contains(&old) && listed.contains(&pinned) && listed.len() == 2, "{listed:?}");
    offset.fetch_add(2 * day, Ordering::SeqCst);
    let report = core.tidy().await.unwrap();
    assert_eq!(report.conversations_removed, 1, "{report:?}");
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE conversation_id = ?").bind(old).fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(left, 0, "its messages are gone");
}
