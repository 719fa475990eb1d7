//! A provider that is down never takes the chat with it: the offline model (the real
//! llama.cpp server with SmolLM2) is the last link of the automatic chain, and the
//! header's status is what a check found, not what settings say.

use std::sync::Arc;

use sidecar::events::ModelStatus;
use sidecar::{Companion, CompanionOptions};

use crate::support;

fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn open(dir: &std::path::Path, base_url: &str, offline: bool) -> Arc<Companion> {
    let mut text = format!("[[providers]]\nid = \"ollama\"\nbase_url = \"{base_url}\"\nmodel = \"llama3.2\"\n[llm]\nmax_retries = 0\n");
    if offline {
        text.push_str(&format!("[local_model]\npython = {:?}\n", support::local_llm_python()));
    }
    let settings = toml::from_str(&text).unwrap();
    Companion::open(CompanionOptions::new(dir.to_path_buf(), settings)).await.unwrap()
}

#[tokio::test]
async fn with_the_provider_down_the_offline_model_answers_and_the_header_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    // Checked at start: not "Ready · llama3.2".
    let checked = core.models().check().await;
    assert!(
        matches!(&checked, ModelStatus::Unavailable { message } if message.contains("\"ollama\" is not answering") && message.contains("offline model answers")),
        "{checked:?}"
    );
    let outcome = core.send("Say hello in one short sentence.").await.expect("the offline model stands in");
    assert!(!outcome.reply.trim().is_empty());
    assert_eq!(outcome.meta.provider.as_deref(), Some("local"));
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("ollama"));
    assert!(matches!(core.model_status(), ModelStatus::Ready { provider, demo: true, .. } if provider == "local"), "{:?}", core.model_status());
    core.shutdown().await;
}

#[tokio::test]
async fn without_an_offline_model_a_down_provider_is_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), false).await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("could not reach the model server"), "{error}");
    assert!(matches!(core.model_status(), ModelStatus::Unavailable { .. }), "{:?}", core.model_status());
    let checked = core.models().check().await;
    assert!(matches!(&checked, ModelStatus::Unavailable { message } if message.contains("Start it, or pick another provider")), "{checked:?}");
}

#[tokio::test]
async fn a_reachable_provider_checks_ready_and_removing_it_clears_the_header() {
    let server = wiremock::MockServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("{}/v1", server.uri()), false).await;
    assert_eq!(core.models().check().await, ModelStatus::Ready { provider: "ollama".into(), model: "llama3.2".into(), demo: false });
    core.provider_admin().remove_provider("ollama").unwrap();
    assert!(!matches!(core.model_status(), ModelStatus::Ready { ref provider, .. } if provider == "ollama"), "{:?}", core.model_status());
}
