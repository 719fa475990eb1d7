//! Sampling per model: what a provider is set to is what its requests carry, a
//! model's own reply length replaces the general one for chat replies only, what is
//! unset is not sent, and the settings survive the file.

use sidecar::Companion;
use sidecar_llm::ProviderInput;
use sidecar_llm::ProviderRefusal;
use sidecar_settings::llm::sampling::Sampling;
use sidecar_settings::ProviderKind;
use sidecar_settings::Settings;

use crate::support::{reply_events, stream, ScriptedServer};

async fn open(dir: &std::path::Path, provider: &str) -> std::sync::Arc<Companion> {
    let config = dir.join("settings.toml");
    std::fs::write(&config, format!("[[providers]]\nid = \"p\"\nbase_url = \"{provider}\"\nmodel = \"m\"\n[llm]\nmax_tokens = 1024\n")).unwrap();
    crate::support::core().settings(&std::fs::read_to_string(&config).unwrap()).writes_to(&config).open_in(&dir.join("data")).await
}

fn input(url: &str, sampling: Sampling) -> ProviderInput {
    ProviderInput {
        id: "p".into(),
        kind: ProviderKind::Openai,
        base_url: url.into(),
        model: "m".into(),
        api_key: None,
        api_key_env: None,
        tools: true,
        context_window: Some(32_768),
        sampling,
        vision: None,
    }
}

#[tokio::test]
async fn a_providers_sampling_goes_with_its_requests_and_stays_in_the_file() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["one"])), stream(reply_events(&["two"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;

    // Nothing set: nothing sent but the general reply length.
    core.send("hello").await.unwrap();
    let sent = server.last_request();
    assert_eq!(sent["max_tokens"], 1024);
    for unset in ["temperature", "top_p", "repeat_penalty"] {
        assert!(sent.get(unset).is_none(), "{unset} sent unset: {sent}");
    }

    let sampling = Sampling { temperature: Some(0.3), top_p: Some(0.9), repeat_penalty: Some(1.1), max_tokens: Some(4096) };
    core.provider_admin().save_provider(input(&server.base_url, sampling)).unwrap();
    core.send("again").await.unwrap();
    let sent = server.last_request();
    assert_eq!(sent["temperature"].as_f64().map(|t| (t * 100.0).round()), Some(30.0), "{sent}");
    assert_eq!(sent["top_p"].as_f64().map(|t| (t * 100.0).round()), Some(90.0));
    assert_eq!(sent["repeat_penalty"].as_f64().map(|t| (t * 100.0).round()), Some(110.0));
    // The model's own reply length replaces the general 1,024 for a chat reply.
    assert_eq!(sent["max_tokens"], 4096);

    let file = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(file.contains("[providers.sampling]") && file.contains("temperature = 0.3") && file.contains("context_window = 32768"), "{file}");
    let reread: Settings = toml::from_str(&file).unwrap();
    assert_eq!(reread.providers[0].sampling, sampling);
    let view = core.provider_admin().providers();
    assert_eq!(view[0].sampling, sampling);
}

#[tokio::test]
async fn values_out_of_range_are_refused_and_nothing_is_saved() {
    let server = ScriptedServer::start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let before = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    let hot = core.provider_admin().save_provider(input(&server.base_url, Sampling { temperature: Some(5.0), ..Sampling::default() })).unwrap_err();
    assert!(matches!(hot, ProviderRefusal::Range(_)) && hot.to_string() == "temperature must be from 0 to 2", "{hot}");
    assert_eq!(sidecar_domain::said_whole(&hot, sidecar::words::Lang::Es), "la temperatura debe ir de 0 a 2");
    let tiny = core.provider_admin().save_provider(ProviderInput { context_window: Some(10), ..input(&server.base_url, Sampling::default()) }).unwrap_err();
    assert!(tiny.to_string().starts_with("context must be from 512"), "{tiny}");
    assert_eq!(std::fs::read_to_string(dir.path().join("settings.toml")).unwrap(), before);
}

#[test]
fn a_catalogue_model_gets_its_makers_sampling_unless_the_user_set_one() {
    use sidecar_llm::LocalChoice;
    use sidecar_settings::LocalModelSettings;
    let file = sidecar_llm::CATALOGUE.iter().find(|e| e.id == "llama3.2-3b").unwrap().file;
    let llama = LocalModelSettings { model: Some(format!("/models/{file}").into()), ..LocalModelSettings::default() };
    let chosen = LocalChoice::from_settings(&llama);
    assert_eq!((chosen.sampling.temperature, chosen.sampling.top_p), (Some(0.6), Some(0.9)));
    let mine = LocalModelSettings { sampling: Sampling { temperature: Some(0.2), ..Sampling::default() }, ..llama };
    let chosen = LocalChoice::from_settings(&mine);
    assert_eq!((chosen.sampling.temperature, chosen.sampling.top_p), (Some(0.2), Some(0.9)));
    // A file from elsewhere: the server's own defaults.
    let other = LocalModelSettings { model: Some("/models/mine.gguf".into()), ..LocalModelSettings::default() };
    assert!(LocalChoice::from_settings(&other).sampling.is_unset());
}
