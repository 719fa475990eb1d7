//! A reminder set from another computer and fired by the home core (`make figures`): the
//! time from its due instant to the attached computer's core being told to show it
//! (`device_notification`, where it calls its notifier), ten reminders a few seconds
//! apart. Two real cores on loopback (the home listening, the other attached as the app
//! attaches), their schedulers, stores and the link; no model is needed.
//!
//! Run: `cargo bench --bench device_reminders`

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use sidecar::{Companion, CompanionOptions, Face, Running};
use sidecar_link::LinkState;

async fn core(dir: &std::path::Path, face: Face) -> (Arc<Companion>, Running) {
    let settings = toml::from_str("[llm]\nmax_retries = 0\n").unwrap();
    let mut options = CompanionOptions::new(dir.join("data"), settings);
    options.config_path = Some(dir.join("settings.toml"));
    let core = Companion::open(options).await.unwrap();
    let running = core.run(face).await;
    (core, running)
}

#[tokio::main]
async fn main() {
    let (home_dir, laptop_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (home, home_running) = core(home_dir.path(), Face { commands: Some(sidecar::commands::dispatch_for_device), ..Face::headless(Vec::new()) }).await;
    let address = home.set_devices_listen(vec!["127.0.0.1:0".into()]).await.unwrap().listening[0].clone();
    let (laptop, laptop_running) = core(laptop_dir.path(), Face::headless(Vec::new())).await;
    let code = home.device_link().open_pairing().await.unwrap();
    laptop.attach_home(&address, &code.code).await.unwrap();
    let link = laptop.home().client().unwrap();
    link.state().wait_for(|s| *s == LinkState::Up).await.unwrap();
    let mut events = laptop.home().events();

    let mut delays = Vec::new();
    for n in 0..10 {
        // Set from the laptop, as its window would, for a whole second a few seconds on.
        let due = chrono::Utc::now() + chrono::Duration::seconds(3);
        let due = due - chrono::Duration::nanoseconds(i64::from(due.timestamp_subsec_nanos()));
        let when = due.with_timezone(&home.clock().zone()).format("%Y-%m-%d %H:%M:%S").to_string();
        let set = link.call("add_reminder", json!({ "message": format!("stretch {n}"), "when": when })).await;
        assert!(set.is_ok(), "{set:?}");
        loop {
            let event = tokio::time::timeout(Duration::from_secs(30), events.recv()).await.expect("the reminder in time").unwrap();
            if event["type"] == "device_notification" {
                break;
            }
        }
        delays.push((chrono::Utc::now() - due).to_std().unwrap_or_default());
    }
    delays.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "a reminder set from another computer, fired by the home core, shown there (10): median {:.0} ms, worst {:.0} ms after its due instant",
        ms(delays[delays.len() / 2]),
        ms(delays[delays.len() - 1])
    );
    laptop_running.stop().await;
    laptop.shutdown().await;
    home_running.stop().await;
    home.shutdown().await;
}
