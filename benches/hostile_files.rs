//! What hostile sizes cost (`make figures`): `search_notes` over a folder holding a 1 GB
//! note and 2,000 ordinary ones, `append_content` to the 1 GB note, and an MCP server
//! that writes 100 MB on stderr with no newline before it fails. Prints time and this
//! process's peak memory (VmHWM) for each; asserts nothing.
//!
//! Run: `cargo bench --bench hostile_files`

use std::time::{Duration, Instant};

use sidecar_actions::McpSession;
use sidecar_actions::McpTransport;
use sidecar_actions::NotesFolder;

/// The process's peak resident memory so far, in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    kb / 1024.0
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join("Journal")).unwrap();
    for n in 0..2_000 {
        std::fs::write(vault.join(format!("Journal/{n:04}.md")), format!("# Day {n}\nWent to the market, bought bread and {n} apples.\nCello practice.\n"))
            .unwrap();
    }
    std::fs::File::create(vault.join("huge.md")).unwrap().set_len(1024 * 1024 * 1024).unwrap();
    let folder = NotesFolder::open(&vault).unwrap();
    let before = peak_mib();
    let started = Instant::now();
    let searched = sidecar_actions::search_notes(&folder, "cello apples", 10).unwrap();
    println!(
        "search_notes over 2,000 notes and a 1 GB one: {:.0} ms, peak memory {before:.1} → {:.1} MiB; {} found, skipped: {:?}",
        started.elapsed().as_secs_f64() * 1000.0,
        peak_mib(),
        searched.found.len(),
        searched.skipped.iter().map(|s| format!("{} ({})", s.path, s.why)).collect::<Vec<_>>()
    );
    let started = Instant::now();
    let appended = folder.append("huge.md", "one more line");
    println!(
        "append_content to the 1 GB note: {:.2} ms, peak memory {:.1} MiB: {}",
        started.elapsed().as_secs_f64() * 1000.0,
        peak_mib(),
        appended.unwrap_or_else(|e| e.to_string())
    );

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/fixture_server.py");
    let python = std::env::var("SIDECAR_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let transport = McpTransport::Stdio {
        command: python,
        args: vec![script.into(), "--stderr-flood".into(), "100".into(), "--exit-at-start".into(), "gave up".into()],
        env: Default::default(),
        cwd: None,
    };
    let before = peak_mib();
    let started = Instant::now();
    let failed = McpSession::start(&transport, Duration::from_secs(120), &Default::default()).await.err().map(|e| e.to_string()).unwrap_or_default();
    println!(
        "an MCP server writing 100 MB on stderr with no newline: {:.1} s, peak memory {before:.1} → {:.1} MiB; said {} bytes",
        started.elapsed().as_secs_f64(),
        peak_mib(),
        failed.len()
    );
}
