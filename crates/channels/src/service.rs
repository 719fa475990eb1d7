//! The phone channels this process runs. They start with the deliveries, so only the
//! one process that owns the data dir (the app, or `sidecar daemon`) talks to the
//! phone. Owns each channel's life: the token, pairing, unpairing, turning it on or
//! off, and telling the user when one stays down (W1).
//!
//! Over 400 lines: with its tests; each channel's life (its token, pairing, on and off,
//! its health) is a method per channel, Telegram's and WhatsApp's side by side.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::asking::PhoneQuestions;
use super::error::ChannelError;
use super::health::{HealthView, Link};
use super::phone::PhoneParts;
use super::serving::serve;
use super::telegram::paired::PairedChats;
use super::telegram::{Telegram, TelegramSource, TOKEN_ACCOUNT};
use super::whatsapp::{WhatsApp, WhatsappSource, HEARTBEAT};
use crate::events::ChannelEvent;
use sidecar_agent::ConversationService;
use sidecar_domain::Channel;
use sidecar_domain::Secrets;
use sidecar_outbox::MessageRouter;
use sidecar_proactive::SinkId;
use sidecar_settings::Change;
use sidecar_settings::ChannelsSettings;
use sidecar_settings::PhoneChannel;
use sidecar_settings::TelegramSettings;

/// A channel down this long is worth a desktop notification (W1).
pub(crate) const DOWN_ALERT_AFTER: chrono::Duration = chrono::Duration::minutes(2);
/// How often the health of the channels is looked at.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_secs(15);

/// Where the bot token comes from, never the token itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TokenSource {
    Environment { variable: String },
    Keychain,
    Missing,
}

/// What Settings → Channels shows about Telegram.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct TelegramView {
    /// `[channels.telegram]` is present and enabled.
    pub enabled: bool,
    pub token: TokenSource,
    /// `None` when it is not running in this process.
    pub health: Option<HealthView>,
    pub paired_chats: Vec<i64>,
    pub pairing_code: Option<String>,
    pub pairing_expires_at: Option<DateTime<Utc>>,
    /// Reminders and tasks' results held for the paired chats until the bot is back.
    pub held: i64,
}

/// The QR code to scan, as an image.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct QrView {
    /// An SVG document of the code.
    pub svg: String,
    pub expires_at: DateTime<Utc>,
    /// Codes that expired unscanned before this one (W2).
    pub expired_before: u32,
}

/// What Settings → Channels shows about WhatsApp.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct WhatsappView {
    pub enabled: bool,
    pub health: Option<HealthView>,
    /// The linked number (the self chat), once linked.
    pub own_number: Option<String>,
    pub qr: Option<QrView>,
    pub allowed_numbers: Vec<String>,
    /// Reminders and tasks' results held for the self chat until WhatsApp is back.
    pub held: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ChannelsView {
    /// This process runs the channels (another Sidecar may own the data dir).
    pub owner: bool,
    pub telegram: TelegramView,
    pub whatsapp: WhatsappView,
}

pub struct ChannelService {
    with: PhoneParts,
    secrets: Arc<Secrets>,
    router: MessageRouter,
    conversation: Arc<ConversationService>,
    telegram: Mutex<Option<Arc<Telegram>>>,
    /// The paired chats, shared with the bot while it runs.
    paired: Arc<PairedChats>,
    /// Where the bot token was found the last time it was looked for (the keychain is
    /// slow to ask: views read this, never the keychain).
    token_source: Mutex<Option<TokenSource>>,
    whatsapp: Mutex<Option<Arc<WhatsApp>>>,
    owner: AtomicBool,
    questions: Arc<PhoneQuestions>,
    /// The channels announced as down and not yet back.
    alerted: Mutex<Vec<Channel>>,
}

impl ChannelService {
    /// The channels' sections are read from the settings' owner (`with.settings`) each
    /// time, never copied: what Settings saved is what a restart of a channel uses.
    pub fn new(with: PhoneParts, secrets: Arc<Secrets>, router: MessageRouter, conversation: Arc<ConversationService>) -> Self {
        let chats = with.settings.current().channels.telegram.as_ref().map(|t| t.allowed_chats.clone()).unwrap_or_default();
        let paired = Arc::new(PairedChats::new(chats, with.settings.clone(), with.events.clone()));
        // The cards say how many messages wait for each phone: a change redraws them.
        let events = with.events.clone();
        router.on_held_change(move || events.publish(ChannelEvent::ChannelsChanged));
        Self {
            with: with.clone(),
            secrets,
            router,
            conversation,
            telegram: Mutex::default(),
            paired,
            token_source: Mutex::default(),
            whatsapp: Mutex::default(),
            owner: AtomicBool::new(false),
            questions: Arc::new(PhoneQuestions::new(with.lang)),
            alerted: Mutex::default(),
        }
    }

    /// Permission questions asked on the phones (the gate asks through these).
    pub fn questions(&self) -> Arc<PhoneQuestions> {
        self.questions.clone()
    }

    fn channels(&self) -> ChannelsSettings {
        self.with.settings.current().channels.clone()
    }

    fn telegram_settings(&self) -> Option<TelegramSettings> {
        self.channels().telegram
    }

    /// The bot token and where it came from: the environment, else the keychain. The
    /// source is remembered for the views.
    fn telegram_token(&self, settings: &TelegramSettings) -> Option<String> {
        let (token, source) = match std::env::var(&settings.token_env).ok().filter(|t| !t.trim().is_empty()) {
            Some(token) => (Some(token), TokenSource::Environment { variable: settings.token_env.clone() }),
            None => match self.secrets.get(TOKEN_ACCOUNT) {
                Some(token) => (Some(token), TokenSource::Keychain),
                None => (None, TokenSource::Missing),
            },
        };
        *self.token_source.lock().expect("channels lock") = Some(source);
        token
    }

    /// Where the token is, looked for once if nothing has looked yet.
    fn token_source(&self) -> TokenSource {
        let known = self.token_source.lock().expect("channels lock").clone();
        known.unwrap_or_else(|| {
            self.telegram_token(&self.telegram_settings().unwrap_or_default());
            self.token_source.lock().expect("channels lock").clone().unwrap_or(TokenSource::Missing)
        })
    }

    /// Starts every configured channel; from now on this process owns them. Call on
    /// the runtime that should run them.
    pub fn start(&self) {
        self.owner.store(true, Ordering::Relaxed);
        self.restart_telegram();
        self.restart_whatsapp();
    }

    /// Stops every channel (their sinks leave the router).
    pub fn stop(&self) {
        self.owner.store(false, Ordering::Relaxed);
        self.stop_telegram();
        self.stop_whatsapp();
    }

    fn stop_whatsapp(&self) {
        if let Some(whatsapp) = self.whatsapp.lock().expect("channels lock").take() {
            whatsapp.shut_down();
            self.router.unregister(SinkId::Whatsapp);
        }
    }

    fn whatsapp_dir(&self) -> std::path::PathBuf {
        self.with.data_dir.join("whatsapp")
    }

    /// (Re)starts WhatsApp from the current settings, if it is on. Without a
    /// session it starts pairing: QR codes appear in the view.
    fn restart_whatsapp(&self) {
        self.stop_whatsapp();
        let Some(settings) = self.channels().whatsapp.filter(|s| s.enabled) else { return };
        if !self.owner.load(Ordering::Relaxed) {
            return;
        }
        let link = Arc::new(super::whatsapp::client::WebClient::new(self.whatsapp_dir()));
        let whatsapp = WhatsApp::new(link, settings, self.with.clone(), HEARTBEAT);
        tokio::spawn(whatsapp.clone().run());
        tokio::spawn(serve(Arc::new(WhatsappSource(whatsapp.clone())), self.conversation.clone(), self.questions.clone()));
        self.router.register(whatsapp.clone());
        *self.whatsapp.lock().expect("channels lock") = Some(whatsapp);
        self.with.events.publish(ChannelEvent::ChannelsChanged);
    }

    /// Turns WhatsApp on or off (saved in settings.toml).
    pub fn set_whatsapp_enabled(&self, enabled: bool) -> Result<(), ChannelError> {
        self.save_enabled(PhoneChannel::Whatsapp, enabled)?;
        self.restart_whatsapp();
        self.with.events.publish(ChannelEvent::ChannelsChanged);
        Ok(())
    }

    fn save_enabled(&self, channel: PhoneChannel, enabled: bool) -> Result<(), ChannelError> {
        self.with.settings.change(Change::ChannelEnabled(channel, enabled)).map(drop).map_err(ChannelError::from)
    }

    /// Forgets the WhatsApp session (the phone must scan a new code to link again).
    pub fn unlink_whatsapp(&self) -> Result<(), ChannelError> {
        self.stop_whatsapp();
        match std::fs::remove_dir_all(self.whatsapp_dir()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(ChannelError::WhatsAppSession(e.to_string())),
        }
        self.restart_whatsapp();
        self.with.events.publish(ChannelEvent::ChannelsChanged);
        Ok(())
    }

    fn stop_telegram(&self) {
        if let Some(telegram) = self.telegram.lock().expect("channels lock").take() {
            telegram.shut_down();
            self.router.unregister(SinkId::Telegram);
        }
    }

    /// (Re)starts Telegram from the current settings and token, if it is on.
    fn restart_telegram(&self) {
        self.stop_telegram();
        let Some(settings) = self.telegram_settings().filter(|s| s.enabled) else { return };
        // Looked for even when another process runs the bot, so the view is current.
        let token = self.telegram_token(&settings);
        if !self.owner.load(Ordering::Relaxed) {
            return;
        }
        let Some(token) = token else {
            tracing::info!("Telegram is on but has no bot token yet");
            return;
        };
        let telegram = match Telegram::new(&token, settings, self.paired.clone(), self.with.clone()) {
            Ok(telegram) => telegram,
            Err(error) => return tracing::warn!(%error, "Telegram could not start"),
        };
        tokio::spawn(telegram.clone().run());
        tokio::spawn(serve(Arc::new(TelegramSource(telegram.clone())), self.conversation.clone(), self.questions.clone()));
        self.router.register(telegram.clone());
        *self.telegram.lock().expect("channels lock") = Some(telegram);
        self.with.events.publish(ChannelEvent::ChannelsChanged);
    }

    fn running_telegram(&self) -> Result<Arc<Telegram>, ChannelError> {
        self.telegram.lock().expect("channels lock").clone().ok_or(ChannelError::TelegramOff)
    }

    pub fn view(&self) -> ChannelsView {
        let enabled = self.telegram_settings().is_some_and(|s| s.enabled);
        let token = self.token_source();
        let running = self.telegram.lock().expect("channels lock").clone();
        let code = running.as_ref().and_then(|t| t.pairing_code());
        // On but not running for want of a token: the card says what it waits for.
        let waiting = (enabled && token == TokenSource::Missing).then(|| HealthView {
            channel: Channel::Telegram,
            link: Link::NeedsSetup { what: crate::words::needs_token(self.with.lang).into() },
            last_message_at: None,
        });
        let telegram = TelegramView {
            enabled,
            token,
            health: running.as_ref().map(|t| t.health.view()).or(waiting),
            paired_chats: self.paired.list(),
            pairing_expires_at: code.as_ref().map(|c| c.expires_at),
            pairing_code: code.map(|c| c.code),
            held: self.router.held_for(SinkId::Telegram),
        };
        ChannelsView { owner: self.owner.load(Ordering::Relaxed), telegram, whatsapp: self.whatsapp_view() }
    }

    fn whatsapp_view(&self) -> WhatsappView {
        let settings = self.channels().whatsapp;
        let running = self.whatsapp.lock().expect("channels lock").clone();
        let qr = running.as_ref().and_then(|w| w.pairing()).map(|pairing| QrView {
            svg: pairing.svg,
            expires_at: pairing.expires_at,
            expired_before: pairing.expired_before,
        });
        WhatsappView {
            enabled: settings.as_ref().is_some_and(|s| s.enabled),
            health: running.as_ref().map(|w| w.health.view()),
            own_number: running.as_ref().and_then(|w| w.own_number()),
            qr,
            allowed_numbers: settings.map(|s| s.allowed_numbers).unwrap_or_default(),
            held: self.router.held_for(SinkId::Whatsapp),
        }
    }

    /// Saves the bot token (keychain, else this session) and turns Telegram on.
    pub fn set_telegram_token(&self, token: &str) -> Result<(), ChannelError> {
        let token = token.trim();
        if !looks_like_bot_token(token) {
            return Err(ChannelError::NotABotToken);
        }
        self.secrets.store(TOKEN_ACCOUNT, token);
        self.set_telegram_enabled(true)
    }

    /// Turns Telegram on or off (saved in settings.toml).
    pub fn set_telegram_enabled(&self, enabled: bool) -> Result<(), ChannelError> {
        self.save_enabled(PhoneChannel::Telegram, enabled)?;
        self.restart_telegram();
        self.with.events.publish(ChannelEvent::ChannelsChanged);
        Ok(())
    }

    /// A new one-time code to pair a chat with `/start CODE`.
    pub fn telegram_pairing_code(&self) -> Result<super::telegram::gate::PairingCode, ChannelError> {
        let telegram = self.running_telegram()?;
        // A code handed out while the bot cannot hear would be typed into silence.
        if let super::health::Link::Down { reason, .. } = telegram.health.view().link {
            return Err(sidecar_domain::Refused(crate::words::pairing_while_down(&reason, self.with.lang)).into());
        }
        let code = telegram.new_pairing_code();
        self.with.events.publish(ChannelEvent::ChannelsChanged);
        Ok(code)
    }

    /// The phone channels announced as down (W1) and not back yet.
    pub fn down_now(&self) -> Vec<Channel> {
        self.alerted.lock().expect("channels lock").clone()
    }

    /// Unpairs `chat`, whether Telegram runs now or not.
    pub fn unpair_telegram(&self, chat: i64) -> Result<(), ChannelError> {
        Ok(self.paired.remove(chat)?)
    }

    /// Every `WATCH_EVERY` until `cancel`: a channel down for `DOWN_ALERT_AFTER` is
    /// announced once (a desktop notification, the tray), and so is its return.
    pub async fn watch(&self, cancel: CancellationToken) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(WATCH_EVERY) => {}
                _ = cancel.cancelled() => return,
            }
            let now = self.with.clock.now();
            let mut views: Vec<HealthView> = self.telegram.lock().expect("channels lock").iter().map(|t| t.health.view()).collect();
            views.extend(self.whatsapp.lock().expect("channels lock").iter().map(|w| w.health.view()));
            for view in views {
                let name = crate::words::channel_name(view.channel);
                let was_alerted = self.alerted.lock().expect("channels lock").contains(&view.channel);
                match alert(&view.link, now, was_alerted) {
                    Some(Alert::Down { since, reason }) => {
                        let hm = since.with_timezone(&self.with.clock.zone()).format("%H:%M").to_string();
                        let (title, body) = crate::words::channel_down(name, &hm, &reason, self.with.lang);
                        tracing::warn!(channel = name, %reason, "a phone channel stays down");
                        self.with.events.publish(ChannelEvent::ChannelAlert { channel: view.channel, title, body, down: true });
                        self.alerted.lock().expect("channels lock").push(view.channel);
                    }
                    Some(Alert::Back) => {
                        let body = crate::words::channel_back(name, self.with.lang);
                        self.with.events.publish(ChannelEvent::ChannelAlert { channel: view.channel, title: body.clone(), body, down: false });
                        self.alerted.lock().expect("channels lock").retain(|c| *c != view.channel);
                    }
                    None => {}
                }
            }
        }
    }
}

/// What the desktop should be told about one channel now.
#[derive(Debug, PartialEq)]
enum Alert {
    Down { since: DateTime<Utc>, reason: String },
    Back,
}

/// A channel down for `DOWN_ALERT_AFTER` is announced once; its return is announced
/// only if its fall was. Short drops (a server recycling the connection) say nothing.
fn alert(link: &Link, now: DateTime<Utc>, was_alerted: bool) -> Option<Alert> {
    match link {
        Link::Down { since, reason } if !was_alerted && now - *since >= DOWN_ALERT_AFTER => Some(Alert::Down { since: *since, reason: reason.clone() }),
        Link::Connected { .. } if was_alerted => Some(Alert::Back),
        _ => None,
    }
}

/// "123456789:AA…": digits, a colon, then the secret part.
fn looks_like_bot_token(token: &str) -> bool {
    token.split_once(':').is_some_and(|(id, secret)| {
        !id.is_empty()
            && id.chars().all(|c| c.is_ascii_digit())
            && secret.len() >= 20
            && secret.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_down_for_two_minutes_is_announced_once_and_so_is_its_return() {
        let since: DateTime<Utc> = "2026-11-23T10:00:00Z".parse().unwrap();
        let down = Link::Down { since, reason: "cannot reach the Telegram server".into() };
        assert_eq!(alert(&down, since + chrono::Duration::seconds(90), false), None, "a short drop says nothing");
        assert_eq!(alert(&down, since + DOWN_ALERT_AFTER, false), Some(Alert::Down { since, reason: "cannot reach the Telegram server".into() }));
        assert_eq!(alert(&down, since + chrono::Duration::minutes(10), true), None, "said once");
        let up = Link::Connected { since: since + chrono::Duration::minutes(11) };
        assert_eq!(alert(&up, since + chrono::Duration::minutes(11), true), Some(Alert::Back));
        assert_eq!(alert(&up, since + chrono::Duration::minutes(11), false), None);
    }

    #[test]
    fn bot_tokens_are_recognised_by_their_shape() {
        assert!(looks_like_bot_token("123456789:AAHfJ3kq_-abcdefghijklmnopqrstu"));
        assert!(!looks_like_bot_token("sk-not-a-bot-token"));
        assert!(!looks_like_bot_token("12345:short"));
        assert!(!looks_like_bot_token("abc:AAHfJ3kqabcdefghijklmnopqrstu"));
    }
}
