//! Agent-core overhead per turn, excluding model time: the time `send()` takes minus
//! the time spent inside model calls (network included) and tools. That remainder is
//! the core's own work: storing messages, loading history, building the prompt, the
//! state machine, usage and cost bookkeeping, events. Prints medians; asserts nothing.
//!
//! Run: `cargo bench --bench turn_overhead`

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::time::Duration;

use sidecar::{Companion, CompanionOptions};
use support::{reply_events, stream, tool_call_events, ScriptedServer};

const TURNS: usize = 300;

#[tokio::main]
async fn main() {
    // Two turns' worth of replies, repeated: a plain answer, then a tool round.
    let mut replies = Vec::new();
    for _ in 0..TURNS {
        replies.push(stream(reply_events(&["Sure", ", here is ", "an answer."])));
        replies.push(stream(tool_call_events(&[("c", "get_current_time", "{}")])));
        replies.push(stream(reply_events(&["It is noon."])));
    }
    let server = ScriptedServer::start(replies).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = toml::from_str(&format!("[[providers]]\nid = \"bench\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n", server.base_url)).unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();

    let mut plain = Vec::new();
    let mut with_tool = Vec::new();
    for i in 0..TURNS {
        let outcome = core.send(&format!("question number {i}, a sentence of ordinary length")).await.unwrap();
        plain.push(outcome.timings);
        let outcome = core.send("what time is it?").await.unwrap();
        with_tool.push(outcome.timings);
    }
    println!("agent-core overhead per turn ({TURNS} turns of each kind, history growing to {} messages, window 60):", TURNS * 6);
    report("plain answer (1 model call)", &plain);
    report("tool round (2 model calls, 1 tool)", &with_tool);
}

fn report(label: &str, samples: &[sidecar_agent::TurnTimings]) {
    let mut overhead: Vec<Duration> = samples.iter().map(|t| t.total.saturating_sub(t.model + t.tools)).collect();
    let mut model: Vec<Duration> = samples.iter().map(|t| t.model).collect();
    overhead.sort();
    model.sort();
    let pick = |v: &[Duration], q: f64| v[((v.len() - 1) as f64 * q) as usize].as_secs_f64() * 1000.0;
    println!(
        "  {label:<36} core median {:>6.2} ms, p95 {:>6.2} ms   (model calls incl. loopback HTTP: median {:>6.2} ms)",
        pick(&overhead, 0.5),
        pick(&overhead, 0.95),
        pick(&model, 0.5)
    );
}
