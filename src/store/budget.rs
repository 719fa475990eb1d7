//! What the budget reads from the store: costs since a moment, by provider and
//! purpose, each call's cost for the usage charts, and the extra allowed per day.
//! `store.budget()`.

use super::{Store, StoreError};

/// One model call, as the usage charts bucket it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct CallCost {
    /// RFC 3339, UTC.
    pub created_at: String,
    pub provider: String,
    pub model: String,
    pub purpose: String,
    pub input_tokens: i64,
    pub output_tokens: i64,
    /// `None` when the model's price is unknown.
    pub cost_usd: Option<f64>,
}

pub struct BudgetRows<'a> {
    pub(super) store: &'a Store,
}

impl BudgetRows<'_> {
    /// Every call made at or after `since` (RFC 3339), oldest first.
    pub async fn calls_since(&self, since: &str) -> Result<Vec<CallCost>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT created_at, provider, model, purpose, COALESCE(input_tokens, 0) AS input_tokens,
                    COALESCE(output_tokens, 0) AS output_tokens, cost_usd
             FROM usage WHERE created_at >= ? ORDER BY created_at, id",
        )
        .bind(since)
        .fetch_all(&self.store.pool)
        .await?)
    }

    /// What changes when there is spending to read again: the newest call's id (0 for
    /// none) and the extra allowed on `day`, whichever process recorded them.
    pub async fn spending_mark(&self, day: &str) -> Result<(i64, f64), StoreError> {
        Ok(sqlx::query_as("SELECT COALESCE((SELECT MAX(id) FROM usage), 0), COALESCE((SELECT extra_usd FROM budget_allowances WHERE day = ?), 0.0)")
            .bind(day)
            .fetch_one(&self.store.pool)
            .await?)
    }

    /// Allows `usd` more on `day`, on top of what was allowed; returns the new total.
    pub async fn allow_more(&self, day: &str, usd: f64) -> Result<f64, StoreError> {
        let row: (f64,) = sqlx::query_as(
            "INSERT INTO budget_allowances (day, extra_usd) VALUES (?, ?)
             ON CONFLICT (day) DO UPDATE SET extra_usd = extra_usd + excluded.extra_usd RETURNING extra_usd",
        )
        .bind(day)
        .bind(usd)
        .fetch_one(&self.store.pool)
        .await?;
        Ok(row.0)
    }
}
