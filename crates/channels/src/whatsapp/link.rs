//! The boundary between Sidecar's WhatsApp channel and the WhatsApp Web client: what
//! the channel needs from a connection (events in, voice notes fetched on demand, text
//! and voice notes out, a liveness check). The
//! real one is `client::WebClient` (whatsapp-rust); tests drive the channel through
//! a scripted one, with the protocol library linked all the same.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::error::PhoneError;
use futures_util::future::BoxFuture;

/// What the connection reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// A pairing QR code to show, valid this long (the next one follows).
    Qr { code: String, valid_for: Duration },
    /// Every QR code of this pairing attempt expired unscanned (W2).
    QrExpired,
    /// Connected and logged in as this number (digits only).
    Connected { own_number: String },
    /// The connection ended.
    Disconnected { reason: String },
    /// Unlinked from the phone: pairing starts over.
    LoggedOut,
    /// A text message in some chat.
    Message { id: String, chat: String, from_me: bool, group: bool, text: String },
    /// A voice note (or any audio) in some chat, not fetched yet: `fetch_audio` with its
    /// id brings it, once the channel has let it through.
    Audio { id: String, chat: String, from_me: bool, group: bool, seconds: u32, bytes: u64 },
}

pub trait WhatsappLink: Send + Sync {
    /// Opens the connection (pairing if there is no session yet); its events go to
    /// `events` until `close`.
    fn open(&self, events: mpsc::UnboundedSender<LinkEvent>) -> BoxFuture<'_, Result<(), PhoneError>>;
    /// Sends `text` to the chat of `number`; returns the message's id.
    fn send_text<'a>(&'a self, number: &'a str, text: &'a str) -> BoxFuture<'a, Result<String, PhoneError>>;
    /// Sends `ogg` (OGG/Opus, `seconds` long) to the chat of `number` as a voice note;
    /// returns the message's id.
    fn send_voice_note<'a>(&'a self, number: &'a str, ogg: Vec<u8>, seconds: u32) -> BoxFuture<'a, Result<String, PhoneError>>;
    /// The recording of the `Audio` event `id` (OGG/Opus for a voice note), decrypted.
    fn fetch_audio<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<u8>, PhoneError>>;
    /// Whether the socket is alive now (the heartbeat's question, W1).
    fn alive(&self) -> bool;
    fn close(&self) -> BoxFuture<'_, ()>;
}
