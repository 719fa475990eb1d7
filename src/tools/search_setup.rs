//! Which service `web_search` asks, as Settings shows and changes it: DuckDuckGo with
//! no setup, a SearXNG instance by its address, or Brave with a key kept in the
//! system keychain. Saved under `[tools.web_search]`; the tool reads it at each search.

use crate::error::Refusal;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};

use crate::error::CompanionError;
use crate::secrets::Secrets;
use crate::settings::{SearchBackend, WebSearchSettings};

/// Where the Brave key is kept in the keychain.
const BRAVE_KEY_ID: &str = "web_search:brave";

/// The search service as Settings shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchView {
    pub backend: SearchBackend,
    pub url: Option<String>,
    /// A Brave key is saved (or its variable is set); never the key itself.
    pub has_key: bool,
}

/// A change from Settings.
#[derive(Debug, Clone, Deserialize)]
pub struct SearchInput {
    pub backend: SearchBackend,
    #[serde(default)]
    pub url: Option<String>,
    /// A new Brave key; empty keeps the saved one.
    #[serde(default)]
    pub api_key: Option<String>,
}

pub struct SearchSetup {
    settings: RwLock<WebSearchSettings>,
    secrets: Arc<Secrets>,
    config_path: Option<PathBuf>,
}

impl SearchSetup {
    pub fn new(settings: WebSearchSettings, secrets: Arc<Secrets>, config_path: Option<PathBuf>) -> Self {
        Self { settings: RwLock::new(settings), secrets, config_path }
    }

    pub fn settings(&self) -> WebSearchSettings {
        self.settings.read().expect("search settings lock").clone()
    }

    /// The Brave key: its variable's, else the one saved in Settings.
    pub fn brave_key(&self) -> Option<String> {
        let settings = self.settings();
        let from_env = settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok()).filter(|k| !k.is_empty());
        from_env.or_else(|| self.secrets.get(BRAVE_KEY_ID))
    }

    pub fn view(&self) -> SearchView {
        let settings = self.settings();
        let backend = settings.backend();
        let has_key = backend == SearchBackend::Brave && self.brave_key().is_some();
        SearchView { backend, url: settings.url, has_key }
    }

    pub fn save(&self, input: SearchInput) -> Result<SearchView, CompanionError> {
        let url = input.url.map(|u| u.trim().trim_end_matches('/').to_string()).filter(|u| !u.is_empty());
        if let Some(url) = &url {
            let parsed = url::Url::parse(url)
                .map_err(|_| CompanionError::from(Refusal::NotAnAddress { text: url.to_string(), example: "https://search.example.org" }))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(Refusal::NotHttp(url.to_string()).into());
            }
        }
        if input.backend == SearchBackend::Searxng && url.is_none() {
            return Err(Refusal::SearxngNeedsAddress.into());
        }
        let key = input.api_key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
        if input.backend == SearchBackend::Brave && key.is_none() && self.brave_key().is_none() {
            return Err(Refusal::BraveNeedsKey.into());
        }
        if let Some(key) = &key {
            crate::redact::register(key);
            self.secrets.store(BRAVE_KEY_ID, key);
        }
        // The address only means something for SearXNG; the others use their own.
        let url = if input.backend == SearchBackend::Searxng { url } else { None };
        if let Some(path) = &self.config_path {
            crate::settings_file::save_web_search(path, input.backend, url.as_deref())?;
        }
        {
            let mut settings = self.settings.write().expect("search settings lock");
            settings.backend = Some(input.backend);
            settings.url = url;
        }
        Ok(self.view())
    }
}
