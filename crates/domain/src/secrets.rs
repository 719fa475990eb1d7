//! API keys: kept in the OS keychain (Secret Service on Linux, Keychain on macOS,
//! Credential Manager on Windows). Where no keychain can be reached, a key is kept in
//! memory for this session only, and the user is told so. Keys never go to files,
//! logs or IPC answers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::redact::Redactor;

const SERVICE: &str = "dev.sidecar.app";
/// A keychain that has not answered by then is treated as absent for the session,
/// so a missing Secret Service costs the user one short wait, not one per key.
const KEYCHAIN_TIMEOUT: Duration = Duration::from_secs(3);

/// Where a provider's key lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// The keychain, with an in-memory fallback. Every key it stores or reads is given to
/// its redactor, so no error text or log line shows it afterwards.
pub struct Secrets {
    use_keychain: bool,
    redactor: Redactor,
    /// Set once the keychain failed to answer in time.
    unresponsive: AtomicBool,
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
        Self { use_keychain, redactor: Redactor::default(), unresponsive: AtomicBool::new(false), session: Mutex::new(HashMap::new()) }
    }

    /// The keychain unless `SIDECAR_NO_KEYCHAIN` is set, its keys given to `redactor`
    /// (the one the log writer scrubs with).
    pub fn from_env(redactor: Redactor) -> Self {
        Self { redactor, ..Self::new(std::env::var_os("SIDECAR_NO_KEYCHAIN").is_none()) }
    }

    /// The redactor this process's keys are given to: a feature that resolves a key
    /// elsewhere (an environment variable) registers it here, and text from outside is
    /// scrubbed with it.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    fn account(provider_id: &str) -> String {
        format!("provider:{provider_id}")
    }

    /// Runs one keychain operation on its own thread, bounded by a timeout: a
    /// keychain service that hangs must not freeze the app.
    fn keychain<T: Send + 'static>(
        &self,
        provider_id: &str,
        op: impl FnOnce(keyring::Entry) -> Result<T, keyring::Error> + Send + 'static,
    ) -> Result<T, NoKeychain> {
        if !self.use_keychain {
            return Err(NoKeychain::TurnedOff);
        }
        if self.unresponsive.load(Ordering::Relaxed) {
            return Err(NoKeychain::Unresponsive);
        }
        let account = Self::account(provider_id);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let result = keyring::Entry::new(SERVICE, &account).and_then(op).map_err(describe);
            let _ = tx.send(result);
        });
        match rx.recv_timeout(KEYCHAIN_TIMEOUT) {
            Ok(result) => result,
            Err(_) => {
                self.unresponsive.store(true, Ordering::Relaxed);
                Err(NoKeychain::Unresponsive)
            }
        }
    }

    /// Stores a key: in the keychain if possible, else for this session.
    pub fn store(&self, provider_id: &str, key: &str) -> KeyStorage {
        self.redactor.register(key);
        let secret = key.to_string();
        match self.keychain(provider_id, move |e| e.set_password(&secret)) {
            Ok(()) => {
                self.session.lock().expect("secrets lock").remove(provider_id);
                tracing::info!(provider = provider_id, "API key stored in the keychain");
                KeyStorage::Keychain
            }
            Err(reason) => {
                tracing::warn!(provider = provider_id, %reason, "no keychain; key kept for this session only");
                self.session.lock().expect("secrets lock").insert(provider_id.to_string(), key.to_string());
                KeyStorage::Session { reason: reason.to_string() }
            }
        }
    }

    /// The stored key, from the session first (it shadows an older keychain entry)
    /// then the keychain.
    pub fn get(&self, provider_id: &str) -> Option<String> {
        let session = self.session.lock().expect("secrets lock").get(provider_id).cloned();
        let key = session.or_else(|| self.keychain(provider_id, |e| e.get_password()).ok())?;
        self.redactor.register(&key);
        Some(key)
    }

    /// Where the key of `provider_id` is, without revealing it.
    pub fn storage(&self, provider_id: &str) -> Option<KeyStorage> {
        if self.session.lock().expect("secrets lock").contains_key(provider_id) {
            return Some(KeyStorage::Session { reason: "no keychain was available when it was saved".into() });
        }
        self.keychain(provider_id, |e| e.get_password()).ok().map(|_| KeyStorage::Keychain)
    }

    pub fn delete(&self, provider_id: &str) {
        self.session.lock().expect("secrets lock").remove(provider_id);
        let _ = self.keychain(provider_id, |e| e.delete_credential());
    }
}

/// Why the system keychain was not used.
#[derive(Debug, thiserror::Error)]
enum NoKeychain {
    #[error("the keychain is turned off (SIDECAR_NO_KEYCHAIN)")]
    TurnedOff,
    #[error("the system keychain did not answer")]
    Unresponsive,
    #[error("no keychain is available ({0})")]
    Unavailable(keyring::Error),
    /// The keychain's own error (no entry, a bad one).
    #[error(transparent)]
    Failed(keyring::Error),
}

fn describe(error: keyring::Error) -> NoKeychain {
    match error {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) => NoKeychain::Unavailable(error),
        other => NoKeychain::Failed(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_stored_or_read_is_scrubbed_by_the_redactor_given_to_secrets() {
        let redactor = Redactor::default();
        let secrets = Secrets { redactor: redactor.clone(), ..Secrets::new(false) };
        assert_eq!(secrets.store("groq", "gsk_session_0123456789"), KeyStorage::Session { reason: "the keychain is turned off (SIDECAR_NO_KEYCHAIN)".into() });
        assert_eq!(redactor.scrub("echo gsk_session_0123456789"), "echo [redacted]");
        assert_eq!(secrets.get("groq").as_deref(), Some("gsk_session_0123456789"));
        assert_eq!(secrets.redactor().scrub("echo gsk_session_0123456789"), "echo [redacted]");
    }
}
