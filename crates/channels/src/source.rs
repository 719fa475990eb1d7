//! Where messages come from (seed 3.v2, `MessageSource`): the terminal, Telegram and
//! WhatsApp. A source hands over what the user wrote and takes the answer back
//! (`serving::serve` runs one through the conversation's inbox). The desktop window
//! and a CLI companion are `call::CallSource`s: a caller's message goes in and its
//! outcome comes back.

use chrono::{DateTime, Utc};

use crate::error::PhoneError;
use futures_util::future::BoxFuture;
use sidecar_agent::TurnError;
use sidecar_agent::TurnOutcome;
use sidecar_domain::Channel;

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
pub(crate) fn answer_text(answer: Result<TurnOutcome, TurnError>) -> String {
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
    fn send_response<'a>(&'a self, to: &'a IncomingMessage, answer: Result<TurnOutcome, TurnError>) -> BoxFuture<'a, Result<(), PhoneError>>;
    fn is_connected(&self) -> bool;
    /// Says `text` in the chat `to` came from, in the middle of its turn (a permission
    /// question). Sources with no chat of their own cannot.
    fn say<'a>(&'a self, _to: &'a IncomingMessage, _text: &'a str) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(async { Err(PhoneError::NoChat) })
    }
    /// Asks `text` in `to`'s chat with `answers` as `(label, word)`: as buttons where
    /// the channel has them (a press comes back as the word), else in words alone.
    fn ask<'a>(&'a self, to: &'a IncomingMessage, text: &'a str, _answers: &'a [(String, String)]) -> BoxFuture<'a, Result<(), PhoneError>> {
        self.say(to, text)
    }
}
