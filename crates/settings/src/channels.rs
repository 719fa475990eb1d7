//! `[channels.telegram]` and `[channels.whatsapp]`: the phone channels. Neither runs
//! unless its section is present and enabled; tokens are never written here (an
//! environment variable names it, or the keychain keeps it).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The variable read for the bot token when `token_env` is not set.
pub(crate) const TELEGRAM_TOKEN_ENV: &str = "SIDECAR_TELEGRAM_TOKEN";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ChannelsSettings {
    pub telegram: Option<TelegramSettings>,
    pub whatsapp: Option<WhatsappSettings>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct TelegramSettings {
    pub enabled: bool,
    /// Any Bot API–compatible server.
    pub api_url: String,
    /// The environment variable holding the bot token (else the keychain's).
    pub token_env: String,
    /// Chats paired with this Sidecar; nobody else reaches the model.
    pub allowed_chats: Vec<i64>,
    /// How long one long poll waits for news, in seconds.
    pub poll_timeout_secs: u32,
}

impl Default for TelegramSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            api_url: "https://api.telegram.org".into(),
            token_env: TELEGRAM_TOKEN_ENV.into(),
            allowed_chats: Vec::new(),
            poll_timeout_secs: 30,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct WhatsappSettings {
    pub enabled: bool,
    /// Numbers (international format, digits only) whose messages reach the model,
    /// besides the user's own chat ("message yourself").
    pub allowed_numbers: Vec<String>,
    /// Shortest gap between two messages Sidecar sends (W3).
    pub min_send_interval_secs: f64,
    /// Most messages Sidecar sends in one hour (W3).
    pub max_sends_per_hour: u32,
}

impl Default for WhatsappSettings {
    fn default() -> Self {
        // The seed's limits: one message a second, twenty an hour.
        Self { enabled: true, allowed_numbers: Vec::new(), min_send_interval_secs: 1.0, max_sends_per_hour: 20 }
    }
}
