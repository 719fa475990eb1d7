//! The context meter before a call, and what one message's attachments may take: both
//! made on the terms of the call the next message would be (the chain that would
//! answer, its tools, the system prompt), so they do not change when it goes.

use sidecar_llm::tokens::count_cached as count;
use sidecar_llm::ChatMessage;
use sidecar_store::Message;
use sidecar_tools::ToolRegistry;

use super::engine::limits_for_room;
use super::fit::{self, Limits};
use super::meter::ContextMeter;
use super::service::{summary_blocks, ContextService};
use crate::context::rows::ContextStore;
use crate::error::TurnError;
use crate::prompt;

impl ContextService {
    /// Tokens one message's attachments may take: half the prompt budget of the model
    /// that answers now, so the history and the reply still fit beside them.
    pub fn attachment_budget(&self) -> usize {
        let settings = self.models.settings();
        let room = self.models.next_room(None);
        Limits::new(room.window, settings.llm.max_tokens.unwrap_or(1024), &settings.context).budget / 2
    }

    /// How full the context was on the last model call; before any call, an estimate
    /// made on the same terms as the call (the window of the chain that would answer,
    /// the system prompt and the tool definitions it would be sent), so the meter's
    /// whole does not change when the first message goes (the first-hour m5).
    pub async fn context_meter(&self, tools: &ToolRegistry) -> Result<ContextMeter, TurnError> {
        let conversation_id = self.store.conversations().current_conversation().await?;
        if let Some((id, meter)) = *self.meter.lock().expect("meter lock") {
            if id == conversation_id {
                return Ok(meter);
            }
        }
        let settings = self.models.settings();
        let pinned = self.store.conversations().conversation_provider(conversation_id).await?;
        let room = self.models.next_room(pinned.as_deref());
        let limits = limits_for_room(room, &settings, tools);
        let summary = self.store.context().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let history: Vec<Message> = self.store.context().messages_after(conversation_id, after).await?.into_iter().filter(prompt::counts_as_context).collect();
        let mut chats: Vec<ChatMessage> = history.iter().map(Message::to_chat).collect();
        fit::prepare(&mut chats, &limits, &self.compactions, &count);
        let system = self.system_text() + &summary_blocks(summary.as_ref());
        let used = fit::total_tokens(&chats, &count) + fit::message_tokens(&ChatMessage::system(system), &count);
        Ok(ContextMeter::new(used, &limits, room.window as usize, summary.is_some(), &settings.context))
    }
}
