//! Fill-ins for the providers people use: where each one answers, a sensible first
//! model and its context window, and whether it needs a key. The Settings form and
//! the welcome offer these; the model list itself is fetched from the server.

use serde::Serialize;

use sidecar_settings::ProviderKind;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Preset {
    /// The provider id it is saved under.
    pub id: &'static str,
    pub label: &'static str,
    pub kind: ProviderKind,
    pub base_url: &'static str,
    pub model: &'static str,
    pub context_window: u32,
    /// The environment variable people usually keep its key in.
    pub key_env: Option<&'static str>,
    /// Where the provider hands out keys, for a newcomer who has none yet.
    pub key_page: Option<&'static str>,
    /// Runs on this machine (no key, no cost).
    pub local: bool,
}

const fn cloud(
    id: &'static str,
    label: &'static str,
    kind: ProviderKind,
    base_url: &'static str,
    model: &'static str,
    context_window: u32,
    (key_env, key_page): (&'static str, &'static str),
) -> Preset {
    Preset { id, label, kind, base_url, model, context_window, key_env: Some(key_env), key_page: Some(key_page), local: false }
}

const fn local(id: &'static str, label: &'static str, base_url: &'static str, model: &'static str, context_window: u32) -> Preset {
    Preset { id, label, kind: ProviderKind::Openai, base_url, model, context_window, key_env: None, key_page: None, local: true }
}

/// The presets, the seeds' default (Moonshot's Kimi) first.
pub const PRESETS: &[Preset] = &[
    cloud(
        "moonshot",
        "Moonshot (Kimi)",
        ProviderKind::Openai,
        "https://api.moonshot.ai/v1",
        "kimi-k2.5",
        262_144,
        ("MOONSHOT_API_KEY", "https://platform.moonshot.ai/console/api-keys"),
    ),
    cloud(
        "openai",
        "OpenAI",
        ProviderKind::Openai,
        "https://api.openai.com/v1",
        "gpt-4o-mini",
        128_000,
        ("OPENAI_API_KEY", "https://platform.openai.com/api-keys"),
    ),
    cloud(
        "anthropic",
        "Anthropic",
        ProviderKind::Anthropic,
        "https://api.anthropic.com",
        "claude-sonnet-4-5",
        200_000,
        ("ANTHROPIC_API_KEY", "https://console.anthropic.com/settings/keys"),
    ),
    cloud(
        "gemini",
        "Google Gemini",
        ProviderKind::Openai,
        "https://generativelanguage.googleapis.com/v1beta/openai",
        "gemini-2.5-flash",
        1_048_576,
        ("GEMINI_API_KEY", "https://aistudio.google.com/apikey"),
    ),
    cloud(
        "groq",
        "Groq",
        ProviderKind::Openai,
        "https://api.groq.com/openai/v1",
        "llama-3.3-70b-versatile",
        131_072,
        ("GROQ_API_KEY", "https://console.groq.com/keys"),
    ),
    cloud(
        "mistral",
        "Mistral",
        ProviderKind::Openai,
        "https://api.mistral.ai/v1",
        "mistral-large-latest",
        131_072,
        ("MISTRAL_API_KEY", "https://console.mistral.ai/api-keys"),
    ),
    cloud(
        "openrouter",
        "OpenRouter",
        ProviderKind::Openai,
        "https://openrouter.ai/api/v1",
        "openai/gpt-4o-mini",
        128_000,
        ("OPENROUTER_API_KEY", "https://openrouter.ai/keys"),
    ),
    cloud(
        "deepseek",
        "DeepSeek",
        ProviderKind::Openai,
        "https://api.deepseek.com/v1",
        "deepseek-chat",
        128_000,
        ("DEEPSEEK_API_KEY", "https://platform.deepseek.com/api_keys"),
    ),
    local("ollama", "Ollama", "http://127.0.0.1:11434/v1", "llama3.2", 8192),
    local("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1", "local-model", 8192),
    local("llamacpp", "llama.cpp", "http://127.0.0.1:8080/v1", "default", 8192),
];

/// The preset saved under `id`.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::PRESETS;

    #[test]
    fn a_provider_that_needs_a_key_says_where_to_get_one() {
        for p in PRESETS {
            match (p.local, p.key_page) {
                (false, Some(page)) => assert!(page.starts_with("https://"), "{}: {page}", p.id),
                (false, None) => panic!("{} needs a key and names no page for it", p.id),
                (true, page) => assert_eq!(page, None, "{} runs here and needs no key", p.id),
            }
        }
    }
}
