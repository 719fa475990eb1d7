//! Answers as buttons: a permission question carries one inline button per answer,
//! and a press comes back as the answer's word, from the chat it was pressed in, so it
//! is read exactly as if the user had typed it.

use crate::rows::ChannelMarksStore;
use std::sync::Arc;

use teloxide_core::requests::{Request, Requester};
use teloxide_core::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup};

use super::Telegram;
use crate::source::IncomingMessage;
use sidecar_domain::Channel;

/// One button per `(label, word)`, one per row (the labels are long).
pub(crate) fn keyboard(buttons: &[(String, String)]) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(buttons.iter().map(|(label, word)| vec![InlineKeyboardButton::callback(label.clone(), word.clone())]))
}

impl Telegram {
    /// A button pressed in a paired chat becomes that chat's message; the spinner on
    /// the button is cleared either way.
    pub(super) async fn take_press(self: &Arc<Self>, query: CallbackQuery) {
        let chat = query.message.as_ref().map(|m| m.chat().id.0).unwrap_or(query.from.id.0 as i64);
        let answered = self.bot.answer_callback_query(query.id.clone()).send();
        tokio::spawn(async move {
            if let Err(error) = answered.await {
                tracing::debug!(%error, "a pressed Telegram button was not acknowledged");
            }
        });
        let Some(word) = query.data.filter(|_| self.allowed().contains(&chat)) else {
            return tracing::info!(chat, "a Telegram button press from outside the paired chats, ignored");
        };
        let id = format!("{chat}:press:{}", query.id.0);
        match self.with.store.channel_marks().first_sight(Channel::Telegram, &id).await {
            Ok(true) => {}
            Ok(false) => return tracing::info!(%id, "duplicate Telegram button press dropped"),
            Err(error) => return tracing::warn!(%error, %id, "could not check a Telegram button press"),
        }
        let now = self.with.clock.now();
        self.health.message_arrived(now);
        self.arrivals.push(IncomingMessage { id, channel: Channel::Telegram, user_id: chat.to_string(), content: word, received_at: now });
    }
}
