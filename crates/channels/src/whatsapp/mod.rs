//! WhatsApp, the seed's main mobile channel, through WhatsApp Web's multi-device
//! protocol (whatsapp-rust, Baileys' counterpart in Rust). Pairing is a QR code shown
//! in Settings → Channels; the session lives in the data dir. Only the user's own chat
//! ("message yourself") and allowed numbers reach the model (`gate`).
//!
//! The seed's failure modes are handled here: W1 a silent disconnect is caught by a
//! heartbeat and reconnected with backoff (a desktop notification when it stays
//! down, through `health`); W2 an expired QR is replaced at once and the desktop says
//! so; W3 outbound messages keep a pace (`pace`); W4 a message id is answered once,
//! across restarts.
//!
//! Over 400 lines: the connection's life (pairing, the heartbeat, reconnecting, sending)
//! is one state W1–W4 all act on; what stands apart (the gate, the health, the words) has
//! its own modules.

use crate::error::PhoneError;
use crate::events::ChannelEvent;
use crate::rows::ChannelMarksStore;
use sidecar_voice::Unheard;
pub(crate) mod client;
pub(crate) mod gate;
pub(crate) mod link;
pub(crate) mod pace;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::arrivals::Arrivals;
use super::backoff::Backoff;
use super::health::{Health, Link};
use super::phone::PhoneParts;
use super::source::{answer_text, IncomingMessage, MessageSource};
use super::voice_note;
use futures_util::future::BoxFuture;
use link::{LinkEvent, WhatsappLink};
use pace::Pace;
use sidecar_agent::TurnError;
use sidecar_agent::TurnOutcome;
use sidecar_domain::Channel;
use sidecar_outbox::{Outgoing, Sink, SinkError};
use sidecar_proactive::SinkId;
use sidecar_settings::WhatsappSettings;

/// How often the connection is asked whether it is alive (W1).
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(30);
/// How long a reply keeps being retried while WhatsApp is unreachable.
const REPLY_PATIENCE: Duration = Duration::from_secs(15 * 60);
/// How long a voice note keeps being retried before the answer goes as text instead.
const VOICE_PATIENCE: Duration = Duration::from_secs(60);
/// How long a reminder waits for WhatsApp before the router counts it failed here.
const SINK_PATIENCE: Duration = Duration::from_secs(30);

/// The QR code to scan, while pairing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pairing {
    pub code: String,
    /// The code drawn as a QR image (SVG), once per code.
    pub svg: String,
    pub expires_at: DateTime<Utc>,
    /// How many codes expired unscanned before this one (W2: the desktop says so).
    pub expired_before: u32,
}

pub struct WhatsApp {
    link: Arc<dyn WhatsappLink>,
    with: PhoneParts,
    settings: WhatsappSettings,
    pub health: Health,
    own_number: Mutex<Option<String>>,
    pairing: Mutex<Option<Pairing>>,
    expired: Mutex<u32>,
    pace: tokio::sync::Mutex<Pace>,
    /// Texts being sent now: their echo in the self chat can arrive before the send
    /// returns the id that marks it as Sidecar's own.
    sending: Mutex<Vec<String>>,
    arrivals: Arrivals,
    /// Messages whose answer was asked for as a voice note, by id.
    voice_replies: Mutex<std::collections::HashSet<String>>,
    heartbeat: Duration,
    stop: CancellationToken,
}

impl WhatsApp {
    pub fn new(link: Arc<dyn WhatsappLink>, settings: WhatsappSettings, with: PhoneParts, heartbeat: Duration) -> Arc<Self> {
        Arc::new(Self {
            link,
            health: Health::new(Channel::Whatsapp, with.events.clone()),
            pace: tokio::sync::Mutex::new(Pace::new(Duration::from_secs_f64(settings.min_send_interval_secs), settings.max_sends_per_hour)),
            with,
            settings,
            own_number: Mutex::new(None),
            pairing: Mutex::new(None),
            expired: Mutex::new(0),
            sending: Mutex::default(),
            arrivals: Arrivals::default(),
            voice_replies: Mutex::default(),
            heartbeat,
            stop: CancellationToken::new(),
        })
    }

    pub fn own_number(&self) -> Option<String> {
        self.own_number.lock().expect("whatsapp lock").clone()
    }

    /// The QR code to scan now, while pairing.
    pub fn pairing(&self) -> Option<Pairing> {
        self.pairing.lock().expect("whatsapp lock").clone()
    }

    pub fn shut_down(&self) {
        self.stop.cancel();
    }

    /// Connects, and reconnects with backoff whenever the connection ends or stops
    /// answering, until shut down.
    pub async fn run(self: Arc<Self>) {
        let mut waits = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));
        loop {
            let (events_tx, mut events) = mpsc::unbounded_channel();
            let ended = match self.link.open(events_tx).await {
                Ok(()) => self.follow(&mut events, &mut waits).await,
                Err(reason) => Ended::Down(reason.to_string()),
            };
            self.link.close().await;
            let wait = match ended {
                Ended::Stopped => return,
                Ended::Down(reason) => {
                    tracing::warn!(%reason, "WhatsApp connection lost");
                    self.health.down(self.with.clock.now(), &reason);
                    waits.next_wait()
                }
                // A fresh pairing attempt (new QR codes) starts at once.
                Ended::Repair => Duration::ZERO,
            };
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.stop.cancelled() => return,
            }
        }
    }

    /// Handles one connection's events until it ends.
    async fn follow(&self, events: &mut mpsc::UnboundedReceiver<LinkEvent>, waits: &mut Backoff) -> Ended {
        let opened_at = tokio::time::Instant::now();
        let mut beat = tokio::time::interval(self.heartbeat);
        beat.tick().await;
        loop {
            let event = tokio::select! {
                event = events.recv() => match event {
                    Some(event) => event,
                    None => return Ended::Down("the WhatsApp client stopped".into()),
                },
                _ = beat.tick() => {
                    if !self.link.alive() {
                        // W1: connected on paper, but the socket is gone…
                        if self.health.is_connected() {
                            return Ended::Down("WhatsApp stopped answering (heartbeat)".into());
                        }
                        // …or it never came up, and the client keeps quiet about it.
                        let waiting = matches!(self.health.view().link, Link::Connecting | Link::Down { .. });
                        if waiting && opened_at.elapsed() >= self.heartbeat * 2 {
                            return Ended::Down(format!("cannot reach WhatsApp (no connection after {} s)", opened_at.elapsed().as_secs()));
                        }
                    }
                    continue;
                }
                _ = self.stop.cancelled() => return Ended::Stopped,
            };
            match event {
                LinkEvent::Qr { code, valid_for } => {
                    let expires_at = self.with.clock.now() + chrono::Duration::from_std(valid_for).unwrap_or_default();
                    let expired_before = *self.expired.lock().expect("whatsapp lock");
                    let svg = qr_svg(&code);
                    *self.pairing.lock().expect("whatsapp lock") = Some(Pairing { code, svg, expires_at, expired_before });
                    self.health.needs_setup(&crate::words::scan_qr(self.with.lang));
                    self.with.events.publish(ChannelEvent::ChannelsChanged);
                }
                LinkEvent::QrExpired => {
                    *self.expired.lock().expect("whatsapp lock") += 1;
                    *self.pairing.lock().expect("whatsapp lock") = None;
                    tracing::info!("WhatsApp QR codes expired unscanned; making new ones");
                    self.health.needs_setup(&crate::words::qr_expired(self.with.lang));
                    return Ended::Repair;
                }
                LinkEvent::Connected { own_number } => {
                    *self.own_number.lock().expect("whatsapp lock") = Some(own_number);
                    *self.pairing.lock().expect("whatsapp lock") = None;
                    *self.expired.lock().expect("whatsapp lock") = 0;
                    waits.reset();
                    self.health.up(self.with.clock.now());
                }
                LinkEvent::Disconnected { reason } => return Ended::Down(reason),
                LinkEvent::LoggedOut => {
                    *self.own_number.lock().expect("whatsapp lock") = None;
                    self.health.needs_setup(&crate::words::whatsapp_unlinked(self.with.lang));
                    return Ended::Repair;
                }
                LinkEvent::Message { id, chat, from_me, group, text } => {
                    if let Some(message) = self.take(id, chat, from_me, group, &text).await {
                        self.arrive(message, text);
                    }
                }
                LinkEvent::Audio { id, chat, from_me, group, seconds, bytes } => {
                    // Judged as a message with no text: a stranger's note is never fetched.
                    if let Some(message) = self.take(id, chat, from_me, group, "").await {
                        match self.hear(&message.id, seconds, bytes).await {
                            Ok(words) => self.arrive(message, words),
                            Err(Unheard(said)) => {
                                if let Err(error) = self.say(&message.user_id, &said, Duration::from_secs(60)).await {
                                    tracing::warn!(%error, "could not tell a WhatsApp chat its voice note was not heard");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One message: dropped if its id was seen (W4; Sidecar's own replies are
    /// recorded when sent), then through the gate; what passes, without its content.
    async fn take(&self, id: String, chat: String, from_me: bool, group: bool, text: &str) -> Option<IncomingMessage> {
        // Checked before any await: `say` takes the text off `sending` only after it
        // has recorded the sent id, so an echo is caught by one check or the other.
        let own = self.own_number();
        let echo = from_me && own.as_deref() == Some(chat.as_str()) && self.sending.lock().expect("whatsapp lock").iter().any(|sent| sent == text);
        if echo {
            tracing::debug!(%id, "echo of Sidecar's own message dropped");
            return None;
        }
        match self.with.store.channel_marks().first_sight(Channel::Whatsapp, &id).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::debug!(%id, "WhatsApp message already seen");
                return None;
            }
            Err(error) => {
                tracing::warn!(%error, "could not check a WhatsApp message id");
                return None;
            }
        }
        let seen = gate::Seen { chat: &chat, from_me, group };
        if !gate::admits(&seen, own.as_deref(), &self.settings.allowed_numbers) {
            return None;
        }
        let now = self.with.clock.now();
        self.health.message_arrived(now);
        Some(IncomingMessage { id, channel: Channel::Whatsapp, user_id: chat, content: String::new(), received_at: now })
    }

    /// Hands `message` with its `content` to the conversation.
    fn arrive(&self, message: IncomingMessage, content: String) {
        if sidecar_voice::asks_for_voice(&content) {
            self.voice_replies.lock().expect("whatsapp lock").insert(message.id.clone());
        }
        self.arrivals.push(IncomingMessage { content, ..message });
    }

    /// The words of a let-through voice note, or what to tell the chat. Awaited in the
    /// event loop, so the note reaches the conversation before what was written after it.
    async fn hear(&self, id: &str, seconds: u32, bytes: u64) -> Result<String, Unheard> {
        let lang = self.with.lang;
        voice_note::check(seconds, bytes, lang)?;
        let recording = self.link.fetch_audio(id).await.map_err(|error| {
            tracing::warn!(%error, "could not download a WhatsApp voice note");
            Unheard(crate::words::voice_note_unfetched(lang).to_string())
        })?;
        voice_note::hear(&self.with.speech, recording, lang).await
    }

    /// Sends `text` to `number` at the allowed pace (W3), retrying with backoff while
    /// the connection is down, for up to `patience`.
    async fn say(&self, number: &str, text: &str, patience: Duration) -> Result<(), PhoneError> {
        self.send_paced(number, Outbound::Text(text), patience).await
    }

    /// Sends `reply` to `number` as a voice note (said by espeak-ng as Settings → Voice
    /// chose, OGG/Opus), at the allowed pace.
    async fn say_aloud(&self, number: &str, reply: &str) -> Result<(), PhoneError> {
        let note = voice_note::answer(&self.with.settings, reply, self.with.lang).await?;
        self.send_paced(number, Outbound::Voice(&note), VOICE_PATIENCE).await
    }

    async fn send_paced(&self, number: &str, what: Outbound<'_>, patience: Duration) -> Result<(), PhoneError> {
        let give_up = tokio::time::Instant::now() + patience;
        let mut waits = Backoff::new(Duration::from_secs(1), Duration::from_secs(30));
        // What its echo in the self chat carries: the text, or none for a voice note.
        let echo = match what {
            Outbound::Text(text) => text,
            Outbound::Voice(_) => "",
        };
        loop {
            {
                let mut pace = self.pace.lock().await;
                let slot = pace.next_slot(tokio::time::Instant::now());
                if slot > give_up {
                    return Err(PhoneError::HourlyLimit);
                }
                tokio::time::sleep_until(slot).await;
                self.sending.lock().expect("whatsapp lock").push(echo.to_string());
                let sent = match what {
                    Outbound::Text(text) => self.link.send_text(number, text).await,
                    Outbound::Voice(note) => self.link.send_voice_note(number, note.ogg.clone(), note.seconds).await,
                };
                if let Ok(id) = &sent {
                    pace.record(tokio::time::Instant::now());
                    // Its echo in the self chat must not be taken for the user's.
                    if let Err(error) = self.with.store.channel_marks().first_sight(Channel::Whatsapp, id).await {
                        tracing::warn!(%error, "could not record a sent WhatsApp message");
                    }
                }
                let mut sending = self.sending.lock().expect("whatsapp lock");
                if let Some(at) = sending.iter().position(|t| t == echo) {
                    sending.remove(at);
                }
                drop(sending);
                match sent {
                    Ok(_) => return Ok(()),
                    Err(reason) => tracing::warn!(%reason, "WhatsApp send failed"),
                }
            }
            let wait = waits.next_wait();
            if tokio::time::Instant::now() + wait > give_up {
                return Err(PhoneError::TimedOut { service: "WhatsApp", seconds: patience.as_secs() });
            }
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.stop.cancelled() => return Err(PhoneError::ShuttingDown),
            }
        }
    }
}

/// What goes out to a chat.
#[derive(Clone, Copy)]
enum Outbound<'a> {
    Text(&'a str),
    Voice(&'a sidecar_voice::VoiceNote),
}

/// The pairing payload as a QR code image (SVG).
fn qr_svg(payload: &str) -> String {
    match qrcode::QrCode::new(payload.as_bytes()) {
        Ok(code) => code.render::<qrcode::render::svg::Color>().min_dimensions(240, 240).quiet_zone(true).build(),
        Err(error) => {
            tracing::warn!(%error, "could not draw the WhatsApp QR code");
            String::new()
        }
    }
}

enum Ended {
    Stopped,
    Down(String),
    Repair,
}

/// WhatsApp as a source: the self chat's and allowed numbers' messages, in order.
pub struct WhatsappSource(pub Arc<WhatsApp>);

impl MessageSource for WhatsappSource {
    fn channel(&self) -> Channel {
        Channel::Whatsapp
    }

    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>> {
        Box::pin(self.0.arrivals.next(&self.0.stop))
    }

    fn send_response<'a>(&'a self, to: &'a IncomingMessage, answer: Result<TurnOutcome, TurnError>) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(async move {
            let spoken = self.0.voice_replies.lock().expect("whatsapp lock").remove(&to.id) && answer.is_ok();
            let text = answer_text(answer);
            if spoken {
                match self.0.say_aloud(&to.user_id, &text).await {
                    Ok(()) => return Ok(()),
                    Err(error) => tracing::warn!(%error, "the answer could not go as a voice note; it goes as text"),
                }
            }
            self.0.say(&to.user_id, &text, REPLY_PATIENCE).await
        })
    }

    fn is_connected(&self) -> bool {
        self.0.health.is_connected()
    }

    fn say<'a>(&'a self, to: &'a IncomingMessage, text: &'a str) -> BoxFuture<'a, Result<(), PhoneError>> {
        Box::pin(self.0.say(&to.user_id, text, REPLY_PATIENCE))
    }
}

/// Reminders and spontaneous messages reach the user's own chat.
impl Sink for WhatsApp {
    fn id(&self) -> SinkId {
        SinkId::Whatsapp
    }

    fn channel(&self) -> Channel {
        Channel::Whatsapp
    }

    fn available(&self) -> bool {
        self.health.is_connected() && self.own_number().is_some()
    }

    /// A linked WhatsApp misses nothing while its connection is down.
    fn holds_what_it_missed(&self) -> bool {
        self.own_number().is_some()
    }

    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        Box::pin(async move {
            let own = self.own_number().ok_or_else(|| SinkError::failed("WhatsApp is not linked"))?;
            self.say(&own, &message.chat, SINK_PATIENCE).await.map(|()| None).map_err(SinkError::failed)
        })
    }
}
