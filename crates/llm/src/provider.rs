//! A configured provider: one wire format, one endpoint, one model.

use std::sync::Arc;

use super::anthropic::AnthropicClient;
use super::endpoint::Endpoint;
use super::local_server::LocalServer;
use super::openai_compat::OpenAiClient;
use super::sse::{http_client, Timeouts};
use super::{ChatRequest, Completion, LlmError};
use sidecar_domain::Redactor;
use sidecar_settings::ProviderKind;
use sidecar_settings::ProviderSettings;

/// The wire client a provider speaks through.
#[derive(Clone)]
pub enum WireClient {
    OpenAi(OpenAiClient),
    Anthropic(AnthropicClient),
}

/// A provider ready to call.
#[derive(Clone)]
pub struct Provider {
    pub id: String,
    pub client: WireClient,
    /// Keeps the offline server running while this provider is in use.
    pub local: Option<Arc<LocalServer>>,
    /// Whether the model is offered tools.
    pub supports_tools: bool,
    /// Tokens the model reads at most (prompt and reply together).
    pub context_window: u32,
    /// Whether the model is sent the images attached to messages.
    pub supports_images: bool,
}

/// Told to a model that cannot see the image the user attached, so it says so rather
/// than pretends.
const IMAGE_NOT_SHOWN: &str =
    "\n\n[An image was attached here, but this model cannot see images. If the question needs it, say so and suggest a model that sees images.]";

impl Provider {
    /// Builds the client for a configured provider; its key is registered in `redactor`.
    pub fn from_settings(settings: &ProviderSettings, timeouts: Timeouts, redactor: &Redactor) -> Self {
        let http = http_client(&timeouts);
        let key = settings.resolved_api_key();
        if let Some(key) = &key {
            redactor.register(key);
        }
        let endpoint =
            Endpoint::new(http, &settings.base_url, &settings.model, key, timeouts).with_sampling(settings.sampling).redacting_with(redactor.clone());
        let client = match settings.kind {
            ProviderKind::Openai => WireClient::OpenAi(OpenAiClient::new(endpoint)),
            ProviderKind::Anthropic => WireClient::Anthropic(AnthropicClient::new(endpoint)),
        };
        let context_window = crate::window::context_window(&settings.model, settings.context_window);
        let supports_images = super::vision::sees_images(&settings.model, settings.vision);
        Self { id: settings.id.clone(), client, local: None, supports_tools: settings.tools, context_window, supports_images }
    }

    /// The offline model behind a running local server. It is far too small to call
    /// tools, so it is not offered any (they would also fill its small window).
    pub(crate) fn local(id: &str, server: LocalServer, model: &str, context_window: u32, sampling: super::sampling::Sampling, timeouts: Timeouts) -> Self {
        let client = OpenAiClient::new(
            Endpoint::new(http_client(&timeouts), server.base_url(), model, Some(server.api_key().to_string()), timeouts)
                .with_sampling(sampling)
                .on_llama_cpp(),
        );
        Self {
            id: id.to_string(),
            client: WireClient::OpenAi(client),
            local: Some(Arc::new(server)),
            supports_tools: false,
            context_window,
            // The local server is started without a vision projector.
            supports_images: false,
        }
    }

    pub fn model(&self) -> &str {
        match &self.client {
            WireClient::OpenAi(c) => c.model(),
            WireClient::Anthropic(c) => c.model(),
        }
    }

    /// Scrubs this provider's error texts: its endpoint's redactor, which knows its key
    /// (the offline model's has no key and removes key shapes only).
    pub(crate) fn redactor(&self) -> &Redactor {
        match &self.client {
            WireClient::OpenAi(c) => c.redactor(),
            WireClient::Anthropic(c) => c.redactor(),
        }
    }

    pub(crate) fn is_local(&self) -> bool {
        self.local.is_some()
    }

    /// Whether the provider's server answers at all (see `Endpoint::probe`).
    pub(crate) async fn probe(&self) -> Result<(), super::endpoint::ProbeProblem> {
        match &self.client {
            WireClient::OpenAi(c) => c.endpoint().probe().await,
            WireClient::Anthropic(c) => c.endpoint().probe().await,
        }
    }

    /// The model ids the server offers.
    pub(crate) async fn list_models(&self) -> Result<Vec<String>, super::endpoint::ProbeProblem> {
        match &self.client {
            WireClient::OpenAi(c) => c.endpoint().list_models().await,
            WireClient::Anthropic(c) => c.endpoint().list_models().await,
        }
    }

    /// Streams a reply. Tools and images in the request are dropped for a provider
    /// that does not take them; the message then says an image was not shown.
    pub(crate) async fn stream_chat(&self, request: &ChatRequest, on_delta: impl FnMut(&str)) -> Result<Completion, LlmError> {
        let drop_tools = !self.supports_tools && !request.tools.is_empty();
        let drop_images = !self.supports_images && request.messages.iter().any(|m| !m.images.is_empty());
        let stripped;
        let request = if drop_tools || drop_images {
            let mut copy = request.clone();
            if drop_tools {
                copy.tools.clear();
            }
            for message in copy.messages.iter_mut().filter(|m| !m.images.is_empty() && drop_images) {
                message.images.clear();
                message.content.push_str(IMAGE_NOT_SHOWN);
            }
            stripped = copy;
            &stripped
        } else {
            request
        };
        match &self.client {
            WireClient::OpenAi(c) => c.stream_chat(request, on_delta).await,
            WireClient::Anthropic(c) => c.stream_chat(request, on_delta).await,
        }
    }
}
