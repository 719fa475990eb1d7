//! Managing providers from the Settings view: list them (never their keys), add or
//! edit one (its key to the keychain), remove one, reorder the chat chain, and test a
//! connection before saving.

use crate::endpoint::ProbeProblem;
use crate::sampling::{OutOfRange, Sampling};
use sidecar_domain::Worded;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use crate::model::{provider_key, Models, LOCAL_PROVIDER_ID};
use crate::provider::Provider;
use crate::sse::Timeouts;
use crate::{ChatMessage, ChatRequest};
use sidecar_domain::KeyStorage;
use sidecar_domain::Secrets;
use sidecar_settings::Change;
use sidecar_settings::ProviderKind;
use sidecar_settings::ProviderSettings;

/// A provider form Settings turns down, worded in both languages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderRefusal {
    #[error("the name may use letters, digits, - and _ only")]
    Name,
    #[error("\"local\" is the offline model's name; pick another")]
    NameTaken,
    #[error("the base URL must be an http:// or https:// address")]
    Url,
    #[error("the model name is empty")]
    NoModelName,
    #[error("could not list the models at {url}: {problem}")]
    ModelList { url: String, problem: ProbeProblem },
    #[error(transparent)]
    Range(#[from] OutOfRange),
}

impl Worded for ProviderRefusal {
    fn spanish(&self) -> String {
        match self {
            ProviderRefusal::Name => "el nombre solo puede llevar letras, cifras, - y _".into(),
            ProviderRefusal::NameTaken => "«local» es el nombre del modelo sin conexión; elige otro".into(),
            ProviderRefusal::Url => "la URL base debe ser una dirección http:// o https://".into(),
            ProviderRefusal::NoModelName => "falta el nombre del modelo".into(),
            ProviderRefusal::ModelList { url, problem } => format!("no se pudieron listar los modelos de {url}: {}", problem.spanish()),
            ProviderRefusal::Range(e) => e.spanish(),
        }
    }
}

/// A provider as the UI sees it: everything but the key.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ProviderView {
    pub id: String,
    pub kind: ProviderKind,
    pub base_url: String,
    pub model: String,
    pub api_key_env: Option<String>,
    pub tools: bool,
    pub context_window: Option<u32>,
    pub sampling: Sampling,
    /// As set: `None` follows the model's name.
    pub vision: Option<bool>,
    /// Whether the model is sent images, as decided.
    pub sees_images: bool,
    pub key: KeyStorage,
}

/// A provider as the Settings form submits it. `api_key` is a new key to store
/// (absent: keep the stored one).
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct ProviderInput {
    pub id: String,
    #[serde(default)]
    #[ts(as = "Option<ProviderKind>", optional)]
    pub kind: ProviderKind,
    pub base_url: String,
    pub model: String,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub api_key: Option<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub api_key_env: Option<String>,
    #[serde(default = "yes")]
    #[ts(as = "Option<bool>", optional)]
    pub tools: bool,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub context_window: Option<u32>,
    #[serde(default)]
    #[ts(as = "Option<Sampling>", optional)]
    pub sampling: Sampling,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub vision: Option<bool>,
}

fn yes() -> bool {
    true
}

/// What "Test connection" found.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ConnectionTest {
    pub ok: bool,
    pub latency_ms: u64,
    pub message: String,
}

/// What saving a provider did with its key.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct SavedProvider {
    pub provider: ProviderView,
    /// Set when the settings file could not be written (the change still applies
    /// for this session).
    pub warning: Option<String>,
}

impl ProviderInput {
    fn validate(&self) -> Result<ProviderSettings, ProviderRefusal> {
        let id = self.id.trim();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(ProviderRefusal::Name);
        }
        if id == LOCAL_PROVIDER_ID {
            return Err(ProviderRefusal::NameTaken);
        }
        let url = self.base_url.trim();
        if reqwest::Url::parse(url).map(|u| !matches!(u.scheme(), "http" | "https")).unwrap_or(true) {
            return Err(ProviderRefusal::Url);
        }
        if self.model.trim().is_empty() {
            return Err(ProviderRefusal::NoModelName);
        }
        self.sampling.check()?;
        crate::sampling::check_context(self.context_window)?;
        Ok(ProviderSettings {
            id: id.to_string(),
            kind: self.kind,
            base_url: url.trim_end_matches('/').to_string(),
            model: self.model.trim().to_string(),
            api_key_env: self.api_key_env.clone().filter(|e| !e.trim().is_empty()),
            api_key: None,
            tools: self.tools,
            context_window: self.context_window.filter(|w| *w > 0),
            sampling: self.sampling,
            vision: self.vision,
        })
    }
}

/// The providers service: what the Settings view does with providers. Changes go to
/// settings.toml (keys to the keychain) and apply to the next model call.
pub struct ProviderAdmin {
    models: Arc<Models>,
    secrets: Arc<Secrets>,
}

impl ProviderAdmin {
    pub fn new(models: Arc<Models>, secrets: Arc<Secrets>) -> Self {
        Self { models, secrets }
    }

    /// The configured providers in chat order.
    pub fn providers(&self) -> Vec<ProviderView> {
        let settings = self.models.settings();
        settings.chat_chain().into_iter().map(|p| self.view(p)).collect()
    }

    fn view(&self, p: &ProviderSettings) -> ProviderView {
        let key = if let Some(variable) = p.api_key_env.clone().filter(|v| std::env::var_os(v).is_some()) {
            KeyStorage::Environment { variable }
        } else {
            self.secrets.storage(&p.id).unwrap_or(KeyStorage::None)
        };
        ProviderView {
            id: p.id.clone(),
            kind: p.kind,
            base_url: p.base_url.clone(),
            model: p.model.clone(),
            api_key_env: p.api_key_env.clone(),
            tools: p.tools,
            context_window: p.context_window,
            sampling: p.sampling,
            vision: p.vision,
            sees_images: crate::vision::sees_images(&p.model, p.vision),
            key,
        }
    }

    /// Adds or replaces a provider; a new one goes last in the chat chain.
    pub fn save_provider(&self, input: ProviderInput) -> Result<SavedProvider, ProviderRefusal> {
        let provider = input.validate()?;
        let stored = input.api_key.as_deref().map(str::trim).filter(|k| !k.is_empty()).map(|key| self.secrets.store(&provider.id, key));
        let mut settings = (*self.models.settings()).clone();
        match settings.providers.iter_mut().find(|p| p.id == provider.id) {
            Some(existing) => *existing = provider.clone(),
            None => {
                settings.providers.push(provider.clone());
                if !settings.routing.chat.is_empty() {
                    settings.routing.chat.push(provider.id.clone());
                }
            }
        }
        let warning = self.apply_settings(settings);
        let mut view = self.view(&provider);
        // Say where the new key went, with the keychain's own reason if it failed.
        if let Some(stored) = stored.filter(|_| !matches!(view.key, KeyStorage::Environment { .. })) {
            view.key = stored;
        }
        Ok(SavedProvider { provider: view, warning })
    }

    pub fn remove_provider(&self, id: &str) -> Result<Option<String>, ProviderRefusal> {
        let mut settings = (*self.models.settings()).clone();
        settings.providers.retain(|p| p.id != id);
        settings.routing.chat.retain(|p| p != id);
        self.secrets.delete(id);
        Ok(self.apply_settings(settings))
    }

    /// Sets the chat chain's order (ids not listed keep their relative order, last).
    pub fn order_providers(&self, ids: &[String]) -> Result<Option<String>, ProviderRefusal> {
        let mut settings = (*self.models.settings()).clone();
        let mut chain: Vec<String> = ids.iter().filter(|id| settings.providers.iter().any(|p| &p.id == *id)).cloned().collect();
        for p in &settings.providers {
            if !chain.contains(&p.id) {
                chain.push(p.id.clone());
            }
        }
        settings.routing.chat = chain;
        Ok(self.apply_settings(settings))
    }

    /// Applies settings now and saves them; returns a warning if saving failed.
    fn apply_settings(&self, settings: sidecar_settings::Settings) -> Option<String> {
        let change = Change::Providers { providers: settings.providers, chat: settings.routing.chat };
        let (_, unsaved) = self.models.settings_owner().change_or_hold(change);
        let warning = unsaved.map(|e| format!("{e}; the change applies until Sidecar restarts"));
        self.models.providers_changed();
        // The header shows what a check finds, not the provider just named.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let models = self.models.clone();
            runtime.spawn(async move { models.check().await });
        }
        warning
    }

    /// The models the server in the form offers (with the form's key, else the
    /// stored one), for the model field's list.
    pub async fn list_models(&self, input: ProviderInput) -> Result<Vec<String>, ProviderRefusal> {
        let provider = input.validate()?;
        let key = input.api_key.clone().filter(|k| !k.trim().is_empty()).or_else(|| provider_key(&provider, &self.secrets));
        let timeouts = Timeouts { connect: Duration::from_secs(5), respond: Duration::from_secs(10), idle: Duration::from_secs(10) };
        let client = Provider::from_settings(&ProviderSettings { api_key: key, ..provider }, timeouts, self.secrets.redactor());
        client.list_models().await.map_err(|problem| ProviderRefusal::ModelList { url: input.base_url.clone(), problem })
    }

    /// Model servers already running on this machine, with their models.
    pub async fn local_servers(&self) -> Vec<crate::discover::FoundServer> {
        crate::discover::local_servers(&reqwest::Client::new()).await
    }

    /// Sends a tiny request with these details (and the stored key when the form
    /// has none) and reports whether the provider answered.
    pub async fn test_provider(&self, input: ProviderInput) -> ConnectionTest {
        let provider = match input.validate() {
            Ok(p) => p,
            Err(e) => return ConnectionTest { ok: false, latency_ms: 0, message: e.said_in(self.models.lang()) },
        };
        let key = input.api_key.clone().filter(|k| !k.trim().is_empty()).or_else(|| provider_key(&provider, &self.secrets));
        let timeouts = Timeouts { connect: Duration::from_secs(5), respond: Duration::from_secs(30), idle: Duration::from_secs(30) };
        let client = Provider::from_settings(&ProviderSettings { api_key: key, ..provider }, timeouts, self.secrets.redactor());
        let request =
            ChatRequest { messages: vec![ChatMessage::user("Reply with the single word: ok")], tools: vec![], max_tokens: Some(5), general_cap: false };
        let started = Instant::now();
        let result = client.stream_chat(&request, |_| {}).await;
        let latency_ms = started.elapsed().as_millis() as u64;
        match result {
            Ok(_) => ConnectionTest { ok: true, latency_ms, message: crate::outcomes::answered_in(client.model(), latency_ms, self.models.lang()) },
            Err(e) => ConnectionTest { ok: false, latency_ms, message: e.said_in(self.models.lang()) },
        }
    }
}
