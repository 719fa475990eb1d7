//! Managing providers as the Settings view does: save (key to the keychain or the
//! session, never the file), test the connection, reorder, remove.

use std::sync::Arc;

use crate::support::{reply_events, stream, LogBuffer, Reply, ScriptedServer};
use sidecar::Companion;
use sidecar_domain::KeyStorage;
use sidecar_domain::Secrets;
use sidecar_llm::ProviderInput;
use sidecar_llm::ProviderRefusal;
use sidecar_settings::ProviderKind;
use sidecar_settings::Settings;

async fn open(dir: &std::path::Path) -> Arc<Companion> {
    // No keychain here: keys stay in memory for the session, as on a machine without one.
    crate::support::core().writes_to(&dir.join("config/settings.toml")).secrets(Arc::new(Secrets::new(false))).open_in(&dir.join("data")).await
}

fn input(id: &str, url: &str, key: Option<&str>) -> ProviderInput {
    ProviderInput {
        id: id.into(),
        kind: ProviderKind::Openai,
        base_url: url.into(),
        model: "gpt-4o-mini".into(),
        api_key: key.map(Into::into),
        api_key_env: None,
        tools: true,
        context_window: None,
        sampling: Default::default(),
        vision: None,
    }
}

#[tokio::test]
async fn a_saved_provider_answers_the_next_message_with_its_key_which_is_never_written_or_shown() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hi from the new provider."]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;

    let saved = core.provider_admin().save_provider(input("work", &server.base_url, Some("sk-secret-123"))).unwrap();
    assert_eq!(saved.warning, None);
    assert!(matches!(&saved.provider.key, KeyStorage::Session { reason } if reason.contains("SIDECAR_NO_KEYCHAIN")), "{:?}", saved.provider.key);
    let shown = serde_json::to_string(&core.provider_admin().providers()).unwrap();
    assert!(shown.contains("\"work\"") && !shown.contains("sk-secret-123"), "{shown}");
    let file = std::fs::read_to_string(dir.path().join("config/settings.toml")).unwrap();
    assert!(file.contains("id = \"work\"") && !file.contains("sk-secret-123"), "{file}");

    let outcome = core.send("hello").await.unwrap();
    assert_eq!(outcome.reply, "Hi from the new provider.");
    assert_eq!(outcome.meta.provider.as_deref(), Some("work"));
    let head = server.heads.lock().unwrap()[0].clone();
    assert!(head.contains("authorization: bearer sk-secret-123"), "{head}");
}

#[tokio::test]
async fn test_connection_reports_success_and_the_providers_error() {
    let good = ScriptedServer::start(vec![stream(reply_events(&["ok"]))]).await;
    let bad = ScriptedServer::start(vec![Reply::Status { code: 401, body: r#"{"error":{"message":"Incorrect API key"}}"#.into() }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let result = core.provider_admin().test_provider(input("a", &good.base_url, Some("k"))).await;
    assert!(result.ok, "{result:?}");
    assert!(result.message.contains("gpt-4o-mini answered"));
    let result = core.provider_admin().test_provider(input("b", &bad.base_url, Some("wrong"))).await;
    assert!(!result.ok);
    // In words, with what to do, and what the provider said; no status number (p5).
    assert!(
        result.message.contains("refused the API key; check it in Settings") && result.message.contains("It said: “Incorrect API key”"),
        "{}",
        result.message
    );
    assert!(!result.message.contains("HTTP") && !result.message.contains("401"), "{}", result.message);
    // Testing saves nothing.
    assert!(core.provider_admin().providers().is_empty());
}

#[tokio::test]
async fn bad_input_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    for (bad, why) in [
        (input("my provider", "https://x/v1", None), "letters, digits"),
        (input("local", "https://x/v1", None), "offline model"),
        (input("a", "ftp://x", None), "http"),
        (ProviderInput { model: " ".into(), ..input("a", "https://x/v1", None) }, "model"),
    ] {
        let error = core.provider_admin().save_provider(bad).unwrap_err();
        assert!(
            matches!(&error, ProviderRefusal::Name | ProviderRefusal::NameTaken | ProviderRefusal::Url | ProviderRefusal::NoModelName)
                && error.to_string().contains(why),
            "{error}"
        );
    }
}

#[tokio::test]
async fn reorder_and_remove_update_the_chain_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    core.provider_admin().save_provider(input("a", "https://a.example/v1", Some("ka"))).unwrap();
    core.provider_admin().save_provider(input("b", "https://b.example/v1", None)).unwrap();
    let ids = |core: &Companion| core.provider_admin().providers().into_iter().map(|p| p.id).collect::<Vec<_>>();
    assert_eq!(ids(&core), ["a", "b"]);
    core.provider_admin().order_providers(&["b".into(), "a".into()]).unwrap();
    assert_eq!(ids(&core), ["b", "a"]);
    core.provider_admin().remove_provider("a").unwrap();
    assert_eq!(ids(&core), ["b"]);
    let reloaded = Settings::load(&dir.path().join("config/settings.toml")).unwrap();
    assert_eq!(reloaded.chat_chain().iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["b"]);
    assert_eq!(core.provider_admin().providers()[0].key, KeyStorage::None);
}

#[tokio::test]
async fn an_unwritable_settings_file_still_applies_for_the_session_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("config");
    std::fs::write(&blocker, "not a directory").unwrap();
    let core = open(dir.path()).await;
    let saved = core.provider_admin().save_provider(input("a", "https://a.example/v1", None)).unwrap();
    let warning = saved.warning.expect("a warning");
    assert!(warning.contains("until Sidecar restarts"), "{warning}");
    assert_eq!(core.provider_admin().providers().len(), 1);
}

#[tokio::test(flavor = "current_thread")]
async fn the_key_never_reaches_the_logs() {
    let logs = LogBuffer::default();
    let _guard = tracing::subscriber::set_default(logs.subscriber());
    // Other tests' subscribers come and go on other threads: the callsites' cached
    // interest is made again with this one in place (a CI run once lost the warning).
    tracing::callsite::rebuild_interest_cache();

    let server =
        ScriptedServer::start(vec![stream(reply_events(&["fine"])), Reply::Status { code: 401, body: r#"{"error":{"message":"bad key"}}"#.into() }]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    core.provider_admin().save_provider(input("p", &server.base_url, Some("sk-log-canary-987"))).unwrap();
    core.send("hello").await.unwrap();
    let _ = core.send("again").await.unwrap_err();
    let _ = core.provider_admin().test_provider(input("p", &server.base_url, None)).await;
    tracing::debug!(providers = ?core.settings().providers, "settings dump");

    let text = logs.text();
    assert!(text.contains("model call failed"), "the failure was logged: {text}");
    assert!(!text.contains("sk-log-canary-987"), "{text}");
}

#[tokio::test]
async fn the_model_list_comes_from_the_server_with_the_key_and_a_refusal_is_said() {
    use wiremock::matchers::{header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .and(header("authorization", "Bearer sk-good"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "object": "list",
            "data": [{"id": "kimi-k2.5", "object": "model"}, {"id": "moonshot-v1-8k", "object": "model"}, {"id": "kimi-k2.5", "object": "model"}]
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET")).and(path("/v1/models")).respond_with(ResponseTemplate::new(401)).mount(&server).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let base = format!("{}/v1", server.uri());
    let models = core.provider_admin().list_models(input("moonshot", &base, Some("sk-good"))).await.unwrap();
    assert_eq!(models, ["kimi-k2.5", "moonshot-v1-8k"]);
    let refused = core.provider_admin().list_models(input("moonshot", &base, Some("sk-bad"))).await.unwrap_err().to_string();
    assert!(refused.contains("refused the API key"), "{refused}");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let down = core.provider_admin().list_models(input("x", &format!("http://127.0.0.1:{closed}/v1"), None)).await.unwrap_err().to_string();
    assert!(down.contains("nothing is listening"), "{down}");
}

#[tokio::test]
async fn local_servers_are_found_with_their_models_and_silent_ports_are_not() {
    use sidecar_llm::preset;
    use sidecar_llm::servers_among;
    use sidecar_llm::Preset;
    use sidecar_llm::PRESETS;
    let ollama = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/v1/models"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"data": [{"id": "qwen3:4b"}, {"id": "llama3.2:latest"}]})))
        .mount(&ollama)
        .await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let at = |id: &str, url: String| Preset { base_url: Box::leak(url.into_boxed_str()), ..preset(id).unwrap().clone() };
    let candidates = [at("ollama", format!("{}/v1", ollama.uri())), at("lmstudio", format!("http://127.0.0.1:{closed}/v1"))];
    let found = servers_among(&reqwest::Client::new(), candidates.iter()).await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].id.as_str(), found[0].label.as_str()), ("ollama", "Ollama"));
    assert_eq!(found[0].models, ["llama3.2:latest", "qwen3:4b"]);
    // The presets the welcome offers, each with its window.
    for id in ["moonshot", "gemini", "groq", "mistral"] {
        let p = preset(id).unwrap();
        assert!(p.context_window >= 128_000 && p.base_url.starts_with("https://") && !p.local, "{p:?}");
    }
    assert_eq!(PRESETS[0].id, "moonshot", "the seeds' default model comes first");
}
