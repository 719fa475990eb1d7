//! A write killed half-way leaves the old file or the new one, never a broken one:
//! this test re-runs itself as a child process that rewrites learnings.md in a loop,
//! kills it with SIGKILL at random moments, and checks what is on disk each time.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sidecar_domain::write_atomically;
use sidecar_memory::Learnings;

const WRITER_ENV: &str = "SIDECAR_TEST_CRASH_WRITER";
const TEST_NAME: &str = "crash_write::a_write_killed_half_way_leaves_the_old_or_the_new_file";

/// Two versions of a large learnings file (so a write takes long enough to be cut).
fn versions() -> [String; 2] {
    let make = |tag: &str| {
        let mut text = String::from("# Learnings\n\n## General\n");
        for i in 0..20_000 {
            text.push_str(&format!("- [weight:1] Fact {tag} number {i} | learned:2026-01-01 | confirmed:2026-01-01\n"));
        }
        text
    };
    [make("A"), make("B")]
}

fn write_forever(path: &Path) -> ! {
    let [a, b] = versions();
    loop {
        write_atomically(path, a.as_bytes()).unwrap();
        write_atomically(path, b.as_bytes()).unwrap();
    }
}

#[test]
fn a_write_killed_half_way_leaves_the_old_or_the_new_file() {
    if let Some(path) = std::env::var_os(WRITER_ENV) {
        write_forever(Path::new(&path));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("learnings.md");
    let [a, b] = versions();
    std::fs::write(&path, &a).unwrap();
    let mut rng = fastrand::Rng::with_seed(42);
    let mut seen_b = false;
    for round in 0..25 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", TEST_NAME, "--nocapture", "--test-threads=1"])
            .env(WRITER_ENV, &path)
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(rng.u64(20..120)));
        child.kill().unwrap(); // SIGKILL: no cleanup, no flush
        child.wait().unwrap();
        let on_disk = std::fs::read_to_string(&path).unwrap();
        assert!(on_disk == a || on_disk == b, "round {round}: a torn file of {} bytes", on_disk.len());
        seen_b |= on_disk == b;
        assert_eq!(Learnings::parse(&on_disk).facts().count(), 20_000);
    }
    assert!(seen_b, "the writer never completed a write; the test proved nothing");
}
