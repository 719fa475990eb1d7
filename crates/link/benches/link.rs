//! The link's figures (`make figures`): a command's round trip through the link against
//! the same command called directly (as the window's IPC calls the table), an event
//! reaching three attached devices, and a bounded soak: three devices, 1,000 calls and
//! 1,000 events, nothing lost and nothing doubled, the core's memory before and after.
//! Loopback, real TLS, real store. Asserts only that nothing was lost or doubled.
//!
//! Run: `cargo bench -p sidecar-link --bench link`

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use sidecar_link::{pair, Addressed, Calls, Device, Devices, Identity, LinkClient, LinkServer, LinkState};
use tokio::sync::broadcast;

struct Echo {
    runs: AtomicUsize,
    events: broadcast::Sender<Addressed>,
}

impl Calls for Echo {
    fn call(&self, _: Device, _: String, args: Value) -> BoxFuture<'static, Result<Value, Value>> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(args) })
    }
    fn events(&self) -> broadcast::Receiver<Addressed> {
        self.events.subscribe()
    }
}

fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    kb / 1024.0
}

fn percentiles(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize].as_secs_f64() * 1000.0;
    format!("p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms", at(0.5), at(0.95), at(0.99))
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = sidecar_store::Store::open(dir.path()).await.unwrap();
    let devices = Arc::new(Devices::new(store));
    let echo = Arc::new(Echo { runs: AtomicUsize::new(0), events: broadcast::channel(4096).0 });
    let server = LinkServer::new(Identity::load_or_make(&dir.path().join("link")).unwrap(), devices.clone(), echo.clone());
    let listening = server.listen("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let address = listening.address.to_string();
    let mut clients = Vec::new();
    for name in ["Laptop", "Desktop", "Phone"] {
        let code = devices.open_code().await.unwrap();
        let paired = pair(&address, &code.code, name).await.unwrap();
        let client = LinkClient::connect(&address, paired.fingerprint, &paired.token);
        let mut state = client.state();
        state.wait_for(|s| *s == LinkState::Up).await.unwrap();
        clients.push(client);
    }

    // A command's round trip: direct (the table, as IPC) and through the link.
    let args = json!({ "text": "¿Qué tengo mañana?" });
    let mut direct = Vec::new();
    for _ in 0..1_000 {
        let started = Instant::now();
        let _ = echo.call(Device { id: 0, name: String::new(), paired_at: Default::default(), last_seen: None }, "echo".into(), args.clone()).await;
        direct.push(started.elapsed());
    }
    let mut linked = Vec::new();
    for _ in 0..1_000 {
        let started = Instant::now();
        clients[0].call("echo", args.clone()).await.unwrap();
        linked.push(started.elapsed());
    }
    println!("command round trip, 1,000 calls: the command called directly {}; through the link {}", percentiles(direct), percentiles(linked));

    // An event reaching three attached devices.
    let mut receivers: Vec<_> = clients.iter().map(|c| c.events()).collect();
    let mut reach = Vec::new();
    for n in 0..500 {
        let started = Instant::now();
        echo.events.send(Addressed::everyone(json!({ "type": "bench", "n": n }))).unwrap();
        for receiver in &mut receivers {
            loop {
                let event = receiver.recv().await.unwrap();
                if event["n"] == n {
                    break;
                }
            }
        }
        reach.push(started.elapsed());
    }
    println!("an event reaching all three devices, 500 events: {}", percentiles(reach));

    // The soak: three devices, 1,000 calls and 1,000 events together.
    let before = rss_mib();
    let runs_before = echo.runs.load(Ordering::SeqCst);
    let clients = Arc::new(clients);
    let mut receivers: Vec<_> = clients.iter().map(|c| c.events()).collect();
    let started = Instant::now();
    let calls = tokio::spawn({
        let clients = clients.clone();
        async move {
            let mut answers = HashMap::new();
            let mut pending = Vec::new();
            for n in 0..1_000 {
                let clients = clients.clone();
                pending.push(tokio::spawn(async move { (n, clients[n % 3].call("echo", json!({ "n": n })).await.unwrap()) }));
            }
            for task in pending {
                let (n, answer) = task.await.unwrap();
                *answers.entry(answer["n"].as_u64().unwrap()).or_insert(0) += 1;
                assert_eq!(answer["n"], n);
            }
            answers
        }
    });
    for n in 0..1_000 {
        echo.events.send(Addressed::everyone(json!({ "type": "soak", "n": n }))).unwrap();
        if n % 100 == 0 {
            tokio::task::yield_now().await;
        }
    }
    let answers = calls.await.unwrap();
    let mut heard = vec![HashMap::new(); 3];
    for (device, receiver) in receivers.iter_mut().enumerate() {
        while heard[device].len() < 1_000 {
            let event = tokio::time::timeout(Duration::from_secs(30), receiver.recv()).await.expect("every event in time").expect("no event lost");
            if event["type"] == "soak" {
                *heard[device].entry(event["n"].as_u64().unwrap()).or_insert(0) += 1;
            }
        }
    }
    let runs = echo.runs.load(Ordering::SeqCst) - runs_before;
    assert_eq!((answers.len(), runs), (1_000, 1_000), "every call answered and run once");
    assert!(answers.values().all(|&n| n == 1), "no answer twice");
    assert!(heard.iter().all(|h| h.len() == 1_000 && h.values().all(|&n| n == 1)), "every event once on every device");
    println!(
        "soak, three devices, 1,000 calls and 1,000 events: {:.1} s, nothing lost or doubled; this process (the core's link and its three devices) {before:.1} MiB before, {:.1} MiB after",
        started.elapsed().as_secs_f64(),
        rss_mib()
    );
    listening.stop().await;
}
