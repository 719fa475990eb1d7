//! The services seen from outside: channels on messages, deliveries kept in the history,
//! the one clock and its zone, and models per purpose.

use sidecar_reminders::RemindersStore;
use std::sync::Arc;
use std::time::Duration;

use chrono::TimeZone;
use sidecar_outbox::Kind;
use sidecar_proactive::Channel;
use sidecar_proactive::ProactiveConfig;
use sidecar_proactive::SinkPreference;
use sidecar_proactive::SinkPreferences;
use sidecar_reminders::ReminderState;
use sidecar_settings::Purpose;

use crate::support::notifications::Notifications;
use crate::support::{reply_events, stream, Reply, ScriptedServer};

fn one_provider(base_url: &str) -> crate::support::CoreBuilder {
    crate::support::core().provider("main", base_url).settings("[llm]\nmax_retries = 0\n")
}

#[tokio::test]
async fn messages_record_the_channel_they_were_said_on() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hola"])), stream(reply_events(&["Hi"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let desktop = one_provider(&server.base_url).open_in(dir.path()).await;
    desktop.send("hola").await.unwrap();
    desktop.send("/status").await.unwrap();
    drop(desktop);
    let cli = one_provider(&server.base_url).channel(Channel::Cli).open_in(dir.path()).await;
    cli.send("hi from the terminal").await.unwrap();

    let mut said: Vec<(String, Option<Channel>)> = cli.conversation().history(20).await.unwrap().into_iter().map(|m| (m.content, m.channel)).collect();
    // The answer to /status is Sidecar's state (the model answering, proactivity at its
    // default), said on the desktop like the command.
    let (status, channel) = said.remove(3);
    assert!(status.contains("answering") && status.contains("sometimes"), "{status}");
    assert_eq!(channel, Some(Channel::Desktop));
    assert_eq!(
        said,
        [
            ("hola".to_string(), Some(Channel::Desktop)),
            ("Hola".to_string(), Some(Channel::Desktop)),
            ("/status".to_string(), Some(Channel::Desktop)),
            ("hi from the terminal".to_string(), Some(Channel::Cli)),
            ("Hi".to_string(), Some(Channel::Cli)),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_shown_only_as_a_notification_is_kept_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().open_in(dir.path()).await;
    let notifications = Arc::new(Notifications::default());
    core.proactive().router().register(notifications.clone());
    let only_notifications = SinkPreferences { chat: SinkPreference::None, ..SinkPreferences::default() };
    core.proactive().set_config(ProactiveConfig { sinks: only_notifications, ..ProactiveConfig::default() }).await.unwrap();
    let mut events = core.events().subscribe();

    let reminder = core.reminders().set("water the plants", "in 1 minute").await.unwrap().reminder;
    core.store().reminder_table().snooze_reminder(reminder.id, chrono::Utc::now() - chrono::Duration::seconds(1)).await.unwrap();
    let scheduler = tokio::spawn(core.reminders().scheduler().unwrap().expect("the lock is free"));
    for _ in 0..100 {
        if core.store().reminder_table().reminder(reminder.id).await.unwrap().unwrap().state == ReminderState::Delivered {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    scheduler.abort();

    assert_eq!(notifications.said(), [(Kind::Reminder, "Reminder: water the plants".to_string())]);
    let history = core.conversation().history(10).await.unwrap();
    let kept = history.iter().find(|m| m.content == "Reminder: water the plants").expect("kept in the history");
    assert_eq!(kept.channel, Some(Channel::Desktop), "said where it was shown");
    assert_eq!(kept.meta.as_ref().unwrap().0.proactive.as_deref(), Some("reminder"));
    // The chat view was not told: the user chose not to see reminders there.
    while let Ok(event) = events.try_recv() {
        assert!(!matches!(event, sidecar::CoreEvent::Reminders(sidecar_reminders::ReminderEvent::ReminderDelivered { .. })), "{event:?}");
    }
}

#[tokio::test]
async fn changing_the_zone_applies_at_once_without_rebuilding_providers() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[[providers]]\nid = \"main\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n").unwrap();
    let instant = chrono::Utc.with_ymd_and_hms(2026, 11, 22, 2, 30, 0).unwrap();
    let core = crate::support::core().config_file(&config).at(instant).open_in(dir.path()).await;
    let builds = core.models().builds();

    core.set_timezone("America/Argentina/Buenos_Aires").unwrap();
    assert_eq!(core.models().builds(), builds, "providers (and the keychain) are not touched");
    assert_eq!(core.clock().local_today(), chrono::NaiveDate::from_ymd_opt(2026, 11, 21).unwrap());
    let preview = core.reminders().preview("tomorrow at 9");
    let sidecar_reminders::WhenPreview::Ok { local, .. } = preview else { panic!("{preview:?}") };
    assert_eq!(local, "Sunday 22 November 2026, 09:00 (Buenos Aires time)");
    assert!(std::fs::read_to_string(&config).unwrap().contains("America/Argentina/Buenos_Aires"), "saved");
    assert!(core.set_timezone("Mars/Base").is_err());
    assert_eq!(core.zone(), chrono_tz::America::Argentina::Buenos_Aires);
}

#[tokio::test]
async fn an_invalid_zone_in_the_settings_falls_back_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[user]\ntimezone = \"Mars/Olympus_Mons\"\n").unwrap();
    // `config_file` loads it as the app does: a bad zone does not stop Sidecar starting.
    let core = crate::support::core().config_file(&config).open_in(dir.path()).await;
    assert_eq!(core.zone(), sidecar_domain::system_zone());
    let warnings = core.warnings();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("\"Mars/Olympus_Mons\"") && warnings[0].contains("Settings"), "{warnings:?}");
}

#[tokio::test]
async fn background_calls_go_to_the_model_routed_for_their_purpose() {
    let main = ScriptedServer::start(vec![]).await;
    let cheap = ScriptedServer::responding(|_| Reply::Stream {
        events: reply_events(&[r#"{"shouldSpeak": false, "reason": "nothing new", "messageType": "checkin", "suggestedMessage": ""}"#]),
        delay: Duration::ZERO,
    })
    .await;
    let core = crate::support::core()
        .settings(&format!(
            r#"
        [[providers]]
        id = "main"
        base_url = "{}"
        model = "big-model"
        [[providers]]
        id = "cheap"
        base_url = "{}"
        model = "small-model"
        [routing]
        chat = ["main"]
        summarize = ["cheap"]
        proactive = ["cheap"]
        [llm]
        max_retries = 0
        "#,
            main.base_url, cheap.base_url
        ))
        .open()
        .await;
    core.store()
        .conversations()
        .add_message(sidecar_store::NewMessage::plain(
            core.store().conversations().current_conversation().await.unwrap(),
            &sidecar_llm::ChatMessage::user("planning a trip"),
        ))
        .await
        .unwrap();

    core.send("/checkpoint").await.unwrap();
    core.proactive().tick(sidecar_proactive::TickMode::DecideOnly).await.unwrap();

    assert_eq!(main.request_count(), 0, "the chat model was not used for background work");
    assert_eq!(cheap.request_count(), 2);
    assert_eq!(cheap.last_request()["model"], "small-model");
    let usage = core.usage_totals(None).await.unwrap();
    let purposes: Vec<(&str, i64)> = usage.by_purpose.iter().map(|p| (p.purpose.as_str(), p.calls)).collect();
    assert_eq!(purposes, [(Purpose::Proactive.as_str(), 1), (Purpose::Summarize.as_str(), 1)]);
    assert!(usage.by_model.iter().all(|m| m.model == "small-model"));
}

/// `Companion::run` starts every loop a face needs: the face's own sink hears a due
/// reminder, the knowledge files are watched; a second process on the same data folder
/// is told another one delivers; after `stop` the scheduler's lock is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_starts_the_loops_and_stop_ends_them() {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().open_in(dir.path()).await;
    let notifications = Arc::new(Notifications::default());
    let only_notifications = SinkPreferences { chat: SinkPreference::None, ..SinkPreferences::default() };
    core.proactive().set_config(ProactiveConfig { sinks: only_notifications, ..ProactiveConfig::default() }).await.unwrap();
    let mut events = core.events().subscribe();
    let running = core.run(sidecar::Face::headless(vec![notifications.clone()])).await;
    assert_eq!(running.delivery, sidecar::Delivery::Here);

    let reminder = core.reminders().set("water the plants", "in 1 minute").await.unwrap().reminder;
    core.store().reminder_table().snooze_reminder(reminder.id, chrono::Utc::now() - chrono::Duration::seconds(1)).await.unwrap();
    for _ in 0..200 {
        if !notifications.0.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(notifications.said(), [(Kind::Reminder, "Reminder: water the plants".to_string())], "the face's sink");

    let path = dir.path().join("knowledge/learnings.md");
    let text = std::fs::read_to_string(&path).unwrap() + "- [weight:x] roto\n";
    std::fs::write(&path, text).unwrap();
    let watched = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Ok(sidecar::CoreEvent::Memory(sidecar_memory::MemoryEvent::KnowledgeChanged { problems, .. })) = events.recv().await {
                return problems.len();
            }
        }
    })
    .await
    .expect("the knowledge watch runs");
    assert_eq!(watched, 1, "the unreadable line is said");

    let second = crate::support::core().open_in(dir.path()).await;
    let elsewhere = second.run(sidecar::Face::headless(Vec::new())).await;
    assert_eq!(elsewhere.delivery, sidecar::Delivery::Elsewhere, "one process delivers for a data folder");
    elsewhere.stop().await;
    running.stop().await;
    let after = second.run(sidecar::Face::headless(Vec::new())).await;
    assert_eq!(after.delivery, sidecar::Delivery::Here, "stop lets the scheduler's lock go");
    after.stop().await;
}
