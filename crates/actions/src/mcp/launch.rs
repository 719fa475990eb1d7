//! Finding a server's command. An app started from the desktop menu gets a short PATH
//! that rarely holds `npx`, `uvx` or `node` (nvm, Homebrew and uv put them in places
//! only the login shell adds), so the login shell's PATH is asked once and searched too.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// This process's PATH followed by the login shell's, without repeats.
pub(crate) fn search_path() -> OsString {
    static JOINED: OnceLock<OsString> = OnceLock::new();
    JOINED
        .get_or_init(|| {
            let mut dirs: Vec<PathBuf> = std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
            for dir in login_shell_path() {
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
            std::env::join_paths(dirs).unwrap_or_default()
        })
        .clone()
}

/// The program to run for `command`: itself when it is a path, else the first match on
/// [`search_path`]; `None` when it is nowhere.
pub(crate) fn resolve(command: &str) -> Option<PathBuf> {
    if command.contains(std::path::MAIN_SEPARATOR) {
        let path = PathBuf::from(command);
        return is_executable(&path).then_some(path);
    }
    std::env::split_paths(&search_path()).map(|dir| dir.join(command)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

fn login_shell_path() -> Vec<PathBuf> {
    #[cfg(unix)]
    {
        let shell = std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into());
        // A marker around the value: profile scripts may print greetings of their own.
        let output = std::process::Command::new(shell)
            .args(["-l", "-c", "printf '<<%s>>' \"$PATH\""])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output();
        let Ok(output) = output else { return Vec::new() };
        let text = String::from_utf8_lossy(&output.stdout);
        let Some(value) = text.rsplit_once("<<").and_then(|(_, rest)| rest.split_once(">>")).map(|(v, _)| v.to_string()) else {
            return Vec::new();
        };
        std::env::split_paths(&value).collect()
    }
    #[cfg(not(unix))]
    {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_on_the_path_is_found_and_a_missing_one_is_not() {
        assert!(resolve("sh").is_some());
        assert_eq!(resolve("/bin/sh"), Some(PathBuf::from("/bin/sh")));
        assert_eq!(resolve("surely-no-such-command-xyz"), None);
        assert_eq!(resolve("/nope/npx"), None);
    }
}
