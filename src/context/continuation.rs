//! Checkpoints as the user drives them: `/checkpoint` and its closing commands, the
//! lifecycle, starting a new conversation (which pauses open work), the offer to
//! continue from a checkpoint, and export.

use super::checkpoint::{Checkpoint, Status, OFFER_DAYS};
use super::digest;
use super::engine::{limits_for, summary_budget};
use crate::agent::prompt;
use crate::companion::{Companion, CompanionError};
use crate::events::CoreEvent;
use crate::llm::ChatMessage;
use crate::store::Message;
use crate::tokens::count_cached as count;

impl Companion {
    /// `/checkpoint`: digests the live history into a checkpoint now.
    pub async fn checkpoint_now(&self) -> Result<Checkpoint, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        let settings = self.settings();
        let chain = self.models.chat_chain(None).await.map_err(CompanionError::ModelUnavailable)?;
        let limits = limits_for(&chain, &settings);
        let summary = self.store().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let turns: Vec<ChatMessage> = self
            .store()
            .messages_after(conversation_id, after)
            .await?
            .iter()
            .filter(|m| prompt::counts_as_context(m))
            .map(Message::to_chat)
            .collect();
        let previous = summary.as_ref().map(|s| s.text.as_str()).unwrap_or("");
        let body = match self.digest_call(conversation_id, &chain, previous, &turns, &limits).await {
            Ok(digest) => digest.checkpoint,
            Err(reason) => {
                tracing::warn!(conversation_id, %reason, "checkpoint written without the model");
                digest::fallback(previous, &turns, summary_budget(&limits), &count).checkpoint
            }
        };
        let checkpoint = self.store().add_checkpoint(conversation_id, "manual", &body).await?;
        self.events().publish(CoreEvent::CheckpointSaved { conversation_id, checkpoint_id: checkpoint.id, trigger: "manual".into() });
        Ok(checkpoint)
    }

    pub async fn checkpoints(&self) -> Result<Vec<Checkpoint>, CompanionError> {
        Ok(self.store().checkpoints(200).await?)
    }

    /// Moves a checkpoint along its lifecycle (completed, abandoned, paused…).
    pub async fn set_checkpoint_status(&self, id: i64, status: Status) -> Result<Checkpoint, CompanionError> {
        let checkpoint = self.store().checkpoint(id).await?.ok_or_else(|| CompanionError::InvalidInput(format!("there is no checkpoint #{id}")))?;
        if !checkpoint.status.can_become(status) {
            return Err(CompanionError::InvalidInput(format!(
                "checkpoint #{id} is {} and cannot become {}",
                checkpoint.status.as_str().replace('_', " "),
                status.as_str().replace('_', " ")
            )));
        }
        self.store().set_checkpoint_status(id, status).await?;
        Ok(self.store().checkpoint(id).await?.unwrap_or(checkpoint))
    }

    /// Closes the current conversation's newest open checkpoint (or the open one it
    /// continues).
    pub(crate) async fn close_current_checkpoint(&self, status: Status) -> Result<Option<Checkpoint>, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        match self.store().open_checkpoint_of(conversation_id).await? {
            Some(checkpoint) => Ok(Some(self.set_checkpoint_status(checkpoint.id, status).await?)),
            None => Ok(None),
        }
    }

    /// Starts a new, empty conversation; the open checkpoints of the others pause.
    pub async fn new_conversation(&self) -> Result<i64, CompanionError> {
        let id = self.store().new_conversation().await?;
        self.store().pause_checkpoints_outside(id).await?;
        Ok(id)
    }

    /// The checkpoint a new, empty conversation offers to continue: the newest open one
    /// of another conversation from the last seven days.
    pub async fn continuation_offer(&self) -> Result<Option<Checkpoint>, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        let (resumed, dismissed) = self.store().continuation(conversation_id).await?;
        if resumed.is_some() || dismissed || self.store().message_count(conversation_id).await? > 0 {
            return Ok(None);
        }
        let since = crate::store::utc((self.clock)() - chrono::Duration::days(OFFER_DAYS));
        Ok(self.store().latest_open_checkpoint(&since, conversation_id).await?)
    }

    /// Continues checkpoint `id` in the current conversation: it is resumed and its
    /// state goes into every prompt of this conversation.
    pub async fn continue_from(&self, id: i64) -> Result<Checkpoint, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        let checkpoint = self.set_checkpoint_status(id, Status::Resumed).await?;
        self.store().set_continuation(conversation_id, Some(id), false).await?;
        Ok(checkpoint)
    }

    /// Declines the offer for the current conversation.
    pub async fn dismiss_offer(&self) -> Result<(), CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        Ok(self.store().set_continuation(conversation_id, None, true).await?)
    }

    /// Writes checkpoint `id` as Markdown into `exports/` in the data dir.
    pub async fn export_checkpoint(&self, id: i64) -> Result<std::path::PathBuf, CompanionError> {
        let checkpoint = self.store().checkpoint(id).await?.ok_or_else(|| CompanionError::InvalidInput(format!("there is no checkpoint #{id}")))?;
        let dir = self.data_dir().join("exports");
        let path = dir.join(format!("checkpoint-{id}.md"));
        std::fs::create_dir_all(&dir)
            .and_then(|_| crate::fsutil::write_atomically(&path, checkpoint.to_markdown().as_bytes()))
            .map_err(|e| CompanionError::InvalidInput(format!("could not write {}: {e}", path.display())))?;
        Ok(path)
    }
}
