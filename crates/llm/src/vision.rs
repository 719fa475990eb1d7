//! Which models take images. A provider's `vision` setting decides; unset, the model's
//! name does, for the families whose chat APIs accept images (OpenAI's GPT-4o, 4.1,
//! 5 and o-series, Claude 3 and later, Gemini, and the open vision models served by
//! Ollama or llama.cpp under their usual names).

/// Name fragments of models that take images, lower case.
const SEEING: &[&str] = &[
    "gpt-4o",
    "gpt-4.1",
    "gpt-4-turbo",
    "gpt-5",
    "o1",
    "o3",
    "o4",
    "chatgpt-4o",
    "claude-3",
    "claude-sonnet-4",
    "claude-opus-4",
    "claude-haiku-4",
    "gemini",
    "llava",
    "bakllava",
    "vision",
    "-vl",
    "pixtral",
    "moondream",
    "minicpm-v",
    "gemma3",
    "gemma-3",
    "qwen2.5vl",
    "mistral-small3.1",
];
/// Fragments that look like a seeing family but are not (text-only minis, audio).
const BLIND: &[&str] = &["gpt-4o-audio", "gpt-4o-realtime", "o1-mini", "o3-mini", "gemma3:1b", "gemma-3-1b"];

/// Whether `model` takes images, unless `configured` says.
pub(crate) fn sees_images(model: &str, configured: Option<bool>) -> bool {
    configured.unwrap_or_else(|| {
        let model = model.to_lowercase();
        SEEING.iter().any(|s| model.contains(s)) && !BLIND.iter().any(|b| model.contains(b))
    })
}

#[cfg(test)]
mod tests {
    use super::sees_images;

    #[test]
    fn known_families_see_and_the_setting_decides_when_given() {
        for model in ["gpt-4o-mini", "claude-sonnet-4-5", "claude-3-5-haiku-latest", "gemini-2.0-flash", "llava:13b", "qwen2.5vl:7b", "llama3.2-vision"] {
            assert!(sees_images(model, None), "{model}");
        }
        for model in ["gpt-3.5-turbo", "llama3.2", "deepseek-chat", "o3-mini", "SmolLM2-360M-Instruct", "gemma3:1b"] {
            assert!(!sees_images(model, None), "{model}");
        }
        assert!(sees_images("my-finetune", Some(true)));
        assert!(!sees_images("gpt-4o", Some(false)));
    }
}
