//! The window's files as the web app a browser opens on the home core: the UI that
//! `make` builds into `ui/dist`, read from there in a debug build and carried inside the
//! binary in a release one (the packages), so the daemon serves it too.

use std::borrow::Cow;

use sidecar_link::WebFiles;

#[derive(rust_embed::RustEmbed)]
#[folder = "ui/dist"]
#[allow_missing = true]
struct Bundle;

/// The built UI, when there is one.
pub(super) struct BuiltUi;

impl WebFiles for BuiltUi {
    fn file(&self, path: &str) -> Option<Cow<'static, [u8]>> {
        Bundle::get(path).map(|file| file.data)
    }
}
