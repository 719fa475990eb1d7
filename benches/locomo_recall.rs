//! Evidence recall on real conversations: LoCoMo (snap-research/locomo, ten long
//! conversations between two people, questions with their evidence turns annotated),
//! converted by `scripts/locomo.py`, with its development part (5 conversations) and
//! test part (5) apart. For each question, the share of its evidence turns that the
//! budgeted recall (what the model gets) returns, by kind of question, words only, meaning only
//! and hybrid, at 1k, 2k and 4k tokens; and the hybrid's latency. Recall's constants were
//! chosen on the development part only; prints figures, asserts nothing.
//!
//! Run: `python3 scripts/locomo.py locomo10.zip target/locomo.json` (the zip is in the
//! repository `fetch` brings), then
//! `LOCOMO=target/locomo.json cargo bench --bench locomo_recall`
//! (`LOCOMO_DIR` keeps the embedded stores between runs).

#[path = "support/locomo.rs"]
mod locomo;

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use sidecar::recall::RecallMode;

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
    let set = locomo::load();
    // (part, mode, budget) and (part, kind) at 2k hybrid: evidence shares.
    let mut table: BTreeMap<(String, &str, usize), Vec<f64>> = BTreeMap::new();
    let mut kinds: BTreeMap<(String, &str, &str), Vec<f64>> = BTreeMap::new();
    let mut latencies = Vec::new();
    for conversation in &set.conversations {
        let temporary = tempfile::tempdir().unwrap();
        let (core, stored) = locomo::open(conversation, &temporary).await;
        for q in &conversation.questions {
            let evidence: HashSet<i64> = q.evidence.iter().map(|i| stored[*i]).collect();
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
        eprintln!("{} ({}): {} messages, {} questions", conversation.name, conversation.part, stored.len(), conversation.questions.len());
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
