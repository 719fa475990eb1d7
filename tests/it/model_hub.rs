//! The local model manager against a file server on loopback that serves the real
//! SmolLM2 GGUF the way Hugging Face does (Range, announced SHA-256): a cut download
//! resumes and ends byte-for-byte, a bad checksum is refused with nothing kept, and
//! a pulled model, once chosen, is what the local llama.cpp server runs and answers
//! with (CLI and in-process).

use std::process::Command;
use std::time::Duration;

use sha2::{Digest, Sha256};
use sidecar::events::ModelStatus;
use sidecar_llm::Downloader;
use sidecar_llm::ModelLibrary;
use sidecar_llm::PullError;
use sidecar_llm::PullRequest;
use sidecar_llm::Verified;
use tokio_util::sync::CancellationToken;

use crate::support::file_server::{smollm2_gguf, FileServer};
use crate::support::{self};

const NAME: &str = "tiny-chat-Q4_1.gguf";
const GB: u64 = 1 << 30;

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

async fn serve_smollm2(announce: bool) -> (FileServer, Vec<u8>, String) {
    let body = std::fs::read(smollm2_gguf()).unwrap();
    let digest = sha256_hex(&body);
    let server = FileServer::start(NAME, body.clone(), announce.then(|| digest.clone())).await;
    (server, body, digest)
}

fn request(url: &str, sha256: Option<&str>) -> PullRequest {
    PullRequest { url: url.to_string(), sha256: sha256.map(str::to_string), allow_large: false }
}

#[tokio::test]
async fn a_cut_download_resumes_from_where_it_stopped_and_ends_byte_for_byte() {
    let (server, body, digest) = serve_smollm2(true).await;
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let downloader = Downloader::new(16 * GB);
    let cut = body.len() as u64 * 2 / 5;
    server.cut_next_after(cut);

    let first = downloader.pull(&library, &request(&server.url, None), |_| {}, &CancellationToken::new()).await;
    assert!(matches!(&first, Err(e @ PullError::Interrupted { received, .. }) if *received == cut && e.resumable()), "{first:?}");
    assert_eq!(library.partials()[0].received_bytes, cut, "what arrived is kept");
    assert!(library.installed().is_empty(), "a part is never taken for a model");

    let mut seen_progress = Vec::new();
    let pulled = downloader
        .pull(&library, &request(&server.url, None), |p| seen_progress.push(p.received_bytes), &CancellationToken::new())
        .await
        .expect("the second pull resumes");
    assert_eq!(pulled.resumed_from, cut);
    assert_eq!(pulled.verified, Verified::Announced, "checked against the digest the server announced");
    assert_eq!(pulled.sha256, digest);
    assert_eq!(std::fs::read(&pulled.path).unwrap(), body, "the file is the server's, byte for byte");
    let gets: Vec<_> = server.seen().into_iter().filter(|s| s.method == "GET").collect();
    assert_eq!(gets[1].range_from, Some(cut), "the resume asked for the rest only");
    assert_eq!(server.bytes_sent(), body.len() as u64, "no byte was fetched twice");
    assert_eq!(seen_progress.first(), Some(&cut));
    assert_eq!(seen_progress.last(), Some(&(body.len() as u64)));
    let installed = library.installed();
    assert_eq!(installed[0].name, "tiny-chat-Q4_1");
    assert!(installed[0].chat_template && installed[0].context_tokens.is_some(), "{installed:?}");
    assert!(library.partials().is_empty());
}

#[tokio::test]
async fn a_paused_download_keeps_its_part_and_resumes() {
    let (server, body, digest) = serve_smollm2(false).await;
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let downloader = Downloader::new(16 * GB);
    let cancel = CancellationToken::new();
    let pause = cancel.clone();
    let paused = downloader
        .pull(
            &library,
            &request(&server.url, Some(&digest)),
            move |p| {
                if p.received_bytes >= 4 << 20 {
                    pause.cancel();
                }
            },
            &cancel,
        )
        .await;
    let Err(PullError::Paused { received }) = paused else { panic!("{paused:?}") };
    assert!(received >= 4 << 20 && received < body.len() as u64);
    assert_eq!(library.partials()[0].received_bytes, received);
    let pulled = downloader.pull(&library, &request(&server.url, Some(&digest)), |_| {}, &CancellationToken::new()).await.unwrap();
    assert_eq!((pulled.resumed_from, pulled.verified), (received, Verified::Pinned));
    assert_eq!(std::fs::read(&pulled.path).unwrap(), body);
}

#[tokio::test]
async fn a_bad_checksum_is_refused_and_nothing_is_kept() {
    let (server, _, digest) = serve_smollm2(true).await;
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let wrong = "0".repeat(64);
    let refused = Downloader::new(16 * GB).pull(&library, &request(&server.url, Some(&wrong)), |_| {}, &CancellationToken::new()).await;
    match refused {
        Err(PullError::Checksum { expected, actual }) => assert_eq!((expected, actual), (wrong, digest)),
        other => panic!("{other:?}"),
    }
    assert!(library.installed().is_empty() && library.partials().is_empty());
    assert_eq!(std::fs::read_dir(library.dir()).unwrap().count(), 0, "nothing left in the folder");
}

#[tokio::test]
async fn what_is_not_a_model_or_does_not_fit_is_refused_before_it_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let page = FileServer::start("model.gguf", b"<html>Sign in to download</html>".to_vec(), None).await;
    let refused = Downloader::new(16 * GB).pull(&library, &request(&page.url, None), |_| {}, &CancellationToken::new()).await;
    assert!(matches!(refused, Err(PullError::NotAModel(_))), "{refused:?}");
    assert!(library.installed().is_empty() && library.partials().is_empty());

    let (server, body, _) = serve_smollm2(false).await;
    // A machine with less memory than the model needs.
    let small = Downloader::new(body.len() as u64);
    let refused = small.pull(&library, &request(&server.url, None), |_| {}, &CancellationToken::new()).await;
    assert!(matches!(&refused, Err(PullError::TooLarge { .. })), "{refused:?}");
    assert!(refused.unwrap_err().to_string().contains("choose a smaller model"));
    assert!(library.partials().is_empty() || library.partials()[0].received_bytes == 0);

    let not_a_link = Downloader::new(16 * GB).pull(&library, &request("https://example.com/weights.bin", None), |_| {}, &CancellationToken::new()).await;
    assert!(matches!(not_a_link, Err(PullError::NotGgufUrl(_))));
}

fn sidecar(data: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    cmd.env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("settings.toml"))
        .env("SIDECAR_RUNTIME", support::runtime())
        .env(sidecar_memory::AUTOMATIC_ENV, "local")
        .env_remove("SIDECAR_LLM_BASE_URL");
    cmd
}

async fn run(cmd: &mut Command) -> std::process::Output {
    let mut cmd = std::mem::replace(cmd, Command::new("true"));
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

#[tokio::test]
async fn the_cli_pulls_through_a_cut_uses_the_model_and_it_answers() {
    let (server, body, digest) = serve_smollm2(false).await;
    server.cut_next_after(body.len() as u64 / 3);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    // A short reply is enough to know which model answered; a tiny model left to
    // ramble on a busy machine took minutes.
    std::fs::write(data.join("settings.toml"), "[local_model]\n\n[local_model.sampling]\nmax_tokens = 48\n").unwrap();

    let out = run(sidecar(data).args(["models", "pull", &server.url, "--sha256", &digest])).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("resumed from") && stdout.contains("SHA-256 matches the expected one"), "{stdout}");
    assert!(stdout.contains("sidecar models use tiny-chat-Q4_1"), "{stdout}");

    let bad = run(sidecar(data).args(["models", "pull", &server.url.replace(NAME, "other.gguf"), "--sha256", &"a".repeat(64)])).await;
    assert!(!bad.status.success());

    let out = run(sidecar(data).args(["models", "list", "--json"])).await;
    let view: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(view["installed"][0]["name"], "tiny-chat-Q4_1");
    assert_eq!(view["active"], serde_json::Value::Null, "still the built-in model");
    assert_eq!(view["catalogue"].as_array().unwrap().len(), 4);

    let out = run(sidecar(data).args(["models", "use", "tiny-chat-Q4_1"])).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("now tiny-chat-Q4_1, with a 8192-token window"), "{}", String::from_utf8_lossy(&out.stdout));
    let settings = std::fs::read_to_string(data.join("settings.toml")).unwrap();
    assert!(settings.contains("[local_model]") && settings.contains("tiny-chat-Q4_1.gguf"), "{settings}");

    let out = run(sidecar(data).args(["ask", "--json", "Say hello in one short sentence."])).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!answer["reply"].as_str().unwrap().trim().is_empty(), "{answer}");
    assert_eq!(answer["meta"]["model"], "tiny-chat-Q4_1", "the pulled model answered: {answer}");
    let log = std::fs::read_to_string(data.join("logs/local-model.log")).unwrap();
    assert!(log.contains(&data.join("models").join(NAME).display().to_string()), "llama.cpp loaded the pulled file");

    let out = run(sidecar(data).args(["models", "rm", "tiny-chat-Q4_1"])).await;
    assert!(out.status.success());
    let settings = std::fs::read_to_string(data.join("settings.toml")).unwrap();
    assert!(!settings.contains("tiny-chat"), "deleting the model in use goes back to the built-in one: {settings}");
    assert!(!data.join("models").join(NAME).exists());
}

#[tokio::test]
async fn choosing_a_model_restarts_the_running_local_server_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::copy(smollm2_gguf(), models.join(NAME)).unwrap();
    // Short replies: a chosen model has no demo cap, and a 135M model that loops would
    // write 1,024 tokens three times over (seen in CI past the 300 s reply limit).
    let config = dir.path().join("settings.toml");
    let core = support::core().settings("[llm]\nmax_tokens = 32\nmax_continuations = 0\n").offline().writes_to(&config).open_in(dir.path()).await;
    core.send("Hi").await.expect("the built-in model answers");
    assert!(matches!(core.models().status(), ModelStatus::Ready { demo: true, .. }));

    let switched = core.model_hub().use_model(Some("tiny-chat-Q4_1")).await.unwrap();
    let restart = switched.restart_ms.expect("the running server was restarted");
    eprintln!("local server restart on a model switch: {restart} ms");
    assert_eq!(switched.active.as_deref(), Some("tiny-chat-Q4_1"));
    assert_eq!(
        core.models().status(),
        ModelStatus::Ready { provider: "local".into(), model: "tiny-chat-Q4_1".into(), demo: false },
        "a chosen model is not the demo"
    );
    let outcome = core.send("Hello again").await.unwrap();
    assert_eq!(outcome.meta.model.as_deref(), Some("tiny-chat-Q4_1"));
    assert_eq!(core.model_hub().view().active.as_deref(), Some("tiny-chat-Q4_1"));

    let back = core.model_hub().use_model(None).await.unwrap();
    assert_eq!(back.active, None);
    assert!(matches!(core.models().status(), ModelStatus::Ready { demo: true, .. }));
    assert!(!std::fs::read_to_string(&config).unwrap().contains("tiny-chat"));
    core.shutdown().await;
    tokio::time::sleep(Duration::from_millis(10)).await;
}

/// The real model's tensor data is all there; the same file cut anywhere after its
/// header (a download that stopped, a 1,000-byte stub) is refused as incomplete, by
/// import and by the catalogue's listing.
#[test]
fn a_model_file_cut_after_its_header_is_refused_as_incomplete() {
    use sidecar_llm::read_gguf_info;
    use sidecar_llm::GgufError;
    let whole = std::fs::read(smollm2_gguf()).unwrap();
    assert!(read_gguf_info(&smollm2_gguf()).is_ok(), "the real file reads");
    let dir = tempfile::tempdir().unwrap();
    for keep in [whole.len() - 1, whole.len() / 2, 2_000_000] {
        let cut = dir.path().join(format!("cut-{keep}.gguf"));
        std::fs::write(&cut, &whole[..keep]).unwrap();
        match read_gguf_info(&cut) {
            Err(GgufError::Incomplete { have, need, .. }) => {
                assert_eq!((have, need), (keep as u64, whole.len() as u64), "the real size is known from the header")
            }
            other => panic!("{keep} bytes: {other:?}"),
        }
    }
}

/// A server that never says how long the file is and never stops: the download stops
/// at what this machine could use and deletes what it wrote.
#[tokio::test]
async fn a_download_with_no_length_and_no_end_is_stopped_at_a_limit() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/{NAME}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                // No Content-Length, no chunked encoding: the body runs until the connection closes.
                if socket.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n").await.is_err() {
                    return;
                }
                let zeros = vec![0u8; 1 << 16];
                while socket.write_all(&zeros).await.is_ok() {}
            });
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    // A machine with 64 MB of memory could not run more than about 51 MB.
    let pulled = Downloader::new(64 << 20).pull(&library, &request(&url, None), |_| {}, &CancellationToken::new()).await;
    match pulled {
        Err(PullError::NoEnd { received, limit }) => assert!(limit <= 64 << 20 && received > limit, "{received} / {limit}"),
        other => panic!("{other:?}"),
    }
    assert!(library.partials().is_empty() && library.installed().is_empty(), "nothing of it is kept");
    let left: Vec<_> = std::fs::read_dir(library.dir()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "no file left behind: {left:?}");
}

/// With no network a pull says so, instead of "stopped after 0 bytes".
#[tokio::test]
async fn a_pull_with_no_network_says_the_computer_is_offline() {
    let dir = tempfile::tempdir().unwrap();
    let library = ModelLibrary::new(dir.path());
    let url = "https://huggingface.example.invalid/org/repo/resolve/main/model.gguf";
    let pulled = Downloader::new(16 * GB).pull(&library, &request(url, None), |_| {}, &CancellationToken::new()).await;
    let error = pulled.unwrap_err();
    assert!(matches!(error, PullError::Offline(_)), "{error:?}");
    let said = error.to_string();
    assert!(said.contains("seems to be offline") && said.contains("Connect to the network") && !said.contains("0 bytes"), "{said}");
}
