//! The Memory view's search on conversations that are not ours: LoCoMo
//! (snap-research/locomo, ten long conversations between two people, each question
//! with its evidence turns annotated), converted by `scripts/locomo.py`. For the
//! development and the test part apart: how many matches the view shows (all that
//! clear the relevance cut, against what the budgeted search for the model returns),
//! how often the first page of 10 holds evidence, and how often the cut drops
//! evidence the ranking had found. Prints figures; asserts nothing.
//!
//! Run: `python3 scripts/locomo.py locomo10.zip target/locomo.json` (the zip is in the
//! repository `fetch` brings), then
//! `LOCOMO=target/locomo.json cargo bench --bench memory_search`

#[path = "support/locomo.rs"]
mod locomo;

use std::collections::{BTreeMap, HashSet};

const PAGE: usize = 10;

#[derive(Default)]
struct Tally {
    questions: usize,
    shown: Vec<usize>,
    unbounded: Vec<usize>,
    first_page: usize,
    first_page_uncut: usize,
    before_cut: usize,
    after_cut: usize,
    best_rank: Vec<usize>,
}

#[tokio::main]
async fn main() {
    let set = locomo::load();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    // LOCOMO_DIR keeps each conversation's embedded store between runs; LOCOMO_PART
    // runs one part.
    let part = std::env::var("LOCOMO_PART").ok();
    for conversation in set.conversations.iter().filter(|c| part.as_ref().is_none_or(|p| *p == c.part)) {
        let temporary = tempfile::tempdir().unwrap();
        let (core, stored) = locomo::open(conversation, &temporary).await;
        let tally = tallies.entry(conversation.part.clone()).or_default();
        for q in &conversation.questions {
            let evidence: HashSet<i64> = q.evidence.iter().map(|i| stored[*i]).collect();
            let everything = core.recall_service().browse(&q.question, usize::MAX, false).await.unwrap();
            let budgeted = core.recall_service().search(&q.question, 4000).await.unwrap();
            let ranked = core.recall_service().search(&q.question, usize::MAX / 2).await.unwrap();
            let is_evidence = |h: &sidecar_memory::RecallHit| h.source == "message" && evidence.contains(&h.id);
            tally.questions += 1;
            tally.shown.push(everything.hits.len());
            tally.unbounded.push(budgeted.hits.iter().filter(|h| !h.beside).count());
            if everything.hits.iter().take(PAGE).any(is_evidence) {
                tally.first_page += 1;
            }
            if ranked.hits.iter().filter(|h| !h.beside).take(PAGE).any(is_evidence) {
                tally.first_page_uncut += 1;
            }
            if ranked.hits.iter().filter(|h| !h.beside).any(is_evidence) {
                tally.before_cut += 1;
            }
            if let Some(rank) = everything.hits.iter().position(is_evidence) {
                tally.after_cut += 1;
                tally.best_rank.push(rank + 1);
            }
        }
        eprintln!("{} ({}): {} messages, {} questions", conversation.name, conversation.part, stored.len(), conversation.questions.len());
    }
    let median = |v: &mut Vec<usize>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    println!("Memory search on LoCoMo (first page = {PAGE}):");
    for (part, tally) in &mut tallies {
        let share = |n: usize| 100.0 * n as f64 / tally.questions as f64;
        let p90 = {
            let mut v = tally.shown.clone();
            v.sort_unstable();
            v[v.len() * 9 / 10]
        };
        println!(
            "  {part:<4} {} questions: shown median {} (p90 {p90}), was {} in the 4k search; evidence on the first page {:.1}% (uncut {:.1}%); \
             found by the ranking {:.1}%, kept by the cut {:.1}%; best evidence at rank {} (median)",
            tally.questions,
            median(&mut tally.shown),
            median(&mut tally.unbounded),
            share(tally.first_page),
            share(tally.first_page_uncut),
            share(tally.before_cut),
            share(tally.after_cut),
            median(&mut tally.best_rank),
        );
    }
}
