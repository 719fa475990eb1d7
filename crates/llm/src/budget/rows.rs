//! What the budget reads from the store: costs since a moment, by provider and
//! purpose, each call's cost for the usage charts, and the extra allowed per day.
//! `store.budget()`.

use sidecar_store::Store;
use sidecar_store::StoreError;

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
    store: &'a Store,
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
        .fetch_all(self.store.pool())
        .await?)
    }

    /// Allows `usd` more on `day`, on top of what was allowed; returns the new total.
    pub(crate) async fn allow_more(&self, day: &str, usd: f64) -> Result<f64, StoreError> {
        let row: (f64,) = sqlx::query_as(
            "INSERT INTO budget_allowances (day, extra_usd) VALUES (?, ?)
             ON CONFLICT (day) DO UPDATE SET extra_usd = extra_usd + excluded.extra_usd RETURNING extra_usd",
        )
        .bind(day)
        .bind(usd)
        .fetch_one(self.store.pool())
        .await?;
        Ok(row.0)
    }
}

/// A hold on the budget for a call in flight (or settled, its usage not yet written).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub(crate) struct HeldRow {
    pub pid: i64,
    pub provider: String,
    pub background: bool,
    pub usd: f64,
    pub settled: bool,
}

/// What the budget weighs a call against: calls since the month began, holds, and the
/// day's extra allowance.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spending {
    pub calls: Vec<CallCost>,
    pub holds: Vec<HeldRow>,
    pub allowance_usd: f64,
}

/// A hold to write when the check passes.
pub(crate) struct NewHold<'a> {
    pub provider: &'a str,
    pub background: bool,
    pub usd: f64,
    /// RFC 3339, UTC.
    pub expires_at: &'a str,
}

async fn read_spending(conn: &mut sqlx::SqliteConnection, since: &str, day: &str) -> Result<Spending, StoreError> {
    let calls = sqlx::query_as(
        "SELECT created_at, provider, model, purpose, COALESCE(input_tokens, 0) AS input_tokens,
                COALESCE(output_tokens, 0) AS output_tokens, cost_usd
         FROM usage WHERE created_at >= ? ORDER BY created_at, id",
    )
    .bind(since)
    .fetch_all(&mut *conn)
    .await?;
    let holds =
        sqlx::query_as("SELECT pid, provider, background != 0 AS background, usd, settled != 0 AS settled FROM budget_holds").fetch_all(&mut *conn).await?;
    let (allowance_usd,): (f64,) =
        sqlx::query_as("SELECT COALESCE((SELECT extra_usd FROM budget_allowances WHERE day = ?), 0.0)").bind(day).fetch_one(&mut *conn).await?;
    Ok(Spending { calls, holds, allowance_usd })
}

/// Drops holds past their time and those of processes no longer running.
async fn purge(conn: &mut sqlx::SqliteConnection, now: &str, alive: &(dyn Fn(i64) -> bool + Sync)) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM budget_holds WHERE expires_at < ?").bind(now).execute(&mut *conn).await?;
    let pids: Vec<(i64,)> = sqlx::query_as("SELECT DISTINCT pid FROM budget_holds").fetch_all(&mut *conn).await?;
    for (pid,) in pids.into_iter().filter(|(pid,)| !alive(*pid)) {
        sqlx::query("DELETE FROM budget_holds WHERE pid = ?").bind(pid).execute(&mut *conn).await?;
    }
    Ok(())
}

impl BudgetRows<'_> {
    /// What was spent since `since` (RFC 3339) and is held now, and `day`'s allowance.
    pub(crate) async fn spending(&self, since: &str, day: &str, alive: &(dyn Fn(i64) -> bool + Sync)) -> Result<Spending, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        purge(&mut tx, &self.store.now(), alive).await?;
        let spending = read_spending(&mut tx, since, day).await?;
        tx.commit().await?;
        Ok(spending)
    }

    /// Reads the spending and, when `admit` lets `hold` in, writes it, all in one write
    /// transaction: another process's check waits for this one's hold. The hold's id, or
    /// why `admit` refused.
    pub(crate) async fn reserve<E>(
        &self,
        since: &str,
        day: &str,
        hold: NewHold<'_>,
        alive: &(dyn Fn(i64) -> bool + Sync),
        admit: impl FnOnce(&Spending) -> Result<(), E>,
    ) -> Result<Result<i64, E>, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let now = self.store.now();
        purge(&mut tx, &now, alive).await?;
        let spending = read_spending(&mut tx, since, day).await?;
        if let Err(refused) = admit(&spending) {
            tx.commit().await?; // the purge stands
            return Ok(Err(refused));
        }
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO budget_holds (pid, provider, background, usd, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
                .bind(i64::from(std::process::id()))
                .bind(hold.provider)
                .bind(hold.background)
                .bind(hold.usd)
                .bind(&now)
                .bind(hold.expires_at)
                .fetch_one(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(Ok(id))
    }

    /// The call ended: its hold now holds what it really cost, on the provider that
    /// answered, until its usage row is written (`usage().record_usage`).
    pub(crate) async fn settle_hold(&self, id: i64, provider: &str, usd: f64, expires_at: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE budget_holds SET provider = ?, usd = ?, settled = 1, expires_at = ? WHERE id = ?")
            .bind(provider)
            .bind(usd)
            .bind(expires_at)
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The call failed or was stopped: nothing was spent.
    pub(crate) async fn release_hold(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM budget_holds WHERE id = ?").bind(id).execute(self.store.pool()).await?;
        Ok(())
    }
}

/// The store's seam to these rows: `store.budget()`, with this trait in scope.
pub trait BudgetStore {
    fn budget(&self) -> BudgetRows<'_>;
}

impl BudgetStore for Store {
    fn budget(&self) -> BudgetRows<'_> {
        BudgetRows { store: self }
    }
}
