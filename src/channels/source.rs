//! Where messages come from (seed 3.v2, `MessageSource`): the terminal today, Telegram
//! and WhatsApp next. A source hands over what the user wrote and takes the answer back;
//! `serve` runs one through the conversation's inbox, so messages from every source are
//! answered one at a time, in order, and each answer goes back where its message came
//! from. The desktop window and a CLI companion are `call::CallSource`s: a caller's
//! message goes in and its outcome comes back.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use futures_util::stream::{FuturesUnordered, StreamExt};
use tracing::Instrument;

use super::channel::Channel;
use crate::conversation::{ConversationService, TurnOutcome};
use crate::error::CompanionError;
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

/// What a channel shows for a turn's outcome: the reply, or what went wrong.
pub fn answer_text(answer: Result<TurnOutcome, CompanionError>) -> String {
    match answer {
        Ok(outcome) => outcome.reply,
        Err(error) => error.to_string(),
    }
}

pub trait MessageSource: Send + Sync {
    fn channel(&self) -> Channel;
    /// The next message; `None` once the source is closed. Dropping the future before
    /// it is ready must lose nothing (`serve` waits for answers at the same time).
    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>>;
    /// Gives the user the answer to `to` (or what went wrong), on this channel.
    fn send_response<'a>(&'a self, to: &'a IncomingMessage, answer: Result<TurnOutcome, CompanionError>) -> BoxFuture<'a, Result<(), String>>;
    fn is_connected(&self) -> bool;
}

/// Answers every message of `source` until it closes; returns how many were answered.
/// Each message takes its place in the inbox as it arrives, so a message sent while a
/// reply is being written waits in the queue (and shows there) and answers come back
/// in order.
pub async fn serve(source: Arc<dyn MessageSource>, conversation: Arc<ConversationService>) -> usize {
    let mut answering = FuturesUnordered::new();
    let (mut open, mut answered) = (true, 0);
    loop {
        tokio::select! {
            message = source.next(), if open => match message {
                Some(message) => {
                    let span = tracing::info_span!("incoming", channel = message.channel.as_str(), id = %message.id);
                    let answer = conversation.submit(message.content.clone(), message.channel);
                    let source = source.clone();
                    answering.push(
                        async move {
                            if let Err(error) = source.send_response(&message, answer.await).await {
                                tracing::warn!(%error, "could not give the answer back to its channel");
                            }
                        }
                        .instrument(span),
                    );
                }
                None => open = false,
            },
            Some(()) = answering.next(), if !answering.is_empty() => answered += 1,
            else => return answered,
        }
    }
}
