//! Crash-safe file writes: a crash leaves the old file or the new one, never half.

use std::path::Path;

/// Writes to a temporary file beside `path`, syncs it, then renames it over `path`
/// (rename is atomic on one filesystem).
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Removes what [`write_atomically`] leaves in `dir` when a write is killed before its
/// rename (`.name.PID.tmp`; the real file is intact, old or new, so the leftover is only
/// clutter). A leftover of a process still running is another program's write under way
/// (two started together on a new data folder), so it is kept unless it is old enough
/// that the PID must have been reused.
pub fn remove_leftover_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = leftover_pid(&name) else { continue };
        let old = entry.metadata().and_then(|m| m.modified()).ok().and_then(|at| at.elapsed().ok()).is_some_and(|age| age > REUSED_PID_AGE);
        if old || !process_is_running(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A write takes milliseconds; a temp file this old belongs to no write under way.
const REUSED_PID_AGE: std::time::Duration = std::time::Duration::from_secs(600);

/// The PID in `.name.PID.tmp`, if `name` has that shape.
fn leftover_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, pid) = inner.rsplit_once('.')?;
    pid.parse().ok()
}

/// Where `/proc` cannot tell, every process counts as gone: a leftover is then removed as
/// it was before two programs could share a folder.
fn process_is_running(pid: u32) -> bool {
    pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_leftovers_of_processes_that_are_gone_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join(".learnings.md.4194305.tmp"); // above Linux's largest pid_max
        let running = dir.path().join(format!(".learnings.md.{}.tmp", std::process::id()));
        let other = dir.path().join("notes.tmp");
        for path in [&gone, &running, &other] {
            std::fs::write(path, "x").unwrap();
        }
        remove_leftover_temp_files(dir.path());
        assert!(!gone.exists());
        assert!(running.exists(), "a write under way in a running program is left alone");
        assert!(other.exists());
    }

    #[test]
    fn the_pid_is_read_from_the_temp_name_only() {
        assert_eq!(leftover_pid(".user.md.123.tmp"), Some(123));
        assert_eq!(leftover_pid(".user.md.tmp"), None);
        assert_eq!(leftover_pid("user.md.123.tmp"), None);
    }
}
