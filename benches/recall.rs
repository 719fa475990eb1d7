//! `recall` over 100,000 stored messages: latency by words alone (FTS5, bm25) and
//! hybrid (words, meaning, fusion, packing), median and p95 over many queries, through
//! the same path the tool uses; then a backup of that data (time and size), plain and
//! sealed with a passphrase, finding and forgetting what names a word ("forget
//! everything about Ana"), and the time to forget it all for good. Prints figures;
//! asserts nothing.
//!
//! Embedding 100,000 messages takes about half an hour here, and a scan does not care
//! what the vectors say: the messages get random unit vectors under the local model's
//! name; each query is embedded for real by the local model. Their densities are
//! measured first, timed.
//!
//! Run: `cargo bench --bench recall` (after `make`, which builds the runtime folder);
//! `RECALL_MESSAGES=N` stores N messages instead (the build `make run` makes, the dev
//! profile, measures 20,000 in minutes: `cargo bench --profile dev --bench recall`);
//! `RECALL_MAILS=N` adds N mails from people who matter, which recall searches too;
//! `RECALL_ENCRYPTED=1` keeps the database encrypted at rest (issue 74), as Settings →
//! Your data → Encrypt it does; `RECALL_MODES=words` measures recall by words alone and
//! stops there (the store's side, quickly).

#[path = "support/random_history.rs"]
mod random_history;
#[path = "../tests/it/support/runtime.rs"]
mod runtime;

use std::time::{Duration, Instant};

use sidecar::{Companion, CompanionOptions};

/// How many messages are stored unless `RECALL_MESSAGES` says.
const DEFAULT_MESSAGES: usize = 100_000;
const QUERIES: usize = 300;

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = sidecar_settings::Settings::default();
    settings.local_model.runtime = Some(runtime::runtime());
    // multilingual-e5-small, as before "automatic" (which depends on the machine).
    settings.memory.embeddings.backend = sidecar_settings::EmbeddingsBackend::Local;
    let options = CompanionOptions::new(dir.path().to_path_buf(), settings);
    let encrypted = std::env::var_os("RECALL_ENCRYPTED").is_some();
    if encrypted {
        // The key where the data crate looks for it (this session's secrets, as no keychain
        // runs here): the new database is encrypted from its first page.
        options.secrets.store(&sidecar_data::database_key_account(dir.path()), &sidecar_store::DatabaseKey::generate().to_hex());
    }
    let core = Companion::open(options).await.unwrap();
    println!("the database is {}", if encrypted { "encrypted (SQLCipher, a raw 256-bit key)" } else { "plain" });
    let mut rng = fastrand::Rng::with_seed(7);
    let messages: usize = std::env::var("RECALL_MESSAGES").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_MESSAGES);

    let loading = Instant::now();
    random_history::fill(&core, messages, &mut rng).await;
    let mails: usize = std::env::var("RECALL_MAILS").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
    if mails > 0 {
        let reach = random_history::fill_mails(&core, mails, &mut rng).await;
        println!("{mails} mails from people who matter put in reach of recall: {:.2} s", reach.as_secs_f64());
    }
    let loaded = loading.elapsed();

    // Loads the model and the vectors, then measures every vector's density (what the
    // background indexer does once after an upgrade, and again each time the index has
    // grown by a quarter).
    // `RECALL_MODES=words` measures words only (a quicker look at the store's side).
    let modes = std::env::var("RECALL_MODES").unwrap_or_default();
    if modes != "words" {
        let measuring = Instant::now();
        let embedded = core.meaning().catch_up(None).await.unwrap();
        println!("loading {} vectors and measuring their densities: {:.1} s ({embedded} embedded)", messages + mails, measuring.elapsed().as_secs_f64());
    }

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    for (name, mode) in [("words only", sidecar_memory::RecallMode::Words), ("hybrid", sidecar_memory::RecallMode::Hybrid)] {
        if !modes.is_empty() && !modes.contains(name.split(' ').next().unwrap_or_default()) {
            continue;
        }
        let mut times: Vec<Duration> = Vec::with_capacity(QUERIES);
        let mut hits = 0;
        let mut words_only = None;
        for _ in 0..QUERIES {
            let query = random_history::query(&mut rng);
            let started = Instant::now();
            let results = core.recall_service().search_in(&query, 1500, mode).await.unwrap();
            times.push(started.elapsed());
            hits += results.hits.len();
            words_only = results.words_only.or(words_only);
        }
        times.sort();
        println!("recall, {name}, over {messages} messages and {mails} mails ({QUERIES} two-word queries, results packed into 1,500 tokens):");
        println!(
            "  median {:.1} ms, p95 {:.1} ms, max {:.1} ms; {:.1} hits per query",
            ms(times[QUERIES / 2]),
            ms(times[QUERIES * 95 / 100]),
            ms(times[QUERIES - 1]),
            hits as f64 / QUERIES as f64,
        );
        if let Some(why) = words_only {
            println!("  (meaning was unavailable: {why})");
        }
    }
    let resident = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| l.to_string()));
    println!("  (this process now holds {})", resident.unwrap_or_default().trim_start_matches("VmRSS:").trim());
    if !modes.is_empty() {
        return;
    }
    println!(
        "  (loading the messages and their vectors took {:.1} s; the vectors of {messages} messages and {mails} mails hold {:.1} MB in memory)",
        loaded.as_secs_f64(),
        core.meaning().memory_bytes() as f64 / 1e6
    );

    let started = Instant::now();
    let backup = core.data().back_up(Some(&dir.path().join("b"))).await.unwrap();
    println!(
        "backup of {messages} messages with their vectors: {:.2} s, {:.1} MB ({} files)",
        started.elapsed().as_secs_f64(),
        backup.bytes as f64 / 1e6,
        backup.files
    );

    // The same backup sealed with a passphrase (age, scrypt tuned to about a second here).
    core.data().seal_backups("a passphrase for the benchmark").unwrap();
    let started = Instant::now();
    let sealed = core.data().back_up(Some(&dir.path().join("b"))).await.unwrap();
    println!("the same backup sealed with a passphrase: {:.2} s, {:.1} MB", started.elapsed().as_secs_f64(), sealed.bytes as f64 / 1e6);
    core.data().seal_backups("").unwrap();

    // "Forget everything about …": finding what names a word said in about one message
    // in WORDS.len(), then forgetting the first of them with their exchanges.
    let name = random_history::WORDS[7];
    let started = Instant::now();
    let about = core.data().about(name).await.unwrap();
    println!(
        "finding what names \"{name}\" among {messages} messages: {} listed (at most {}) in {:.2} s",
        about.messages.len(),
        sidecar_store::MENTIONS_LISTED,
        started.elapsed().as_secs_f64()
    );
    let chosen = sidecar_data::ForgetChosen { facts: vec![], messages: about.messages.iter().take(100).map(|m| m.message_id).collect(), notes: vec![] };
    let started = Instant::now();
    let gone = core.forget_about(&chosen).await.unwrap();
    println!("forgetting 100 of them with their exchanges ({} messages): {:.2} s", gone.messages, started.elapsed().as_secs_f64());

    // Forgetting all of it for good: the rows and their index entries overwritten, not
    // just unlinked (issue 74), and the WAL emptied.
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    core.store().chat_list().delete(conversation).await.unwrap();
    let started = Instant::now();
    core.store().chat_list().purge_deleted("9999").await.unwrap();
    println!("forgetting a conversation of {messages} messages for good (secure delete, the WAL emptied): {:.2} s", started.elapsed().as_secs_f64());
}
