//! The offline model's worker: llama.cpp's server from the runtime folder, started as the
//! app starts it. Prints how long it takes to answer `/health`, to answer a first short
//! chat, and its resident memory when idle after that reply (and at its peak).
//!
//! Run: `cargo bench --bench worker_footprint` (after `make`, which builds the runtime
//! folder); `SIDECAR_RUNTIME` measures another one, such as an unpacked package's.

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::time::{Duration, Instant};

use sidecar_llm::LocalServer;

#[tokio::main]
async fn main() {
    let runtime = runtime::runtime();
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let server =
        LocalServer::start(&runtime, None, 4096, &dir.path().join("local-model.log"), Duration::from_secs(120)).await.expect("the offline model starts");
    let ready = started.elapsed();
    let body = serde_json::json!({
        "model": "demo",
        "messages": [{"role": "user", "content": "Say hello in five words."}],
        "max_tokens": 16,
    });
    let asked = Instant::now();
    let reply: serde_json::Value = reqwest::Client::new()
        .post(format!("{}/chat/completions", server.base_url()))
        .bearer_auth(server.api_key())
        .json(&body)
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .expect("a reply")
        .json()
        .await
        .expect("a JSON reply");
    let answered = asked.elapsed();
    assert!(reply["choices"][0]["message"]["content"].as_str().is_some_and(|c| !c.is_empty()), "{reply}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid().expect("running"))).unwrap_or_default();
    let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map_or("?".into(), |v| v.trim().to_string());
    println!("runtime: {}", runtime.display());
    println!("ready (answers /health): {} ms", ready.as_millis());
    println!("first reply (16 tokens at most): {} ms", answered.as_millis());
    println!("resident memory when idle: {}; at its peak: {}", field("VmRSS:"), field("VmHWM:"));
}
