//! A note a connected program leaves for the user (`send_message` over MCP, `POST
//! /v1/messages` over HTTP): shown like a reminder (a notification, the chat, a phone
//! when away), and kept out of what the model reads, so another program's words never
//! become instructions to Sidecar.

use sidecar_domain::Lang;
use sidecar_outbox::{Kind, MessageRouter, Outgoing};

/// The longest note a program may leave, in characters.
pub(crate) const MAX_NOTE_CHARS: usize = 2000;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum NoteError {
    #[error("the message is empty")]
    Empty,
    #[error("the message is {0} characters long; at most {MAX_NOTE_CHARS} are taken")]
    TooLong(usize),
    #[error("the message could not be shown: {0}")]
    NotShown(String),
}

pub struct ClientNotes {
    router: MessageRouter,
    lang: Lang,
}

impl ClientNotes {
    pub fn new(router: MessageRouter, lang: Lang) -> Self {
        Self { router, lang }
    }

    /// Shows `text` from `client`; the chat message's id when the chat showed it.
    pub(crate) async fn post(&self, client: &str, text: &str) -> Result<Option<i64>, NoteError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(NoteError::Empty);
        }
        let length = text.chars().count();
        if length > MAX_NOTE_CHARS {
            return Err(NoteError::TooLong(length));
        }
        let (prefs, presence) = self.router.whereabouts().await.map_err(|e| NoteError::NotShown(e.to_string()))?;
        let (title, chat) = crate::words::note_from(client, text, self.lang);
        let note = Outgoing {
            // Routed as reminders are: the user asked for these when they gave the scope.
            kind: Kind::Reminder,
            title,
            body: text.to_string(),
            chat,
            // A program's note is no kind of Sidecar's own: nothing is learned of it.
            message_type: None,
            reminder_id: None,
            late: false,
            message_id: None,
            occurrence: None,
        };
        let routed = self.router.send(note, &prefs, presence).await;
        if !routed.reached_anyone() {
            let why = routed.failed.iter().map(|(sink, e)| format!("{}: {e}", sink.as_str())).collect::<Vec<_>>().join("; ");
            return Err(NoteError::NotShown(if why.is_empty() { "no place takes reminders (Settings → Proactivity)".into() } else { why }));
        }
        Ok(routed.message_id)
    }
}
