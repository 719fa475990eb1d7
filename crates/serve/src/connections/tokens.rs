//! Bearer tokens for the local HTTP API: one per client, made when the user allows it
//! (Settings → Connections, or `sidecar connections token NAME`). The store keeps only
//! the token's SHA-256; the token itself goes to the system keychain so Settings can
//! show it again. A token names its client; what the client may do is still its consent
//! and scopes in `Connections`, checked at each request.

use crate::connections::rows::ConnectionsStore;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::client::Scope;
use super::service::Connections;
use sidecar_domain::Clock;
use sidecar_domain::KeyStorage;
use sidecar_domain::Secrets;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// What every token starts with, so a leaked one is recognisable (secret scanners).
pub(crate) const TOKEN_PREFIX: &str = "sk-sidecar-";

pub struct ApiTokens {
    store: Store,
    clock: Clock,
    secrets: Arc<Secrets>,
    connections: Arc<Connections>,
}

/// A token just made, and where it is kept.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
pub struct Issued {
    pub token: String,
    pub storage: KeyStorage,
}

fn keychain_id(name: &str) -> String {
    format!("api-token/{name}")
}

fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

impl ApiTokens {
    pub fn new(store: Store, clock: Clock, secrets: Arc<Secrets>, connections: Arc<Connections>) -> Self {
        Self { store, clock, secrets, connections }
    }

    /// Allows `name` (as typed, trimmed) with `scopes` and gives it a new token,
    /// replacing any older one.
    pub async fn issue(&self, name: &str, scopes: &[Scope]) -> Result<Issued, StoreError> {
        let name = name.trim();
        let mut bytes = [0u8; 24];
        getrandom::fill(&mut bytes).expect("the system's random source");
        let token = format!("{TOKEN_PREFIX}{}", hex::encode(bytes));
        self.connections.allow(name, scopes).await?;
        self.store.connections().set_token(name, &digest(&token), self.clock.now()).await?;
        let storage = self.secrets.store(&keychain_id(name), &token);
        Ok(Issued { token, storage })
    }

    /// The client a presented token belongs to; `None` for any other text.
    pub(crate) async fn owner(&self, token: &str) -> Result<Option<String>, StoreError> {
        if !token.trim().starts_with(TOKEN_PREFIX) {
            return Ok(None);
        }
        self.store.connections().token_owner(&digest(token)).await
    }

    /// The token as the keychain keeps it, to show again.
    pub fn shown(&self, name: &str) -> Option<String> {
        self.secrets.get(&keychain_id(name))
    }

    pub async fn has_token(&self, name: &str) -> Result<bool, StoreError> {
        self.store.connections().has_token(name).await
    }

    /// Forgets `name`'s token: requests with it get 401 from now on.
    pub async fn forget(&self, name: &str) -> Result<(), StoreError> {
        self.store.connections().forget_token(name).await?;
        self.secrets.delete(&keychain_id(name));
        Ok(())
    }
}
