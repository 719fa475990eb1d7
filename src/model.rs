//! Chooses the chat model: the first configured provider, or the offline local server
//! when none is configured. The local server is started on first need and kept for
//! the life of the process.

use std::path::PathBuf;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use tokio::sync::Mutex;

use crate::events::{CoreEvent, EventBus, ModelStatus};
use crate::llm::local_server::{LocalServer, LOCAL_MODEL_NAME};
use crate::llm::openai_compat::{http_client, OpenAiClient, Timeouts};
use crate::settings::{ProviderKind, Settings};

/// Provider id under which the offline model's usage is recorded.
pub const LOCAL_PROVIDER_ID: &str = "local";

/// A ready chat model.
pub struct ChatModel {
    pub provider_id: String,
    pub client: OpenAiClient,
    // Keeps the offline server alive as long as the model is in use.
    _local: Option<LocalServer>,
}

/// Resolves and caches the chat model, starting the offline server when needed.
pub struct ModelSlot {
    settings: Settings,
    log_dir: PathBuf,
    events: EventBus,
    current: Mutex<Option<Arc<ChatModel>>>,
    status: StdMutex<ModelStatus>,
}

impl ModelSlot {
    pub fn new(settings: Settings, log_dir: PathBuf, events: EventBus) -> Self {
        Self {
            settings,
            log_dir,
            events,
            current: Mutex::new(None),
            status: StdMutex::new(ModelStatus::Idle),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn timeouts(&self) -> Timeouts {
        Timeouts {
            connect: self.settings.llm.connect_timeout(),
            respond: self.settings.llm.response_timeout(),
            idle: self.settings.llm.idle_timeout(),
        }
    }

    /// The chat model, starting the offline server on first use. A failed start is
    /// not cached: the next call tries again (the user may have fixed the cause).
    pub async fn get(&self) -> Result<Arc<ChatModel>, String> {
        let mut current = self.current.lock().await;
        if let Some(model) = current.as_ref() {
            return Ok(model.clone());
        }
        let model = Arc::new(self.resolve().await.inspect_err(|message| {
            self.set_status(ModelStatus::Unavailable {
                message: message.clone(),
            });
        })?);
        self.set_status(ModelStatus::Ready {
            provider: model.provider_id.clone(),
            model: model.client.model().to_string(),
        });
        *current = Some(model.clone());
        Ok(model)
    }

    async fn resolve(&self) -> Result<ChatModel, String> {
        let timeouts = self.timeouts();
        if let Some(provider) = self.settings.chat_chain().first() {
            if provider.kind != ProviderKind::Openai {
                return Err(format!(
                    "provider \"{}\" uses the {:?} format, which this version cannot call yet",
                    provider.id, provider.kind
                ));
            }
            return Ok(ChatModel {
                provider_id: provider.id.clone(),
                client: OpenAiClient::new(
                    http_client(&timeouts),
                    &provider.base_url,
                    &provider.model,
                    provider.resolved_api_key(),
                    timeouts,
                ),
                _local: None,
            });
        }
        let python = self
            .settings
            .local_model
            .python
            .clone()
            .ok_or_else(|| crate::llm::local_server::LocalServerError::NotConfigured.to_string())?;
        self.set_status(ModelStatus::Starting);
        let context = self.settings.local_model.context_tokens.unwrap_or(4096);
        let server = LocalServer::start(
            &python,
            context,
            &self.log_dir.join("local-model.log"),
            Duration::from_secs(90),
        )
        .await
        .map_err(|e| e.to_string())?;
        Ok(ChatModel {
            provider_id: LOCAL_PROVIDER_ID.into(),
            client: OpenAiClient::new(
                http_client(&timeouts),
                server.base_url(),
                LOCAL_MODEL_NAME,
                None,
                timeouts,
            ),
            _local: Some(server),
        })
    }

    /// The latest known status, for a subscriber that joined late.
    pub fn status(&self) -> ModelStatus {
        self.status.lock().expect("status lock").clone()
    }

    fn set_status(&self, status: ModelStatus) {
        *self.status.lock().expect("status lock") = status.clone();
        self.events.publish(CoreEvent::ModelStatus(status));
    }

    /// Stops the offline server, if this slot started one.
    pub async fn shutdown(&self) {
        self.current.lock().await.take();
    }
}
