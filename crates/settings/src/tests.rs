//! The settings loader: defaults, errors that name the file and line, and the
//! environment's overrides.

use super::*;

fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
}

#[test]
fn missing_file_gives_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::from_file(&dir.path().join("nope.toml")).unwrap();
    assert!(s.providers.is_empty());
    assert_eq!(s.llm, LlmSettings::default());
}

#[test]
fn malformed_file_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    std::fs::write(&path, "[[providers]]\nid = \"a\"\nbase_url = \n").unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(err.contains("settings.toml"), "{err}");
    assert!(err.contains("line 3"), "{err}");
}

#[test]
fn routing_to_unknown_provider_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    std::fs::write(&path, "[routing]\nchat = [\"ghost\"]\n").unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(err.contains("ghost"), "{err}");
}

#[test]
fn env_base_url_adds_first_provider() {
    let mut s: Settings = toml::from_str(
        r#"
        [[providers]]
        id = "primary"
        base_url = "http://127.0.0.1:9/v1"
        model = "m"
        [routing]
        chat = ["primary"]
        "#,
    )
    .unwrap();
    s.apply_env(env(&[(LLM_BASE_URL_ENV, "http://127.0.0.1:1234/v1"), (LLM_MODEL_ENV, "tiny"), (LLM_API_KEY_ENV, "sk-secret")]));
    let chain = s.chat_chain();
    assert_eq!(chain[0].id, "env");
    assert_eq!(chain[0].model, "tiny");
    assert_eq!(chain[0].resolved_api_key().as_deref(), Some("sk-secret"));
    assert_eq!(chain[1].id, "primary");
    // The key must never appear through Debug.
    assert!(!format!("{:?}", chain[0]).contains("sk-secret"));
}

#[test]
fn env_model_alone_adjusts_first_chat_provider() {
    let mut s: Settings = toml::from_str(
        r#"
        [[providers]]
        id = "a"
        base_url = "http://x/v1"
        model = "old"
        "#,
    )
    .unwrap();
    s.apply_env(env(&[(LLM_MODEL_ENV, "new")]));
    assert_eq!(s.chat_chain()[0].model, "new");
}

#[test]
fn a_refused_value_names_its_key_in_either_language() {
    use sidecar_domain::Worded;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    std::fs::write(&path, "[llm]\nmax_retries = 99\n").unwrap();
    let error = Settings::check_file(&path).unwrap_err();
    assert!(matches!(&error, SettingsError::Invalid { refusal: Refusal::Whole { value: 99, .. }, .. }), "{error:?}");
    assert!(error.to_string().ends_with("llm.max_retries must be from 0 to 10, not 99"), "{error}");
    assert!(error.spanish().ends_with("llm.max_retries debe estar entre 0 y 10, no 99"), "{}", error.spanish());
    std::fs::write(&path, "[[providers]]\nid = \"a\"\nbase_url = \"ftp://x\"\nmodel = \"m\"\n").unwrap();
    let error = Settings::check_file(&path).unwrap_err();
    assert!(error.spanish().ends_with("proveedor \"a\": base_url debe empezar por http:// o https://"), "{}", error.spanish());
}
