//! EmbeddingGemma as a user chooses it in Settings: llama.cpp's server from the runtime
//! folder (`make` converts the model into it), started on first use, started again when
//! it dies, and its vectors kept under one name however its port changes.

use std::sync::Arc;

use sidecar::Companion;
use sidecar_memory::Category;
use sidecar_memory::MeaningState;
use sidecar_memory::RecallMode;
use sidecar_memory::GEMMA_MODEL;

use crate::meaning::{lines, HISTORY};

async fn open_gemma(dir: &std::path::Path) -> Arc<Companion> {
    crate::support::core().settings("[user]\ntimezone = \"Europe/Madrid\"\n[memory.embeddings]\nbackend = \"gemma\"\n").with_runtime().open_in(dir).await
}

/// The llama-server writing its log to `log`: the one this companion started.
fn server_logging_to(log: &std::path::Path) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/fd/1")).is_ok_and(|out| out == log))
        .collect()
}

#[tokio::test]
async fn embeddinggemma_finds_a_spanish_turn_for_an_english_question_survives_a_crash_and_keeps_its_vectors_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let core = open_gemma(dir.path()).await;
        core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
        assert_eq!(core.meaning().catch_up(None).await.unwrap(), HISTORY.len());
        assert_eq!(core.meaning().state(), MeaningState::Ready { model: GEMMA_MODEL.into() });
        let log = std::fs::read_to_string(dir.path().join("logs/embedder.log")).unwrap();
        assert!(log.contains("listening on http://127.0.0.1:"), "{log}");
        // Another program on the computer, or a web page, cannot embed with it (issue 69, 13).
        let address = sidecar_llm::listening_address(&log).unwrap();
        let stranger = reqwest::Client::new()
            .post(format!("http://{address}/v1/embeddings"))
            .json(&serde_json::json!({"input": ["hola"], "model": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(stranger.status(), 401);

        let question = "What did I say about my sibling's new job?";
        let meaning = core.recall_service().search_in(question, 2000, RecallMode::Meaning).await.unwrap();
        assert!(meaning.hits[0].snippet.contains("enfermera"), "{:?}", meaning.hits);
        let hybrid = core.recall_service().search(question, 2000).await.unwrap();
        assert_eq!(hybrid.words_only, None);
        assert!(hybrid.hits[0].snippet.contains("enfermera"), "{:?}", hybrid.hits);

        // Killed from outside: the next search starts it again instead of falling to words.
        let servers = server_logging_to(&dir.path().join("logs/embedder.log"));
        assert_eq!(servers.len(), 1, "one server for this companion: {servers:?}");
        unsafe { libc::kill(servers[0], libc::SIGKILL) };
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let again = core.recall_service().search("¿Qué estoy leyendo?", 2000).await.unwrap();
        assert_eq!(again.words_only, None, "the server was started again");
        assert!(again.hits[0].snippet.contains("novela"), "{:?}", again.hits);
    }
    // A new start serves on another port; the vectors are the same model's, kept.
    let core = open_gemma(dir.path()).await;
    assert_eq!(core.meaning().catch_up(None).await.unwrap(), 0, "nothing is embedded again");
    assert_eq!(core.meaning().status().await.embedded, HISTORY.len() as u64);
}

/// The current facts' texts.
fn current(core: &Companion) -> Vec<String> {
    core.knowledge().facts().into_iter().filter(|f| f.fact.superseded.is_none()).map(|f| f.fact.text).collect()
}

#[tokio::test]
async fn with_embeddinggemma_facts_follow_its_own_thresholds_a_repeat_merges_a_change_replaces_and_a_sibling_stays_apart() {
    // The seed's Bug 8, Bug 1 and Bug 11: e5-small's thresholds would leave the first
    // two as separate facts (EmbeddingGemma puts them at cosines 0.80 and 0.81).
    let cases = [
        ("Tomo café todos los días", Category::Health, "Me encanta el café", Category::Preferences, vec!["Tomo café todos los días"]),
        (
            "Trabajo en Google",
            Category::Work,
            "Renuncié a Google, ahora trabajo en una startup",
            Category::Work,
            vec!["Renuncié a Google, ahora trabajo en una startup"],
        ),
        (
            "Su hermano vive en Madrid",
            Category::Relationships,
            "Su hermana vive en Madrid",
            Category::Relationships,
            vec!["Su hermano vive en Madrid", "Su hermana vive en Madrid"],
        ),
    ];
    for (first, first_category, second, second_category, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let core = open_gemma(dir.path()).await;
        core.remember(first, first_category).await.unwrap();
        let outcome = core.remember(second, second_category).await.unwrap();
        let mut facts = current(&core);
        facts.sort();
        let mut expected: Vec<String> = expected.into_iter().map(str::to_string).collect();
        expected.sort();
        assert_eq!(facts, expected, "{first:?} then {second:?}: {outcome:?}");
        assert_eq!(core.meaning().state(), MeaningState::Ready { model: GEMMA_MODEL.into() });
    }
}

#[tokio::test]
async fn a_damaged_embeddinggemma_file_says_what_to_do_and_recall_keeps_working_by_words() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    std::os::unix::fs::symlink(crate::support::runtime().join("llama-server"), runtime.join("llama-server")).unwrap();
    std::fs::write(runtime.join("embeddinggemma-300m-q8_0.gguf"), b"GGUF truncated").unwrap();
    let core = crate::support::core()
        .settings("[user]\ntimezone = \"Europe/Madrid\"\n[memory.embeddings]\nbackend = \"gemma\"\n")
        .edit(|settings| settings.local_model.runtime = Some(runtime))
        .open_in(&dir.path().join("data"))
        .await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();

    let results = core.recall_service().search("kitchen tap", 500).await.unwrap();
    assert!(results.hits[0].snippet.contains("tap"), "{:?}", results.hits);
    let why = results.words_only.expect("it says meaning was not used");
    assert!(why.contains("may be damaged") && why.contains("reinstall Sidecar") && why.contains("embedder.log"), "{why}");
    assert!(matches!(core.meaning().state(), MeaningState::Unavailable { .. }), "{:?}", core.meaning().state());
}

/// "Automatic" on a computer with memory for EmbeddingGemma, whose file turns out
/// damaged: the light embedder takes its place, so recall still works by meaning.
#[tokio::test]
async fn automatic_falls_back_to_the_light_embedder_when_embeddinggemma_does_not_start() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    for file in ["llama-server", "e5-small-q4.bin"] {
        std::os::unix::fs::symlink(crate::support::runtime().join(file), runtime.join(file)).unwrap();
    }
    std::fs::write(runtime.join("embeddinggemma-300m-q8_0.gguf"), b"GGUF truncated").unwrap();
    let in_runtime = runtime.clone();
    let core = crate::support::core()
        .settings("[user]\ntimezone = \"Europe/Madrid\"\n")
        .edit(move |settings| settings.local_model.runtime = Some(in_runtime))
        .open_in(&dir.path().join("data"))
        .await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    // What "automatic" resolves to on a computer with the memory (the rule by memory is
    // the memory crate's unit test).
    let gemma = sidecar_memory::GemmaFiles::locate(Some(&runtime)).unwrap();
    let light = Ok(runtime.join("e5-small-q4.bin"));
    core.meaning().configure(sidecar_memory::EmbedderChoice::GemmaOrLight { gemma, light }).await;

    assert_eq!(core.meaning().catch_up(None).await.unwrap(), HISTORY.len());
    assert_eq!(core.meaning().state(), MeaningState::Ready { model: sidecar_memory::LOCAL_MODEL.into() });
    let results = core.recall_service().search("What did I say about my sibling's new job?", 500).await.unwrap();
    assert!(results.words_only.is_none(), "{:?}", results.words_only);
    assert!(results.hits[0].snippet.contains("enfermera"), "{:?}", results.hits);
    // Settings names the light one and says it stands in, where EmbeddingGemma suits.
    let view = core.meaning_setup().view().await;
    assert_eq!(view.automatic, sidecar_settings::EmbeddingsBackend::Local);
    assert_eq!(view.automatic_stands_in, sidecar_memory::suited(sidecar_llm::total_memory()) == view.built_in[1].backend);
}
