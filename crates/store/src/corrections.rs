//! Self-correction notes: what the agent got wrong recently, kept for a while so the
//! prompt can remind it, recorded once per check within a cooldown, then expiring.

use chrono::{DateTime, Duration, Utc};

use super::{utc as stamp, Store, StoreError};

/// Corrections the turn asked of the model, remembered for a while. A handle on the store: `store.corrections()`.
pub struct Corrections<'a> {
    pub(super) store: &'a Store,
}

impl Corrections<'_> {
    /// Records a note for `check` unless one was recorded within `cooldown`.
    /// Returns whether it was recorded.
    pub async fn record_correction(&self, check: &str, note: &str, now: DateTime<Utc>, cooldown: Duration, ttl: Duration) -> Result<bool, StoreError> {
        let (recent,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM self_corrections WHERE check_name = ? AND created_at > ?")
            .bind(check)
            .bind(stamp(now - cooldown))
            .fetch_one(&self.store.pool)
            .await?;
        if recent > 0 {
            return Ok(false);
        }
        sqlx::query("INSERT INTO self_corrections (check_name, note, created_at, expires_at) VALUES (?, ?, ?, ?)")
            .bind(check)
            .bind(note)
            .bind(stamp(now))
            .bind(stamp(now + ttl))
            .execute(&self.store.pool)
            .await?;
        Ok(true)
    }

    /// Notes that have not expired, oldest first.
    pub async fn active_corrections(&self, now: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT note FROM self_corrections WHERE expires_at > ? ORDER BY id").bind(stamp(now)).fetch_all(&self.store.pool).await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Deletes expired notes; returns how many.
    pub async fn purge_expired_corrections(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM self_corrections WHERE expires_at <= ?").bind(stamp(now)).execute(&self.store.pool).await?;
        Ok(done.rows_affected())
    }
}
