//! The offline runtime folder the tests and benches run the real model from.

/// The offline runtime folder (llama.cpp's server, the demo model, the embedder's
/// weights): `SIDECAR_RUNTIME`, else `target/lib/sidecar`, which `make` builds.
pub(crate) fn runtime() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("SIDECAR_RUNTIME").filter(|p| p != "off") {
        return p.into();
    }
    let default = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/lib/sidecar");
    assert!(default.join("llama-server").exists(), "the offline runtime is missing: run `make test` (it builds target/lib/sidecar) first");
    default
}
