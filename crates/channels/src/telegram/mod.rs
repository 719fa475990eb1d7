//! Telegram through the Bot API (teloxide-core), with long polling so no public
//! webhook is needed. One `Telegram` is both a message source (paired chats talk to
//! the same conversation as the desktop) and a sink (reminders and spontaneous
//! messages reach the paired chats when the router sends them there).
//!
//! `gate` decides who gets through, `text` cuts long replies, `link` polls and sends
//! with Telegram's flood control (`retry_after`) and backoff on network loss, `poll`
//! asks for updates with the API's 64-bit ids.

use crate::error::PhoneError;
use crate::rows::ChannelMarksStore;
mod buttons;
pub(crate) mod gate;
pub(crate) mod guard;
mod link;
pub(crate) mod paired;
pub(crate) mod poll;
mod reactions;
pub(crate) mod text;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use teloxide_core::Bot;
use tokio_util::sync::CancellationToken;

use super::arrivals::Arrivals;
use super::health::Health;
use super::phone::PhoneParts;
use super::source::{answer_text, IncomingMessage, MessageSource};
use futures_util::future::BoxFuture;
use gate::PairingCode;
use paired::PairedChats;
use sidecar_agent::TurnError;
use sidecar_agent::TurnOutcome;
use sidecar_domain::Channel;
use sidecar_outbox::{Outgoing, Sink, SinkError};
use sidecar_proactive::SinkId;
use sidecar_settings::TelegramSettings;

/// The keychain entry holding a bot token saved from Settings.
pub(crate) const TOKEN_ACCOUNT: &str = "channel:telegram";

/// How long a reminder waits for Telegram before the router counts it failed here.
const SINK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);
/// How long a reply keeps being retried while Telegram is unreachable.
const REPLY_PATIENCE: std::time::Duration = std::time::Duration::from_secs(15 * 60);

pub(crate) struct Telegram {
    bot: Bot,
    with: PhoneParts,
    settings: TelegramSettings,
    paired: Arc<PairedChats>,
    pairing: Mutex<Option<PairingCode>>,
    /// Wrong codes and strangers: when to lock pairing, whom to answer.
    guard: Mutex<guard::PairingGuard>,
    pub health: Health,
    arrivals: Arrivals,
    /// "Typing…" shown while a message is being answered, by message id.
    typing: Mutex<HashMap<String, CancellationToken>>,
    /// Messages whose answer was asked for as a voice note, by message id.
    voice_replies: Mutex<std::collections::HashSet<String>>,
    stop: CancellationToken,
}

impl Telegram {
    /// A bot answering the chats in `paired` (shared with whoever unpairs them).
    pub(crate) fn new(token: &str, settings: TelegramSettings, paired: Arc<PairedChats>, with: PhoneParts) -> Result<Arc<Self>, PhoneError> {
        let api = url::Url::parse(&settings.api_url).map_err(|e| PhoneError::Service(format!("channels.telegram.api_url: {e}")))?;
        let http = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(10))
            // Long polls hold the request open for `poll_timeout_secs`; teloxide adds
            // that to each getUpdates, this bounds everything else.
            .timeout(std::time::Duration::from_secs(30))
            .build()
            .map_err(|e| PhoneError::Service(e.to_string()))?;
        with.redactor.register(token);
        Ok(Arc::new(Self {
            bot: Bot::with_client(token, http).set_api_url(api),
            paired,
            health: Health::new(Channel::Telegram, with.events.clone()),
            with,
            settings,
            pairing: Mutex::new(None),
            guard: Mutex::default(),
            arrivals: Arrivals::default(),
            typing: Mutex::default(),
            voice_replies: Mutex::default(),
            stop: CancellationToken::new(),
        }))
    }

    /// The paired chats.
    pub(crate) fn allowed(&self) -> Vec<i64> {
        self.paired.list()
    }

    /// A fresh one-time pairing code (the old one stops working).
    pub(crate) fn new_pairing_code(&self) -> PairingCode {
        let code = PairingCode::new(self.with.clock.now());
        *self.pairing.lock().expect("pairing lock") = Some(code.clone());
        self.guard.lock().expect("guard lock").fresh_code();
        code
    }

    /// The code still valid, if one is.
    pub(crate) fn pairing_code(&self) -> Option<PairingCode> {
        let now = self.with.clock.now();
        self.pairing.lock().expect("pairing lock").clone().filter(|code| code.expires_at > now)
    }

    /// Stops polling; `next` then ends, so the source's `serve` ends too.
    pub(crate) fn shut_down(&self) {
        self.stop.cancel();
    }

    fn start_typing(self: &Arc<Self>, message: &IncomingMessage) {
        let Ok(chat) = message.user_id.parse::<i64>() else { return };
        let token = self.stop.child_token();
        self.typing.lock().expect("typing lock").insert(message.id.clone(), token.clone());
        let this = self.clone();
        tokio::spawn(async move { this.keep_typing(chat, token).await });
    }

    /// Keeps a spontaneous message's Telegram id, so a reaction on it teaches its kind.
    async fn remember_spontaneous(&self, chat: i64, id: Option<i32>, message: &Outgoing) {
        let (Some(id), Some(kind)) = (id, message.message_type) else { return };
        if let Err(error) = self.with.store.channel_marks().sent_spontaneous(Channel::Telegram, &format!("{chat}:{id}"), kind).await {
            tracing::warn!(%error, "could not keep a spontaneous message's Telegram id");
        }
    }

    fn stop_typing(&self, message_id: &str) {
        if let Some(token) = self.typing.lock().expect("typing lock").remove(message_id) {
            token.cancel();
        }
    }
}

/// Telegram as a source: each paired chat's message, in order.
pub(crate) struct TelegramSource(pub Arc<Telegram>);

impl MessageSource for TelegramSource {
    fn channel(&self) -> Channel {
        Channel::Telegram
    }

    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>> {
        Box::pin(async move {
            let message = self.0.arrivals.next(&self.0.stop).await?;
            self.0.start_typing(&message);
            Some(message)
        })
    }

    fn send_response<'a>(&'a self, to: &'a IncomingMessage, answer: Result<TurnOutcome, TurnError>) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(async move {
            self.0.stop_typing(&to.id);
            let chat = chat_of(to)?;
            let spoken = self.0.voice_replies.lock().expect("voice replies lock").remove(&to.id) && answer.is_ok();
            let text = answer_text(answer);
            if spoken {
                match self.0.say_aloud(chat, &text).await {
                    Ok(()) => return Ok(()),
                    Err(error) => tracing::warn!(%error, "the answer could not go as a voice note; it goes as text"),
                }
            }
            self.0.say(chat, &text, REPLY_PATIENCE).await
        })
    }

    fn is_connected(&self) -> bool {
        self.0.health.is_connected()
    }

    fn say<'a>(&'a self, to: &'a IncomingMessage, text: &'a str) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(async move {
            let chat = chat_of(to)?;
            self.0.say(chat, text, REPLY_PATIENCE).await
        })
    }

    fn ask<'a>(&'a self, to: &'a IncomingMessage, text: &'a str, answers: &'a [(String, String)]) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(async move {
            let chat = chat_of(to)?;
            self.0.say_with(chat, text, REPLY_PATIENCE, Some(buttons::keyboard(answers))).await.map(drop)
        })
    }
}

/// The Telegram chat a message came from.
fn chat_of(message: &IncomingMessage) -> Result<i64, PhoneError> {
    message.user_id.parse::<i64>().map_err(|_| PhoneError::NotAChat(message.user_id.clone()))
}

impl Sink for Telegram {
    fn id(&self) -> SinkId {
        SinkId::Telegram
    }

    fn channel(&self) -> Channel {
        Channel::Telegram
    }

    fn available(&self) -> bool {
        self.health.is_connected() && !self.allowed().is_empty()
    }

    /// A paired chat misses nothing while the bot is down.
    fn holds_what_it_missed(&self) -> bool {
        !self.allowed().is_empty()
    }

    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        Box::pin(async move {
            let mut problems = Vec::new();
            let chats = self.allowed();
            for chat in &chats {
                match self.say_with(*chat, &message.chat, SINK_PATIENCE, None).await {
                    Ok(id) => self.remember_spontaneous(*chat, id, message).await,
                    Err(problem) => problems.push(problem),
                }
            }
            // Shown once any paired chat has it (P2).
            if problems.len() < chats.len() {
                Ok(None)
            } else {
                Err(SinkError::failed(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))
            }
        })
    }
}
