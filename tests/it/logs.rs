//! The daily log file: written in the data dir's `logs/`, each turn's lines inside one
//! span with the turn's id, and nothing secret in it.

use crate::support::{reply_events, stream, ScriptedServer};

use sidecar::{Companion, CompanionOptions};
use tracing_subscriber::layer::SubscriberExt;

const KEY: &str = "sk-very-secret-key-123";

#[tokio::test]
async fn each_turn_logs_to_the_daily_file_under_its_own_span_without_secrets() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hi ", "there"])), stream(reply_events(&["Again"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let logs = sidecar::logging::log_dir(dir.path());
    let (layer, guard) = sidecar::logging::file_layer(&logs).unwrap();
    let subscriber = tracing_subscriber::registry().with(layer);
    // The test runtime is single-threaded: the default subscriber sees every task.
    let _default = tracing::subscriber::set_default(subscriber);

    // A variable only this test reads.
    std::env::set_var("SIDECAR_TEST_LOG_KEY", KEY);
    let settings: sidecar::settings::Settings = toml::from_str(&format!(
        "[[providers]]\nid = \"scripted\"\nbase_url = \"{}\"\nmodel = \"m\"\napi_key_env = \"SIDECAR_TEST_LOG_KEY\"\n",
        server.base_url
    ))
    .unwrap();
    let core = Companion::open(CompanionOptions::new(dir.path().to_path_buf(), settings)).await.unwrap();
    let first = core.send("my bank pin is 4321").await.unwrap();
    core.send("and again").await.unwrap();
    drop(guard); // flushes the writer

    let files: Vec<_> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    let file = files.iter().find(|p| p.file_name().unwrap().to_string_lossy().starts_with("sidecar.")).expect("a daily log file");
    assert!(file.to_string_lossy().ends_with(".log"), "{file:?}");
    let text = std::fs::read_to_string(file).unwrap();
    assert!(!text.contains(KEY), "the key leaked into the log:\n{text}");
    assert!(!text.contains("4321"), "the user's words leaked into the log:\n{text}");

    let first_span = format!("turn{{turn_id={} conversation_id={}}}", first.message_id - 1, first.conversation_id);
    let in_first: Vec<&str> = text.lines().filter(|l| l.contains(&first_span)).collect();
    assert!(in_first.iter().any(|l| l.contains("turn started")), "{text}");
    assert!(in_first.iter().any(|l| l.contains("turn finished")), "{text}");
    let turn_lines = text.lines().filter(|l| l.contains("turn{")).count();
    assert!(turn_lines > in_first.len(), "the second turn has its own span:\n{text}");
}
