//! A reminder set from another device and fired by the home core (`make figures`): the
//! time from its due instant to the attached device hearing it (`reminder_delivered`
//! over the link), ten reminders a few seconds apart. The real core (its scheduler,
//! its store, its events), the real link on loopback; no model is needed.
//!
//! Run: `cargo bench --bench device_reminders`

use std::time::Duration;

use serde_json::json;
use sidecar::link::{pair, LinkClient, LinkState};
use sidecar::{Companion, CompanionOptions, Face};

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let settings = toml::from_str("[llm]\nmax_retries = 0\n").unwrap();
    let mut options = CompanionOptions::new(dir.path().join("data"), settings);
    options.config_path = Some(dir.path().join("settings.toml"));
    let core = Companion::open(options).await.unwrap();
    let running = core.run(Face { commands: Some(sidecar::commands::dispatch_for_device), ..Face::headless(Vec::new()) }).await;
    let view = core.set_devices_listen(vec!["127.0.0.1:0".into()]).await.unwrap();
    let address = view.listening[0].clone();
    let code = core.device_link().open_pairing().await.unwrap();
    let paired = pair(&address, &code.code, "Laptop").await.unwrap();
    let device = LinkClient::connect(&address, paired.fingerprint, &paired.token);
    device.state().wait_for(|s| *s == LinkState::Up).await.unwrap();
    let mut events = device.events();

    let mut delays = Vec::new();
    for n in 0..10 {
        // Set from the device, as its window would, for a whole second a few seconds on.
        let due = chrono::Utc::now() + chrono::Duration::seconds(3);
        let due = due - chrono::Duration::nanoseconds(i64::from(due.timestamp_subsec_nanos()));
        let when = due.with_timezone(&core.clock().zone()).format("%Y-%m-%d %H:%M:%S").to_string();
        let set = device.call("add_reminder", json!({ "message": format!("stretch {n}"), "when": when })).await;
        assert!(set.is_ok(), "{set:?}");
        loop {
            let event = tokio::time::timeout(Duration::from_secs(30), events.recv()).await.expect("the reminder in time").unwrap();
            if event["type"] == "reminder_delivered" {
                break;
            }
        }
        delays.push((chrono::Utc::now() - due).to_std().unwrap_or_default());
    }
    delays.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "a reminder set from a device, fired by the core, heard on the device (10): median {:.0} ms, worst {:.0} ms after its due instant",
        ms(delays[delays.len() / 2]),
        ms(delays[delays.len() - 1])
    );
    running.stop().await;
    core.shutdown().await;
}
