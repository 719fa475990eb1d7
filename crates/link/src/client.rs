//! The device's side: pairing once with a code, then one link kept up to the home core.
//! A call waits while the link is down and is sent (again) when it is back, with the id
//! it was made with, so the core runs it once; its answer arrives once.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use http::{header, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, oneshot, watch, Notify};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use crate::devices::Device;
use crate::error::{LinkError, PairingError};
use crate::identity::Fingerprint;
use crate::protocol::{socket_config, Frame, Outcome, CLOSE_NOT_ALLOWED};
use crate::tls;

/// A device just paired: its token (to keep in the keychain) and the core's certificate.
#[derive(Debug, Clone)]
pub struct Paired {
    pub device: Device,
    pub token: String,
    pub fingerprint: Fingerprint,
}

/// Trades `code` for a token on the core at `address` ("host:port"), naming this device
/// `name`. The certificate seen is the one to pin.
pub async fn pair(address: &str, code: &str, name: &str) -> Result<Paired, LinkError> {
    let (tls, fingerprint) = tls::connect(address, None).await?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.map_err(|e| protocol(e.to_string()))?;
    tokio::spawn(connection);
    let body = json!({ "code": code, "name": name }).to_string();
    let request = Request::post("/pair")
        .header(header::HOST, address)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .expect("a request");
    let response = sender.send_request(request).await.map_err(|e| protocol(e.to_string()))?;
    let status = response.status();
    let body = response.into_body().collect().await.map_err(|e| protocol(e.to_string()))?.to_bytes();
    let answer: Value = serde_json::from_slice(&body).map_err(|e| protocol(e.to_string()))?;
    if status != StatusCode::OK {
        return Err(match serde_json::from_value::<PairingError>(answer["pairing"].clone()) {
            Ok(refused) => LinkError::Pairing(refused),
            Err(_) => protocol(format!("{status}: {answer}")),
        });
    }
    let token = answer["token"].as_str().ok_or_else(|| protocol("no token".into()))?.to_string();
    let device = &answer["device"];
    let device = Device {
        id: device["id"].as_i64().ok_or_else(|| protocol("no device".into()))?,
        name: device["name"].as_str().unwrap_or_default().to_string(),
        paired_at: serde_json::from_value(device["paired_at"].clone()).map_err(|e| protocol(e.to_string()))?,
        last_seen: None,
    };
    Ok(Paired { device, token, fingerprint })
}

fn protocol(detail: String) -> LinkError {
    LinkError::Protocol(detail)
}

/// The link as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum LinkState {
    Connecting,
    Up,
    /// Down for now; tried again by itself. What is typed waits.
    Down {
        reason: String,
    },
    /// Not tried again: the device must pair anew.
    Refused {
        reason: Refusal,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    NotAllowed,
    CertificateChanged { expected: String, got: String },
}

/// Why a call got no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallFailure {
    /// The core answered with an error (as the core words it).
    #[error("{0}")]
    Answered(Value),
    #[error("the link was refused: {0:?}")]
    Refused(Refusal),
    #[error("the link is closed")]
    Closed,
}

struct Waiting {
    frame: String,
    answer: oneshot::Sender<Result<Value, CallFailure>>,
}

struct Shared {
    address: String,
    pin: Fingerprint,
    token: String,
    /// Calls not yet answered, in the order made (by sequence), with their ids.
    waiting: Mutex<BTreeMap<u64, (String, Waiting)>>,
    next: Mutex<u64>,
    wake: Notify,
    events: broadcast::Sender<Value>,
    state: watch::Sender<LinkState>,
    stop: CancellationToken,
}

/// A link to the home core, kept up until dropped.
pub struct LinkClient {
    shared: Arc<Shared>,
}

impl Drop for LinkClient {
    fn drop(&mut self) {
        self.shared.stop.cancel();
    }
}

/// Waits between tries when the core cannot be reached.
const BACKOFF: [u64; 5] = [250, 500, 1_000, 2_000, 5_000];

impl LinkClient {
    /// Keeps a link to `address`, trusting only `pin`, as the device holding `token`.
    pub fn connect(address: &str, pin: Fingerprint, token: &str) -> Self {
        let shared = Arc::new(Shared {
            address: address.to_string(),
            pin,
            token: token.to_string(),
            waiting: Mutex::new(BTreeMap::new()),
            next: Mutex::new(0),
            wake: Notify::new(),
            events: broadcast::channel(1024).0,
            state: watch::channel(LinkState::Connecting).0,
            stop: CancellationToken::new(),
        });
        tokio::spawn(keep(shared.clone()));
        Self { shared }
    }

    /// Runs command `name` on the core; waits (with what was typed kept) while the link
    /// is down.
    pub async fn call(&self, name: &str, args: Value) -> Result<Value, CallFailure> {
        if let LinkState::Refused { reason } = &*self.shared.state.borrow() {
            return Err(CallFailure::Refused(reason.clone()));
        }
        let mut random = [0u8; 12];
        getrandom::fill(&mut random).expect("the system's random source");
        let id = hex::encode(random);
        let frame = Frame::Call { id: id.clone(), name: name.to_string(), args }.text();
        let (answer, answered) = oneshot::channel();
        let seq = {
            let mut next = self.shared.next.lock().expect("next");
            *next += 1;
            *next
        };
        self.shared.waiting.lock().expect("waiting").insert(seq, (id, Waiting { frame, answer }));
        self.shared.wake.notify_one();
        answered.await.unwrap_or(Err(CallFailure::Closed))
    }

    /// The core's events from now on.
    pub fn events(&self) -> broadcast::Receiver<Value> {
        self.shared.events.subscribe()
    }

    pub fn state(&self) -> watch::Receiver<LinkState> {
        self.shared.state.subscribe()
    }

    /// Calls made and not yet answered.
    pub fn waiting(&self) -> usize {
        self.shared.waiting.lock().expect("waiting").len()
    }
}

/// Keeps the link up: connects, sends what waits, reads answers and events; after a
/// drop, tries again with a growing pause, unless the core refused this device.
async fn keep(shared: Arc<Shared>) {
    let mut tries = 0usize;
    loop {
        if shared.stop.is_cancelled() {
            break;
        }
        // `send_replace`, not `send`: a state set while no one watches (a device whose
        // window looks later) must still be the state.
        shared.state.send_replace(LinkState::Connecting);
        match attach(&shared).await {
            Ok(()) => tries = 0,
            Err(Ended::Refused(reason)) => {
                shared.state.send_replace(LinkState::Refused { reason: reason.clone() });
                let waiting = std::mem::take(&mut *shared.waiting.lock().expect("waiting"));
                for (_, (_, w)) in waiting {
                    let _ = w.answer.send(Err(CallFailure::Refused(reason.clone())));
                }
                break;
            }
            Err(Ended::Down(reason)) => {
                tracing::info!(address = %shared.address, %reason, "the link to the home Sidecar is down");
                shared.state.send_replace(LinkState::Down { reason });
            }
        }
        let pause = BACKOFF[tries.min(BACKOFF.len() - 1)];
        tries += 1;
        tokio::select! {
            _ = shared.stop.cancelled() => break,
            _ = tokio::time::sleep(Duration::from_millis(pause)) => {}
        }
    }
}

enum Ended {
    Down(String),
    Refused(Refusal),
}

/// One link's life; returns when it drops.
async fn attach(shared: &Shared) -> Result<(), Ended> {
    let (tls, _) = tls::connect(&shared.address, Some(shared.pin)).await.map_err(|e| match e {
        LinkError::CertificateChanged { expected, got } => Ended::Refused(Refusal::CertificateChanged { expected, got }),
        other => Ended::Down(other.to_string()),
    })?;
    let mut request = "wss://sidecar.invalid/link".into_client_request().expect("a request");
    request.headers_mut().insert(header::AUTHORIZATION, format!("Bearer {}", shared.token).parse().expect("a header"));
    let (socket, _) = tokio_tungstenite::client_async_with_config(request, tls, Some(socket_config())).await.map_err(|e| match e {
        tokio_tungstenite::tungstenite::Error::Http(response) if response.status() == StatusCode::UNAUTHORIZED => Ended::Refused(Refusal::NotAllowed),
        other => Ended::Down(other.to_string()),
    })?;
    shared.state.send_replace(LinkState::Up);
    let (mut sink, mut stream) = socket.split();
    // Everything waiting goes first, in the order it was made.
    let mut sent_up_to = 0u64;
    loop {
        let unsent: Vec<(u64, String)> = shared.waiting.lock().expect("waiting").range(sent_up_to + 1..).map(|(seq, (_, w))| (*seq, w.frame.clone())).collect();
        for (seq, frame) in unsent {
            sink.send(Message::text(frame)).await.map_err(|e| Ended::Down(e.to_string()))?;
            sent_up_to = seq;
        }
        tokio::select! {
            _ = shared.stop.cancelled() => {
                let _ = sink.close().await;
                return Ok(());
            }
            _ = shared.wake.notified() => {}
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => match serde_json::from_str::<Frame>(&text) {
                    Ok(Frame::Reply { id, outcome }) => answered(shared, &id, outcome),
                    Ok(Frame::Event { event }) => {
                        let _ = shared.events.send(event);
                    }
                    Ok(Frame::Call { .. }) | Err(_) => tracing::debug!("a frame that is no reply nor event was left unread"),
                },
                Some(Ok(Message::Close(Some(close)))) if u16::from(close.code) == CLOSE_NOT_ALLOWED => return Err(Ended::Refused(Refusal::NotAllowed)),
                Some(Ok(Message::Close(close))) => return Err(Ended::Down(close.map(|c| c.reason.to_string()).unwrap_or_else(|| "closed".into()))),
                Some(Err(e)) => return Err(Ended::Down(e.to_string())),
                None => return Err(Ended::Down("closed".into())),
                Some(Ok(_)) => {}
            },
        }
    }
}

fn answered(shared: &Shared, id: &str, outcome: Outcome) {
    let mut waiting = shared.waiting.lock().expect("waiting");
    let Some(seq) = waiting.iter().find(|(_, (call, _))| call == id).map(|(seq, _)| *seq) else { return };
    let (_, w) = waiting.remove(&seq).expect("found");
    let _ = w.answer.send(match outcome {
        Outcome::Ok(value) => Ok(value),
        Outcome::Err(error) => Err(CallFailure::Answered(error)),
    });
}
