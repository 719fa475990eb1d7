//! The recommended local models: small GGUF instruct models that run on a laptop's
//! CPU, each with where to download it, how big it is, how much memory it wants and
//! its licence.
//!
//! A SHA-256 is pinned where it was verified against the published file; for the
//! others the download is checked against the digest Hugging Face announces for the
//! file (`X-Linked-Etag`), so every catalogue download is verified either way.

use serde::Serialize;

use crate::sampling::Sampling;

/// One model the catalogue recommends.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct CatalogueEntry {
    /// Short name for `sidecar models pull ID`.
    pub id: &'static str,
    pub title: &'static str,
    /// The file name once downloaded.
    pub file: &'static str,
    pub url: &'static str,
    /// The file's size; exact when `sha256` is pinned, otherwise close (the server's
    /// own length is what the download checks).
    pub size_bytes: u64,
    pub sha256: Option<&'static str>,
    pub licence: &'static str,
    /// Memory a machine should have for the model to run with room for the rest.
    pub min_ram_gb: u32,
    /// The window the model was trained for.
    pub context_tokens: u32,
    /// The sampling its makers recommend (the model card's generation settings).
    #[serde(skip)]
    pub sampling: Sampling,
}

const fn card(temperature: f32, top_p: f32) -> Sampling {
    Sampling { temperature: Some(temperature), top_p: Some(top_p), repeat_penalty: None, max_tokens: None }
}

/// The catalogue's recommended sampling for a model file, if it is one of its own.
pub(crate) fn sampling_for(file: &str) -> Sampling {
    CATALOGUE.iter().find(|e| e.file == file).map(|e| e.sampling).unwrap_or_default()
}

/// The catalogue, smallest first.
pub const CATALOGUE: &[CatalogueEntry] = &[
    CatalogueEntry {
        id: "qwen3-1.7b",
        title: "Qwen3 1.7B",
        file: "Qwen3-1.7B-Q4_K_M.gguf",
        url: "https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf",
        size_bytes: 1_110_000_000,
        sha256: None,
        licence: "Apache-2.0",
        min_ram_gb: 4,
        context_tokens: 40_960,
        sampling: card(0.7, 0.8),
    },
    CatalogueEntry {
        id: "llama3.2-3b",
        title: "Llama 3.2 3B Instruct",
        file: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        url: "https://huggingface.co/unsloth/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        size_bytes: 2_019_377_600,
        sha256: Some("6c99cc00ae910f6a532a80022cb4bc1939094527a089c29294b841c0bd87f74d"),
        licence: "Llama 3.2 Community License",
        min_ram_gb: 6,
        context_tokens: 131_072,
        sampling: card(0.6, 0.9),
    },
    CatalogueEntry {
        id: "qwen3-4b",
        title: "Qwen3 4B",
        file: "Qwen3-4B-Q4_K_M.gguf",
        url: "https://huggingface.co/unsloth/Qwen3-4B-GGUF/resolve/main/Qwen3-4B-Q4_K_M.gguf",
        size_bytes: 2_500_000_000,
        sha256: None,
        licence: "Apache-2.0",
        min_ram_gb: 8,
        context_tokens: 40_960,
        sampling: card(0.7, 0.8),
    },
    CatalogueEntry {
        id: "gemma3-4b",
        title: "Gemma 3 4B Instruct",
        file: "gemma-3-4b-it-Q4_K_M.gguf",
        url: "https://huggingface.co/unsloth/gemma-3-4b-it-GGUF/resolve/main/gemma-3-4b-it-Q4_K_M.gguf",
        size_bytes: 2_490_000_000,
        sha256: None,
        licence: "Gemma Terms of Use",
        min_ram_gb: 8,
        context_tokens: 131_072,
        sampling: card(1.0, 0.95),
    },
];

/// The entry called `id`, or whose URL or file name is `text`.
pub(crate) fn find(text: &str) -> Option<&'static CatalogueEntry> {
    CATALOGUE.iter().find(|e| e.id.eq_ignore_ascii_case(text) || e.url == text || e.file == text)
}

/// The largest catalogue model this much memory runs comfortably, if any.
pub(crate) fn recommended(ram_bytes: u64) -> Option<&'static CatalogueEntry> {
    let gb = ram_bytes / (1 << 30);
    CATALOGUE.iter().filter(|e| u64::from(e.min_ram_gb) <= gb + 1).max_by_key(|e| (e.min_ram_gb, e.size_bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_complete_and_distinct() {
        for e in CATALOGUE {
            assert!(e.url.starts_with("https://huggingface.co/") && e.url.ends_with(e.file), "{}", e.id);
            assert!(e.sha256.is_none_or(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit())));
            assert_eq!(find(e.id), Some(e));
        }
        let mut ids: Vec<_> = CATALOGUE.iter().map(|e| e.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGUE.len());
    }

    #[test]
    fn recommends_by_memory() {
        assert_eq!(recommended(2 << 30), None);
        assert_eq!(recommended(4 << 30).map(|e| e.id), Some("qwen3-1.7b"));
        // 7.6 GB reported for an "8 GB" laptop still gets the 8 GB tier.
        assert_eq!(recommended(7_600_000_000).map(|e| e.min_ram_gb), Some(8));
        assert_eq!(recommended(64 << 30).map(|e| e.min_ram_gb), Some(8));
    }
}
