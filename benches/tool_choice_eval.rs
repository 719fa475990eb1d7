//! How often the per-turn tool choice carries the tool a question needs, on questions
//! and tools that are not ours: a sample of MetaTool (HowieHwong/MetaTool, MIT; 199
//! tools, up to eight questions each, `benches/data/metatool_sample.json`, made by
//! `scripts/metatool.py`). 199 similar tools is harder than a user's few servers.
//!
//! For each question, every tool is scored as the chooser scores MCP tools (by meaning
//! with each built-in embedder, multilingual-e5-small in process and EmbeddingGemma
//! through llama.cpp's server from the runtime, or by words without one) and the five
//! best that clear the floor are "carried" (about what the budget holds). Development
//! and test parts are reported apart; each embedder's floor (`Thresholds::tool_floor`)
//! was chosen on the development part. Prints figures; asserts nothing.
//!
//! Run: `cargo bench --bench tool_choice_eval` (after `make test` set up the runtime).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::path::Path;

use serde::Deserialize;
use sidecar_memory::Embedder;
use sidecar_memory::GemmaEmbedder;
use sidecar_memory::GemmaFiles;
use sidecar_memory::LocalE5;
use sidecar_memory::TextKind;
use sidecar_tools::tool_text;
use sidecar_tools::word_overlap;
use sidecar_tools::WORDS_FLOOR;

/// What the budget holds, in tools of this size.
const CARRIED: usize = 5;

#[derive(Deserialize)]
struct Sample {
    tools: std::collections::BTreeMap<String, String>,
    queries: Vec<Question>,
}

#[derive(Deserialize)]
struct Question {
    query: String,
    tool: String,
    part: String,
}

/// For one question: each tool's score, and the gold tool's index.
struct Scored {
    scores: Vec<f32>,
    gold: usize,
    dev: bool,
}

impl Scored {
    fn rank(&self) -> usize {
        let gold = self.scores[self.gold];
        self.scores.iter().filter(|s| **s > gold).count()
    }

    /// The gold tool is among the `CARRIED` best at or above `floor`; and how many were.
    fn carried(&self, floor: f32) -> (bool, usize) {
        let passing = self.scores.iter().filter(|s| **s >= floor).count().min(CARRIED);
        (self.rank() < CARRIED && self.scores[self.gold] >= floor, passing)
    }
}

fn report(method: &str, scored: &[Scored], floor: f32) {
    for (part, dev) in [("development", true), ("test", false)] {
        let these: Vec<&Scored> = scored.iter().filter(|s| s.dev == dev).collect();
        let n = these.len() as f64;
        let top1 = these.iter().filter(|s| s.rank() == 0).count() as f64 / n;
        let top5 = these.iter().filter(|s| s.rank() < CARRIED).count() as f64 / n;
        let carried: Vec<(bool, usize)> = these.iter().map(|s| s.carried(floor)).collect();
        let hit = carried.iter().filter(|c| c.0).count() as f64 / n;
        let size = carried.iter().map(|c| c.1).sum::<usize>() as f64 / n;
        println!(
            "  {method:<8} {part:<12} {:>4} questions: best {:>5.1}%, in the best five {:>5.1}%, carried (≥ {floor:.2}) {:>5.1}% with {size:.1} tools a turn",
            these.len(),
            top1 * 100.0,
            top5 * 100.0,
            hit * 100.0
        );
    }
}

#[tokio::main]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample: Sample = serde_json::from_str(&std::fs::read_to_string(root.join("benches/data/metatool_sample.json")).unwrap()).unwrap();
    let names: Vec<&String> = sample.tools.keys().collect();
    let texts: Vec<String> = sample.tools.iter().map(|(name, description)| tool_text(name, "", description)).collect();
    let queries: Vec<String> = sample.queries.iter().map(|q| q.query.clone()).collect();
    let gold = |q: &Question| names.iter().position(|n| **n == q.tool).unwrap();
    println!("MetaTool sample: {} tools, {} questions", names.len(), queries.len());
    let runtime = support::runtime();
    let weights = sidecar_memory::locate(None, Some(&runtime)).expect("the embedder's weights (make test installs them)");
    let e5 = LocalE5::load(&weights).unwrap();
    let log = tempfile::tempdir().unwrap();
    let gemma = GemmaFiles::locate(Some(&runtime)).ok().map(|files| GemmaEmbedder::new(files, log.path().join("embedder.log"), reqwest::Client::new()));
    let mut embedders: Vec<(&str, &dyn Embedder)> = vec![("e5-small", &e5)];
    match &gemma {
        Some(gemma) => embedders.push(("gemma", gemma)),
        None => println!("  (EmbeddingGemma is not in the runtime: make runtime)"),
    }
    for (label, embedder) in embedders {
        let started = std::time::Instant::now();
        let tool_vectors = embed_all(embedder, &texts, TextKind::Passage).await;
        let query_vectors = embed_all(embedder, &queries, TextKind::Query).await;
        let seconds = started.elapsed().as_secs_f64();
        let meaning: Vec<Scored> = sample
            .queries
            .iter()
            .zip(&query_vectors)
            .map(|(q, v)| Scored {
                scores: tool_vectors.iter().map(|t| t.iter().zip(v).map(|(a, b)| a * b).sum()).collect(),
                gold: gold(q),
                dev: q.part == "dev",
            })
            .collect();
        let floor = embedder.thresholds().tool_floor.expect("a built-in embedder's floor");
        println!("{label}: {} texts embedded in {seconds:.1} s", texts.len() + queries.len());
        report(label, &meaning, floor);
        println!("  the floor by meaning on the development part:");
        let golds: Vec<f32> = meaning.iter().filter(|s| s.dev).map(|s| s.scores[s.gold]).collect();
        let median = |mut v: Vec<f32>| {
            v.sort_by(f32::total_cmp);
            v[v.len() / 2]
        };
        println!("    the gold tool's cosine: median {:.3}", median(golds));
        for step in -15..=6 {
            let at = floor + step as f32 * 0.02;
            let dev: Vec<(bool, usize)> = meaning.iter().filter(|s| s.dev).map(|s| s.carried(at)).collect();
            let n = dev.len() as f64;
            println!(
                "    {at:.2}: carried {:>5.1}% with {:.1} tools a turn",
                dev.iter().filter(|c| c.0).count() as f64 / n * 100.0,
                dev.iter().map(|c| c.1).sum::<usize>() as f64 / n
            );
        }
    }
    let words: Vec<Scored> = sample
        .queries
        .iter()
        .map(|q| Scored { scores: texts.iter().map(|t| word_overlap(&q.query, t)).collect(), gold: gold(q), dev: q.part == "dev" })
        .collect();
    report("words", &words, WORDS_FLOOR);
}

async fn embed_all(embedder: &dyn Embedder, texts: &[String], kind: TextKind) -> Vec<Vec<f32>> {
    let mut vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(32) {
        vectors.extend(embedder.embed(chunk, kind).await.unwrap());
    }
    vectors
}
