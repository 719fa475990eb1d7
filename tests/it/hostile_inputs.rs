//! What a hostile MCP server, a huge or odd file, or programs started together do to
//! Sidecar, against the real binaries: a 1 GB sparse note searched and appended to, a
//! server flooding its stderr, tool names no terminal should print, passwords in server
//! addresses, plain-http servers, notes moved out of hidden folders, pipes where files
//! are expected, four `sidecar ask` racing on one budget, four programs racing on the
//! first migration, and a closed output pipe.

use sidecar_llm::BudgetStore;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use sidecar_actions::NotesError;
use sidecar_actions::NotesFolder;
use sidecar_actions::MAX_NOTE_BYTES;

use crate::support::{self, delta, finish, usage, Reply, ScriptedServer};

fn sidecar(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    command
        .env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("settings.toml"))
        .env_remove("SIDECAR_MCP_CONFIG")
        .env_remove("SIDECAR_LLM_BASE_URL")
        .env("SIDECAR_RUNTIME", "off");
    command
}

fn fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn a_gigabyte_note_is_neither_read_by_a_search_nor_by_an_append() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(vault.join("plan.md"), "The cello lesson is on Thursday.\n").unwrap();
    let huge = vault.join("huge.md");
    std::fs::File::create(&huge).unwrap().set_len(1024 * 1024 * 1024).unwrap(); // sparse
    let blocks = std::fs::metadata(&huge).unwrap().blocks();
    let folder = NotesFolder::open(&vault).unwrap();

    let searched = sidecar_actions::search_notes(&folder, "cello", 10).unwrap();
    assert_eq!(searched.found.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["plan.md"]);
    assert_eq!(searched.skipped.len(), 1);
    assert_eq!(searched.skipped[0].path, "huge.md");
    assert!(searched.skipped[0].why.contains("2 MB"), "{:?}", searched.skipped);

    assert!(matches!(folder.append("huge.md", "one more line"), Err(NotesError::TooLarge(_))));
    let after = std::fs::metadata(&huge).unwrap();
    assert_eq!((after.len(), after.blocks()), (1024 * 1024 * 1024, blocks), "the sparse note was left as it was");

    // A note near the cap takes an append only while it stays under it.
    std::fs::write(vault.join("near.md"), vec![b'a'; MAX_NOTE_BYTES as usize - 8]).unwrap();
    assert!(matches!(folder.append("near.md", "far more than eight bytes"), Err(NotesError::TooLarge(_))));
    folder.append("plan.md", "Bring the rosin.").unwrap();
    assert_eq!(std::fs::read_to_string(vault.join("plan.md")).unwrap(), "The cello lesson is on Thursday.\nBring the rosin.\n");
}

#[test]
fn notes_are_moved_only_as_notes_and_pipes_are_called_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join(".obsidian")).unwrap();
    std::fs::write(vault.join(".obsidian/app.json"), "{}").unwrap();
    std::fs::write(vault.join("plan.md"), "plan\n").unwrap();
    std::fs::write(vault.join("script.sh"), "echo hi\n").unwrap();
    fifo(&vault.join("pipe.md"));
    let folder = NotesFolder::open(&vault).unwrap();

    assert!(matches!(folder.rename(".obsidian", "settings"), Err(NotesError::Hidden(_))));
    assert!(matches!(folder.rename(".obsidian/app.json", "app.md"), Err(NotesError::Hidden(_))));
    assert!(matches!(folder.rename("plan.md", ".trash/plan.md"), Err(NotesError::Hidden(_))));
    assert!(matches!(folder.rename("script.sh", "script.md"), Err(NotesError::NotANote(_))));
    assert!(matches!(folder.rename("plan.md", "plan.sh"), Err(NotesError::NotANote(_))));
    assert!(vault.join(".obsidian/app.json").exists() && vault.join("script.sh").exists() && vault.join("plan.md").exists());
    folder.rename("plan.md", "Projects/plan.md").unwrap();
    assert!(vault.join("Projects/plan.md").exists());

    let fifo_error = folder.read("pipe.md").unwrap_err();
    assert!(matches!(fifo_error, NotesError::NotAFile(_)), "{fifo_error:?}");
    assert!(fifo_error.to_string().contains("pipe"), "{fifo_error}");
    // The search does not open it either (it would wait for a writer forever).
    assert!(sidecar_actions::search_notes(&folder, "plan", 10).unwrap().found.iter().all(|f| f.path != "pipe.md"));
}

#[tokio::test]
async fn a_pipe_picked_as_an_attachment_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let core = support::core().settings("[llm]\nmax_retries = 0\n").open_in(&dir.path().join("data")).await;
    let pipe = dir.path().join("notes.txt");
    fifo(&pipe);
    let attached = tokio::time::timeout(Duration::from_secs(20), core.attach(&pipe)).await.expect("the attach did not wait on the pipe");
    let error = attached.unwrap_err().to_string();
    assert!(error.contains("not a file"), "{error}");
}

#[tokio::test]
async fn a_server_flooding_its_stderr_costs_a_bounded_tail() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let transport = sidecar_actions::McpTransport::Stdio {
        command: support::python().display().to_string(),
        args: vec![script.display().to_string(), "--stderr-flood".into(), "100".into(), "--exit-at-start".into(), "gave up".into()],
        env: Default::default(),
        cwd: None,
    };
    let error = sidecar_actions::McpSession::start(&transport, Duration::from_secs(60), &Default::default()).await.err().expect("the server exits");
    let said = error.to_string();
    assert!(said.len() < sidecar_actions::STDERR_TAIL_BYTES, "{} bytes", said.len());
    match error {
        sidecar_actions::McpSessionError::Closed { stderr, .. } => {
            assert_eq!(stderr.last().map(String::as_str), Some("gave up"), "{stderr:?}");
            assert!(stderr.iter().map(String::len).sum::<usize>() <= sidecar_actions::STDERR_TAIL_BYTES);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_terminal_never_prints_a_server_s_raw_tool_names_or_a_password_in_an_address() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let python = support::python();
    let add = sidecar(data).args(["mcp", "add", "hostile", "--", python.to_str().unwrap(), script.to_str().unwrap(), "--hostile-names"]).output().unwrap();
    assert!(add.status.success(), "{}", String::from_utf8_lossy(&add.stderr));
    let tools = sidecar(data).args(["mcp", "tools", "hostile"]).output().unwrap();
    let out = String::from_utf8_lossy(&tools.stdout);
    assert!(tools.status.success(), "{}", String::from_utf8_lossy(&tools.stderr));
    assert!(out.contains("echo") && out.lines().count() <= 6, "{out}");
    assert!(!out.contains('\0') && !out.contains('\u{1b}') && !out.contains("xxxxxxxxxx") && !out.contains("two\n"), "{out:?}");

    let secret = sidecar(data).args(["mcp", "add", "remote", "--url", "https://me:hunter2@tools.example.org/mcp"]).output().unwrap();
    assert!(secret.status.success(), "{}", String::from_utf8_lossy(&secret.stderr));
    let listed = sidecar(data).args(["mcp", "list"]).output().unwrap();
    let out = String::from_utf8_lossy(&listed.stdout);
    assert!(out.contains("tools.example.org") && !out.contains("hunter2"), "{out}");

    let plain = sidecar(data).args(["mcp", "add", "plain", "--url", "http://tools.example.org/mcp"]).output().unwrap();
    assert_eq!(plain.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("https://"), "{}", String::from_utf8_lossy(&plain.stderr));
    let local = sidecar(data).args(["mcp", "add", "local", "--url", "http://127.0.0.1:9/mcp"]).output().unwrap();
    assert!(local.status.success(), "a server on this computer may be plain http");
}

#[test]
fn an_update_address_in_the_settings_file_follows_the_same_rule_as_in_settings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("settings.toml"), "[updates]\naddress = \"http://updates.example.org/latest.json\"\n").unwrap();
    let out = sidecar(dir.path()).arg("history").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("updates.address") && said.contains("https://"), "{said}");
    std::fs::write(dir.path().join("settings.toml"), "[updates]\naddress = \"http://localhost:8080/latest.json\"\n").unwrap();
    assert!(sidecar(dir.path()).arg("history").output().unwrap().status.success());
}

#[test]
fn a_closed_output_pipe_ends_the_terminal_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // A pipe whose reading end is already closed: the first line printed fails.
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    unsafe { libc::close(fds[0]) };
    let write_end = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fds[1]) };
    let out = sidecar(dir.path()).args(["mcp", "list"]).stdout(Stdio::from(write_end)).stderr(Stdio::piped()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn programs_started_together_on_a_new_data_folder_all_open_it() {
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..4).map(|_| sidecar(dir.path()).arg("history").stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()).collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Four `sidecar ask` started together against a limit of $2.50 a day, each reply's
/// worst case (and real cost) $1.00: at most two are made, whichever process asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_programs_asking_together_spend_nothing_past_the_limit() {
    let slow = Reply::Stream { events: vec![delta("Fine"), delta(", thanks."), finish("stop"), usage(0, 1_000)], delay: Duration::from_millis(700) };
    let server = ScriptedServer::start(vec![slow]).await;
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "[[providers]]\nid = \"paid\"\nbase_url = \"{}\"\nmodel = \"paid-model\"\n[llm]\nmax_retries = 0\nmax_tokens = 1000\n[prices.\"paid-model\"]\ninput_per_mtok = 0.0\noutput_per_mtok = 1000.0\n[budget]\ndaily_usd = 2.5\n",
        server.base_url
    );
    std::fs::write(dir.path().join("settings.toml"), &config).unwrap();
    let data = dir.path().to_path_buf();
    // The store exists first: this test is about the budget, not the first migration.
    assert!(sidecar(&data).arg("history").output().unwrap().status.success());
    let outputs = tokio::task::spawn_blocking(move || {
        let children: Vec<_> =
            (0..4).map(|n| sidecar(&data).args(["ask", &format!("hello {n}")]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()).collect();
        children.into_iter().map(|c| c.wait_with_output().unwrap()).collect::<Vec<_>>()
    })
    .await
    .unwrap();
    let store = sidecar_store::Store::open(dir.path()).await.unwrap();
    let spent: f64 = store.budget().calls_since("").await.unwrap().iter().filter_map(|c| c.cost_usd).sum();
    let said: Vec<String> = outputs.iter().map(|o| format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))).collect();
    assert!(spent <= 2.5 + 1e-9, "spent {spent}: {said:?}");
    assert!((spent - 2.0).abs() < 1e-9, "two replies fit: {spent}: {said:?}");
    assert!(said.iter().filter(|s| s.contains("Fine, thanks.")).count() == 2, "{said:?}");
    let chat_calls = server
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r["messages"].as_array().is_some_and(|m| m.iter().any(|m| m["content"].as_str().is_some_and(|c| c.contains("hello")))))
        .count();
    assert_eq!(chat_calls, 2, "{said:?}");
}
