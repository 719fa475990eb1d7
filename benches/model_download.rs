//! Model manager figures. Prints; asserts nothing but that a resume ends byte-for-byte.
//!
//! - download throughput from a file server on loopback (the SmolLM2 GGUF, ~100 MB,
//!   hashed with SHA-256 as it arrives), median of 5;
//! - resume correctness: the first download cut at a third, the next pull continuing
//!   with Range: bytes re-sent, file identical;
//! - the local llama.cpp server's restart time on a model switch, median of 4.
//!
//! Run: `cargo bench --bench model_download` (after `make`, which builds the runtime folder).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::time::Instant;

use sidecar::{Companion, CompanionOptions};
use sidecar_llm::Downloader;
use sidecar_llm::ModelLibrary;
use sidecar_llm::PullRequest;
use support::file_server::{smollm2_gguf, FileServer};
use tokio_util::sync::CancellationToken;

const NAME: &str = "tiny-chat-Q4_1.gguf";

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let body = std::fs::read(smollm2_gguf()).unwrap();
    let size = body.len() as u64;
    let server = FileServer::start(NAME, body.clone(), None).await;
    let downloader = Downloader::new(64 << 30);
    let request = PullRequest { url: server.url.clone(), ..Default::default() };

    let mut rates = Vec::new();
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let library = ModelLibrary::new(dir.path());
        let started = Instant::now();
        downloader.pull(&library, &request, |_| {}, &CancellationToken::new()).await.unwrap();
        rates.push(size as f64 / 1e6 / started.elapsed().as_secs_f64());
    }
    println!(
        "download from loopback ({:.0} MB, SHA-256 as it arrives): median {:.0} MB/s (min {:.0}, max {:.0})",
        size as f64 / 1e6,
        median(rates.clone()),
        rates.iter().cloned().fold(f64::MAX, f64::min),
        rates.iter().cloned().fold(0.0, f64::max)
    );

    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let sent_before = server.bytes_sent();
    server.cut_next_after(size / 3);
    let cut = downloader.pull(&library, &request, |_| {}, &CancellationToken::new()).await.unwrap_err();
    let pulled = downloader.pull(&library, &request, |_| {}, &CancellationToken::new()).await.unwrap();
    let identical = std::fs::read(&pulled.path).unwrap() == body;
    let resent = (server.bytes_sent() - sent_before) as i64 - size as i64;
    println!("resume: cut after {} bytes ({cut}); resumed from {}; {} bytes sent twice; file identical: {identical}", size / 3, pulled.resumed_from, resent);
    assert!(identical);

    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(data.path().join("models")).unwrap();
    std::fs::write(data.path().join("models").join(NAME), &body).unwrap();
    let settings = toml::from_str(&format!("[local_model]\nruntime = {:?}\n[memory.embeddings]\nbackend = \"local\"\n", support::runtime())).unwrap();
    let core = Companion::open(CompanionOptions::new(data.path().to_path_buf(), settings)).await.unwrap();
    core.models().warm_up().await.unwrap();
    let mut restarts = Vec::new();
    for i in 0..4 {
        let name = if i % 2 == 0 { Some("tiny-chat-Q4_1") } else { None };
        let switched = core.model_hub().use_model(name).await.unwrap();
        restarts.push(switched.restart_ms.unwrap() as f64);
    }
    println!(
        "local server restart on a model switch (SmolLM2 135M, both ways): median {:.0} ms, max {:.0} ms",
        median(restarts.clone()),
        restarts.iter().cloned().fold(0.0, f64::max)
    );
    core.shutdown().await;
}
