//! A second computer attached to a home core, in one process: two cores on two data
//! folders, the home listening on loopback. The device pairs with the home's code, its
//! window's commands run on the home, a reminder it sets fires on the home and is told
//! to the device the user is at (the one looked at last) and to no other, the link comes
//! back by itself after a restart of the device, a revoke reaches it at once, and leaving
//! the home forgets it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
use sidecar::companion::home::{HomeLinkState, HOME_LINK};
use sidecar::{Companion, Face, Running};
use tokio::sync::broadcast;

async fn core(dir: &std::path::Path, face: Face) -> (Arc<Companion>, Running) {
    core_with(dir, face, "").await
}

async fn core_with(dir: &std::path::Path, face: Face, more: &str) -> (Arc<Companion>, Running) {
    let core =
        crate::support::core().settings(&format!("{more}\n[llm]\nmax_retries = 0\n")).writes_to(&dir.join("settings.toml")).open_in(&dir.join("data")).await;
    let running = core.run(face).await;
    (core, running)
}

/// The next event of `kind` (and `matching`) the device's window hears.
async fn next(events: &mut broadcast::Receiver<Value>, kind: &str, matching: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let event = events.recv().await.unwrap();
            if event["type"] == kind && matching(&event) {
                return event;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {kind} event in time"))
}

/// Whether an event of `kind` arrives within `wait`.
async fn hears(events: &mut broadcast::Receiver<Value>, kind: &str, wait: Duration) -> bool {
    tokio::time::timeout(wait, async {
        loop {
            if events.recv().await.unwrap()["type"] == kind {
                return;
            }
        }
    })
    .await
    .is_ok()
}

/// Waits for `link` to be up (a link that never comes up fails the test, not hangs it).
async fn up(link: &sidecar_link::LinkClient) {
    let mut state = link.state();
    tokio::time::timeout(Duration::from_secs(20), state.wait_for(|s| *s == sidecar_link::LinkState::Up)).await.expect("the link up in time").unwrap();
}

fn due_in(core: &Companion, seconds: i64) -> String {
    let due = chrono::Utc::now() + chrono::Duration::seconds(seconds);
    due.with_timezone(&core.clock().zone()).format("%Y-%m-%d %H:%M:%S").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_computer_uses_the_home_core_and_hears_its_reminders_where_the_user_is() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let (home, _home_running) = core(dirs[0].path(), Face { commands: Some(sidecar::commands::dispatch_for_device), ..Face::headless(Vec::new()) }).await;
    let address = home.set_devices_listen(vec!["127.0.0.1:0".into()]).await.unwrap().listening[0].clone();

    // The laptop pairs with the code the home shows, and its window talks to the home.
    let (laptop, laptop_running) = core(dirs[1].path(), Face::headless(Vec::new())).await;
    assert!(laptop.home_view().is_none(), "its own Sidecar until it pairs");
    let code = home.device_link().open_pairing().await.unwrap();
    let wrong = laptop.attach_home(&address, "0000 0000").await.unwrap_err();
    let said = sidecar_domain::said_whole(&sidecar::CompanionError::from(wrong), sidecar::words::Lang::En);
    assert!(said.contains("That is not the code"), "a wrong code is said: {said}");
    let view = laptop.attach_home(&address, &code.code).await.unwrap();
    assert_eq!(view.address, address);
    assert_eq!(view.fingerprint, home.link_fingerprint().unwrap(), "the certificate pinned is the one the home shows");
    let link = laptop.home().client().expect("attached");
    up(&link).await;
    assert_eq!(laptop.home_view().unwrap().state, HomeLinkState::Up);
    assert!(link.call("voice_start", Value::Null).await.is_err(), "what the device keeps for itself is not run on the home");

    // A desk computer attaches too; the user looks at the desk last: only it hears.
    let (desk, _desk_running) = core(dirs[2].path(), Face::headless(Vec::new())).await;
    let code = home.device_link().open_pairing().await.unwrap();
    desk.attach_home(&address, &code.code).await.unwrap();
    let desk_link = desk.home().client().unwrap();
    up(&desk_link).await;
    let (mut on_laptop, mut on_desk) = (laptop.home().events(), desk.home().events());
    let set = link.call("add_reminder", json!({ "message": "stretch on the laptop", "when": due_in(&home, 3) })).await.unwrap();
    assert!(home.reminders().pending().await.unwrap().iter().any(|r| r.message == "stretch on the laptop"), "set on the home: {set}");
    assert!(laptop.reminders().pending().await.unwrap().is_empty(), "nothing in the laptop's own data");
    desk_link.call("device_present", Value::Null).await.unwrap();
    let told = next(&mut on_desk, "device_notification", |_| true).await;
    assert!(told["body"].as_str().unwrap().contains("stretch on the laptop") || told["title"].as_str().unwrap().contains("stretch"), "{told}");
    assert!(told["reminderId"].is_i64(), "a reminder's notification can snooze it: {told}");
    // The laptop's window still hears the home's events (the reminder in the chat), not
    // the notification.
    next(&mut on_laptop, "reminder_delivered", |_| true).await;
    assert!(!hears(&mut on_laptop, "device_notification", Duration::from_secs(2)).await, "shown twice");

    // Written on the laptop now: the next reminder is shown there.
    link.call("add_reminder", json!({ "message": "water the plants", "when": due_in(&home, 3) })).await.unwrap();
    link.call("device_present", Value::Null).await.unwrap();
    next(&mut on_laptop, "device_notification", |e| e.to_string().contains("water the plants")).await;
    assert!(!hears(&mut on_desk, "device_notification", Duration::from_secs(2)).await);

    // Back at the home computer's own window: it shows its own, no device is told.
    let focused = sidecar::commands::dispatch_for_window(home.clone(), "device_present", Value::Null).unwrap();
    focused.await.unwrap();
    link.call("add_reminder", json!({ "message": "feed the cat", "when": due_in(&home, 3) })).await.unwrap();
    next(&mut on_laptop, "reminder_delivered", |e| e.to_string().contains("feed the cat")).await;
    assert!(!hears(&mut on_laptop, "device_notification", Duration::from_secs(2)).await, "told the laptop while at the home");
    assert!(!hears(&mut on_desk, "device_notification", Duration::from_millis(200)).await, "told the desk while at the home");

    // The laptop restarts: the home kept in its data folder comes back by itself.
    laptop_running.stop().await;
    laptop.shutdown().await;
    drop(link);
    drop(laptop);
    let (laptop, _laptop_running) = core(dirs[1].path(), Face::headless(Vec::new())).await;
    let link = laptop.home().client().expect("attached again at start");
    up(&link).await;
    let chats = link.call("list_chats", Value::Null).await.unwrap();
    assert_eq!(chats["chats"][0]["message_count"], 3, "the home's chat, with its three reminders: {chats}");

    // Revoked on the home: refused at once, and said so in the window.
    let mut on_laptop = laptop.home().events();
    let desk_id = desk_link_id(&home).await;
    let laptop_id = home.device_link().view().await.unwrap().devices.iter().find(|d| d.id != desk_id).unwrap().id;
    home.device_link().revoke(laptop_id).await.unwrap();
    let refused = next(&mut on_laptop, HOME_LINK, |e| e["state"] == "refused").await;
    assert!(refused["said"].as_str().unwrap().contains("no longer allows this device"), "{refused}");
    assert_eq!(laptop.home_view().unwrap().state, HomeLinkState::Refused);

    // Leaving the home: its own Sidecar again, and nothing kept to come back with.
    laptop.leave_home().await.unwrap();
    assert!(laptop.home_view().is_none() && laptop.home().client().is_none());
    assert!(!dirs[1].path().join("data/link/home.json").exists());
}

/// The desk's id on the home (paired second: the higher id).
async fn desk_link_id(home: &Companion) -> i64 {
    home.device_link().view().await.unwrap().devices.iter().map(|d| d.id).max().unwrap()
}

/// A home core with no window (the daemon) asks a tool's permission on the attached
/// computer: the card shows there, and the click there lets the tool run on the home.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_home_core_without_a_window_asks_permission_on_the_attached_computer() {
    let schedule = r#"{"prompt": "Summarize my day", "when": "every day at 9", "title": "Morning summary"}"#;
    let llm = ScriptedServer::start(vec![stream(tool_call_events(&[("c1", "schedule_task", schedule)])), stream(reply_events(&["Scheduled."]))]).await;
    let (home_dir, laptop_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let provider = format!("[[providers]]\nid = \"home\"\nbase_url = \"{}\"\nmodel = \"scripted\"\n[memory.embeddings]\nbackend = \"off\"", llm.base_url);
    let face = Face { commands: Some(sidecar::commands::dispatch_for_device), ..Face::headless(Vec::new()) };
    let (home, _home_running) = core_with(home_dir.path(), face, &provider).await;
    let address = home.set_devices_listen(vec!["127.0.0.1:0".into()]).await.unwrap().listening[0].clone();
    let (laptop, _laptop_running) = core(laptop_dir.path(), Face::headless(Vec::new())).await;
    let code = home.device_link().open_pairing().await.unwrap();
    laptop.attach_home(&address, &code.code).await.unwrap();
    let link = laptop.home().client().unwrap();
    up(&link).await;
    let mut on_laptop = laptop.home().events();

    let sending = {
        let link = link.clone();
        tokio::spawn(async move { link.call("send_message", json!({ "text": "Schedule a summary of my day every morning at 9" })).await })
    };
    let asked = next(&mut on_laptop, "permission_asked", |_| true).await;
    let questions = link.call("permission_questions", Value::Null).await.unwrap();
    assert_eq!(questions[0]["tool"], "schedule_task", "the card the laptop shows: {questions} ({asked})");
    let answered = link.call("answer_permission", json!({ "id": questions[0]["id"], "choice": "allow_once" })).await.unwrap();
    assert_eq!(answered, true);
    let outcome = sending.await.unwrap().unwrap();
    assert_eq!(outcome["reply"], "Scheduled.", "{outcome}");
    let tasks = home.tasks().list(chrono::Utc::now(), sidecar::words::Lang::En).await.unwrap();
    assert_eq!(tasks.len(), 1, "the task runs on the home");
}

/// Whether the laptop's narrator begins saying something within `wait` (it says so
/// before any sound: this test has no speakers).
async fn begins_aloud(events: &mut broadcast::Receiver<sidecar::CoreEvent>, wait: Duration) -> bool {
    use sidecar_voice::VoiceEvent;
    tokio::time::timeout(wait, async {
        loop {
            match events.recv().await {
                Ok(sidecar::CoreEvent::Voice(VoiceEvent::VoiceSpeaking { on: true, .. })) => return,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    })
    .await
    .is_ok()
}

/// The replies to what is written on the attached computer are said by its own speakers
/// when its Settings → Voice asks, streamed from the home; a turn of another device is
/// not said there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_attached_computer_says_aloud_the_replies_to_what_was_written_there() {
    let llm = ScriptedServer::start(vec![stream(reply_events(&["Said ", "on the laptop."])), stream(reply_events(&["Not for the laptop."]))]).await;
    let (home_dir, laptop_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let provider = format!("[[providers]]\nid = \"home\"\nbase_url = \"{}\"\nmodel = \"scripted\"\n[memory.embeddings]\nbackend = \"off\"", llm.base_url);
    let face = Face { commands: Some(sidecar::commands::dispatch_for_device), ..Face::headless(Vec::new()) };
    let (home, _home_running) = core_with(home_dir.path(), face, &provider).await;
    let address = home.set_devices_listen(vec!["127.0.0.1:0".into()]).await.unwrap().listening[0].clone();
    let (laptop, _laptop_running) = core_with(laptop_dir.path(), Face::headless(Vec::new()), "[voice]\nspeak_replies = \"always\"").await;
    let code = home.device_link().open_pairing().await.unwrap();
    laptop.attach_home(&address, &code.code).await.unwrap();
    let link = laptop.home().client().unwrap();
    up(&link).await;

    let mut voice = laptop.events().subscribe();
    let sent = sidecar::commands::dispatch_for_window(laptop.clone(), "send_message", json!({ "text": "¿Me lo dices en voz alta?" })).unwrap();
    let outcome = sent.await.unwrap();
    assert_eq!(outcome["reply"], "Said on the laptop.", "{outcome}");
    assert!(begins_aloud(&mut voice, Duration::from_secs(5)).await, "the reply was not said on the laptop");
    laptop.talk().narrator().stop();

    // A turn the laptop's window did not ask for (another device's, on the same link here).
    let mut voice = laptop.events().subscribe();
    link.call("send_message", json!({ "text": "written elsewhere" })).await.unwrap();
    assert!(!begins_aloud(&mut voice, Duration::from_secs(2)).await, "another device's reply was said on the laptop");
}
