//! The programs that use Sidecar as a server, and what each did. A handle on the store:
//! `store.connections()`.

use chrono::{DateTime, Utc};

use crate::connections::client::{Client, ClientState, Logged, Scope};
use sidecar_store::utc as stamp;
use sidecar_store::Store;
use sidecar_store::StoreError;

pub struct ConnectionRows<'a> {
    store: &'a Store,
}

type Row = (String, String, String, String, String);

/// How many of a client's latest calls its activity keeps.
pub const KEPT_PER_CLIENT: i64 = 1000;

impl ConnectionRows<'_> {
    pub(crate) async fn get(&self, name: &str) -> Result<Option<Client>, StoreError> {
        let row: Option<Row> = sqlx::query_as("SELECT name, state, scopes, first_seen, changed_at FROM connections WHERE name = ?")
            .bind(name)
            .fetch_optional(self.store.pool())
            .await?;
        Ok(row.map(client))
    }

    pub(crate) async fn list(&self) -> Result<Vec<Client>, StoreError> {
        let rows: Vec<Row> =
            sqlx::query_as("SELECT name, state, scopes, first_seen, changed_at FROM connections ORDER BY name").fetch_all(self.store.pool()).await?;
        Ok(rows.into_iter().map(client).collect())
    }

    /// Records a client's first visit as pending; an existing row is left as it is.
    pub(crate) async fn seen(&self, name: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO connections (name, state, scopes, first_seen, changed_at) VALUES (?, 'pending', '', ?, ?) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(stamp(now))
            .bind(stamp(now))
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    pub(crate) async fn set(&self, name: &str, state: ClientState, scopes: &[Scope], now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO connections (name, state, scopes, first_seen, changed_at) VALUES (?, ?, ?, ?, ?) \
             ON CONFLICT (name) DO UPDATE SET state = excluded.state, scopes = excluded.scopes, changed_at = excluded.changed_at",
        )
        .bind(name)
        .bind(state.as_str())
        .bind(Scope::join(scopes))
        .bind(stamp(now))
        .bind(stamp(now))
        .execute(self.store.pool())
        .await?;
        Ok(())
    }

    /// Records one call; a client's log keeps its latest `KEPT_PER_CLIENT` (a script
    /// calling all day must not grow the database without end).
    pub async fn log(&self, name: &str, action: &str, allowed: bool, now: DateTime<Utc>) -> Result<(), StoreError> {
        let (id,): (i64,) = sqlx::query_as("INSERT INTO connection_log (name, action, allowed, at) VALUES (?, ?, ?, ?) RETURNING id")
            .bind(name)
            .bind(action)
            .bind(allowed)
            .bind(stamp(now))
            .fetch_one(self.store.pool())
            .await?;
        if id % 100 == 0 {
            sqlx::query("DELETE FROM connection_log WHERE name = ? AND id <= (SELECT id FROM connection_log WHERE name = ? ORDER BY id DESC LIMIT 1 OFFSET ?)")
                .bind(name)
                .bind(name)
                .bind(KEPT_PER_CLIENT)
                .execute(self.store.pool())
                .await?;
        }
        Ok(())
    }

    /// The latest `limit` things `name` did, newest first.
    pub async fn activity(&self, name: &str, limit: u32) -> Result<Vec<Logged>, StoreError> {
        let rows: Vec<(String, bool, String)> = sqlx::query_as("SELECT action, allowed, at FROM connection_log WHERE name = ? ORDER BY id DESC LIMIT ?")
            .bind(name)
            .bind(limit)
            .fetch_all(self.store.pool())
            .await?;
        Ok(rows.into_iter().map(|(action, allowed, at)| Logged { action, allowed, at: at.parse().unwrap_or_default() }).collect())
    }

    /// Keeps `hash` as `name`'s one token (a new token replaces the old).
    pub(crate) async fn set_token(&self, name: &str, hash: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO api_tokens (name, token_sha256, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET token_sha256 = excluded.token_sha256, created_at = excluded.created_at")
            .bind(name)
            .bind(hash)
            .bind(stamp(now))
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The client whose token hashes to `hash`.
    pub(crate) async fn token_owner(&self, hash: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT name FROM api_tokens WHERE token_sha256 = ?").bind(hash).fetch_optional(self.store.pool()).await?)
    }

    pub(crate) async fn has_token(&self, name: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM api_tokens WHERE name = ?").bind(name).fetch_one(self.store.pool()).await? > 0)
    }

    pub(crate) async fn forget_token(&self, name: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM api_tokens WHERE name = ?").bind(name).execute(self.store.pool()).await?;
        Ok(())
    }
}

fn client((name, state, scopes, first_seen, changed_at): Row) -> Client {
    Client {
        name,
        state: ClientState::parse(&state),
        scopes: Scope::parse_list(&scopes),
        first_seen: first_seen.parse().unwrap_or_default(),
        changed_at: changed_at.parse().unwrap_or_default(),
    }
}

/// The store's seam to these rows: `store.connections()`, with this trait in scope.
pub trait ConnectionsStore {
    fn connections(&self) -> ConnectionRows<'_>;
}

impl ConnectionsStore for Store {
    fn connections(&self) -> ConnectionRows<'_> {
        ConnectionRows { store: self }
    }
}
