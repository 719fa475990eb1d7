//! The daily log file, as the `sidecar` binary writes it: in the data dir's `logs/`,
//! each turn's lines inside one span with the turn's id, and nothing secret in it.
//! (A real process: tracing's callsite cache is shared by every test in this binary.)

use std::process::Command;

use crate::support::{reply_events, stream, ScriptedServer};

const KEY: &str = "sk-very-secret-key-123";

fn ask(data: &std::path::Path, base_url: &str, text: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sidecar"))
        .env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("absent-settings.toml"))
        .env("SIDECAR_LLM_BASE_URL", base_url)
        .env("SIDECAR_LLM_MODEL", "scripted")
        .env("SIDECAR_LLM_API_KEY", KEY)
        .env("SIDECAR_RUNTIME", "off")
        .env_remove("RUST_LOG")
        .args(["ask", "--json", text])
        .output()
        .unwrap()
}

#[tokio::test]
async fn each_turn_logs_to_the_daily_file_under_its_own_span_without_secrets() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hi ", "there"])), stream(reply_events(&["Again"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let (data, base) = (dir.path().to_path_buf(), server.base_url.clone());
    let outputs = tokio::task::spawn_blocking(move || [ask(&data, &base, "my bank pin is 4321"), ask(&data, &base, "and again")]).await.unwrap();
    for out in &outputs {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(server.last_request()["model"], "scripted", "the key was sent, the call went through");

    let logs = sidecar_domain::log_dir(dir.path());
    let files: Vec<_> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    let file = files.iter().find(|p| p.file_name().unwrap().to_string_lossy().starts_with("sidecar.")).expect("a daily log file");
    assert!(file.to_string_lossy().ends_with(".log"), "{file:?}");
    let text = std::fs::read_to_string(file).unwrap();
    assert!(!text.contains(KEY), "the key leaked into the log:\n{text}");
    assert!(!text.contains("4321"), "the user's words leaked into the log:\n{text}");

    // A fresh data dir: the first turn answers message 1 of conversation 1.
    let span = "turn{turn_id=1 conversation_id=1}";
    let in_first: Vec<&str> = text.lines().filter(|l| l.contains(span)).collect();
    assert!(in_first.iter().any(|l| l.contains("turn started")), "{span} in:\n{text}");
    assert!(in_first.iter().any(|l| l.contains("turn finished")), "{span} in:\n{text}");
    let turn_lines = text.lines().filter(|l| l.contains("turn{turn_id=")).count();
    assert!(turn_lines > in_first.len(), "the second turn has its own span:\n{text}");
}

#[tokio::test]
async fn a_server_that_echoes_the_key_in_its_error_never_gets_it_shown_or_logged() {
    use crate::support::Reply;
    let echo = format!(r#"{{"error": {{"message": "Incorrect API key provided: {KEY}. Header was: Bearer {KEY}"}}}}"#);
    let server = ScriptedServer::start(vec![Reply::Status { code: 401, body: echo }]).await;
    let dir = tempfile::tempdir().unwrap();
    let (data, base) = (dir.path().to_path_buf(), server.base_url.clone());
    let out = tokio::task::spawn_blocking(move || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidecar"));
        cmd.env("SIDECAR_DATA_DIR", &data)
            .env("SIDECAR_CONFIG", data.join("absent-settings.toml"))
            .env("SIDECAR_LLM_BASE_URL", &base)
            .env("SIDECAR_LLM_API_KEY", KEY)
            .env("RUST_LOG", "debug")
            .env("SIDECAR_RUNTIME", "off")
            .args(["ask", "hello"]);
        cmd.output().unwrap()
    })
    .await
    .unwrap();
    let shown = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success());
    assert!(shown.contains("Incorrect API key provided: [redacted]"), "the error is still said: {shown}");
    assert!(!shown.contains(KEY) && !shown.contains("very-secret"), "the key was shown:\n{shown}");
    let logs = sidecar_domain::log_dir(dir.path());
    for file in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(text.contains("401"), "the failure is logged:\n{text}");
        assert!(!text.contains("very-secret"), "the key leaked into the log:\n{text}");
    }
}
