//! The first launch: until the user has picked a real model (a provider, a local
//! server, a downloaded model) or said "keep the demo", the window opens on the
//! welcome.

use std::path::{Path, PathBuf};

use crate::Settings;

/// Left in the data directory once the welcome has been dealt with.
const DONE: &str = "welcome.done";

fn marker(data_dir: &Path) -> PathBuf {
    data_dir.join(DONE)
}

/// The welcome is due: no model chosen and the welcome never closed.
pub fn needed(data_dir: &Path, settings: &Settings) -> bool {
    settings.providers.is_empty() && settings.local_model.model.is_none() && !marker(data_dir).exists()
}

/// The welcome is done (a model was chosen, or the user kept the demo model).
pub fn finish(data_dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(data_dir)?;
    std::fs::write(marker(data_dir), b"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_until_a_model_is_chosen_or_it_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings::default();
        assert!(needed(dir.path(), &settings));
        settings.local_model.model = Some("/m/x.gguf".into());
        assert!(!needed(dir.path(), &settings));
        settings.local_model.model = None;
        finish(dir.path()).unwrap();
        assert!(!needed(dir.path(), &settings));
    }
}
