//! Whether a process that wrote a row still runs: a budget hold, a task's run in
//! progress. Another process (the daemon beside the app, `sidecar tasks run`) may own
//! what this one finds, and must keep it while it runs.

/// Whether the process `pid` runs: on Linux from /proc; elsewhere it is taken to run
/// (what it holds only expires).
pub fn alive(pid: i64) -> bool {
    if pid == i64::from(std::process::id()) || !cfg!(target_os = "linux") {
        return true;
    }
    pid > 0 && std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// This process's id, as stored beside what it holds.
pub fn this() -> i64 {
    i64::from(std::process::id())
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_runs_and_a_finished_one_does_not() {
        assert!(super::alive(super::this()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = i64::from(child.id());
        child.wait().unwrap();
        assert!(!super::alive(pid));
    }
}
