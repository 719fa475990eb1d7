//! What this machine has room for: total memory and free disk space.

use std::path::Path;

/// Total physical memory in bytes; 0 when the system will not say.
pub fn total_memory() -> u64 {
    match sysinfo::System::new() {
        Ok(mut system) => {
            system.refresh_memory();
            system.total_memory()
        }
        Err(error) => {
            tracing::warn!(%error, "cannot read this machine's memory");
            0
        }
    }
}

/// Bytes free for a new file in `dir` (or its nearest existing parent).
pub(crate) fn free_disk(dir: &Path) -> std::io::Result<u64> {
    let existing = dir.ancestors().find(|p| p.exists()).unwrap_or(dir);
    fs4::available_space(existing)
}
