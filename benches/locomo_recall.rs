//! Evidence recall on real conversations: LoCoMo (snap-research/locomo, ten long
//! conversations between two people, questions with their evidence turns annotated),
//! converted by `scripts/locomo.py`, with its development part (5 conversations) and
//! test part (5) apart. For each question, the share of its evidence turns that the
//! budgeted recall (what the model gets) returns, by kind of question, words only, meaning only
//! and hybrid, at 1k, 2k and 4k tokens; and the hybrid's latency. The first measurement of
//! issue 27; prints figures, asserts nothing.
//!
//! Run: `python3 scripts/locomo.py locomo10.zip target/locomo.json` (the zip is in the
//! repository `fetch` brings), then
//! `LOCOMO=target/locomo.json SIDECAR_LOCAL_LLM_PYTHON=$PWD/.venv/bin/python cargo bench --bench locomo_recall`
//! (`LOCOMO_DIR` keeps the embedded stores between runs).

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use serde::Deserialize;
use sidecar::clock::Clock;
use sidecar::llm::Role;
use sidecar::recall::RecallMode;
use sidecar::store::archives::ImportedTurn;
use sidecar::{Companion, CompanionOptions};

#[derive(Deserialize)]
struct Set {
    conversations: Vec<Conversation>,
}

#[derive(Deserialize)]
struct Conversation {
    name: String,
    part: String,
    messages: Vec<Message>,
    questions: Vec<Question>,
}

#[derive(Deserialize)]
struct Message {
    role: Role,
    content: String,
    timestamp: String,
}

#[derive(Deserialize)]
struct Question {
    question: String,
    category: u8,
    evidence: Vec<usize>,
}

const BUDGETS: [usize; 3] = [1000, 2000, 4000];

/// LoCoMo's categories, as the issue names the kinds.
fn kind(category: u8) -> &'static str {
    match category {
        1 => "multi-hop",
        2 => "time",
        3 => "inference",
        4 => "single fact",
        _ => "other",
    }
}

#[tokio::main]
async fn main() {
    let (Some(path), Some(python)) = (std::env::var_os("LOCOMO"), std::env::var_os("SIDECAR_LOCAL_LLM_PYTHON")) else {
        eprintln!("set LOCOMO to the set scripts/locomo.py wrote and SIDECAR_LOCAL_LLM_PYTHON to the venv's Python");
        std::process::exit(2);
    };
    let set: Set = serde_json::from_slice(&std::fs::read(path).expect("the LoCoMo set")).expect("it parses");
    // (part, mode, budget) and (part, kind) at 2k hybrid: evidence shares.
    let mut table: BTreeMap<(String, &str, usize), Vec<f64>> = BTreeMap::new();
    let mut kinds: BTreeMap<(String, &str, &str), Vec<f64>> = BTreeMap::new();
    let mut latencies = Vec::new();
    for conversation in &set.conversations {
        let temporary = tempfile::tempdir().unwrap();
        let dir = std::env::var_os("LOCOMO_DIR").map_or_else(|| temporary.path().to_path_buf(), |d| std::path::PathBuf::from(d).join(&conversation.name));
        let reuse = dir.join("sidecar.db").exists();
        let mut settings = sidecar::settings::Settings::default();
        settings.local_model.python = Some(python.clone().into());
        let mut options = CompanionOptions::new(dir.clone(), settings);
        let last = conversation.messages.last().unwrap().timestamp.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        options.clock = Clock::fixed(last + chrono::Duration::days(30), chrono_tz::UTC);
        let core = Companion::open(options).await.unwrap();
        let turns: Vec<ImportedTurn> =
            conversation.messages.iter().map(|m| ImportedTurn { role: m.role, content: &m.content, timestamp: Some(&m.timestamp), external_id: None }).collect();
        if !reuse {
            core.store().archives().archive(None, &turns).await.unwrap();
        }
        let stored: Vec<(i64,)> = sqlx::query_as("SELECT id FROM messages ORDER BY id").fetch_all(core.store().pool()).await.unwrap();
        core.meaning().catch_up(None).await.expect("the local embedder runs");
        for q in &conversation.questions {
            let evidence: HashSet<i64> = q.evidence.iter().map(|i| stored[*i].0).collect();
            for (mode_name, mode) in [("words", RecallMode::Words), ("meaning", RecallMode::Meaning), ("hybrid", RecallMode::Hybrid)] {
                for budget in BUDGETS {
                    let started = Instant::now();
                    let results = core.recall_service().search_in(&q.question, budget, mode).await.unwrap();
                    if mode == RecallMode::Hybrid && budget == 2000 {
                        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
                    }
                    let found = results.hits.iter().filter(|h| h.source == "message" && evidence.contains(&h.id)).count();
                    let share = found.min(evidence.len()) as f64 / evidence.len() as f64;
                    table.entry((conversation.part.clone(), mode_name, budget)).or_default().push(share);
                    if budget == 2000 {
                        kinds.entry((conversation.part.clone(), kind(q.category), mode_name)).or_default().push(share);
                    }
                }
            }
        }
        eprintln!("{} ({}): {} messages, {} questions", conversation.name, conversation.part, turns.len(), conversation.questions.len());
    }
    let mean = |v: &Vec<f64>| 100.0 * v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!("Evidence recall on LoCoMo (share of each question's evidence turns in the budgeted recall):");
    for part in ["dev", "test"] {
        let questions = table.get(&(part.to_string(), "hybrid", 2000)).map_or(0, Vec::len);
        println!("  {part} part, {questions} questions:");
        for mode in ["words", "meaning", "hybrid"] {
            let row: Vec<String> = BUDGETS.iter().map(|b| format!("{:>5.1}% at {}k", mean(&table[&(part.to_string(), mode, *b)]), b / 1000)).collect();
            println!("    {mode:<7} {}", row.join("  "));
        }
        for kind_name in ["single fact", "multi-hop", "time", "inference"] {
            let of = |mode: &'static str| kinds.get(&(part.to_string(), kind_name, mode));
            if let (Some(words), Some(meaning), Some(hybrid)) = (of("words"), of("meaning"), of("hybrid")) {
                println!(
                    "    {kind_name:<12} {:>4} questions: words {:>5.1}%, meaning {:>5.1}%, hybrid {:>5.1}% at 2k",
                    hybrid.len(),
                    mean(words),
                    mean(meaning),
                    mean(hybrid)
                );
            }
        }
    }
    latencies.sort_by(f64::total_cmp);
    let at = |p: usize| latencies.get(latencies.len() * p / 100).copied().unwrap_or(0.0);
    println!("  hybrid recall at 2k: median {:.1} ms, p95 {:.1} ms (one conversation's store at a time, 2 cores)", at(50), at(95));
}
