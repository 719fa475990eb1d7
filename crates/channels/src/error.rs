//! Why a phone channel could not be set up or changed, worded in both languages.

use sidecar_domain::Refused;
use sidecar_domain::Worded;
use sidecar_settings::SettingsFileError;

#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    #[error("Telegram is not running here: turn it on and save a bot token first")]
    TelegramOff,
    #[error("that does not look like a bot token (@BotFather gives one like 123456789:AA…)")]
    NotABotToken,
    #[error("cannot remove the WhatsApp session: {0}")]
    WhatsAppSession(String),
    /// Said by the check that found it (a pairing while the bot cannot hear).
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

/// Why a phone channel could not say something, start, or keep what it learnt. The
/// message is for the log and the sink's tally; the chat is never shown it.
#[derive(Debug, thiserror::Error)]
pub enum PhoneError {
    #[error("this channel has no chat to ask in")]
    NoChat,
    /// The chat id a message came with is not one this channel uses.
    #[error("not a chat of this channel: {0}")]
    NotAChat(String),
    #[error("{0} is not connected")]
    NotConnected(&'static str),
    #[error("{service} did not take the message within {seconds} s")]
    TimedOut { service: &'static str, seconds: u64 },
    #[error("WhatsApp's sending limit for this hour is reached (channels.whatsapp.max_sends_per_hour)")]
    HourlyLimit,
    #[error("Sidecar is shutting down")]
    ShuttingDown,
    /// The service or its library refused; its words, with any token scrubbed.
    #[error("{0}")]
    Service(String),
    /// The answer could not be said as a voice note.
    #[error("the voice note could not be made: {0}")]
    Voice(String),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for ChannelError {
    fn spanish(&self) -> String {
        match self {
            ChannelError::TelegramOff => "Telegram no está en marcha aquí: actívalo y guarda primero un token de bot".into(),
            ChannelError::NotABotToken => "eso no parece un token de bot (@BotFather da uno como 123456789:AA…)".into(),
            ChannelError::WhatsAppSession(why) => format!("no se puede borrar la sesión de WhatsApp: {why}"),
            ChannelError::Refused(e) => e.spanish(),
            ChannelError::SettingsFile(e) => e.spanish(),
        }
    }
}
