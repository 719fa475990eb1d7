//! Turn time against message size: one message of 10 kB, 100 kB, 1 MB and 10 MB (words,
//! and a single word with no spaces), sent to a fresh conversation, then an ordinary
//! message after it. The whole `send()` is timed, model call on loopback included: the
//! figure that matters is how it grows (it should be flat or linear). Prints; asserts
//! nothing.
//!
//! Run: `cargo bench --bench long_text`

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::time::Instant;

use sidecar::{Companion, CompanionOptions};
use support::{reply_events, stream, ScriptedServer};

const SIZES: [usize; 4] = [10_000, 100_000, 1_000_000, 10_000_000];

#[tokio::main]
async fn main() {
    println!("turn time by message size (model on loopback, window 8192):");
    for (label, unit) in [("words", "palabra larga "), ("one word", "x")] {
        for size in SIZES {
            let server = ScriptedServer::start(vec![stream(reply_events(&["ok"])), stream(reply_events(&["ok"]))]).await;
            let dir = tempfile::tempdir().unwrap();
            let settings =
                toml::from_str(&format!("[[providers]]\nid = \"bench\"\nbase_url = \"{}\"\nmodel = \"m\"\ncontext_window = 8192\n", server.base_url)).unwrap();
            let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
            let text = unit.repeat(size / unit.len());
            let start = Instant::now();
            core.send(&text).await.unwrap();
            let big = start.elapsed();
            let start = Instant::now();
            core.send("and now a short question").await.unwrap();
            let next = start.elapsed();
            println!(
                "  {label:<9} {:>6} kB: this turn {:>8.1} ms, the next turn {:>8.1} ms",
                size / 1000,
                big.as_secs_f64() * 1000.0,
                next.as_secs_f64() * 1000.0
            );
        }
    }
}
