//! Runs a source through the conversation's inbox, so messages from every source are
//! answered one at a time, in order, and each answer goes back where its message came
//! from.

use std::sync::Arc;

use futures_util::stream::{FuturesUnordered, StreamExt};
use tracing::Instrument;

use super::asking::PhoneQuestions;
use super::source::MessageSource;
use sidecar_agent::ConversationService;

/// Answers every message of `source` until it closes; returns how many were answered.
/// Each message takes its place in the inbox as it arrives, so a message sent while a
/// reply is being written waits in the queue (and shows there) and answers come back
/// in order.
///
/// A message that answers a permission question this channel was asked
/// ([`PhoneQuestions`]) is that answer, not a new turn.
pub async fn serve(source: Arc<dyn MessageSource>, conversation: Arc<ConversationService>, questions: Arc<PhoneQuestions>) -> usize {
    let mut answering = FuturesUnordered::new();
    let (mut open, mut answered) = (true, 0);
    loop {
        tokio::select! {
            message = source.next(), if open => match message {
                Some(message) if questions.answered(&message) => {}
                Some(message) => {
                    questions.heard(&source, &message);
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
