//! The chat's turns through the assembly: send (from the window, another device, with
//! files) through the inbox, and attach; retry, stop and the history are the
//! conversation service's own (`conversation()`).

use super::Companion;

/// What Delete under a message forgot, and what Sidecar had learned from it (asked about).
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct ForgottenExchange {
    pub messages: usize,
    /// Current facts first learned from the messages deleted.
    pub learned: Vec<sidecar_memory::ListedFact>,
}
use crate::error::CompanionError;
use crate::TurnOutcome;
use sidecar_agent::ConversationService;
use std::sync::Arc;

impl Companion {
    /// Turns: retry, stop, the history, the queue.
    pub fn conversation(&self) -> &Arc<ConversationService> {
        &self.conversation
    }

    /// Forgets for good the exchange message `id` is in, its vectors with it: how many
    /// messages went, and the facts learned from them, for the user to keep or forget.
    pub async fn forget_exchange(&self, id: i64) -> Result<ForgottenExchange, CompanionError> {
        let forgotten = self.conversation.forget_exchange(id).await?;
        self.meaning().forget_orphans().await?;
        let learned = self.knowledge.learned_from(&forgotten.messages).await?;
        Ok(ForgottenExchange { messages: forgotten.messages.len(), learned })
    }

    /// Forgets for good what the user kept ticked of what names someone
    /// (`DataService::about`); refused while a reply is being written, which could be
    /// quoting it.
    pub async fn forget_about(&self, chosen: &sidecar_data::ForgetChosen) -> Result<sidecar_data::ForgottenAbout, CompanionError> {
        if self.conversation.is_busy() {
            return Err(sidecar_agent::TurnError::Busy.into());
        }
        Ok(self.data.forget_about(chosen).await?)
    }

    /// Stores the user's message and produces a reply (see `ConversationService::send`).
    pub async fn send(&self, text: &str) -> Result<TurnOutcome, CompanionError> {
        Ok(self.caller.call(text).await?)
    }

    /// A message typed on another of the user's devices attached to this one: a turn of
    /// its own (said on "device"), so this computer's window shows it as said elsewhere.
    pub async fn send_from_device(&self, text: &str) -> Result<TurnOutcome, CompanionError> {
        Ok(self.device_caller.call(text).await?)
    }

    /// Stores the user's message with files attached (their text goes to the model
    /// inside it) and produces a reply.
    pub async fn send_with(&self, text: &str, attachments: &[sidecar_memory::Attachment]) -> Result<TurnOutcome, CompanionError> {
        Ok(self.caller.call(&sidecar_memory::compose(text, attachments)).await?)
    }

    /// Reads a file to attach to the next message, cut to what the answering model's
    /// context can hold. An image is kept for a model that sees images, and refused
    /// with what to do for one that does not.
    pub async fn attach(&self, path: &std::path::Path) -> Result<sidecar_memory::Attachment, CompanionError> {
        let pinned = self.conversation.pinned_provider().await?;
        let sees_images = self.models.sees_images(pinned.as_deref());
        let (path, data_dir, budget) = (path.to_path_buf(), self.data_dir.clone(), self.context.attachment_budget());
        // Reading a PDF is work for a blocking thread, not for the runtime's.
        let opened = tokio::task::spawn_blocking(move || sidecar_memory::open(&path, sees_images, &data_dir, budget))
            .await
            .map_err(|e| sidecar_domain::Refused(e.to_string()))?;
        Ok(opened?)
    }
}
