//! The real WhatsApp connection: whatsapp-rust's WhatsApp Web client (Noise
//! handshake, Signal encryption, multi-device), its session in a SQLite file of its
//! own in the data dir (`whatsapp/session.db`, never in settings or logs). Its events
//! become `LinkEvent`s; the channel above decides what they mean.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The host WhatsApp's web client talks to, looked up first to tell "offline" apart.
const WHATSAPP_HOST: &str = "web.whatsapp.com:443";

use tokio::sync::mpsc;
use whatsapp_rust::download::MediaType;
use whatsapp_rust::media::{audio_message, AudioOptions};
use whatsapp_rust::prelude::*;
use whatsapp_rust::upload::UploadOptions;

use super::link::{LinkEvent, WhatsappLink};
use crate::error::PhoneError;
use futures_util::future::BoxFuture;

/// Voice notes announced and not fetched yet, at most this many (the oldest go first).
const PENDING_AUDIO: usize = 32;

pub struct WebClient {
    session: PathBuf,
    running: Mutex<Option<BotHandle>>,
    client: Mutex<Option<Arc<Client>>>,
    /// Announced recordings by message id: what `fetch_audio` downloads.
    audio: Arc<Mutex<VecDeque<(String, wa::message::AudioMessage)>>>,
}

impl WebClient {
    /// A client keeping its session in `dir` (created when missing).
    pub fn new(dir: PathBuf) -> Self {
        Self { session: dir.join("session.db"), running: Mutex::new(None), client: Mutex::new(None), audio: Arc::default() }
    }

    fn client(&self) -> Option<Arc<Client>> {
        self.client.lock().expect("whatsapp client lock").clone()
    }

    async fn start(&self, events: mpsc::UnboundedSender<LinkEvent>) -> Result<(), PhoneError> {
        if let Some(dir) = self.session.parent() {
            std::fs::create_dir_all(dir).map_err(|e| PhoneError::Service(format!("cannot create {}: {e}", dir.display())))?;
        }
        let url = format!("sqlite://{}?mode=rwc", self.session.display());
        let store = SqliteStore::new(&url).await.map_err(|e| PhoneError::Service(format!("cannot open the WhatsApp session: {e}")))?;
        // The client retries silently with no network; a name that cannot be looked up
        // says "offline" at once instead of "Connecting…" for a minute.
        let lookup = tokio::time::timeout(std::time::Duration::from_secs(5), tokio::net::lookup_host(WHATSAPP_HOST)).await;
        match lookup {
            Ok(Err(error)) => return Err(PhoneError::Service(sidecar_llm::offline_words(WHATSAPP_HOST, &error.to_string()))),
            Err(_) => return Err(PhoneError::Service(sidecar_llm::offline_words(WHATSAPP_HOST, "no answer to the name lookup within 5 s"))),
            Ok(Ok(_)) => {}
        }
        let audio = self.audio.clone();
        let bot = Bot::builder()
            .with_backend(store)
            .skip_history_sync()
            .with_push_name("Sidecar")
            .on_event(move |event, client| {
                let mapped = translate(&event, &client, &audio);
                let events = events.clone();
                async move {
                    for event in mapped {
                        let _ = events.send(event);
                    }
                }
            })
            .build()
            .await
            .map_err(|e| PhoneError::Service(format!("cannot start the WhatsApp client: {e}")))?;
        let handle = bot.spawn();
        *self.client.lock().expect("whatsapp client lock") = Some(handle.client());
        *self.running.lock().expect("whatsapp client lock") = Some(handle);
        Ok(())
    }
}

/// What Sidecar needs to know of one client event. A recording is kept in `audio` to be
/// fetched if the channel lets it through.
fn translate(event: &Event, client: &Arc<Client>, audio: &Mutex<VecDeque<(String, wa::message::AudioMessage)>>) -> Vec<LinkEvent> {
    match event {
        Event::PairingQrCode(qr) => vec![LinkEvent::Qr { code: qr.code.clone(), valid_for: qr.timeout }],
        Event::PairingQrCodesExhausted(_) => vec![LinkEvent::QrExpired],
        Event::Connected(_) => match client.pn() {
            Some(own) => vec![LinkEvent::Connected { own_number: own.user.to_string() }],
            None => Vec::new(),
        },
        Event::Disconnected(gone) => vec![LinkEvent::Disconnected { reason: format!("{:?}", gone.reason) }],
        Event::LoggedOut(_) => vec![LinkEvent::LoggedOut],
        Event::Messages(_) => event
            .messages()
            .filter_map(|inbound| {
                let source = &inbound.info.source;
                let (id, chat, from_me, group) = (inbound.info.id.to_string(), source.chat.user.to_string(), source.is_from_me, source.is_group);
                if let Some(recording) = inbound.message.audio_message.as_option() {
                    let (seconds, bytes) = (recording.seconds.unwrap_or(0), recording.file_length.unwrap_or(0));
                    let mut pending = audio.lock().expect("whatsapp audio lock");
                    if pending.len() == PENDING_AUDIO {
                        pending.pop_front();
                    }
                    pending.push_back((id.clone(), recording.clone()));
                    return Some(LinkEvent::Audio { id, chat, from_me, group, seconds, bytes });
                }
                let text = inbound.message.text_content()?.to_string();
                Some(LinkEvent::Message { id, chat, from_me, group, text })
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl WhatsappLink for WebClient {
    fn open(&self, events: mpsc::UnboundedSender<LinkEvent>) -> BoxFuture<'_, Result<(), PhoneError>> {
        Box::pin(self.start(events))
    }

    fn send_text<'a>(&'a self, number: &'a str, text: &'a str) -> BoxFuture<'a, Result<String, PhoneError>> {
        Box::pin(async move {
            let client = self.client().ok_or(PhoneError::NotConnected("WhatsApp"))?;
            let sent = client.send_message(Jid::pn(number), wa::Message::text(text)).await.map_err(|e| PhoneError::Service(e.to_string()))?;
            Ok(sent.message_id)
        })
    }

    fn send_voice_note<'a>(&'a self, number: &'a str, ogg: Vec<u8>, seconds: u32) -> BoxFuture<'a, Result<String, PhoneError>> {
        Box::pin(async move {
            let client = self.client().ok_or(PhoneError::NotConnected("WhatsApp"))?;
            let uploaded = client.upload(ogg, MediaType::Audio, UploadOptions::new()).await.map_err(|e| PhoneError::Service(e.to_string()))?;
            let options = AudioOptions { ptt: Some(true), duration_seconds: Some(seconds), ..AudioOptions::default() };
            let sent = client.send_message(Jid::pn(number), audio_message(uploaded, options)).await.map_err(|e| PhoneError::Service(e.to_string()))?;
            Ok(sent.message_id)
        })
    }

    fn fetch_audio<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<u8>, PhoneError>> {
        Box::pin(async move {
            let client = self.client().ok_or(PhoneError::NotConnected("WhatsApp"))?;
            let recording = {
                let mut pending = self.audio.lock().expect("whatsapp audio lock");
                let at = pending.iter().position(|(known, _)| known == id).ok_or_else(|| PhoneError::Service("the voice note is no longer at hand".into()))?;
                pending.remove(at).map(|(_, recording)| recording).ok_or_else(|| PhoneError::Service("the voice note is no longer at hand".into()))?
            };
            client.download(&recording).await.map_err(|e| PhoneError::Service(e.to_string()))
        })
    }

    fn alive(&self) -> bool {
        self.client().is_some_and(|client| client.is_connected())
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let handle = self.running.lock().expect("whatsapp client lock").take();
            self.client.lock().expect("whatsapp client lock").take();
            if let Some(handle) = handle {
                handle.shutdown().await;
            }
        })
    }
}
