//! Context window sizes of known models, so the guard knows its budget without the
//! user having to look them up. A provider's `context_window` setting overrides.

/// For a model nobody told us about: small enough to be safe on most servers.
pub(crate) const DEFAULT_WINDOW: u32 = 8_192;

/// Name fragments, most specific first (the first match wins).
const KNOWN: &[(&str, u32)] = &[
    ("gpt-4.1", 1_047_576),
    ("gpt-5", 400_000),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 8_192),
    ("gpt-3.5", 16_385),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("claude", 200_000),
    ("gemini", 1_048_576),
    ("llama-3", 128_000),
    ("llama3", 128_000),
    ("mistral", 32_768),
    ("mixtral", 32_768),
    ("qwen", 32_768),
    ("deepseek", 64_000),
    ("smollm2", 8_192),
];

/// The window of `model`: the configured value, else the known one, else the default.
pub(crate) fn context_window(model: &str, configured: Option<u32>) -> u32 {
    if let Some(window) = configured.filter(|w| *w > 0) {
        return window;
    }
    let name = model.to_ascii_lowercase();
    KNOWN.iter().find(|(fragment, _)| name.contains(fragment)).map(|(_, w)| *w).unwrap_or(DEFAULT_WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_beats_known_beats_default() {
        assert_eq!(context_window("gpt-4o-mini", Some(50_000)), 50_000);
        assert_eq!(context_window("gpt-4o-mini", None), 128_000);
        assert_eq!(context_window("gpt-4-0613", None), 8_192);
        assert_eq!(context_window("claude-sonnet-4-5", None), 200_000);
        assert_eq!(context_window("my-finetune", None), DEFAULT_WINDOW);
        assert_eq!(context_window("my-finetune", Some(0)), DEFAULT_WINDOW);
    }
}
