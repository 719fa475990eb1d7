//! A soak of the loopback endpoint (`make figures`): 1,000 slow or half-open
//! connections from another process (half say nothing, half drip a request's head a
//! byte a second), then the same with this process out of file descriptors so accepts
//! fail. Throughout, a normal request every 100 ms: how long it waits. Printed: those
//! waits, the process's memory, and what the log grew by. Asserts nothing.
//!
//! Run: `cargo bench --bench endpoint_soak`

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};
use sidecar_serve::McpEndpoint;
use sidecar_serve::Scope;

const ATTACKERS: usize = 1_000;
const PHASE: Duration = Duration::from_secs(20);

/// Opens `count` connections to `port` and holds them: even ones silent, odd ones
/// writing a request's head one byte a second, each reopened when the endpoint closes it.
const ATTACKER: &str = r#"
import socket, sys, time
port, count = int(sys.argv[1]), int(sys.argv[2])
head = b"GET /v1/facts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10000
def connect():
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.setblocking(False)
        return s
    except OSError:
        return None
conns = [[connect(), 0] for _ in range(count)]
while True:
    for i, c in enumerate(conns):
        if c[0] is None:
            c[0], c[1] = connect(), 0
            continue
        if i % 2 == 1 and c[1] < len(head):
            try:
                c[0].send(head[c[1]:c[1] + 1]); c[1] += 1
            except OSError:
                c[0].close(); c[0] = None
    time.sleep(1)
"#;

fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    kb / 1024.0
}

fn log_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map(|entries| entries.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum()).unwrap_or(0)
}

fn attack(port: u16) -> Child {
    Command::new("python3")
        .args(["-c", ATTACKER, &port.to_string(), &ATTACKERS.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3")
}

fn set_open_files(limit: u64) {
    let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut current) };
    current.rlim_cur = limit.min(current.rlim_max);
    unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &current) };
}

fn open_files() -> u64 {
    std::fs::read_dir("/proc/self/fd").map(|d| d.count() as u64).unwrap_or(0)
}

/// Normal requests every 100 ms for `PHASE`, each a new connection from another
/// process (curl: this one may be out of descriptors): their waits (ms) as curl timed
/// them, the failures, and this process's peak memory.
async fn probe(url: &str, token: &str) -> (Vec<f64>, usize, f64) {
    let (mut waits, mut failed, mut peak) = (Vec::new(), 0, 0.0f64);
    let end = Instant::now() + PHASE;
    while Instant::now() < end {
        let curl = tokio::process::Command::new("curl")
            .args(["-s", "-o", "/dev/null", "-m", "30", "-w", "%{http_code} %{time_total}", "-H", &format!("Authorization: Bearer {token}"), url])
            .output()
            .await;
        let answer = curl.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
        match answer.split_once(' ') {
            Some(("200", seconds)) => waits.push(seconds.parse::<f64>().unwrap_or(f64::NAN) * 1000.0),
            _ => failed += 1,
        }
        peak = peak.max(rss_mib());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (waits, failed, peak)
}

fn said(name: &str, mut waits: Vec<f64>, failed: usize) {
    waits.sort_by(f64::total_cmp);
    let at = |q: f64| waits.get(((waits.len() as f64 * q) as usize).min(waits.len().saturating_sub(1))).copied().unwrap_or(f64::NAN);
    println!("{name}: {} requests answered, {failed} failed; wait median {:.1} ms, p95 {:.1} ms, max {:.1} ms", waits.len(), at(0.5), at(0.95), at(1.0));
}

#[tokio::main]
async fn main() {
    set_open_files(65_536);
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let _guard = sidecar_domain::init_logging("warn", Some(&logs), &Default::default());
    let settings = toml::from_str("[llm]\nmax_retries = 0\n[connections]\napi_requests_per_minute = 100000\n").unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().join("data"), settings)).await.unwrap();
    core.remember("I play the cello on Thursdays", sidecar_memory::Category::General).await.unwrap();
    let token = core.hosting().tokens.issue("soak", &[Scope::ReadMemory]).await.unwrap().token;
    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    let url = format!("http://{address}/v1/facts");

    let (rss_before, log_before) = (rss_mib(), log_bytes(&logs));
    println!(
        "endpoint limits: {} connections, head within {} s, idle {} s",
        sidecar_serve::MAX_CONNECTIONS,
        sidecar_serve::HEADER_TIMEOUT.as_secs(),
        sidecar_serve::IDLE_TIMEOUT.as_secs()
    );
    let (quiet, failed, _) = probe(&url, &token).await;
    said("no attack", quiet, failed);

    let mut attacker = attack(address.port());
    let (waits, failed, peak) = probe(&url, &token).await;
    said(&format!("{ATTACKERS} slow or half-open connections"), waits, failed);
    println!("  memory: {rss_before:.1} MiB before, {peak:.1} MiB at most during");

    // Out of descriptors: only a few more than are open now, so accepts fail.
    set_open_files(open_files() + 24);
    let (waits, failed, peak_out) = probe(&url, &token).await;
    said("the same, this process out of file descriptors", waits, failed);
    set_open_files(65_536);
    let _ = attacker.kill();
    let _ = attacker.wait();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (after, failed, _) = probe(&url, &token).await;
    said("after the attack", after, failed);
    println!("  memory: {peak_out:.1} MiB at most out of descriptors, {:.1} MiB after", rss_mib());
    println!("  log: {} bytes written over {} s of attack", log_bytes(&logs).saturating_sub(log_before), 2 * PHASE.as_secs());
    endpoint.stop();
}
