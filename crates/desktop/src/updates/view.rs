//! What Settings → About shows of updates: the version, whether this copy updates
//! itself, the address, and where a look or an install stands.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::source::{Offer, PackageFormat};

/// Where a look or an install stands.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum UpdateState {
    Idle,
    Looking,
    UpToDate,
    Available {
        offer: Offer,
    },
    /// Downloading (`received` of `total` bytes), then verifying and installing.
    Installing {
        offer: Offer,
        received: u64,
        total: Option<u64>,
    },
    /// Installed; the new version runs after a restart.
    Installed {
        version: String,
    },
    /// `offer`: what was being installed, to try again (none after a refused signature).
    Failed {
        message: String,
        offer: Option<Offer>,
    },
}

/// Settings → About.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct UpdatesView {
    pub version: &'static str,
    pub format: Option<PackageFormat>,
    /// Why this copy cannot look or update itself, when it cannot.
    pub cannot: Option<String>,
    /// The address in use (the user's, else the build's).
    pub address: Option<String>,
    /// The address is the user's own setting.
    pub own_address: bool,
    /// The build has an address of its own to go back to.
    pub built_address: bool,
    /// Updates must carry the user's own key, not the build's.
    pub own_key: bool,
    pub daily: bool,
    pub last_looked: Option<DateTime<Utc>>,
    pub state: UpdateState,
}
