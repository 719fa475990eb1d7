//! The home core this device attaches to: its address and the certificate pinned at
//! pairing (in the data folder), and this device's token, in the system keychain, or,
//! where there is none, in a file readable by the user alone (as SSH keeps its keys).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sidecar_domain::KeyStorage;
use sidecar_domain::Secrets;

use crate::error::LinkError;
use crate::identity::Fingerprint;

/// Where this device's home core is, and who this device is there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Home {
    pub address: String,
    pub fingerprint: Fingerprint,
    pub device: i64,
    pub name: String,
}

const KEYCHAIN_ID: &str = "link-home";

fn record(dir: &Path) -> PathBuf {
    dir.join("home.json")
}

fn token_file(dir: &Path) -> PathBuf {
    dir.join("home.token")
}

impl Home {
    /// Keeps `home` in `dir` and `token` in the keychain (or `dir`'s token file); where
    /// the token went.
    pub fn save(&self, dir: &Path, token: &str, secrets: &Secrets) -> Result<KeyStorage, LinkError> {
        std::fs::create_dir_all(dir)?;
        let storage = secrets.store(KEYCHAIN_ID, token);
        match storage {
            KeyStorage::Keychain => {
                let _ = std::fs::remove_file(token_file(dir));
            }
            _ => crate::identity::write_private(&token_file(dir), token.as_bytes())?,
        }
        let text = serde_json::to_string_pretty(self).expect("a home is JSON");
        sidecar_domain::write_atomically(&record(dir), text.as_bytes())?;
        Ok(storage)
    }

    /// The home kept in `dir` with this device's token, if this device was paired.
    pub fn load(dir: &Path, secrets: &Secrets) -> Result<Option<(Self, String)>, LinkError> {
        let text = match std::fs::read_to_string(record(dir)) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let home: Home = serde_json::from_str(&text).map_err(|e| LinkError::Protocol(format!("{}: {e}", record(dir).display())))?;
        let token = match secrets.get(KEYCHAIN_ID) {
            Some(token) => token,
            None => match std::fs::read_to_string(token_file(dir)) {
                Ok(token) => token.trim().to_string(),
                Err(_) => return Ok(None),
            },
        };
        Ok(Some((home, token)))
    }

    /// Forgets the home core (this device must pair again to attach).
    pub fn forget(dir: &Path, secrets: &Secrets) -> Result<(), LinkError> {
        secrets.delete(KEYCHAIN_ID);
        for path in [record(dir), token_file(dir)] {
            match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_is_kept_and_forgotten_with_its_token_out_of_the_record() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(false);
        let home = Home { address: "192.168.1.20:47200".into(), fingerprint: Fingerprint([7; 32]), device: 3, name: "Laptop".into() };
        assert!(matches!(home.save(dir.path(), "sk-sidecar-device-abc", &secrets).unwrap(), KeyStorage::Session { .. }));
        let record = std::fs::read_to_string(dir.path().join("home.json")).unwrap();
        assert!(!record.contains("sk-sidecar-device-abc"), "the token is never in the record");
        // Another process, with no keychain: the token from the user's own file.
        assert_eq!(Home::load(dir.path(), &Secrets::new(false)).unwrap(), Some((home, "sk-sidecar-device-abc".into())));
        Home::forget(dir.path(), &secrets).unwrap();
        assert_eq!(Home::load(dir.path(), &Secrets::new(false)).unwrap(), None);
    }
}
