//! The reminders' tables through the store's migrations: a reminder and its deliveries
//! kept across the migration that added delivery attempts.

use sidecar_reminders::RemindersStore;
use sidecar_store::Store;
use sidecar_store::DB_FILE;

#[tokio::test]
async fn the_delivery_attempts_migration_keeps_reminders_and_their_deliveries() {
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    // The schema as it was before the migration, with a reminder delivered once.
    {
        let mut before = sqlx::migrate!("../../migrations");
        let keep = before.migrations.iter().position(|m| m.version == 20261125000000).unwrap();
        before.migrations = std::borrow::Cow::Owned(before.migrations[..keep].to_vec());
        let options = SqliteConnectOptions::new().filename(&path).create_if_missing(true).foreign_keys(true);
        let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await.unwrap();
        before.run(&pool).await.unwrap();
        sqlx::query("INSERT INTO reminders (message, due_at, zone, rrule, state, created_at, series_start) VALUES ('pill', '2026-11-22T08:00:00Z', 'UTC', 'FREQ=DAILY', 'pending', '2026-11-01T00:00:00Z', '2026-11-21T08:00:00Z')")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO reminder_deliveries VALUES ('1@2026-11-21T08:00:00Z', 1, '2026-11-21T08:00:00Z', '2026-11-21T08:00:01Z', 0)")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let store = Store::open(dir.path()).await.unwrap();
    let reminder = store.reminder_table().reminder(1).await.unwrap().unwrap();
    assert_eq!((reminder.message.as_str(), reminder.rrule.as_deref(), reminder.shown_attempts), ("pill", Some("FREQ=DAILY"), 0));
    assert!(store.reminder_table().was_delivered("1@2026-11-21T08:00:00Z").await.unwrap());
    let (violations,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM pragma_foreign_key_check").fetch_one(store.pool()).await.unwrap();
    assert_eq!(violations, 0);
    sqlx::query("UPDATE reminders SET state = 'failed' WHERE id = 1").execute(store.pool()).await.unwrap();
}
