//! API keys: kept in the OS keychain (Secret Service on Linux, Keychain on macOS,
//! Credential Manager on Windows). Where no keychain can be reached, a key is kept in
//! memory for this session only, and the user is told so. Keys never go to files,
//! logs or IPC answers.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;

const SERVICE: &str = "dev.sidecar.app";

/// Where a provider's key lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyStorage {
    /// In the OS keychain: survives restarts.
    Keychain,
    /// In memory only, because no keychain is available (`reason` says why).
    Session { reason: String },
    /// Read from an environment variable named in settings.
    Environment { variable: String },
    /// No key (fine for local servers).
    None,
}

/// The keychain, with an in-memory fallback.
pub struct Secrets {
    use_keychain: bool,
    session: Mutex<HashMap<String, String>>,
}

impl Default for Secrets {
    fn default() -> Self {
        Self::new(true)
    }
}

impl Secrets {
    /// `use_keychain` false keeps keys in memory only (tests; `SIDECAR_NO_KEYCHAIN`).
    pub fn new(use_keychain: bool) -> Self {
        Self { use_keychain, session: Mutex::new(HashMap::new()) }
    }

    pub fn from_env() -> Self {
        Self::new(std::env::var_os("SIDECAR_NO_KEYCHAIN").is_none())
    }

    fn account(provider_id: &str) -> String {
        format!("provider:{provider_id}")
    }

    fn entry(&self, provider_id: &str) -> Result<keyring::Entry, String> {
        if !self.use_keychain {
            return Err("the keychain is turned off (SIDECAR_NO_KEYCHAIN)".into());
        }
        keyring::Entry::new(SERVICE, &Self::account(provider_id)).map_err(describe)
    }

    /// Stores a key: in the keychain if possible, else for this session.
    pub fn store(&self, provider_id: &str, key: &str) -> KeyStorage {
        match self.entry(provider_id).and_then(|e| e.set_password(key).map_err(describe)) {
            Ok(()) => {
                self.session.lock().expect("secrets lock").remove(provider_id);
                tracing::info!(provider = provider_id, "API key stored in the keychain");
                KeyStorage::Keychain
            }
            Err(reason) => {
                tracing::warn!(provider = provider_id, %reason, "no keychain; key kept for this session only");
                self.session.lock().expect("secrets lock").insert(provider_id.to_string(), key.to_string());
                KeyStorage::Session { reason }
            }
        }
    }

    /// The stored key, from the session first (it shadows an older keychain entry)
    /// then the keychain.
    pub fn get(&self, provider_id: &str) -> Option<String> {
        if let Some(key) = self.session.lock().expect("secrets lock").get(provider_id) {
            return Some(key.clone());
        }
        self.entry(provider_id).ok()?.get_password().ok()
    }

    /// Where the key of `provider_id` is, without revealing it.
    pub fn storage(&self, provider_id: &str) -> Option<KeyStorage> {
        if self.session.lock().expect("secrets lock").contains_key(provider_id) {
            return Some(KeyStorage::Session { reason: "no keychain was available when it was saved".into() });
        }
        self.entry(provider_id).ok()?.get_password().ok().map(|_| KeyStorage::Keychain)
    }

    pub fn delete(&self, provider_id: &str) {
        self.session.lock().expect("secrets lock").remove(provider_id);
        if let Ok(entry) = self.entry(provider_id) {
            let _ = entry.delete_credential();
        }
    }
}

fn describe(error: keyring::Error) -> String {
    match error {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) => {
            format!("no keychain is available ({error})")
        }
        other => other.to_string(),
    }
}
