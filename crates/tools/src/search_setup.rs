//! Which service `web_search` asks, as Settings shows and changes it: DuckDuckGo with
//! no setup, a SearXNG instance by its address, or Brave with a key kept in the
//! system keychain. Saved under `[tools.web_search]`; the tool reads it at each search.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use sidecar_domain::AddressRefusal;
use sidecar_domain::Secrets;
use sidecar_domain::Worded;
use sidecar_settings::Change;
use sidecar_settings::SearchBackend;
use sidecar_settings::SettingsFileError;
use sidecar_settings::SettingsOwner;
use sidecar_settings::WebSearchSettings;

/// Where the Brave key is kept in the keychain.
const BRAVE_KEY_ID: &str = "web_search:brave";

/// A search setup Settings turns down, worded in both languages.
#[derive(Debug, thiserror::Error)]
pub enum SearchSetupError {
    #[error("SearXNG needs the address of an instance, like https://search.example.org")]
    SearxngNeedsAddress,
    #[error("Brave Search needs an API key (free at api-dashboard.search.brave.com)")]
    BraveNeedsKey,
    #[error(transparent)]
    Address(#[from] AddressRefusal),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for SearchSetupError {
    fn spanish(&self) -> String {
        match self {
            SearchSetupError::SearxngNeedsAddress => "SearXNG necesita la dirección de una instancia, como https://search.example.org".into(),
            SearchSetupError::BraveNeedsKey => "Brave Search necesita una clave de API (gratis en api-dashboard.search.brave.com)".into(),
            SearchSetupError::Address(e) => e.spanish(),
            SearchSetupError::SettingsFile(e) => e.spanish(),
        }
    }
}

/// The search service as Settings shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct SearchView {
    pub backend: SearchBackend,
    pub url: Option<String>,
    /// A Brave key is saved (or its variable is set); never the key itself.
    pub has_key: bool,
}

/// A change from Settings.
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct SearchInput {
    pub backend: SearchBackend,
    #[serde(default)]
    pub url: Option<String>,
    /// A new Brave key; empty keeps the saved one.
    #[serde(default)]
    pub api_key: Option<String>,
}

/// The search service's section is read from the settings' owner each time, never
/// copied: a change saved anywhere (this form, another face) is the one searched with.
pub struct SearchSetup {
    secrets: Arc<Secrets>,
    owner: Arc<SettingsOwner>,
}

impl SearchSetup {
    pub fn new(secrets: Arc<Secrets>, owner: Arc<SettingsOwner>) -> Self {
        Self { secrets, owner }
    }

    pub(crate) fn settings(&self) -> WebSearchSettings {
        self.owner.current().tools.web_search.clone()
    }

    /// The Brave key: its variable's, else the one saved in Settings. Either is known
    /// to the redactor from here on (`Secrets` registers the saved one itself).
    pub fn brave_key(&self) -> Option<String> {
        let settings = self.settings();
        let from_env = settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok()).filter(|k| !k.is_empty());
        if let Some(key) = &from_env {
            self.secrets.redactor().register(key);
        }
        from_env.or_else(|| self.secrets.get(BRAVE_KEY_ID))
    }

    pub fn view(&self) -> SearchView {
        let settings = self.settings();
        let backend = settings.backend();
        let has_key = backend == SearchBackend::Brave && self.brave_key().is_some();
        SearchView { backend, url: settings.url, has_key }
    }

    pub fn save(&self, input: SearchInput) -> Result<SearchView, SearchSetupError> {
        let url = input.url.map(|u| u.trim().trim_end_matches('/').to_string()).filter(|u| !u.is_empty());
        if let Some(url) = &url {
            AddressRefusal::check_web(url, "https://search.example.org")?;
        }
        if input.backend == SearchBackend::Searxng && url.is_none() {
            return Err(SearchSetupError::SearxngNeedsAddress);
        }
        let key = input.api_key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
        if input.backend == SearchBackend::Brave && key.is_none() && self.brave_key().is_none() {
            return Err(SearchSetupError::BraveNeedsKey);
        }
        if let Some(key) = &key {
            self.secrets.store(BRAVE_KEY_ID, key);
        }
        // The address only means something for SearXNG; the others use their own.
        let url = if input.backend == SearchBackend::Searxng { url } else { None };
        self.owner.change(Change::WebSearch { backend: input.backend, url })?;
        Ok(self.view())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_saved_through_the_owner_elsewhere_is_the_one_searched_with() {
        let owner = Arc::new(SettingsOwner::new(sidecar_settings::Settings::default(), None));
        let setup = SearchSetup::new(Arc::new(Secrets::new(false)), owner.clone());
        assert_eq!(setup.view().backend, SearchBackend::Duckduckgo);
        // Another face (or a reload) changes the section; this setup holds no copy.
        owner.change(Change::WebSearch { backend: SearchBackend::Searxng, url: Some("https://search.example.org".into()) }).unwrap();
        let view = setup.view();
        assert_eq!((view.backend, view.url.as_deref()), (SearchBackend::Searxng, Some("https://search.example.org")));
    }
}
