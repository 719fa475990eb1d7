//! What can go wrong on either side of the link; `words` says each in both languages.

use serde::{Deserialize, Serialize};

/// Why a pairing code was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PairingError {
    #[error("no pairing code is open on the home Sidecar")]
    NoCode,
    #[error("the pairing code expired")]
    Expired,
    #[error("wrong pairing code ({tries_left} tries left)")]
    Wrong { tries_left: u8 },
    #[error("too many wrong pairing codes")]
    NoTriesLeft,
}

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(transparent)]
    Pairing(#[from] PairingError),
    /// The home core answered with another certificate than the one pinned at pairing.
    #[error("the home Sidecar's certificate changed (expected {expected}, got {got})")]
    CertificateChanged { expected: String, got: String },
    /// The device's token is unknown or revoked.
    #[error("this device is not allowed (revoked or unknown)")]
    NotAllowed,
    /// The request came from a web page of another origin.
    #[error("a request from another origin was refused")]
    ForeignOrigin,
    #[error("cannot reach the home Sidecar at {address}: {reason}")]
    Unreachable { address: String, reason: String },
    #[error("the home Sidecar answered in a way this device does not understand: {0}")]
    Protocol(String),
    #[error("the link is closed")]
    Closed,
    #[error("the link's certificate: {0}")]
    Identity(String),
    #[error(transparent)]
    Store(#[from] sidecar_store::StoreError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<sqlx::Error> for LinkError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(e.into())
    }
}
