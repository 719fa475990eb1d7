//! Test support for what crosses crates: a core in one call ([`core`]), fake peers (the
//! Bot API, a web site, a CalDAV server), the offline runtime's place. The scripted model
//! on loopback and its events are `sidecar-testkit`'s, which the crates' own tests share.

#![allow(dead_code)]

pub(crate) mod asker;
pub(crate) mod bot_api;
mod core;
pub(crate) mod dovecot;
pub(crate) mod file_server;
pub(crate) mod notifications;
pub(crate) mod plan_tasks;
pub(crate) mod radicale;
pub(crate) mod runtime;
pub(crate) mod test_clock;
pub(crate) mod token_proxy;
pub(crate) mod tools;
pub(crate) mod web_site;
#[allow(unused_imports)]
pub(crate) use core::{core, CoreBuilder, TestCore};
pub(crate) use runtime::runtime;

/// `[memory.embeddings]` on the light embedder (multilingual-e5-small). With the runtime
/// in place, "automatic" would start EmbeddingGemma's 1 GB server on a computer with the
/// memory for it; only what is about EmbeddingGemma wants that.
pub(crate) const LIGHT_EMBEDDER: &str = "[memory.embeddings]\nbackend = \"local\"\n";

/// The embedder the facts tests run with: `SIDECAR_TEST_EMBEDDER` (`local`, the default:
/// multilingual-e5-small; `gemma`: EmbeddingGemma, the default of a machine with 8 GB).
/// `make test` runs them with each (issue 68: a rule tuned on one embedder failed with
/// the other).
pub(crate) fn test_backend() -> String {
    std::env::var("SIDECAR_TEST_EMBEDDER").unwrap_or_else(|_| "local".into())
}

/// `settings` on the light embedder (see [`LIGHT_EMBEDDER`]).
pub(crate) fn light_embedder(settings: &mut sidecar_settings::Settings) {
    settings.memory.embeddings.backend = sidecar_settings::EmbeddingsBackend::Local;
}

/// A companion in `dir` on the embedder `backend` names (`local`, `gemma`…), in Madrid,
/// with the offline runtime beside it.
pub(crate) async fn open_on(dir: &std::path::Path, backend: &str) -> std::sync::Arc<sidecar::Companion> {
    core().settings(&format!("[user]\ntimezone = \"Europe/Madrid\"\n[memory.embeddings]\nbackend = \"{backend}\"\n")).with_runtime().open_in(dir).await
}

pub(crate) use sidecar_testkit::{anthropic_frame, delta, finish, python, read_request, reply_events, stream, tool_call_events, usage, Reply, ScriptedServer};

/// A scripted model's view of a request: what the user said last (as JSON text), and
/// whether the last message is a tool's answer (the model is being asked to go on).
pub(crate) fn last_said(request: &serde_json::Value) -> (String, bool) {
    let messages = request["messages"].as_array();
    let said = messages.and_then(|m| m.iter().rev().find(|m| m["role"] == "user")).map(|m| m["content"].to_string()).unwrap_or_default();
    (said, messages.and_then(|m| m.last()).is_some_and(|m| m["role"] == "tool"))
}

/// What a message said, without the per-turn block Sidecar adds to the newest user message
/// of a request (the time, the plan, corrections).
pub(crate) fn said(message: &serde_json::Value) -> String {
    sidecar_llm::per_turn::split(message["content"].as_str().unwrap_or_default()).0.to_string()
}

/// The per-turn block of a request's newest user message that carries one (a turn's own
/// message; Sidecar's "go on with your plan" after it carries none).
pub(crate) fn late_block(request: &serde_json::Value) -> String {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .filter(|m| m["role"] == "user")
        .find_map(|m| sidecar_llm::per_turn::split(m["content"].as_str().unwrap_or_default()).1)
        .unwrap_or_default()
        .to_string()
}

/// A companion on `dir` with the settings in `config`, which it also writes to (as the
/// app does when Settings changes something).
pub(crate) async fn open_with_config(dir: &std::path::Path, config: &std::path::Path) -> std::sync::Arc<sidecar::Companion> {
    core().config_file(config).open_in(dir).await
}

/// Collects everything logged, at every level, into a shared buffer.
#[derive(Clone, Default)]
pub(crate) struct LogBuffer(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    /// Everything logged so far.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// A subscriber writing every level here, for `tracing::subscriber::set_default`.
    pub(crate) fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync {
        let writer = self.clone();
        tracing_subscriber::fmt().with_max_level(tracing::Level::TRACE).with_ansi(false).with_writer(move || writer.clone()).finish()
    }
}

/// A person reading (CMU Sphinx's test data, Debian's `pocketsphinx-testdata`) as a phone
/// sends it: Opus in an Ogg stream, made by `opusenc`. Both are installed by `make test`.
pub(crate) fn voice_note(clip: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("note.ogg");
    let wav = format!("/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-{clip}.wav");
    let made = std::process::Command::new("opusenc").args(["--quiet", "--bitrate", "24", &wav]).arg(&note).status().expect("opusenc (opus-tools)");
    assert!(made.success());
    std::fs::read(note).unwrap()
}
