//! The offline runtime: one folder holding llama.cpp's server, the demo model and the
//! embedders' and the speech model's weights, which ship with Sidecar (`scripts/build-runtime.sh` fills it).
//!
//! It is found beside the running program, as `../lib/sidecar`: `/usr/bin/sidecar` finds
//! `/usr/lib/sidecar` once installed, and `target/debug/sidecar` finds `target/lib/sidecar`
//! in a build from source, so both run the same files. `SIDECAR_RUNTIME` names another
//! folder (`off`: no offline model); `[local_model] runtime` in the settings names one too.

use std::path::{Path, PathBuf};

/// Names the runtime folder (overrides the one beside the program).
pub const RUNTIME_ENV: &str = "SIDECAR_RUNTIME";
/// `SIDECAR_RUNTIME=off`: no offline model, not even the one beside the program.
pub const OFF: &str = "off";
/// llama.cpp's server, built from its own source.
pub(crate) const SERVER_FILE: &str = if cfg!(windows) { "llama-server.exe" } else { "llama-server" };
/// The demo model run when no other is chosen.
pub const DEMO_MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// multilingual-e5-small at 4 bits.
pub(crate) const EMBEDDER_FILE: &str = "e5-small-q4.bin";
/// EmbeddingGemma-300M at 8 bits, which llama.cpp's server embeds with.
pub const GEMMA_EMBEDDER_FILE: &str = "embeddinggemma-300m-q8_0.gguf";

/// The folder beside the running program, when it holds the server.
pub fn beside_program() -> Option<PathBuf> {
    let program = std::env::current_exe().ok()?;
    beside(&program)
}

fn beside(program: &Path) -> Option<PathBuf> {
    let folder = program.parent()?.parent()?.join("lib").join("sidecar");
    folder.join(SERVER_FILE).is_file().then_some(folder)
}

/// llama.cpp's server in `runtime`.
pub fn server(runtime: &Path) -> PathBuf {
    runtime.join(SERVER_FILE)
}

/// The demo model in `runtime`.
pub fn demo_model(runtime: &Path) -> PathBuf {
    runtime.join(DEMO_MODEL_FILE)
}

/// The light embedder's weights (multilingual-e5-small) in `runtime`.
pub fn embedder(runtime: &Path) -> PathBuf {
    runtime.join(EMBEDDER_FILE)
}

/// EmbeddingGemma's GGUF in `runtime`.
pub fn gemma_embedder(runtime: &Path) -> PathBuf {
    runtime.join(GEMMA_EMBEDDER_FILE)
}

/// Whisper base in whisper.cpp's format (speech to text).
pub const SPEECH_MODEL_FILE: &str = "ggml-whisper-base.bin";
/// Silero VAD in whisper.cpp's format (where speech is, in a recording).
pub const VOICE_ACTIVITY_FILE: &str = "ggml-silero-v6.2.0.bin";

/// The speech-to-text model in `runtime`.
pub fn speech_model(runtime: &Path) -> PathBuf {
    runtime.join(SPEECH_MODEL_FILE)
}

/// The voice activity detector in `runtime`.
pub fn voice_activity(runtime: &Path) -> PathBuf {
    runtime.join(VOICE_ACTIVITY_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_is_the_lib_folder_beside_the_program_when_it_holds_the_server() {
        let root = tempfile::tempdir().unwrap();
        let program = root.path().join("bin/sidecar");
        assert_eq!(beside(&program), None);
        let runtime = root.path().join("lib/sidecar");
        std::fs::create_dir_all(&runtime).unwrap();
        assert_eq!(beside(&program), None, "an empty folder is not a runtime");
        std::fs::write(runtime.join(SERVER_FILE), b"").unwrap();
        assert_eq!(beside(&program), Some(runtime));
    }
}
