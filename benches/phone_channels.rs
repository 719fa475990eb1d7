//! Phone channel figures. Prints; asserts nothing.
//!
//! - Telegram reminder delay: from each reminder's due instant to the `sendMessage`
//!   that reaches a Bot API–compatible server on loopback, over 20 reminders due one
//!   second apart (the real scheduler, store, router and teloxide client);
//! - memory added per enabled channel: the process's resident set before and after
//!   Telegram connects, and after WhatsApp's client (whatsapp-rust) starts.
//!
//! Run: `cargo bench --bench phone_channels`

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use sidecar::{Companion, CompanionOptions};
use sidecar_channels::Link;
use sidecar_domain::Secrets;
use support::bot_api::FakeBotApi;

const CHAT: i64 = 5_550_001;
const REMINDERS: usize = 20;

fn resident_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / 1_048_576.0
}

async fn settle() -> f64 {
    tokio::time::sleep(Duration::from_secs(2)).await;
    resident_mb()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let bot = FakeBotApi::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    // SAFETY: set before any thread reads it.
    unsafe { std::env::set_var("SIDECAR_BENCH_TG_TOKEN", "123456:BENCH-token-that-is-long-enough") };
    std::fs::write(
        &config,
        format!(
            "[channels.telegram]\napi_url = \"{}\"\ntoken_env = \"SIDECAR_BENCH_TG_TOKEN\"\nallowed_chats = [{CHAT}]\npoll_timeout_secs = 1\n\n[channels.whatsapp]\nenabled = false\n",
            bot.api_url
        ),
    )
    .unwrap();
    let settings = sidecar_settings::Settings::load(&config).unwrap();
    let options =
        CompanionOptions { config_path: Some(config), secrets: Arc::new(Secrets::new(false)), ..CompanionOptions::new(dir.path().to_path_buf(), settings) };
    let core = Companion::open(options).await.unwrap();
    let before = settle().await;
    core.channels().start();
    while !matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Connected { .. })) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let with_telegram = settle().await;

    // 20 reminders, one second apart, starting a few seconds from now.
    let first_due = (Utc::now() + chrono::Duration::seconds(4)).with_timezone(&chrono::Utc);
    let first_due = first_due - chrono::Duration::nanoseconds(i64::from(chrono::Timelike::nanosecond(&first_due)));
    let (base_utc, base_instant) = (Utc::now(), Instant::now());
    let mut due = Vec::new();
    for i in 0..REMINDERS {
        let at = first_due + chrono::Duration::seconds(i as i64);
        core.reminders().set(&format!("recordatorio {i:02}"), &at.to_rfc3339()).await.unwrap();
        due.push(at);
    }
    let scheduler = tokio::spawn(core.reminders().scheduler().unwrap().expect("the lock is free"));
    bot.wait_for_sent(CHAT, REMINDERS, Duration::from_secs(REMINDERS as u64 + 30)).await;
    scheduler.abort();
    let mut delays: Vec<f64> = Vec::new();
    for call in bot.calls("sendMessage").into_iter().filter(|c| c.accepted) {
        let text = call.body["text"].as_str().unwrap_or_default();
        let Some(i) = (0..REMINDERS).find(|i| text.contains(&format!("recordatorio {i:02}"))) else { continue };
        let sent_at = base_utc + chrono::Duration::from_std(call.at - base_instant).unwrap();
        delays.push((sent_at - due[i]).num_microseconds().unwrap_or(0) as f64 / 1000.0);
    }
    delays.sort_by(f64::total_cmp);
    println!(
        "telegram reminder delay, due -> sendMessage, {} reminders: median {:.1} ms, max {:.1} ms",
        delays.len(),
        delays[delays.len() / 2],
        delays.last().unwrap()
    );

    core.channels().set_whatsapp_enabled(true).unwrap();
    let with_whatsapp = settle().await;
    println!(
        "resident memory: core alone {before:.1} MB; + Telegram {:.1} MB; + WhatsApp client (no network here) {:.1} MB",
        with_telegram - before,
        with_whatsapp - with_telegram
    );
    core.shutdown().await;
}
