//! The two embedders that ship with Sidecar, as the app runs them: multilingual-e5-small
//! in process and EmbeddingGemma through llama.cpp's server. For each: how long until
//! the first vector, embedding throughput while indexing (texts per second, in the
//! indexer's batches of 16), one query's latency (median and p95), and the memory it
//! holds (e5-small: this process's growth; EmbeddingGemma: its server's, idle and at
//! its peak).
//!
//! The texts are the paragraphs of `docs/guide` (real prose of every length; always
//! present), and their sentences (the length of a chat message). Run: `cargo bench --bench embedder_footprint` (after `make`, which builds
//! the runtime folder).

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::time::{Duration, Instant};

use sidecar_memory::Embedder;
use sidecar_memory::GemmaEmbedder;
use sidecar_memory::GemmaFiles;
use sidecar_memory::LocalE5;
use sidecar_memory::TextKind;

const BATCH: usize = 16;
const QUERIES: usize = 40;

fn paragraphs() -> Vec<String> {
    let mut texts = Vec::new();
    let guide = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide");
    let mut files: Vec<_> = std::fs::read_dir(guide).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        texts.extend(text.split("\n\n").map(str::trim).filter(|p| p.len() > 40 && !p.starts_with('|')).map(str::to_string));
    }
    texts
}

/// The paragraphs' sentences: what a chat message is like.
fn sentences(paragraphs: &[String]) -> Vec<String> {
    paragraphs.iter().flat_map(|p| p.split(". ")).map(str::trim).filter(|s| s.len() > 20).map(str::to_string).collect()
}

fn describe(what: &str, texts: &[String]) -> String {
    let mean = texts.iter().map(|t| t.chars().count()).sum::<usize>() / texts.len().max(1);
    format!("{} {what} of {mean} characters on average", texts.len())
}

fn field(pid: &str, name: &str) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix(name)).map_or("?".into(), |v| v.trim().to_string())
}

fn kib(value: &str) -> f64 {
    value.trim_end_matches(" kB").trim().parse::<f64>().unwrap_or(0.0)
}

/// Prints one embedder's figures; `started` is when it began loading.
async fn measure(name: &str, embedder: &dyn Embedder, texts: &[String], started: Instant) {
    embedder.embed(&texts[..1], TextKind::Passage).await.expect("a first vector");
    let first = started.elapsed();
    let chat = sentences(texts);
    let mut rates = Vec::new();
    for set in [&chat, texts] {
        let indexing = Instant::now();
        for batch in set.chunks(BATCH) {
            embedder.embed(batch, TextKind::Passage).await.expect("vectors");
        }
        rates.push(set.len() as f64 / indexing.elapsed().as_secs_f64());
    }
    let mut latencies = Vec::new();
    for text in texts.iter().take(QUERIES) {
        let query: String = text.split_whitespace().take(12).collect::<Vec<_>>().join(" ");
        let asked = Instant::now();
        embedder.embed(&[query], TextKind::Query).await.expect("a query vector");
        latencies.push(asked.elapsed());
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize].as_millis();
    println!("{name}:");
    println!("  first vector after {} ms (loading included)", first.as_millis());
    println!("  indexing, in batches of {BATCH}: {:.1} sentences/s, {:.1} paragraphs/s", rates[0], rates[1]);
    println!("  one query: median {} ms, p95 {} ms ({QUERIES} queries of 12 words)", at(0.5), at(0.95));
}

#[tokio::main]
async fn main() {
    let runtime = runtime::runtime();
    let texts = paragraphs();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("texts: {}, and their {}; {cores} cores here", describe("paragraphs of docs/guide", &texts), describe("sentences", &sentences(&texts)));

    let own = std::process::id().to_string();
    let before = kib(&field(&own, "VmRSS:"));
    let started = Instant::now();
    let weights = sidecar_memory::locate(None, Some(&runtime)).expect("e5-small's weights (make builds the runtime)");
    let e5 = LocalE5::load(&weights).expect("e5-small loads");
    measure("multilingual-e5-small (in process)", &e5, &texts, started).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!("  memory: this process grew by {:.0} MiB", (kib(&field(&own, "VmRSS:")) - before) / 1024.0);
    println!("  file: {} MB", std::fs::metadata(&weights).map_or(0, |m| m.len()) / 1_000_000);
    drop(e5);

    let Ok(files) = GemmaFiles::locate(Some(&runtime)) else {
        println!("EmbeddingGemma: (skipped: not in {}; make runtime puts it there)", runtime.display());
        return;
    };
    let size = std::fs::metadata(&files.model).map_or(0, |m| m.len());
    let dir = tempfile::tempdir().unwrap();
    let gemma = GemmaEmbedder::new(files, dir.path().join("embedder.log"), reqwest::Client::new());
    let started = Instant::now();
    measure("EmbeddingGemma-300M Q8_0 (llama.cpp's server)", &gemma, &texts, started).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let pid = gemma.pid().await.expect("the server runs").to_string();
    println!("  memory: its server holds {} when idle, {} at its peak", field(&pid, "VmRSS:"), field(&pid, "VmHWM:"));
    println!("  file: {} MB", size / 1_000_000);
}
