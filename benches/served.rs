//! Figures for Sidecar as a server: recall at 100,000 stored messages asked in-process,
//! over MCP (streamable HTTP, rmcp's client) and over the local API's REST, median and
//! p95; and what the local API adds to a chat turn against the desktop's own path (the
//! same turn through `Companion::send`), with a scripted model that answers at once so
//! only Sidecar's time is measured. Prints figures; asserts nothing.
//!
//! As in `benches/recall.rs`, the messages are random words with random vectors under
//! the local model's name (embedding 100,000 takes half an hour); each query is
//! embedded for real when the local model is there.
//!
//! Run: `cargo bench --bench served` (after `make`, which builds the runtime folder)

#[path = "support/random_history.rs"]
mod random_history;
#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;
use sidecar::{Companion, CompanionOptions};
use sidecar_actions::McpSession;
use sidecar_actions::McpTransport;
use sidecar_serve::McpEndpoint;
use sidecar_serve::Scope;
use support::{reply_events, stream, ScriptedServer};

const MESSAGES: usize = 100_000;
const QUERIES: usize = 200;
const TURNS: usize = 40;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let n = times.len();
    format!("median {:.1} ms, p95 {:.1} ms, max {:.1} ms", ms(times[n / 2]), ms(times[n * 95 / 100]), ms(times[n - 1]))
}

#[tokio::main]
async fn main() {
    let llm = ScriptedServer::start(vec![stream(reply_events(&["Noted."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    // Every query from one program: its request budget is lifted for the measure.
    let text = format!("[llm]\nmax_retries = 0\n[connections]\napi_requests_per_minute = 1000000\n[[providers]]\nid = \"primary\"\nbase_url = \"{}\"\nmodel = \"gpt-4o-mini\"\n", llm.base_url);
    let mut settings: sidecar_settings::Settings = toml::from_str(&text).unwrap();
    settings.local_model.runtime = Some(support::runtime());
    // The light embedder, so no EmbeddingGemma server shares the cores being measured.
    settings.memory.embeddings.backend = sidecar_settings::EmbeddingsBackend::Local;
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    let loading = Instant::now();
    let mut rng = fastrand::Rng::with_seed(7);
    random_history::fill(&core, MESSAGES, &mut rng).await;
    core.meaning().catch_up(None).await.unwrap();
    println!("{MESSAGES} messages stored with their vectors in {:.1} s", loading.elapsed().as_secs_f64());

    let endpoint = McpEndpoint::default();
    let address = endpoint.start(core.mcp_server(), core.local_api(), 0, sidecar::words::Lang::En).await.unwrap();
    let hosting = core.hosting();
    // Over HTTP a client is the token it presents, on MCP as on REST.
    let token = hosting.tokens.issue("bench", &[Scope::ReadMemory, Scope::Chat]).await.unwrap().token;
    let headers = BTreeMap::from([("Authorization".to_string(), format!("Bearer {token}"))]);
    let session =
        McpSession::start(&McpTransport::Http { url: format!("http://{address}/mcp"), headers }, Duration::from_secs(30), &Default::default()).await.unwrap();
    let http = reqwest::Client::new();
    let queries: Vec<String> = (0..QUERIES).map(|_| random_history::query(&mut rng)).collect();

    let (mut inside, mut mcp, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for query in &queries {
        let started = Instant::now();
        core.recall_service().search(query, 1500).await.unwrap();
        inside.push(started.elapsed());
        let started = Instant::now();
        let answer = session.call("recall", json!({"query": query}).as_object().cloned().unwrap()).await.unwrap();
        mcp.push(started.elapsed());
        assert!(!answer.is_error, "recall over MCP failed");
        let started = Instant::now();
        let response = http.post(format!("http://{address}/v1/recall")).bearer_auth(&token).json(&json!({"query": query})).send().await.unwrap();
        assert!(response.status().is_success());
        response.bytes().await.unwrap();
        rest.push(started.elapsed());
    }
    println!("recall (hybrid, 1,500 tokens) over {MESSAGES} messages, {QUERIES} two-word queries:");
    println!("  in-process      {}", summary(inside));
    println!("  over MCP (HTTP) {}", summary(mcp));
    println!("  over REST       {}", summary(rest));

    let (mut desktop, mut api) = (Vec::new(), Vec::new());
    for n in 0..TURNS {
        let started = Instant::now();
        core.send(&format!("note {n}")).await.unwrap();
        desktop.push(started.elapsed());
        let started = Instant::now();
        let response = http
            .post(format!("http://{address}/v1/chat/completions"))
            .bearer_auth(&token)
            .json(&json!({"model": "sidecar", "messages": [{"role": "user", "content": format!("api note {n}")}]}))
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success());
        response.bytes().await.unwrap();
        api.push(started.elapsed());
    }
    let median = |mut t: Vec<Duration>| {
        t.sort();
        t[t.len() / 2]
    };
    let (desk, through) = (median(desktop.clone()), median(api.clone()));
    println!("a chat turn with a model that answers at once ({TURNS} turns each, the conversation growing):");
    println!("  the desktop's path (Companion::send) {}", summary(desktop));
    println!("  the local API (/v1/chat/completions)  {}", summary(api));
    println!("  the API adds {:.1} ms at the median", ms(through.saturating_sub(desk)));
    session.stop().await;
    endpoint.stop();
}
