//! The home core's certificate: made once, kept in the data folder (the key readable by
//! the user alone), and pinned by each device at pairing by its SHA-256, which both
//! sides show so the user can compare them, as SSH does on first use.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::LinkError;

/// A certificate's SHA-256: what a device pins.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    pub fn of(cert: &[u8]) -> Self {
        Self(Sha256::digest(cert).into())
    }

    /// Read back from its text (`Display`), spaces and colons ignored.
    pub fn parse(text: &str) -> Option<Self> {
        let hex: String = text.chars().filter(|c| c.is_ascii_hexdigit()).collect();
        let bytes = hex::decode(hex).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }
}

/// Sixteen groups of four hex digits, to read side by side.
impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = hex::encode_upper(self.0);
        let groups: Vec<&str> = (0..hex.len()).step_by(4).map(|i| &hex[i..i + 4]).collect();
        f.write_str(&groups.join(" "))
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

impl Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::parse(&text).ok_or_else(|| serde::de::Error::custom("a SHA-256 fingerprint"))
    }
}

/// The core's certificate and key.
pub struct Identity {
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
}

const CERT_FILE: &str = "identity.crt";
const KEY_FILE: &str = "identity.key";

impl Identity {
    /// The one kept in `dir`, or a new one made and kept there. A damaged file is set
    /// aside (its devices will see the certificate change and must pair again), never
    /// silently overwritten.
    pub fn load_or_make(dir: &Path) -> Result<Self, LinkError> {
        let (cert_path, key_path) = (dir.join(CERT_FILE), dir.join(KEY_FILE));
        if cert_path.exists() && key_path.exists() {
            match Self::load(&cert_path, &key_path) {
                Ok(identity) => return Ok(identity),
                Err(e) => {
                    tracing::warn!(error = %e, "the link's certificate is unreadable; a new one is made (devices must pair again)");
                    for path in [&cert_path, &key_path] {
                        std::fs::rename(path, aside(path))?;
                    }
                }
            }
        }
        let made = rcgen::generate_simple_self_signed(vec!["sidecar.invalid".to_string()]).map_err(|e| LinkError::Identity(e.to_string()))?;
        std::fs::create_dir_all(dir)?;
        write_private(&key_path, made.key_pair.serialize_pem().as_bytes())?;
        sidecar_domain::write_atomically(&cert_path, made.cert.pem().as_bytes())?;
        Ok(Self { cert: made.cert.der().clone(), key: PrivatePkcs8KeyDer::from(made.key_pair.serialize_der()) })
    }

    fn load(cert_path: &Path, key_path: &Path) -> Result<Self, LinkError> {
        let cert = CertificateDer::from_pem_file(cert_path).map_err(|e| LinkError::Identity(format!("identity.crt: {e}")))?;
        let key = PrivatePkcs8KeyDer::from_pem_file(key_path).map_err(|e| LinkError::Identity(format!("identity.key: {e}")))?;
        let key_pair = rcgen::KeyPair::try_from(key.secret_pkcs8_der()).map_err(|e| LinkError::Identity(e.to_string()))?;
        // The key must be the certificate's: a pair of files from two makings is no identity.
        if !cert.windows(key_pair.public_key_raw().len()).any(|w| w == key_pair.public_key_raw()) {
            return Err(LinkError::Identity("identity.key is not identity.crt's key".into()));
        }
        Ok(Self { cert, key })
    }

    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.cert)
    }

    pub(crate) fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, LinkError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| LinkError::Identity(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(vec![self.cert.clone()], PrivateKeyDer::Pkcs8(self.key.clone_key()))
            .map_err(|e| LinkError::Identity(e.to_string()))?;
        Ok(Arc::new(config))
    }
}

fn aside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".damaged");
    path.with_file_name(name)
}

/// Written readable by the user alone from its first byte, whole or not at all.
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let temp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temp)?;
    file.write_all(contents)?;
    file.sync_all()?;
    std::fs::rename(&temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_certificate_is_kept_and_its_key_is_the_users_alone() {
        let dir = tempfile::tempdir().unwrap();
        let first = Identity::load_or_make(dir.path()).unwrap();
        let again = Identity::load_or_make(dir.path()).unwrap();
        assert_eq!(first.fingerprint(), again.fingerprint(), "the same certificate after a restart");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "the key is readable by the user alone: {mode:o}");
        }
        let text = first.fingerprint().to_string();
        assert_eq!(text.split(' ').count(), 16);
        assert_eq!(Fingerprint::parse(&text), Some(first.fingerprint()));
    }

    #[test]
    fn a_damaged_identity_is_set_aside_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let first = Identity::load_or_make(dir.path()).unwrap();
        std::fs::write(dir.path().join(KEY_FILE), "not a key").unwrap();
        let second = Identity::load_or_make(dir.path()).unwrap();
        assert_ne!(first.fingerprint(), second.fingerprint(), "a new certificate: devices must pair again");
        assert_eq!(std::fs::read_to_string(dir.path().join("identity.key.damaged")).unwrap(), "not a key");
    }
}
