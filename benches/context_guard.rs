//! Prompt build and context guard time for a conversation of 5,000 messages (1,250
//! tool-heavy turns) with 300 saved facts. Prints figures; asserts nothing.
//!
//! - first build: loads the history, finds it over the threshold, folds the old turns
//!   into the running summary (the model is unreachable, so the plain digest is used),
//!   writes the checkpoint, then guards the prompt;
//! - steady state: the summary exists; the live tail is loaded and guarded;
//! - the guard alone over all 5,000 messages (the worst case it could be handed).
//!
//! Run: `cargo bench --bench context_guard`

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};
use sidecar_llm::ChatMessage;
use sidecar_llm::ToolCall;
use sidecar_memory::Category;
use sidecar_store::NewMessage;

const TURNS: usize = 1_250;
const FACTS: usize = 300;
const RUNS: usize = 30;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on port 9: the digest call fails at once and the fallback is used.
    let settings = toml::from_str(
        "[[providers]]\nid = \"p\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"gpt-4o-mini\"\ncontext_window = 32000\n\
         [llm]\nmax_retries = 0\nconnect_timeout_secs = 1\n[user]\ntimezone = \"Europe/Madrid\"\n",
    )
    .unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let mut all = vec![ChatMessage::system("persona")];
    for turn in 0..TURNS {
        let id = format!("call-{turn}");
        let rows: Vec<serde_json::Value> = (0..25)
            .map(|i| serde_json::json!({"id": i, "name": format!("result {i} for turn {turn}"), "url": format!("https://example.com/{turn}/{i}"), "snippet": "some text about the result that goes on for a while"}))
            .collect();
        let messages = [
            ChatMessage::user(format!("Turn {turn}: find me things about topic {turn}, and remember I prefer short answers.")),
            ChatMessage::assistant_with_tools(
                "",
                vec![ToolCall { id: id.clone(), name: "web_search".into(), arguments: format!("{{\"query\":\"topic {turn}\"}}") }],
            ),
            ChatMessage::tool_result(&id, serde_json::json!({ "results": rows }).to_string(), false),
            ChatMessage::assistant(format!("Here is what I found about topic {turn}: three good sources, summarised briefly.")),
        ];
        for message in messages {
            core.store().conversations().add_message(NewMessage::plain(conversation, &message)).await.unwrap();
            all.push(message);
        }
    }
    for i in 0..FACTS {
        core.knowledge().save(&format!("Fact {i}: likes item{i} from place{i}"), Category::ALL[i % 7], chrono::Utc::now().date_naive()).await.unwrap();
    }
    let full_tokens = sidecar_agent::context_tokens(&all, &sidecar_llm::tokens::count);

    let started = Instant::now();
    let (prompt, report) = core.context().preview_prompt(&core.tools()).await.unwrap();
    let first = started.elapsed();

    let mut steady = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        core.context().preview_prompt(&core.tools()).await.unwrap();
        steady.push(started.elapsed());
    }
    steady.sort();

    let limits = sidecar_agent::ContextLimits::new(32_000, 1024, &Default::default());
    let compactions = sidecar_agent::Compactions::default();
    let mut raw = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        let _ = sidecar_agent::fit_context(all.clone(), &limits, &compactions, &sidecar_llm::tokens::count_cached);
        raw.push(started.elapsed());
    }
    raw.sort();

    println!("prompt build + context guard, {} messages ({TURNS} tool turns), {FACTS} facts, 32,000-token window:", TURNS * 4);
    println!(
        "  first build (folds the old turns into the summary, checkpoint, guard): {:.0} ms; prompt {} messages, {} tokens (full history: {full_tokens} tokens)",
        ms(first),
        prompt.len(),
        report.after
    );
    println!("  steady state (summary in place): median {:.1} ms, p95 {:.1} ms", ms(steady[RUNS / 2]), ms(steady[RUNS * 95 / 100]));
    println!("  guard alone over all {} messages (token counts cached): median {:.1} ms, p95 {:.1} ms", all.len(), ms(raw[RUNS / 2]), ms(raw[RUNS * 95 / 100]));
}
