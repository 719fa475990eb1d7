//! Which model the local server runs and with what window: the chosen GGUF with
//! the window it was trained for (capped, so memory stays modest), or the built-in
//! demo model.

use std::path::PathBuf;

use crate::local_server::LOCAL_MODEL_NAME;
use sidecar_settings::LocalModelSettings;

/// The most context the local server gets unless the user set a window: a longer
/// one costs memory (its cache) on every machine for text few chats reach.
pub(crate) const DEFAULT_LOCAL_CONTEXT: u32 = 8192;
/// The built-in model's window when none is set.
const BUILT_IN_CONTEXT: u32 = 4096;

#[derive(Debug, Clone, PartialEq)]
pub struct LocalChoice {
    /// `None`: the built-in demo model.
    pub model: Option<PathBuf>,
    /// The name the status and usage show.
    pub name: String,
    pub context_tokens: u32,
    /// The user's sampling for the local model over the catalogue's for this file.
    pub sampling: crate::sampling::Sampling,
}

impl LocalChoice {
    pub fn from_settings(settings: &LocalModelSettings) -> Self {
        let Some(path) = settings.model.clone() else {
            return Self {
                model: None,
                name: LOCAL_MODEL_NAME.to_string(),
                context_tokens: settings.context_tokens.unwrap_or(BUILT_IN_CONTEXT),
                sampling: settings.sampling,
            };
        };
        let trained = super::gguf::read_info(&path).ok().and_then(|info| info.context_length);
        let context_tokens = settings.context_tokens.unwrap_or_else(|| trained.unwrap_or(BUILT_IN_CONTEXT).min(DEFAULT_LOCAL_CONTEXT));
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string());
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let sampling = settings.sampling.or(super::catalogue::sampling_for(&file));
        Self { model: Some(path), name, context_tokens, sampling }
    }

    /// The tiny built-in model, which cannot use tools and may make things up.
    pub(crate) fn is_demo(&self) -> bool {
        self.model.is_none()
    }
}
