//! The window's commands in one table (`sidecar::commands`) that the desktop's IPC and
//! the link to other devices both serve: every command the window calls is either in it
//! or one the device keeps for itself, and a command runs from the table as the window
//! calls it (camelCase arguments, the core's words for its errors).

use std::collections::BTreeSet;

use serde_json::json;
use sidecar::commands::{dispatch, table, DEVICE_LOCAL};

use crate::support::{reply_events, stream, ScriptedServer};

/// The command names the window's code calls (`invoke("name"`), tests left out.
fn called_by_the_window() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src"))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.contains(".test.") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (at, _) in text.match_indices("invoke") {
                    let rest = &text[at + "invoke".len()..];
                    let rest = rest.strip_prefix('<').map(|r| &r[r.find(">(").map_or(0, |e| e + 1)..]).unwrap_or(rest);
                    if let Some(quoted) = rest.strip_prefix("(\"") {
                        names.insert(quoted[..quoted.find('"').unwrap()].to_string());
                    }
                }
            }
        }
    }
    names
}

/// The commands the desktop shell registers itself (`generate_handler![…]` in its lib.rs).
fn served_by_the_shell() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src-tauri/src/lib.rs")).unwrap();
    let start = lib.find("generate_handler![").expect("the shell's handler") + "generate_handler![".len();
    let end = start + lib[start..].find(']').unwrap();
    lib[start..end].split(',').filter_map(|n| n.trim().rsplit("::").next().filter(|n| !n.is_empty()).map(str::to_string)).collect()
}

#[test]
fn every_command_the_window_calls_is_in_the_table_or_kept_by_the_device() {
    let in_table: BTreeSet<String> = table().map(|c| c.name.to_string()).collect();
    assert_eq!(in_table.len(), table().count(), "no name twice in the table");
    let local: BTreeSet<String> = DEVICE_LOCAL.iter().map(|n| n.to_string()).collect();
    assert!(in_table.is_disjoint(&local), "both in the table and device-local: {:?}", in_table.intersection(&local).collect::<Vec<_>>());
    let called = called_by_the_window();
    assert!(called.len() > 150, "the window's commands were found ({})", called.len());
    let nowhere: Vec<_> = called.iter().filter(|n| !in_table.contains(*n) && !local.contains(*n)).collect();
    assert!(nowhere.is_empty(), "called by the window but served by nobody: {nowhere:?}");
    assert_eq!(served_by_the_shell(), local, "the shell serves exactly the device-local commands");
    let unused: Vec<_> = in_table.iter().filter(|n| !called.contains(*n)).collect();
    assert!(unused.is_empty(), "in the table but called by no window: {unused:?}");
}

#[tokio::test]
async fn a_command_runs_from_the_table_as_the_window_calls_it() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Noted."]))).await;
    let core = crate::support::core().answered_by(&server).open().await;

    let outcome = dispatch(core.clone(), "send_message", json!({ "text": "My sister lives in Lisbon" })).unwrap().await.unwrap();
    assert_eq!(outcome["reply"], "Noted.", "{outcome}");
    let chats = dispatch(core.clone(), "list_chats", serde_json::Value::Null).unwrap().await.unwrap();
    let message_id = core.conversation().history(10).await.unwrap()[0].id;
    // A camelCase argument, as the window sends it.
    let opened = dispatch(core.clone(), "open_chat_at", json!({ "messageId": message_id })).unwrap().await.unwrap();
    assert_eq!(opened, chats["current"]);
    // Arguments that cannot be read are an error the window can show, not a panic.
    let refused = dispatch(core.clone(), "open_chat_at", json!({ "messageId": "seven" })).unwrap().await.unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("open_chat_at"), "{refused}");
    // A core error comes in the core's words, with whether Retry makes sense.
    let missing = dispatch(core.clone(), "open_chat", json!({ "id": 999_999 })).unwrap().await.unwrap_err();
    assert_eq!(missing["retryable"], false, "{missing}");
    assert!(dispatch(core.clone(), "voice_start", serde_json::Value::Null).is_none(), "the device's own commands are not in the table");
}

/// The app lock (issue 74): while the window is locked, the core refuses its commands but
/// the lock's own and the look it is drawn in; the passphrase opens it, a wrong one does
/// not (a start with the lock on starts locked: the lock's own tests).
#[tokio::test]
async fn while_locked_the_window_gets_only_the_lock_and_the_passphrase_opens_it() {
    use sidecar::commands::dispatch_for_window;
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().open_in(dir.path()).await;
    let run = |name: &str, args: serde_json::Value| dispatch_for_window(core.clone(), name, args).unwrap();
    assert!(run("memory_report", serde_json::Value::Null).await.is_ok(), "no lock by default");
    let on = run("turn_on_lock", json!({ "current": null, "passphrase": "girasol", "minutes": 5 })).await.unwrap();
    assert_eq!((on["on"].as_bool(), on["locked"].as_bool()), (Some(true), Some(false)));
    assert_eq!(run("lock_app", serde_json::Value::Null).await.unwrap()["locked"], true);
    let refused = run("memory_report", serde_json::Value::Null).await.unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("locked"), "{refused}");
    assert!(run("list_chats", serde_json::Value::Null).await.is_err() && run("preferences", serde_json::Value::Null).await.is_ok());
    let wrong = run("unlock_app", json!({ "passphrase": "margarita" })).await.unwrap_err();
    assert!(wrong["message"].as_str().unwrap().contains("not the lock's passphrase"), "{wrong}");
    assert!(run("memory_report", serde_json::Value::Null).await.is_err(), "still locked");
    assert_eq!(run("unlock_app", json!({ "passphrase": "girasol" })).await.unwrap()["locked"], false);
    assert!(run("memory_report", serde_json::Value::Null).await.is_ok());
    core.shutdown().await;
}
