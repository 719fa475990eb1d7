//! The user's standing answers about tools that act, and the tool definitions they
//! approved. A handle on the store: `store.grants()`.

use chrono::{DateTime, Utc};

use crate::permissions::grant::{Grant, Pinned};
use sidecar_store::utc as stamp;
use sidecar_store::Store;
use sidecar_store::StoreError;

pub(crate) struct GrantRows<'a> {
    store: &'a Store,
}

impl GrantRows<'_> {
    /// Every standing grant, by server then tool.
    pub(crate) async fn list(&self) -> Result<Vec<Grant>, StoreError> {
        let rows: Vec<(i64, String, String, String, bool, String)> =
            sqlx::query_as("SELECT id, server, identity, tool, allow, created_at FROM tool_grants ORDER BY server, tool").fetch_all(self.store.pool()).await?;
        Ok(rows
            .into_iter()
            .map(|(id, server, identity, tool, allow, created_at)| Grant {
                id,
                server,
                identity,
                tool: (!tool.is_empty()).then_some(tool),
                allow,
                created_at: created_at.parse().unwrap_or_default(),
            })
            .collect())
    }

    /// Sets the standing answer for one tool (`tool: None`: the whole server), replacing
    /// any earlier one.
    pub(crate) async fn put(&self, server: &str, identity: &str, tool: Option<&str>, allow: bool, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tool_grants (server, identity, tool, allow, created_at) VALUES (?, ?, ?, ?, ?) \
             ON CONFLICT (server, tool) DO UPDATE SET identity = excluded.identity, allow = excluded.allow, created_at = excluded.created_at",
        )
        .bind(server)
        .bind(identity)
        .bind(tool.unwrap_or(""))
        .bind(allow)
        .bind(stamp(now))
        .execute(self.store.pool())
        .await?;
        Ok(())
    }

    /// Revokes one tool's grant, or (`tool: None`) every grant and approval of the
    /// server. Returns how many grants went.
    pub(crate) async fn revoke(&self, server: &str, tool: Option<&str>) -> Result<u64, StoreError> {
        let done = match tool {
            Some(tool) => sqlx::query("DELETE FROM tool_grants WHERE server = ? AND tool = ?").bind(server).bind(tool).execute(self.store.pool()).await?,
            None => {
                sqlx::query("DELETE FROM tool_pins WHERE server = ?").bind(server).execute(self.store.pool()).await?;
                sqlx::query("DELETE FROM tool_grants WHERE server = ?").bind(server).execute(self.store.pool()).await?
            }
        };
        Ok(done.rows_affected())
    }

    /// The approved definitions of a server's tools.
    pub(crate) async fn pins(&self, server: &str) -> Result<Vec<Pinned>, StoreError> {
        let rows: Vec<(String, String, String, String)> =
            sqlx::query_as("SELECT identity, tool, pin, definition FROM tool_pins WHERE server = ? ORDER BY tool")
                .bind(server)
                .fetch_all(self.store.pool())
                .await?;
        Ok(rows
            .into_iter()
            .map(|(identity, tool, pin, definition)| Pinned { identity, tool, pin, definition: serde_json::from_str(&definition).unwrap_or_default() })
            .collect())
    }

    /// Records the definition the user just approved.
    pub(crate) async fn approve(&self, server: &str, pinned: &Pinned, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tool_pins (server, identity, tool, pin, definition, approved_at) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (server, tool) DO UPDATE SET identity = excluded.identity, pin = excluded.pin, definition = excluded.definition, approved_at = excluded.approved_at",
        )
        .bind(server)
        .bind(&pinned.identity)
        .bind(&pinned.tool)
        .bind(&pinned.pin)
        .bind(serde_json::to_string(&pinned.definition).expect("definitions serialize"))
        .bind(stamp(now))
        .execute(self.store.pool())
        .await?;
        Ok(())
    }
}

/// The store's seam to these rows: `store.grants()`, with this trait in scope.
pub(crate) trait GrantsStore {
    fn grants(&self) -> GrantRows<'_>;
}

impl GrantsStore for Store {
    fn grants(&self) -> GrantRows<'_> {
        GrantRows { store: self }
    }
}
