//! Where messages come from (seed 3.v2, `MessageSource`): the terminal today, Telegram
//! and WhatsApp next. A source hands over what the user wrote and takes the answer back;
//! `serve` runs one through the conversation's inbox, so messages from every source are
//! answered one at a time, in order, and each answer goes back where its message came
//! from. (The desktop window talks to the core through IPC calls instead: each call is
//! its own `send`, through the same inbox.)

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::channel::Channel;
use crate::conversation::ConversationService;
use crate::reminders::scheduler::BoxFuture;

/// One message as a channel delivered it.
#[derive(Debug, Clone, PartialEq)]
pub struct IncomingMessage {
    /// The channel's own id for it (for threading a reply).
    pub id: String,
    pub channel: Channel,
    /// Who wrote it, as the channel knows them.
    pub user_id: String,
    pub content: String,
    pub received_at: DateTime<Utc>,
}

pub trait MessageSource: Send + Sync {
    fn channel(&self) -> Channel;
    /// The next message; `None` once the source is closed.
    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>>;
    /// Gives the user the answer to `to`, on this channel.
    fn send_response<'a>(&'a self, to: &'a IncomingMessage, content: &'a str) -> BoxFuture<'a, Result<(), String>>;
    fn is_connected(&self) -> bool;
}

/// Answers every message of `source` until it closes; returns how many were answered.
/// A failed turn is answered with what went wrong, so the user is never left waiting.
pub async fn serve(source: Arc<dyn MessageSource>, conversation: &ConversationService) -> usize {
    use tracing::Instrument;
    let mut answered = 0;
    while let Some(message) = source.next().await {
        let span = tracing::info_span!("incoming", channel = message.channel.as_str(), id = %message.id);
        async {
            let answer = match conversation.send_on(&message.content, message.channel).await {
                Ok(outcome) => outcome.reply,
                Err(error) => error.to_string(),
            };
            if let Err(error) = source.send_response(&message, &answer).await {
                tracing::warn!(%error, "could not give the answer back to its channel");
            }
        }
        .instrument(span)
        .await;
        answered += 1;
    }
    answered
}
