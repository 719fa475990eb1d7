//! The real WhatsApp connection: whatsapp-rust's WhatsApp Web client (Noise
//! handshake, Signal encryption, multi-device), its session in a SQLite file of its
//! own in the data dir (`whatsapp/session.db`, never in settings or logs). Its events
//! become `LinkEvent`s; the channel above decides what they mean.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The host WhatsApp's web client talks to, looked up first to tell "offline" apart.
const WHATSAPP_HOST: &str = "web.whatsapp.com:443";

use tokio::sync::mpsc;
use whatsapp_rust::prelude::*;

use super::link::{LinkEvent, WhatsappLink};
use futures_util::future::BoxFuture;

pub struct WebClient {
    session: PathBuf,
    running: Mutex<Option<BotHandle>>,
    client: Mutex<Option<Arc<Client>>>,
}

impl WebClient {
    /// A client keeping its session in `dir` (created when missing).
    pub fn new(dir: PathBuf) -> Self {
        Self { session: dir.join("session.db"), running: Mutex::new(None), client: Mutex::new(None) }
    }

    fn client(&self) -> Option<Arc<Client>> {
        self.client.lock().expect("whatsapp client lock").clone()
    }

    async fn start(&self, events: mpsc::UnboundedSender<LinkEvent>) -> Result<(), String> {
        if let Some(dir) = self.session.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let url = format!("sqlite://{}?mode=rwc", self.session.display());
        let store = SqliteStore::new(&url).await.map_err(|e| format!("cannot open the WhatsApp session: {e}"))?;
        // The client retries silently with no network; a name that cannot be looked up
        // says "offline" at once instead of "Connecting…" for a minute.
        let lookup = tokio::time::timeout(std::time::Duration::from_secs(5), tokio::net::lookup_host(WHATSAPP_HOST)).await;
        match lookup {
            Ok(Err(error)) => return Err(sidecar_domain::offline::offline_words(WHATSAPP_HOST, &error.to_string())),
            Err(_) => return Err(sidecar_domain::offline::offline_words(WHATSAPP_HOST, "no answer to the name lookup within 5 s")),
            Ok(Ok(_)) => {}
        }
        let bot = Bot::builder()
            .with_backend(store)
            .skip_history_sync()
            .with_push_name("Sidecar")
            .on_event(move |event, client| {
                let mapped = translate(&event, &client);
                let events = events.clone();
                async move {
                    for event in mapped {
                        let _ = events.send(event);
                    }
                }
            })
            .build()
            .await
            .map_err(|e| format!("cannot start the WhatsApp client: {e}"))?;
        let handle = bot.spawn();
        *self.client.lock().expect("whatsapp client lock") = Some(handle.client());
        *self.running.lock().expect("whatsapp client lock") = Some(handle);
        Ok(())
    }
}

/// What Sidecar needs to know of one client event.
fn translate(event: &Event, client: &Arc<Client>) -> Vec<LinkEvent> {
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
                let text = inbound.message.text_content()?.to_string();
                let source = &inbound.info.source;
                Some(LinkEvent::Message {
                    id: inbound.info.id.to_string(),
                    chat: source.chat.user.to_string(),
                    from_me: source.is_from_me,
                    group: source.is_group,
                    text,
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl WhatsappLink for WebClient {
    fn open(&self, events: mpsc::UnboundedSender<LinkEvent>) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(self.start(events))
    }

    fn send_text<'a>(&'a self, number: &'a str, text: &'a str) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let client = self.client().ok_or("WhatsApp is not connected")?;
            let sent = client.send_message(Jid::pn(number), wa::Message::text(text)).await.map_err(|e| e.to_string())?;
            Ok(sent.message_id)
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
