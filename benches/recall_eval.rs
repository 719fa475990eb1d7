//! Evidence recall of `recall` on the evaluation set (`benches/data/recall_eval.json`,
//! built by `scripts/recall_eval.py`): two long conversations, Spanish and English, with
//! questions whose evidence messages are known. For each question, the share of its
//! evidence that recall packs into 1k, 2k and 4k tokens, words alone against hybrid;
//! plus the local embedder's throughput and the memory it adds. Prints figures; asserts
//! nothing.
//!
//! Run: `cargo bench --bench recall_eval` (after `make`, which builds the runtime folder)

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use serde::Deserialize;
use sidecar::{Companion, CompanionOptions};
use sidecar_domain::Clock;
use sidecar_llm::Role;
use sidecar_memory::RecallMode;
use sidecar_store::ImportedTurn;

#[derive(Deserialize)]
struct EvalSet {
    now: chrono::DateTime<chrono::Utc>,
    zone: String,
    conversations: Vec<Vec<EvalMessage>>,
    questions: Vec<Question>,
}

#[derive(Deserialize)]
struct EvalMessage {
    id: i64,
    role: Role,
    content: String,
    timestamp: String,
}

#[derive(Deserialize)]
struct Question {
    lang: String,
    kind: String,
    question: String,
    evidence: Vec<i64>,
}

const BUDGETS: [usize; 3] = [1000, 2000, 4000];

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok()).map_or(0.0, |kb| kb / 1024.0)
}

#[tokio::main]
async fn main() {
    let set: EvalSet = serde_json::from_str(include_str!("data/recall_eval.json")).expect("the evaluation set parses");
    // RECALL_EVAL_DIR keeps the imported, embedded store between runs (tuning runs
    // then skip the embedding); by default a fresh temporary one.
    let temporary = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("RECALL_EVAL_DIR").map_or_else(|| temporary.path().to_path_buf(), std::path::PathBuf::from);
    let reuse = dir.join("sidecar.db").exists();
    let mut settings = sidecar_settings::Settings::default();
    settings.local_model.runtime = Some(runtime::runtime());
    // multilingual-e5-small, as before "automatic" (which depends on the machine).
    settings.memory.embeddings.backend = sidecar_settings::EmbeddingsBackend::Local;
    let mut options = CompanionOptions::new(dir.clone(), settings);
    options.clock = Clock::fixed(set.now, set.zone.parse().expect("an IANA zone"));
    let core = Companion::open(options).await.unwrap();

    if !reuse {
        for messages in &set.conversations {
            let turns: Vec<ImportedTurn> =
                messages.iter().map(|m| ImportedTurn { role: m.role, content: &m.content, timestamp: Some(&m.timestamp), external_id: None }).collect();
            let done = core.store().archives().archive(None, &turns).await.unwrap();
            assert_eq!(done.stored, turns.len(), "the evaluation's ids follow the stored order");
        }
    }
    // The evaluation's ids, mapped to the ids the store gave (in the same order).
    let stored: Vec<(i64,)> = sqlx::query_as("SELECT id FROM messages ORDER BY id").fetch_all(core.store().pool()).await.unwrap();
    let ids: HashMap<i64, i64> = set.conversations.iter().flatten().map(|m| m.id).zip(stored.into_iter().map(|(id,)| id)).collect();
    let total_messages = ids.len();

    let before = rss_mb();
    let started = Instant::now();
    let embedded = core.meaning().catch_up(None).await.expect("the local embedder runs");
    let seconds = started.elapsed().as_secs_f64();
    let after = rss_mb();
    println!("embedding: {embedded} messages in {seconds:.1} s = {:.1} messages/s (2 cores, batches of 16)", embedded as f64 / seconds);
    println!(
        "memory: the process grew {:.0} MB while loading and running the embedder (weights are memory-mapped, 72 MB on disk); the vectors of {total_messages} messages hold {:.1} MB",
        after - before,
        core.meaning().memory_bytes() as f64 / 1e6
    );

    let questions = &set.questions;
    let mut table: BTreeMap<(&str, usize), Vec<f64>> = BTreeMap::new();
    let mut by_kind: BTreeMap<(&str, String), Vec<f64>> = BTreeMap::new();
    let mut latencies = Vec::new();
    for (mode_name, mode) in [("words", RecallMode::Words), ("hybrid", RecallMode::Hybrid)] {
        for budget in BUDGETS {
            for q in questions {
                let started = Instant::now();
                let results = core.recall_service().search_in(&q.question, budget, mode).await.unwrap();
                if mode == RecallMode::Hybrid && budget == 2000 {
                    latencies.push(started.elapsed().as_secs_f64() * 1000.0);
                }
                let shown: HashSet<i64> = results.hits.iter().filter(|h| h.source == "message").map(|h| h.id).collect();
                let found = q.evidence.iter().filter(|e| shown.contains(&ids[e])).count();
                let share = found as f64 / q.evidence.len() as f64;
                if std::env::var_os("RECALL_EVAL_SHOW").is_some() && mode == RecallMode::Hybrid && budget == 2000 && share < 1.0 {
                    let rank = |e: &i64| results.hits.iter().position(|h| h.id == ids[e]);
                    let vector = core.meaning().query(&q.question).await.unwrap();
                    let all: Vec<sidecar_memory::Key> = ids.values().map(|id| sidecar_memory::Key::message(*id)).collect();
                    let by_meaning = core.meaning().rank(&vector, &all);
                    let meaning_rank = |e: &i64| by_meaning.iter().position(|(k, _)| k.id == ids[e]);
                    println!(
                        "MISSED {} {}: packed at {:?}, by meaning at {:?} of {} (hits {}, omitted {})",
                        q.lang,
                        q.question,
                        q.evidence.iter().map(rank).collect::<Vec<_>>(),
                        q.evidence.iter().map(meaning_rank).collect::<Vec<_>>(),
                        all.len(),
                        results.hits.len(),
                        results.omitted
                    );
                }
                table.entry((mode_name, budget)).or_default().push(share);
                if budget == 2000 {
                    by_kind.entry((mode_name, format!("{} {}", q.lang, q.kind))).or_default().push(share);
                }
            }
        }
    }
    let mean = |v: &[f64]| 100.0 * v.iter().sum::<f64>() / v.len() as f64;
    println!("\nevidence recall on {} questions over {total_messages} messages (share of each question's evidence packed into the budget):", questions.len());
    println!("  {:<8} {:>8} {:>8} {:>8}", "", "1k", "2k", "4k");
    for mode in ["words", "hybrid"] {
        let cells: Vec<String> = BUDGETS.iter().map(|b| format!("{:>7.1}%", mean(&table[&(mode, *b)]))).collect();
        println!("  {mode:<8} {}", cells.join(" "));
    }
    println!("\nat 2k tokens, by language and kind (words → hybrid):");
    let kinds: BTreeMap<&String, ()> = by_kind.keys().map(|(_, k)| (k, ())).collect();
    for kind in kinds.keys() {
        let words = &by_kind[&("words", (*kind).clone())];
        let hybrid = &by_kind[&("hybrid", (*kind).clone())];
        println!("  {kind:<16} {:>5.1}% → {:>5.1}%  ({} questions)", mean(words), mean(hybrid), words.len());
    }
    latencies.sort_by(f64::total_cmp);
    println!("\nhybrid recall latency here (2k budget): median {:.0} ms, p95 {:.0} ms", latencies[latencies.len() / 2], latencies[latencies.len() * 95 / 100]);
}
