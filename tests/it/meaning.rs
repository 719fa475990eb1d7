//! Recall by meaning with the real local embedder (multilingual-e5-small through the
//! vendored engine, weights from the venv `make test` sets up), an OpenAI-compatible
//! endpoint on loopback, and the fallback to words when neither can run.

use std::sync::Arc;

use sidecar::Companion;
use sidecar_memory::EmbedderChoice;
use sidecar_memory::MeaningState;
use sidecar_memory::MemoryEvent;
use sidecar_memory::RecallMode;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// Recall's ranking, run with each built-in embedder.
mod recall;

/// A companion whose embedder is the local one.
async fn open_local(dir: &std::path::Path) -> Arc<Companion> {
    crate::support::core().settings("[user]\ntimezone = \"Europe/Madrid\"\n").offline().open_in(dir).await
}

pub(crate) fn lines(messages: &[(&str, &str)]) -> Vec<u8> {
    messages
        .iter()
        .enumerate()
        .map(|(i, (role, content))| serde_json::json!({"role": role, "content": content, "id": format!("m{i}")}).to_string() + "\n")
        .collect::<String>()
        .into_bytes()
}

pub(crate) const HISTORY: &[(&str, &str)] = &[
    ("user", "Mi hermana Laura empezó a trabajar como enfermera en el hospital La Fe."),
    ("assistant", "¡Qué buena noticia para Laura!"),
    ("user", "Yesterday I fixed the kitchen tap with a new washer."),
    ("assistant", "Nice, dripping taps are the worst."),
    ("user", "Estoy leyendo una novela de ciencia ficción muy larga."),
    ("assistant", "¿Cuál es?"),
    ("user", "We might go hiking in the Pyrenees in spring."),
    ("assistant", "That sounds lovely."),
];

#[tokio::test]
async fn words_alone_put_the_best_match_by_words_first() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    let history = [
        ("user", "The dentist was busy, so nothing happened there."),
        ("user", "I went to the gym and then the library and later the market."),
        ("user", "My dentist appointment moved to Friday at ten."),
        ("user", "Friday night we watched a film."),
    ];
    core.data().import_jsonl(&lines(&history)).await.unwrap();
    let words = core.recall_service().search_in("when is my dentist appointment on Friday?", 2000, RecallMode::Words).await.unwrap();
    assert!(words.hits[0].snippet.contains("appointment"), "the match holding every word comes first: {:?}", words.hits);
}

#[tokio::test]
async fn a_full_budget_still_counts_every_match_it_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    let history: Vec<(String, String)> =
        (0..80).map(|i| ("user".to_string(), format!("Note {i}: the dentist said the filling on tooth {i} needs another look in a few weeks."))).collect();
    let history: Vec<(&str, &str)> = history.iter().map(|(r, c)| (r.as_str(), c.as_str())).collect();
    core.data().import_jsonl(&lines(&history)).await.unwrap();
    core.meaning().catch_up(None).await.unwrap();
    for mode in [RecallMode::Words, RecallMode::Hybrid] {
        let found = core.recall_service().search_in("what did the dentist say?", 300, mode).await.unwrap();
        assert!(found.tokens <= 300 && !found.hits.is_empty(), "{found:?}");
        // Every match the search ranked is either shown or counted as left out, though
        // the packing stops reading once the budget is plainly full.
        let matches = if mode == RecallMode::Words { 50 } else { 80 };
        assert!(found.hits.len() + found.omitted >= matches, "{mode:?}: {} shown, {} left out", found.hits.len(), found.omitted);
    }
}

#[tokio::test]
async fn work_resumes_after_a_restart_and_nothing_is_embedded_twice() {
    let dir = tempfile::tempdir().unwrap();
    {
        let core = open_local(dir.path()).await;
        core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
        assert_eq!(core.meaning().catch_up(Some(3)).await.unwrap(), 3);
        let status = core.meaning().status().await;
        assert_eq!((status.embedded, status.total), (3, HISTORY.len() as u64));
    }
    let core = open_local(dir.path()).await;
    assert_eq!(core.meaning().catch_up(None).await.unwrap(), HISTORY.len() - 3, "only what was missing");
    assert_eq!(core.meaning().catch_up(None).await.unwrap(), 0);
    let status = core.meaning().status().await;
    assert_eq!((status.embedded, status.total), (HISTORY.len() as u64, HISTORY.len() as u64));
}

/// Everyday chat that says the same few things again and again, in a few words each.
pub(crate) fn chatter() -> Vec<(String, String)> {
    let templates =
        ["Saw a cute {} in the park today.", "My friend's {} was barking all night.", "The {} at the shop was so sweet.", "Watched a video about a {} again."];
    let animals = ["dog", "puppy", "cat", "kitten", "rabbit", "hamster"];
    let mut said = Vec::new();
    for round in 0..3 {
        for template in templates {
            for animal in animals {
                said.push(("user".to_string(), template.replace("{}", animal) + if round == 0 { "" } else { " Anyway." }));
                said.push(("assistant".to_string(), "Nice!".to_string()));
            }
        }
    }
    said
}

#[tokio::test]
async fn densities_are_measured_again_when_missing_after_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let history = chatter();
    let pairs: Vec<(&str, &str)> = history.iter().map(|(r, c)| (r.as_str(), c.as_str())).collect();
    let unmeasured = |core: &Arc<Companion>| {
        let pool = core.store().pool().clone();
        async move { sqlx::query_as::<_, (i64,)>("SELECT count(*) FROM embeddings WHERE density IS NULL").fetch_one(&pool).await.unwrap().0 }
    };
    {
        let core = open_local(dir.path()).await;
        core.data().import_jsonl(&lines(&pairs)).await.unwrap();
        core.meaning().catch_up(None).await.unwrap();
        assert_eq!(unmeasured(&core).await, 0, "every vector has its density");
        // As a database from before densities existed.
        sqlx::query("UPDATE embeddings SET density = NULL").execute(core.store().pool()).await.unwrap();
    }
    let core = open_local(dir.path()).await;
    assert_eq!(core.meaning().catch_up(None).await.unwrap(), 0, "nothing is embedded again");
    assert_eq!(unmeasured(&core).await, 0, "the densities are measured again");
}

#[tokio::test]
async fn facts_get_vectors_and_a_deleted_fact_loses_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.remember("Es alérgica a los cacahuetes", sidecar_memory::Category::Health).await.unwrap();
    core.meaning().catch_up(None).await.unwrap();
    let hits = core.recall_service().search("peanut allergy", 500).await.unwrap().hits;
    assert_eq!(hits[0].source, "fact", "{hits:?}");
    let fact = core.knowledge().facts().remove(0);
    core.knowledge().delete(fact.line, &fact.fact.text).await.unwrap();
    core.meaning().catch_up(None).await.unwrap();
    assert_eq!(core.meaning().status().await.embedded, 0);
    assert!(core.recall_service().search("peanut allergy", 500).await.unwrap().hits.is_empty());
}

#[tokio::test]
async fn a_damaged_weights_file_is_refused_and_recall_keeps_working_by_words() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let damaged = dir.path().join("e5-small-q4.bin");
    std::fs::write(&damaged, b"E5S1 truncated").unwrap();
    core.meaning().configure(EmbedderChoice::Local(Ok(damaged))).await;

    let results = core.recall_service().search("kitchen tap", 500).await.unwrap();
    assert!(results.hits[0].snippet.contains("[kitchen] [tap]"), "{:?}", results.hits);
    let why = results.words_only.expect("it says meaning was not used");
    assert!(why.contains("damaged") && why.contains("make run"), "{why}");
    assert!(matches!(core.meaning().state(), MeaningState::Unavailable { .. }));
}

/// An OpenAI-compatible embeddings endpoint whose vectors put texts sharing their first
/// letter close together.
async fn embeddings_server(key: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/embeddings"))
        .and(header("authorization", format!("Bearer {key}").as_str()))
        .respond_with(|request: &Request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            let data: Vec<serde_json::Value> = body["input"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(index, text)| {
                    let first = text.as_str().unwrap().to_lowercase().bytes().next().unwrap_or(b'a');
                    let mut vector = vec![0.01f32; 8];
                    vector[usize::from(first % 8)] = 3.0;
                    serde_json::json!({"object": "embedding", "index": index, "embedding": vector})
                })
                .rev()
                .collect();
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"object": "list", "data": data, "model": body["model"]}))
        })
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_new_model_embeds_everything_again_while_recall_uses_words_and_the_old_vectors_stay_until_it_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    core.meaning().catch_up(None).await.unwrap();

    let server = embeddings_server("k-123").await;
    let mut progress = core.events().subscribe();
    let url = format!("{}/v1", server.uri());
    let new_model = format!("{url}|tiny-embed");
    core.meaning().configure(EmbedderChoice::Remote { url: url.clone(), model: "tiny-embed".into(), api_key: Some("k-123".into()) }).await;
    let old_vectors = || async {
        let (rows,): (i64,) = sqlx::query_as("SELECT count(*) FROM embeddings WHERE model <> ?").bind(&new_model).fetch_one(core.store().pool()).await.unwrap();
        rows
    };

    // Half way (a quit, or a slow server): the old vectors are all kept, and recall
    // says it uses words alone rather than rank only what was embedded first.
    assert_eq!(core.meaning().catch_up(Some(2)).await.unwrap(), 2);
    assert_eq!(old_vectors().await, HISTORY.len() as i64);
    let results = core.recall_service().search("hiking", 500).await.unwrap();
    assert!(results.hits[0].snippet.contains("[hiking]"), "words still find it");
    let why = results.words_only.expect("it says meaning is not used yet");
    assert!(why.contains("indexed again") && why.contains(&format!("2 of {}", HISTORY.len())), "{why}");

    assert_eq!(core.meaning().catch_up(None).await.unwrap(), HISTORY.len() - 2);
    let status = core.meaning().status().await;
    assert_eq!(status.embedded, HISTORY.len() as u64);
    assert_eq!(status.state, MeaningState::Ready { model: new_model.clone() });
    let mut last = None;
    while let Ok(event) = progress.try_recv() {
        if let sidecar::CoreEvent::Memory(MemoryEvent::MemoryIndexing { embedded, total }) = event {
            last = Some((embedded, total));
        }
    }
    assert_eq!(last, Some((HISTORY.len() as u64, HISTORY.len() as u64)), "progress was published");
    assert_eq!(old_vectors().await, 0, "done: no vector of the old model is left");
    assert_eq!(core.recall_service().search("hiking", 500).await.unwrap().words_only, None, "meaning is used again");
}

#[tokio::test]
async fn an_endpoint_that_refuses_the_key_or_is_down_leaves_recall_on_words() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let server = embeddings_server("right").await;
    core.meaning().configure(EmbedderChoice::Remote { url: format!("{}/v1", server.uri()), model: "m".into(), api_key: Some("wrong".into()) }).await;
    let results = core.recall_service().search("hiking", 500).await.unwrap();
    assert!(results.hits[0].snippet.contains("[hiking]"));
    assert!(results.words_only.as_deref().is_some_and(|w| w.contains("404")), "{:?}", results.words_only);

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    core.meaning().configure(EmbedderChoice::Remote { url: format!("http://{closed}/v1"), model: "m".into(), api_key: None }).await;
    let results = core.recall_service().search("hiking", 500).await.unwrap();
    assert!(!results.hits.is_empty());
    assert!(results.words_only.as_deref().is_some_and(|w| w.contains("nothing answers")), "{:?}", results.words_only);
}

#[tokio::test]
async fn the_second_hop_embeds_its_names_with_e5_small_and_searches_them_by_words_with_embeddinggemma() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let server = embeddings_server("k").await;
    let calls = || async { server.received_requests().await.unwrap().len() };
    // A weak first pass ("hiking in spring" matches little) that brings names to hop to.
    let question = "hiking in spring";
    for (model, embeddings) in [("light-model", 2), ("embeddinggemma-300m", 1)] {
        let remote = EmbedderChoice::Remote { url: format!("{}/v1", server.uri()), model: model.into(), api_key: Some("k".into()) };
        core.meaning().configure(remote).await;
        core.meaning().catch_up(None).await.unwrap();
        let before = calls().await;
        let found = core.recall_service().search(question, 500).await.unwrap();
        assert_eq!(found.words_only, None);
        assert!(!found.hits.is_empty());
        assert_eq!(calls().await - before, embeddings, "{model}: the question, and the hop's names only when its meaning counts");
    }
}

#[tokio::test]
async fn a_question_asked_again_is_not_embedded_again_until_the_model_changes() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let server = embeddings_server("k").await;
    let remote = |model: &str| EmbedderChoice::Remote { url: format!("{}/v1", server.uri()), model: model.into(), api_key: Some("k".into()) };
    core.meaning().configure(remote("first")).await;
    core.meaning().catch_up(None).await.unwrap();
    let calls = || async { server.received_requests().await.unwrap().len() };

    // (A weak first pass embeds the names of a second hop as well.)
    let before = calls().await;
    let first = core.recall_service().search("hiking in spring", 500).await.unwrap();
    assert_eq!(first.words_only, None);
    let asked = calls().await;
    assert!(asked > before, "the question is embedded");
    let again = core.recall_service().search("hiking in spring", 500).await.unwrap();
    assert_eq!(calls().await, asked, "asked again, its vectors are reused");
    assert_eq!(again.hits, first.hits);
    core.recall_service().search("the kitchen tap", 500).await.unwrap();
    assert!(calls().await > asked, "another question is embedded");

    // Another model: its own vectors, the question embedded again by it.
    core.meaning().configure(remote("second")).await;
    core.meaning().catch_up(None).await.unwrap();
    let before = calls().await;
    core.recall_service().search("hiking in spring", 500).await.unwrap();
    assert!(calls().await > before);
}

/// Issue 68: under load, the question's embedding once missed its limit and recall fell
/// back to words. It is asked a second time first; only a second miss means words.
#[tokio::test]
async fn a_question_whose_embedding_misses_its_limit_once_is_asked_again_before_words() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_local(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let server = embeddings_server("k").await;
    core.meaning().configure(EmbedderChoice::Remote { url: format!("{}/v1", server.uri()), model: "m".into(), api_key: Some("k".into()) }).await;
    core.meaning().catch_up(None).await.unwrap();
    let question = "hiking with the kayak club";
    // The first time it is asked, the server is busy past the client's limit.
    Mock::given(method("POST"))
        .and(path("/v1/embeddings"))
        .and(wiremock::matchers::body_string_contains(question))
        .respond_with(ResponseTemplate::new(200).set_delay(std::time::Duration::from_secs(25)))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    let found = core.recall_service().search(question, 500).await.unwrap();
    assert_eq!(found.words_only, None, "asked again, meaning was used");
    let asked = server.received_requests().await.unwrap().iter().filter(|r| String::from_utf8_lossy(&r.body).contains(question)).count();
    assert_eq!(asked, 2, "once, then again");
}
