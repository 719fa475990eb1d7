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

/// When the process `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd
/// field): stored beside the pid, it tells the process that wrote a row from a later
/// one given the same pid. `None` where there is no /proc.
pub fn started(pid: i64) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name, in parentheses, may hold spaces and parentheses itself.
    let fields = &stat[stat.rfind(')')? + 1..];
    fields.split_whitespace().nth(19)?.parse().ok()
}

/// When this process started ([`started`]), read once.
pub fn this_started() -> Option<i64> {
    static STARTED: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    *STARTED.get_or_init(|| started(this()))
}

/// Whether the process `pid` that started at `started` (from [`started`]) still runs:
/// a process given the same pid since does not count.
pub fn runs(pid: i64, started_at: Option<i64>) -> bool {
    if !alive(pid) {
        return false;
    }
    match (started_at, started(pid)) {
        (Some(then), Some(now)) => then == now,
        // Written where start times are not known: the pid alone says.
        _ => true,
    }
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

    #[test]
    fn a_process_given_the_same_pid_later_is_not_the_one_that_wrote() {
        let me = super::this();
        let started = super::started(me);
        assert!(started.is_some_and(|t| t > 0), "{started:?}");
        assert!(super::runs(me, started));
        assert!(!super::runs(me, started.map(|t| t - 1)), "another start time is another process");
        assert!(super::runs(me, None), "a row written without a start time");
        // A name with spaces and parentheses does not shift the fields.
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let pid = i64::from(child.id());
        assert!(super::started(pid).is_some_and(|t| t >= started.unwrap()));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
