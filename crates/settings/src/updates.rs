//! `[updates]`: where Sidecar looks for a newer version, whose signature it trusts, and
//! whether it looks once a day on its own.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct UpdateSettings {
    /// The update manifest's address (`latest.json`); unset, the release channel this
    /// build was made for, if any.
    pub address: Option<String>,
    /// The minisign public key (as `tauri signer generate` prints it) that updates must be
    /// signed with; unset, the key the app was built with.
    pub public_key: Option<String>,
    /// Look for an update once a day on its own; off until the user allows it.
    pub daily: bool,
}
