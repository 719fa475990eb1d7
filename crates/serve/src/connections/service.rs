//! Consent for programs that use Sidecar as a server: a client is named and allowed by
//! the user, with scopes, before it gets anything; each call is checked against the
//! store at the moment it is made (so a revocation holds at once) and logged.

use super::client::{Client, ClientState, Logged, Scope};
use crate::connections::rows::ConnectionsStore;
use sidecar_domain::Clock;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Why a client's call was not served. The client reads this.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refused {
    #[error("Sidecar's user has not allowed \"{0}\" yet: they can allow it in Settings → Connections, or with `sidecar connections allow {0} --scopes read_memory,reminders`")]
    NotYetAllowed(String),
    #[error("Sidecar's user revoked \"{0}\"'s access")]
    Revoked(String),
    #[error("\"{client}\" was not given the {scope} scope; the user can add it with `sidecar connections allow {client} --scopes …`")]
    OutOfScope { client: String, scope: &'static str },
    #[error("the connection could not be checked ({0}), so nothing was served")]
    Unchecked(String),
}

pub struct Connections {
    store: Store,
    clock: Clock,
}

impl Connections {
    pub fn new(store: Store, clock: Clock) -> Self {
        Self { store, clock }
    }

    /// A client says who it is: recorded as pending the first time.
    pub async fn arrived(&self, name: &str) -> Result<Client, StoreError> {
        let rows = self.store.connections();
        rows.seen(name, self.clock.now()).await?;
        Ok(rows.get(name).await?.expect("recorded above"))
    }

    /// Whether `name` may do `action` under `scope` now; logged either way. A client
    /// never seen is recorded as waiting. `Ok` holds every scope it has, so what it is
    /// shown (health facts or not) needs no second look.
    pub async fn check(&self, name: &str, scope: Scope, action: &str) -> Result<Vec<Scope>, Refused> {
        let unchecked = |e: StoreError| Refused::Unchecked(e.to_string());
        let rows = self.store.connections();
        let client = rows.get(name).await.map_err(unchecked)?;
        let verdict = match client {
            None => {
                rows.seen(name, self.clock.now()).await.map_err(unchecked)?;
                Err(Refused::NotYetAllowed(name.to_string()))
            }
            Some(client) => match client.state {
                ClientState::Pending => Err(Refused::NotYetAllowed(name.to_string())),
                ClientState::Revoked => Err(Refused::Revoked(name.to_string())),
                ClientState::Allowed if client.scopes.contains(&scope) => Ok(client.scopes),
                ClientState::Allowed => Err(Refused::OutOfScope { client: name.to_string(), scope: scope.as_str() }),
            },
        };
        rows.log(name, action, verdict.is_ok(), self.clock.now()).await.map_err(unchecked)?;
        verdict
    }

    pub async fn allow(&self, name: &str, scopes: &[Scope]) -> Result<(), StoreError> {
        self.store.connections().set(name, ClientState::Allowed, scopes, self.clock.now()).await
    }

    pub async fn revoke(&self, name: &str) -> Result<(), StoreError> {
        self.store.connections().set(name, ClientState::Revoked, &[], self.clock.now()).await
    }

    pub async fn clients(&self) -> Result<Vec<Client>, StoreError> {
        self.store.connections().list().await
    }

    pub async fn activity(&self, name: &str, limit: u32) -> Result<Vec<Logged>, StoreError> {
        self.store.connections().activity(name, limit).await
    }
}
