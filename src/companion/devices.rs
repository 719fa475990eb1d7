//! One Sidecar on every device, as the assembly wires it: the link's listener serves the
//! window's command table (`commands`) and the core's events to the user's other
//! devices. It starts with the app or the daemon when settings.toml names addresses
//! (`[devices] listen`), is switched from Settings → Devices, and shows the pairing
//! code, the certificate's fingerprint and the paired devices, each revocable.

use std::net::SocketAddr;
use std::sync::{Arc, Weak};

use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, Mutex};

use super::Companion;
pub use crate::devices_error::DevicesError;
use sidecar_link::{Addressed, Calls, Device, Devices, Identity, LinkServer, Listening, PairingCode, Present};

/// The window's command table (`crate::commands::dispatch`), given by the face that
/// serves it: the link serves what the window would run.
pub type Dispatch = fn(Arc<Companion>, &str, Value) -> Option<BoxFuture<'static, Result<Value, Value>>>;

/// The listener and what it serves; off until addresses are named and a face gives the
/// command table.
pub struct DeviceLink {
    devices: Arc<Devices>,
    data_dir: std::path::PathBuf,
    dispatch: std::sync::OnceLock<Dispatch>,
    running: Mutex<Option<Active>>,
    /// What the attached devices hear: the core's events, and notifications for one.
    events: broadcast::Sender<Addressed>,
    /// The running listener's devices (read by the notifications' sink, which cannot wait).
    present: std::sync::Mutex<Option<Arc<Present>>>,
}

struct Active {
    server: Arc<LinkServer>,
    listening: Vec<Listening>,
    problems: Vec<String>,
    forward: tokio::task::JoinHandle<()>,
}

/// Settings → Devices.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct DevicesView {
    /// Where other devices reach this Sidecar now.
    pub listening: Vec<String>,
    /// Addresses that could not be listened on, and why.
    pub problems: Vec<String>,
    /// The certificate's SHA-256, to compare with what a device shows when it pairs.
    pub fingerprint: Option<String>,
    /// The open pairing code, while it can be typed.
    pub code: Option<PairingCode>,
    pub devices: Vec<Device>,
    /// Where a phone's browser opens the web app, each with its QR code (SVG).
    pub web: Vec<WebPage>,
}

/// The web app's address on one listener, and the QR code a phone's camera reads.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct WebPage {
    pub url: String,
    pub qr: String,
}

impl DeviceLink {
    pub(crate) fn new(store: sidecar_store::Store, data_dir: std::path::PathBuf) -> Self {
        Self {
            devices: Arc::new(Devices::new(store)),
            data_dir,
            dispatch: std::sync::OnceLock::new(),
            running: Mutex::new(None),
            events: broadcast::channel(1024).0,
            present: std::sync::Mutex::new(None),
        }
    }

    /// The face's command table, served from now on.
    pub(crate) fn serve(&self, dispatch: Dispatch) {
        let _ = self.dispatch.set(dispatch);
    }

    /// Listens on `addresses` (stopping what listened before); an address that cannot be
    /// used is said in the view.
    async fn start(&self, core: &Arc<Companion>, addresses: &[SocketAddr]) -> Result<(), sidecar_link::LinkError> {
        self.stop().await;
        let Some(&dispatch) = self.dispatch.get() else { return Ok(()) };
        if addresses.is_empty() {
            return Ok(());
        }
        let identity = Identity::load_or_make(&self.data_dir.join("link"))?;
        let calls = Arc::new(TableCalls { core: Arc::downgrade(core), dispatch, events: self.events.clone() });
        let server = LinkServer::new(identity, self.devices.clone(), calls);
        // A browser (the phone's) opens the same window as a web app.
        server.serve_web(Arc::new(super::web_files::BuiltUi));
        *self.present.lock().expect("present") = Some(server.present().clone());
        let (mut listening, mut problems) = (Vec::new(), Vec::new());
        for address in addresses {
            match server.listen(*address).await {
                Ok(l) => listening.push(l),
                Err(e) => {
                    tracing::warn!(%address, error = %e, "the link could not listen");
                    problems.push(format!("{address}: {e}"));
                }
            }
        }
        let forward = forward_events(core, self.events.clone());
        *self.running.lock().await = Some(Active { server, listening, problems, forward });
        Ok(())
    }

    pub async fn stop(&self) {
        *self.present.lock().expect("present") = None;
        if let Some(active) = self.running.lock().await.take() {
            active.forward.abort();
            for listening in active.listening {
                listening.stop().await;
            }
        }
    }

    pub async fn view(&self) -> Result<DevicesView, sidecar_link::LinkError> {
        let devices = self.devices.list().await?;
        let code = self.devices.showing_code().await?;
        let running = self.running.lock().await;
        Ok(match running.as_ref() {
            Some(active) => DevicesView {
                listening: active.listening.iter().map(|l| l.address.to_string()).collect(),
                problems: active.problems.clone(),
                fingerprint: Some(active.server.fingerprint().to_string()),
                code,
                devices,
                web: active
                    .listening
                    .iter()
                    .filter_map(|l| sidecar_link::web_address(l.address))
                    .filter_map(|url| Some(WebPage { qr: sidecar_link::qr_svg(&url)?, url }))
                    .collect(),
            },
            None => DevicesView { listening: Vec::new(), problems: Vec::new(), fingerprint: None, code, devices, web: Vec::new() },
        })
    }

    /// A new pairing code (for five minutes and five tries), redeemed by whichever
    /// process listens for this data folder.
    pub async fn open_pairing(&self) -> Result<PairingCode, sidecar_link::LinkError> {
        self.devices.open_code().await
    }

    /// Revokes `id`: its links close at once.
    pub async fn revoke(&self, id: i64) -> Result<bool, sidecar_link::LinkError> {
        self.devices.revoke(id).await
    }

    /// The attached devices the user is at (the one used last, or all of them).
    pub(crate) fn at_hand(&self) -> Vec<i64> {
        self.present.lock().expect("present").as_ref().map(|p| p.at_hand(sidecar_link::AT_HAND)).unwrap_or_default()
    }

    /// The user did something in this computer's own window: a notification is for
    /// here, not for an attached device, until they use one again.
    pub(crate) fn input_here(&self) {
        if let Some(present) = self.present.lock().expect("present").as_ref() {
            present.input_here();
        }
    }

    /// Whether any device is attached now.
    pub(crate) fn any_attached(&self) -> bool {
        self.present.lock().expect("present").as_ref().is_some_and(|p| !p.attached().is_empty())
    }

    /// Tells `event` to `devices` alone.
    pub(crate) fn tell(&self, event: Value, devices: Vec<i64>) -> bool {
        self.events.send(Addressed { event, only: Some(devices) }).is_ok()
    }
}

/// Every core event, as the window receives it, to every attached device.
fn forward_events(core: &Arc<Companion>, events: broadcast::Sender<Addressed>) -> tokio::task::JoinHandle<()> {
    let mut bus = core.events().subscribe();
    tokio::spawn(async move {
        loop {
            match bus.recv().await {
                Ok(event) => {
                    if let Ok(event) = serde_json::to_value(&event) {
                        let _ = events.send(Addressed::everyone(event));
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => tracing::warn!(missed, "the link fell behind the core's events"),
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    })
}

/// The command table, for a device: what the device keeps for itself is refused here.
struct TableCalls {
    core: Weak<Companion>,
    dispatch: Dispatch,
    events: broadcast::Sender<Addressed>,
}

/// The commands that start a turn: what the user writes.
pub(crate) const TURNS: &[&str] = &["send_message", "send_with_files", "retry_reply", "regenerate_reply", "edit_message"];

/// What only the user's hand does on a device: writing, and its window coming to the
/// front (the device's shell calls `device_present` then).
pub(crate) fn is_input(name: &str) -> bool {
    TURNS.contains(&name) || name == "device_present"
}

impl Calls for TableCalls {
    fn call(&self, device: Device, name: String, args: Value) -> BoxFuture<'static, Result<Value, Value>> {
        let refused =
            |message: String| -> BoxFuture<'static, Result<Value, Value>> { Box::pin(async move { Err(json!({ "message": message, "retryable": false })) }) };
        let Some(core) = self.core.upgrade() else { return refused("the home Sidecar is stopping".into()) };
        tracing::debug!(device = device.id, command = %name, "a device's command");
        match (self.dispatch)(core, &name, args) {
            Some(run) => run,
            None => refused(format!("{name} runs on the device itself, not on the home Sidecar")),
        }
    }

    fn events(&self) -> broadcast::Receiver<Addressed> {
        self.events.subscribe()
    }

    fn is_input(&self, name: &str) -> bool {
        is_input(name)
    }
}

impl Companion {
    pub fn device_link(&self) -> &Arc<DeviceLink> {
        &self.devices
    }

    /// The certificate other devices pin, made on first use.
    pub fn link_fingerprint(&self) -> Result<String, sidecar_link::LinkError> {
        Ok(Identity::load_or_make(&self.data_dir.join("link"))?.fingerprint().to_string())
    }

    /// Starts the link when settings.toml names addresses (the app and the daemon).
    pub(crate) async fn start_devices_if_on(self: &Arc<Self>) {
        let addresses = match self.settings().devices.addresses() {
            Ok(addresses) => addresses,
            Err(problem) => return tracing::warn!(%problem, "[devices] listen names an address that cannot be used"),
        };
        if let Err(error) = self.devices.start(self, &addresses).await {
            tracing::warn!(%error, "the link for other devices could not start");
        }
    }

    /// Settings' choice of addresses (empty: off): saved in settings.toml, then the link
    /// listens there (where a face serves the commands: the app, the daemon).
    pub async fn set_devices_listen(self: &Arc<Self>, addresses: Vec<String>) -> Result<DevicesView, DevicesError> {
        let addresses: Vec<String> = addresses.into_iter().map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect();
        let parsed =
            addresses.iter().map(|a| sidecar_settings::device_address(a).map_err(|_| DevicesError::Address(a.clone()))).collect::<Result<Vec<_>, _>>()?;
        self.models().settings_owner().change(sidecar_settings::Change::DevicesListen(addresses))?;
        self.devices.start(self, &parsed).await?;
        Ok(self.devices.view().await?)
    }
}
