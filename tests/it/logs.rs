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

/// What a turn and its neighbours leave in the log (issue 75, item 6; the plans' O3,
/// O6, R25), each line read at `info` with its fields: the turn's phases timed, the facts
/// the prompt left out for its budget (Bug 7), why a near fact was kept apart (Bug 11),
/// a reminder's "attempting" before its delivery, and a date the reader could not read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_and_its_neighbours_say_in_the_log_what_happened_and_why() {
    use sidecar_reminders::RemindersStore;
    use std::io::{BufRead, BufReader};
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hola"])), stream(reply_events(&["ok"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    // More facts than the prompt has room for, one of them a near twin of what comes next.
    let mut learnings = String::from("# Learnings\n\n## General\n- [weight:5] Toca la guitarra con su hermano Pablo y su amiga Lucía los jueves en el garaje | learned:2026-11-01 | confirmed:2026-11-01\n");
    for i in 0..400 {
        learnings.push_str(&format!(
            "- [weight:1] Dato de relleno número {i} sobre un tema cualquiera de la vida diaria | learned:2026-01-01 | confirmed:2026-01-01\n"
        ));
    }
    std::fs::create_dir_all(data.join("knowledge")).unwrap();
    std::fs::write(data.join("knowledge/learnings.md"), learnings).unwrap();
    {
        let store = sidecar_store::Store::open(&data).await.unwrap();
        let due = chrono::Utc::now() + chrono::Duration::seconds(3);
        store.reminder_table().add_reminder(sidecar_reminders::NewReminder::at("stretch your legs", due, "UTC")).await.unwrap();
        store.close().await;
    }
    let base = server.base_url.clone();
    let run = move |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sidecar"))
            .env("SIDECAR_DATA_DIR", &data)
            .env("SIDECAR_CONFIG", data.join("absent-settings.toml"))
            .env("SIDECAR_LLM_BASE_URL", &base)
            .env("SIDECAR_LLM_MODEL", "scripted")
            .env("SIDECAR_RUNTIME", "off")
            .env_remove("RUST_LOG")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    tokio::task::spawn_blocking(move || {
        assert!(run(&["ask", "hola"]).wait_with_output().unwrap().status.success());
        let kept = run(&["remember", "Toca la guitarra con su hermano Pablo y su amiga Lucía los viernes en el garaje"]).wait_with_output().unwrap();
        assert!(kept.status.success(), "{}", String::from_utf8_lossy(&kept.stderr));
        let unread = run(&["remind", "llamar a mamá el día de San Nunca"]).wait_with_output().unwrap();
        assert!(!unread.status.success());
        // The chat delivers the due reminder.
        let mut chat = run(&["chat"]);
        let mut stdin = chat.stdin.take();
        // Read to the end (a closed pipe would fail the chat's next write); Ctrl+D once shown.
        for line in BufReader::new(chat.stdout.take().unwrap()).lines().map_while(Result::ok) {
            if line.contains("Reminder: stretch your legs") {
                drop(stdin.take());
            }
        }
        assert!(chat.wait().unwrap().success());
    })
    .await
    .unwrap();

    let logs = sidecar_domain::log_dir(dir.path());
    let text: String = std::fs::read_dir(&logs).unwrap().map(|f| std::fs::read_to_string(f.unwrap().path()).unwrap()).collect();
    let line = |what: &str| text.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("no \"{what}\" line in:\n{text}")).to_string();
    let info = |what: &str| {
        let found = line(what);
        assert!(found.contains(" INFO "), "{found}");
        found
    };
    let finished = info("turn finished");
    for field in ["to_first_request_ms=", "driving_ms=", "model_ms=", "tools_ms=", "status=\"complete\""] {
        assert!(finished.contains(field), "{field} in {finished}");
    }
    let cut = info("the prompt left facts out for its budget");
    assert!(cut.contains("hidden=") && cut.contains("learnings_lines=[") && cut.contains("turn{turn_id="), "{cut}");
    let apart = info("a new fact was kept beside a near one");
    assert!(apart.contains("reason=\"two or more significant words differ (Bug 11)\"") && apart.contains("learnings_line=4"), "{apart}");
    assert!(!apart.contains("guitarra"), "the facts' words stay out of the log: {apart}");
    let unread = info("a date the reader could not read");
    assert!(unread.contains("San Nunca"), "{unread}");
    let attempting = text.find("reminder attempting delivery").expect("an attempting line");
    let delivered = text.find("reminder delivered").expect("a delivered line");
    assert!(attempting < delivered, "attempting is said before delivered");
    assert!(line("reminder attempting delivery").contains("attempt=1") && line("reminder attempting delivery").contains("delivery{reminder_id="));
}
