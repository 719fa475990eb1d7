//! Token use and cost of every model call, and their totals.

use serde::Serialize;

use super::{Store, StoreError};
use sidecar_domain::Usage;

/// One model call to record.
#[derive(Debug, Clone)]
pub struct UsageRecord<'a> {
    pub conversation_id: Option<i64>,
    pub message_id: Option<i64>,
    pub provider: &'a str,
    pub model: &'a str,
    /// chat, summarize, proactive, …
    pub purpose: &'a str,
    pub usage: Option<Usage>,
    pub cost_usd: Option<f64>,
}

/// Sums over a period, overall and per model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct UsageTotals {
    pub calls: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cached_tokens: i64,
    pub cost_usd: f64,
    /// Calls whose model has no known price (not in `cost_usd`).
    pub unpriced_calls: i64,
    pub by_model: Vec<ModelTotals>,
    /// Chat, summarize, proactive, extract: what background work costs.
    pub by_purpose: Vec<PurposeTotals>,
    /// How the model's turns went.
    pub turns: TurnMeasures,
}

/// The four measures the plans name, over the model's replies in a period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct TurnMeasures {
    /// Replies written by a model.
    pub turns: i64,
    /// The context's fit dropped turns or cut messages to fit.
    pub truncated: i64,
    /// The reply claimed an action it had not taken (the claims check caught it).
    pub claimed_without_acting: i64,
    /// The tool rules were said again late in the prompt.
    pub reinforced: i64,
    pub plans_finished: i64,
    pub plans_abandoned: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct PurposeTotals {
    pub purpose: String,
    pub calls: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cost_usd: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct ModelTotals {
    pub provider: String,
    pub model: String,
    pub calls: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cost_usd: f64,
}

/// Token use and cost of every model call. A handle on the store: `store.usage()`.
pub struct UsageLedger<'a> {
    pub(super) store: &'a Store,
}

impl UsageLedger<'_> {
    /// Writes a call's usage and, in the same transaction, lets go of the budget hold
    /// this process settled for it (the row now counts instead).
    pub async fn record_usage(&self, record: UsageRecord<'_>) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query(
            "INSERT INTO usage (conversation_id, message_id, provider, model, purpose,
                                input_tokens, output_tokens, cached_tokens, cost_usd, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(record.conversation_id)
        .bind(record.message_id)
        .bind(record.provider)
        .bind(record.model)
        .bind(record.purpose)
        .bind(record.usage.map(|u| u.input_tokens))
        .bind(record.usage.map(|u| u.output_tokens))
        .bind(record.usage.map(|u| u.cached_tokens))
        .bind(record.cost_usd)
        .bind(self.store.now())
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM budget_holds WHERE id = (SELECT id FROM budget_holds WHERE pid = ? AND provider = ? AND settled = 1 ORDER BY id LIMIT 1)")
            .bind(i64::from(std::process::id()))
            .bind(record.provider)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Totals of calls made at or after `since` (RFC 3339), or of all calls.
    pub async fn usage_totals(&self, since: Option<&str>) -> Result<UsageTotals, StoreError> {
        let since = since.unwrap_or("");
        let (calls, input, output, cached, cost, unpriced): (i64, i64, i64, i64, f64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0),
                    COALESCE(SUM(cached_tokens), 0), COALESCE(SUM(cost_usd), 0.0),
                    COALESCE(SUM(cost_usd IS NULL), 0)
             FROM usage WHERE created_at >= ?",
        )
        .bind(since)
        .fetch_one(&self.store.pool)
        .await?;
        let by_model: Vec<ModelTotals> = sqlx::query_as(
            "SELECT provider, model, COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS input_tokens,
                    COALESCE(SUM(output_tokens), 0) AS output_tokens, COALESCE(SUM(cost_usd), 0.0) AS cost_usd
             FROM usage WHERE created_at >= ? GROUP BY provider, model ORDER BY cost_usd DESC, calls DESC",
        )
        .bind(since)
        .fetch_all(&self.store.pool)
        .await?;
        let by_purpose: Vec<PurposeTotals> = sqlx::query_as(
            "SELECT purpose, COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS input_tokens,
                    COALESCE(SUM(output_tokens), 0) AS output_tokens, COALESCE(SUM(cost_usd), 0.0) AS cost_usd
             FROM usage WHERE created_at >= ? GROUP BY purpose ORDER BY calls DESC, purpose",
        )
        .bind(since)
        .fetch_all(&self.store.pool)
        .await?;
        let turns = self.turn_measures(since).await?;
        Ok(UsageTotals {
            turns,
            calls,
            input_tokens: input,
            output_tokens: output,
            cached_tokens: cached,
            cost_usd: cost,
            unpriced_calls: unpriced,
            by_model,
            by_purpose,
        })
    }

    /// The measures over the model's replies at or after `since` (commands, carried-out
    /// requests and spontaneous messages are not the model's turns).
    async fn turn_measures(&self, since: &str) -> Result<TurnMeasures, StoreError> {
        Ok(sqlx::query_as(
            "SELECT COUNT(*) AS turns,
                    COALESCE(SUM(json_extract(meta, '$.truncated') = 1), 0) AS truncated,
                    COALESCE(SUM(json_extract(meta, '$.corrected') = 1), 0) AS claimed_without_acting,
                    COALESCE(SUM(json_extract(meta, '$.reinforced') = 1), 0) AS reinforced,
                    COALESCE(SUM(json_extract(meta, '$.plan') = 'finished'), 0) AS plans_finished,
                    COALESCE(SUM(json_extract(meta, '$.plan') = 'abandoned'), 0) AS plans_abandoned
             FROM messages
             WHERE role = 'assistant' AND created_at >= ? AND json_valid(meta)
               AND json_extract(meta, '$.provider') IS NOT NULL
               AND json_extract(meta, '$.command') IS NULL AND json_extract(meta, '$.intent') IS NULL
               AND json_extract(meta, '$.proactive') IS NULL",
        )
        .bind(since)
        .fetch_one(&self.store.pool)
        .await?)
    }
}
