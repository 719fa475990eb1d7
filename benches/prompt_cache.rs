//! How much of each prompt the local llama.cpp server reads from its cache over a
//! chat with turns a minute apart: the system prompt no longer carries the minute, so
//! everything before the newest exchange is reused. Prints per-turn and overall
//! shares, and how many times the prefix changed (folds, the day); asserts nothing.
//!
//! Run: `cargo bench --bench prompt_cache` (after `make`, which builds the runtime folder)
//! (`PROMPT_CACHE_TURNS`, default 30).

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use sidecar::{Companion, CompanionOptions};
use sidecar_agent::ChatEvent;
use sidecar_llm::LocalServer;
use sidecar_llm::LOCAL_MODEL_NAME;

const QUESTIONS: &[&str] = &[
    "Tell me one short fact about the sea.",
    "And one about mountains?",
    "What did I ask first?",
    "Give me a word that rhymes with light.",
    "Name a colour of the sunset.",
    "Say something kind in five words.",
];

#[tokio::main]
async fn main() {
    let turns: usize = std::env::var("PROMPT_CACHE_TURNS").ok().and_then(|t| t.parse().ok()).unwrap_or(30);
    let dir = tempfile::tempdir().unwrap();
    let server =
        LocalServer::start(&runtime::runtime(), None, 8192, &dir.path().join("local-model.log"), Duration::from_secs(120)).await.expect("offline model starts");

    // Sidecar talks to the server as to any OpenAI-compatible provider, so the full
    // system prompt and the late block go as they would to a real model.
    let mut settings = sidecar_settings::Settings::default();
    settings.apply_env(|name| match name {
        sidecar_settings::LLM_BASE_URL_ENV => Some(server.base_url().to_string()),
        sidecar_settings::LLM_MODEL_ENV => Some(LOCAL_MODEL_NAME.to_string()),
        sidecar_settings::LLM_API_KEY_ENV => Some(server.api_key().to_string()),
        _ => None,
    });
    // Short replies in one call each (no continuation after the length cap), as in a
    // chat of quick exchanges; the stored reply is then exactly what was generated.
    settings.llm.max_tokens = Some(24);
    settings.llm.max_continuations = 0;
    let minutes = Arc::new(AtomicI64::new(0));
    let start = Utc.with_ymd_and_hms(2026, 11, 24, 17, 0, 0).unwrap();
    let ticks = minutes.clone();
    let clock = sidecar_domain::Clock::new(Arc::new(move || start + chrono::Duration::minutes(ticks.load(Ordering::Relaxed))), chrono_tz::Europe::Madrid);
    let mut options = CompanionOptions::new(dir.path().join("data"), settings);
    options.clock = clock;
    let core = Companion::open(options).await.unwrap();

    let (mut input, mut cached) = (0u64, 0u64);
    let mut systems = std::collections::HashSet::new();
    println!("prompt tokens read from llama.cpp's cache, one turn a minute (local SmolLM2-135M, 2 cores):");
    println!("  turn  prompt  cached  share");
    for turn in 0..turns {
        minutes.store(turn as i64, Ordering::Relaxed);
        let (prompt, _) = core.context().preview_prompt(&core.tools()).await.unwrap();
        systems.insert(prompt[0].content.clone());
        let outcome = core.send(QUESTIONS[turn % QUESTIONS.len()]).await.unwrap();
        let usage = outcome.meta.usage.unwrap_or_default();
        // The first turn has nothing to reuse but the server's warm-up.
        if turn > 0 {
            input += u64::from(usage.input_tokens);
            cached += u64::from(usage.cached_tokens);
        }
        if turn < 3 || turn % 5 == 4 || turn + 1 == turns {
            let share = 100.0 * f64::from(usage.cached_tokens) / f64::from(usage.input_tokens.max(1));
            println!("  {:>4}  {:>6}  {:>6}  {:>5.1}%", turn + 1, usage.input_tokens, usage.cached_tokens, share);
        }
    }
    println!("  over turns 2–{turns}: {cached} of {input} prompt tokens from the cache ({:.1}%)", 100.0 * cached as f64 / input.max(1) as f64);
    println!("  distinct system prompts over {turns} turns: {} (changes only with a fold or a new day)", systems.len());

    // Time to first token with a long history against an empty one: a new chat goes
    // on until the prompt Sidecar sends passes 3,000 tokens (as the guard counts it),
    // then new conversations start from nothing.
    core.context().new_conversation().await.unwrap();
    let bare = core.context().preview_prompt(&core.tools()).await.unwrap().1.after;
    let mut turn = turns;
    let mut long = Vec::new();
    let mut sizes = Vec::new();
    while long.len() < 5 && turn < turns + 300 {
        minutes.store(turn as i64, Ordering::Relaxed);
        let (_, report) = core.context().preview_prompt(&core.tools()).await.unwrap();
        let (_, ttft) = timed_send(&core, QUESTIONS[turn % QUESTIONS.len()]).await;
        if report.after >= bare + 3_000 {
            long.push(ttft);
            sizes.push(report.after);
        }
        turn += 1;
    }
    let mut empty = Vec::new();
    for n in 0..5 {
        core.context().new_conversation().await.unwrap();
        empty.push(timed_send(&core, QUESTIONS[n % QUESTIONS.len()]).await.1);
    }
    let (long, empty) = (median(long), median(empty));
    println!(
        "time to first token, median of 5: {:.0} ms with 3,000+ tokens of history (prompts of {}–{}), {:.0} ms with none (a {bare}-token prompt) ({:.2}×; goal ≤ 1.3×)",
        long.as_secs_f64() * 1000.0,
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0),
        empty.as_secs_f64() * 1000.0,
        long.as_secs_f64() / empty.as_secs_f64().max(1e-9)
    );
    core.shutdown().await;
}

/// Sends `text` and times the first streamed piece of the reply.
async fn timed_send(core: &Companion, text: &str) -> (sidecar::TurnOutcome, Duration) {
    let mut events = core.events().subscribe();
    let started = std::time::Instant::now();
    let first = async {
        loop {
            match events.recv().await {
                Ok(sidecar::CoreEvent::Chat(ChatEvent::Delta { .. })) => return started.elapsed(),
                Ok(_) => {}
                Err(_) => return started.elapsed(),
            }
        }
    };
    let (outcome, ttft) = tokio::join!(core.send(text), first);
    (outcome.unwrap(), ttft)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}
