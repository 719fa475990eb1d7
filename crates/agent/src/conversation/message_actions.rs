//! What the user does to a message already said: Retry after a failure, Regenerate
//! (the reply shown is kept as a version to flip back to), the versions themselves,
//! Edit (the message and what followed are set aside, and the new text is answered),
//! and Delete (the exchange is forgotten for good).

use super::{Asked, ConversationService, TurnOutcome};
use crate::error::TurnError;
use crate::events::ChatEvent;
use crate::last_turn::last_turn;
use crate::prompt;
use sidecar_llm::Role;
use sidecar_store::ReplyVersions;

/// Answering again what the user last said.
#[derive(Clone, Copy)]
enum Redo {
    /// After a turn that failed.
    Retry,
    /// In place of the reply shown.
    Regenerate,
}

impl ConversationService {
    /// Answers the last user message again after a failed turn, without storing it twice.
    pub async fn retry(&self) -> Result<TurnOutcome, TurnError> {
        self.redo(Redo::Retry).await
    }

    /// Writes the last reply again; the one shown is kept as a version to flip back to.
    pub async fn regenerate(&self) -> Result<TurnOutcome, TurnError> {
        self.redo(Redo::Regenerate).await
    }

    /// The versions of the last reply; `None` when there is nothing to write again (no
    /// message yet, a command's answer, or only Sidecar's own answer to a request it
    /// carried out: Regenerate is offered only under what a model wrote).
    pub async fn reply_versions(&self) -> Result<Option<ReplyVersions>, TurnError> {
        let conversation_id = self.with.store.conversations().current_conversation().await?;
        let Some(last) = last_turn(&self.with.store, conversation_id).await? else { return Ok(None) };
        if last.command || !last.replied {
            return Ok(None);
        }
        Ok(Some(self.with.store.variants().versions(conversation_id, last.user_message_id, last.reply_after).await?))
    }

    /// Forgets for good the exchange message `id` is in: a message of the user with its
    /// reply, or a reply whole (see `sidecar_store::Forgotten`). Not while a reply is
    /// being written: it could be answering the message.
    pub async fn forget_exchange(&self, id: i64) -> Result<sidecar_store::Forgotten, TurnError> {
        if self.is_busy() {
            return Err(TurnError::Busy);
        }
        let forgotten = self.with.store.exchanges().forget(id).await?.ok_or(TurnError::NotInAConversation(id))?;
        tracing::info!(
            conversation_id = forgotten.conversation_id,
            messages = forgotten.messages.len(),
            summaries = forgotten.summaries,
            checkpoints = forgotten.checkpoints,
            "an exchange was forgotten for good"
        );
        Ok(forgotten)
    }

    /// Shows version `number` of the last reply in place of the one shown.
    pub async fn show_version(&self, number: u32) -> Result<ReplyVersions, TurnError> {
        if self.is_busy() {
            return Err(TurnError::Busy);
        }
        let conversation_id = self.with.store.conversations().current_conversation().await?;
        let last = last_turn(&self.with.store, conversation_id).await?.filter(|l| !l.command).ok_or(TurnError::NothingToRegenerate)?;
        let variants = self.with.store.variants();
        if !variants.show(conversation_id, last.user_message_id, last.reply_after, number).await? {
            return Err(TurnError::NoVersion(number));
        }
        Ok(variants.versions(conversation_id, last.user_message_id, last.reply_after).await?)
    }

    /// Replaces a message the user sent with `text`: it and everything after it are
    /// set aside (kept, not shown, not sent to the model) and `text` is answered anew.
    pub async fn edit(&self, message_id: i64, text: String) -> Result<TurnOutcome, TurnError> {
        if self.is_busy() {
            return Err(TurnError::Busy);
        }
        if text.trim().is_empty() {
            return Err(TurnError::Empty(sidecar_domain::EmptyMessage));
        }
        let conversation_id = self.with.store.conversations().current_conversation().await?;
        let message = self
            .with
            .store
            .conversations()
            .message(message_id)
            .await?
            .filter(|m| m.conversation_id == conversation_id && m.role == Role::User)
            .ok_or(TurnError::NotEditable)?;
        self.with.store.variants().set_aside_from(conversation_id, message.id).await?;
        let channel = message.channel.unwrap_or(self.with.channel);
        // The edit box shows what was typed; the files attached stay attached.
        let text = match sidecar_memory::blocks(&message.content) {
            Some(blocks) => format!("{}{blocks}", text.trim()),
            None => text,
        };
        self.submit(text, channel).await
    }

    /// Answers again what the user last said: after a failure (Retry), or in place of
    /// the reply shown (Regenerate).
    async fn redo(&self, redo: Redo) -> Result<TurnOutcome, TurnError> {
        if self.inbox.is_running() {
            return Err(TurnError::Busy);
        }
        let _turn = self.inbox.enter("", self.with.channel, |_| {}).await.map_err(|_| TurnError::QueuedCancelled)?;
        let (cancel, _guard) = self.begin_turn()?;
        let arrived = std::time::Instant::now();
        let conversation_id = self.with.store.conversations().current_conversation().await?;
        let user_message_id = match redo {
            Redo::Retry => self.unanswered(conversation_id).await?,
            Redo::Regenerate => {
                let last = last_turn(&self.with.store, conversation_id).await?.filter(|l| !l.command && l.replied).ok_or(TurnError::NothingToRegenerate)?;
                self.with.store.variants().set_aside_reply(conversation_id, last.user_message_id, last.reply_after).await?;
                last.user_message_id
            }
        };
        self.with.events.publish(ChatEvent::TurnStarted { conversation_id, user_message_id, channel: self.with.channel, dequeued: None });
        self.with.proactive.record_user_activity(self.with.channel).await?;
        let _brain = self.with.brain.lock().await;
        self.reply(conversation_id, Asked { message_id: user_message_id, channel: self.with.channel, arrived }, cancel, None).await
    }

    /// The user message a failed turn left unanswered.
    async fn unanswered(&self, conversation_id: i64) -> Result<i64, TurnError> {
        let recent = self.with.store.conversations().recent_messages(conversation_id, 16).await?;
        let last = recent.iter().rev().find(|m| prompt::counts_as_context(m)).ok_or(TurnError::NothingToRetry)?;
        // A turn that failed after its tools ran ends on a tool result: the model
        // picks up from there.
        if !matches!(last.role, Role::User | Role::Tool) {
            return Err(TurnError::NothingToRetry);
        }
        Ok(recent.iter().rev().find(|m| m.role == Role::User).map(|m| m.id).unwrap_or(last.id))
    }
}
