//! Time to first token: through Sidecar (store the message, build the prompt, stream,
//! publish the first delta event) versus a raw streaming request to the same local
//! llama.cpp server. Prints medians; asserts nothing.
//!
//! Run: `cargo bench --bench ttft` (after `make`, which builds the runtime folder)

#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use sidecar::{Companion, CompanionOptions, CoreEvent};
use sidecar_agent::ChatEvent;
use sidecar_llm::LocalServer;
use sidecar_llm::LOCAL_MODEL_NAME;

const ROUNDS: usize = 61;
const PROMPT: &str = "Say hi.";

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        LocalServer::start(&runtime::runtime(), None, 4096, &dir.path().join("local-model.log"), Duration::from_secs(120)).await.expect("offline model starts");

    let mut settings = sidecar_settings::Settings::default();
    settings.apply_env(|name| match name {
        sidecar_settings::LLM_BASE_URL_ENV => Some(server.base_url().to_string()),
        sidecar_settings::LLM_MODEL_ENV => Some(LOCAL_MODEL_NAME.to_string()),
        sidecar_settings::LLM_API_KEY_ENV => Some(server.api_key().to_string()),
        _ => None,
    });
    settings.llm.max_tokens = Some(8);
    let core = Companion::open(CompanionOptions::new(dir.path().join("data"), settings)).await.unwrap();
    let http = reqwest::Client::new();

    // The raw request sends exactly the system prompt Sidecar sends, so the model's
    // own work is the same on both paths and the difference is Sidecar's.
    let (prompt, _) = core.context().preview_prompt(&core.tools()).await.unwrap();
    let system = prompt[0].content.clone();

    // Warm both paths once (model caches, connection pools).
    raw_ttft(&http, &server, &system).await;
    sidecar_ttft(&core).await;

    let mut raw = Vec::new();
    let mut through = Vec::new();
    let mut own = Vec::new();
    for _ in 0..ROUNDS {
        raw.push(raw_ttft(&http, &server, &system).await);
        let (first, before_request) = sidecar_ttft(&core).await;
        through.push(first);
        own.push(before_request);
    }
    // Each round pairs a raw request with one through Sidecar, back to back: the median
    // of their differences is steadier than the difference of medians when the model's
    // own time wanders on a busy machine.
    let mut paired: Vec<f64> = raw.iter().zip(&through).map(|(r, s)| ms(*s) - ms(*r)).collect();
    paired.sort_by(f64::total_cmp);
    let (raw_median, sidecar_median) = (median(&mut raw), median(&mut through));
    println!("time to first token, median of {ROUNDS} (local SmolLM2-135M, 2 cores):");
    println!("  raw request      {:>7.1} ms", ms(raw_median));
    println!("  through Sidecar  {:>7.1} ms", ms(sidecar_median));
    println!("  Sidecar overhead {:>7.1} ms (store the message, build the prompt, publish the event)", ms(sidecar_median) - ms(raw_median));
    println!("  paired difference{:>7.1} ms (median of per-round differences)", paired[paired.len() / 2]);
    println!("  core work before the request {:>5.2} ms (median; the part of the above that is Sidecar's alone)", ms(median(&mut own)));
    core.shutdown().await;
}

/// A raw OpenAI-compatible streaming request with Sidecar's system prompt.
async fn raw_ttft(http: &reqwest::Client, server: &LocalServer, system: &str) -> Duration {
    let body = serde_json::json!({
        "model": LOCAL_MODEL_NAME,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": PROMPT}],
        "stream": true,
        "max_tokens": 8,
    });
    let started = Instant::now();
    let response = http.post(format!("{}/chat/completions", server.base_url())).bearer_auth(server.api_key()).json(&body).send().await.unwrap();
    let mut stream = response.bytes_stream();
    let mut first = None;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap();
        if first.is_none() && String::from_utf8_lossy(&chunk).contains("\"content\":\"") {
            first = Some(started.elapsed());
        }
    }
    first.unwrap_or_else(|| started.elapsed())
}

/// From `send()` to the first delta event a subscriber (the UI) receives, and the
/// core's own share: from `send()` to the model request going out.
async fn sidecar_ttft(core: &Companion) -> (Duration, Duration) {
    // A fresh conversation each round, so the prompt does not grow with history.
    core.store().conversations().new_conversation().await.unwrap();
    let mut events = core.events().subscribe();
    let started = Instant::now();
    let waiter = async {
        loop {
            if let Ok(CoreEvent::Chat(ChatEvent::Delta { .. })) = events.recv().await {
                return started.elapsed();
            }
        }
    };
    let (first, outcome) = tokio::join!(waiter, core.send(PROMPT));
    (first, outcome.unwrap().timings.to_first_request)
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
