//! A dead provider, then the built-in demo model: the whole fallback path as a user
//! meets it ("Say hi in three words." with Ollama's address and nothing listening, the
//! default retry policy, reply limit and auto-continue). Prints the time to the first
//! word, to the whole reply, the reply's length and whether it was cut; the first round
//! includes starting the offline server. Asserts nothing.
//!
//! Run: `cargo bench --bench fallback` (after `make`, which builds the runtime folder)

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions, CoreEvent};
use sidecar_agent::ChatEvent;

const ROUNDS: usize = 8;
const PROMPTS: [&str; 4] = ["Say hi in three words.", "Dime hola en tres palabras.", "What can you do?", "Write me a long poem about the sea."];

#[tokio::main]
async fn main() {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "[[providers]]\nid = \"ollama\"\nbase_url = \"http://127.0.0.1:{dead}/v1\"\nmodel = \"llama3.2\"\n[local_model]\nruntime = {:?}\n[memory.embeddings]\nbackend = \"local\"\n",
        runtime::runtime()
    );
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), toml::from_str(&text).unwrap())).await.unwrap();
    println!("dead provider → demo model, {ROUNDS} rounds (round 1 starts the offline server):");
    let mut warm = Vec::new();
    for round in 0..ROUNDS {
        let prompt = PROMPTS[round % PROMPTS.len()];
        let (first, total, outcome) = timed(&core, prompt).await;
        let tokens = outcome.meta.usage.map_or(0, |u| u.output_tokens);
        let cut = if outcome.reply.contains("\n\n[") { "cut and marked" } else { "whole" };
        println!(
            "  {:>2}. {prompt:<38} first word {:>6.2} s, whole reply {:>6.2} s, {tokens:>3} tokens, {cut}, fallback for {}",
            round + 1,
            first.as_secs_f64(),
            total.as_secs_f64(),
            outcome.meta.fallback_from.as_deref().unwrap_or("-")
        );
        if round > 0 {
            warm.push(total);
        }
    }
    warm.sort();
    println!("  whole reply after the first round: median {:.2} s, worst {:.2} s", warm[warm.len() / 2].as_secs_f64(), warm.last().unwrap().as_secs_f64());
    core.shutdown().await;
}

/// Time to the first streamed word and to the finished turn.
async fn timed(core: &Companion, prompt: &str) -> (Duration, Duration, sidecar::TurnOutcome) {
    let mut events = core.events().subscribe();
    let start = Instant::now();
    let first = tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(CoreEvent::Chat(ChatEvent::Delta { .. })) => return Some(start.elapsed()),
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(_) => return None,
            }
        }
    });
    let outcome = core.send(prompt).await.expect("the demo answers");
    let total = start.elapsed();
    let first = tokio::time::timeout(Duration::from_millis(100), first).await.ok().and_then(|r| r.ok()).flatten().unwrap_or(total);
    (first, total, outcome)
}
