//! A chat closed when left idle (the seeds' purge of inactive context, agent mode 3.2, as
//! the user's `[retention] close_idle_hours`): after that many hours with nothing said,
//! a checkpoint sums up the chat and a new one becomes current. The next message then
//! starts fresh (a small prompt, no stale plan) and the new chat offers to continue the
//! checkpoint, so nothing is lost. Off by default: a chat stays open until the user
//! starts another.

use crate::context::rows::ContextStore;
use crate::context::service::ContextService;
use crate::error::TurnError;
use crate::events::ChatEvent;

/// A chat the idle rule closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosedChat {
    pub conversation_id: i64,
    /// The new current chat.
    pub opened: i64,
    /// The checkpoint that sums it up; `None` when one already covered everything said.
    pub checkpoint_id: Option<i64>,
}

impl ContextService {
    /// Closes the current chat when nothing was said in it for `hours`. An empty chat is
    /// left (it is already fresh), and so is an incognito one (leaving it forgets it, so
    /// only the user does). Returns what was closed.
    pub async fn close_idle(&self, hours: u32) -> Result<Option<ClosedChat>, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        if self.store.conversations().is_incognito(conversation_id).await? {
            return Ok(None);
        }
        let Some(last) = self.store.context().last_said_at(conversation_id).await? else { return Ok(None) };
        let idle_since = sidecar_store::utc(self.clock.now() - chrono::Duration::hours(i64::from(hours)));
        if last >= idle_since {
            return Ok(None);
        }
        let checkpoint_id = match self.store.context().messages_since_checkpoint(conversation_id).await? {
            0 => None,
            _ => Some(self.checkpoint_now("idle").await?.id),
        };
        let opened = self.new_conversation().await?;
        tracing::info!(conversation_id, opened, checkpoint_id, hours, last_said = %last, "an idle chat was closed");
        self.events.publish(ChatEvent::ConversationClosed { conversation_id, opened, checkpoint_id });
        Ok(Some(ClosedChat { conversation_id, opened, checkpoint_id }))
    }
}
