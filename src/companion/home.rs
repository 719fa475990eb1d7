//! This computer as one of the user's devices: attached to a home core elsewhere (Settings
//! → Devices → "Use Sidecar from another computer"), its window shows the home's
//! conversations, memory, reminders and settings (the shell sends the window's commands
//! over the link), while its microphone, hotkeys, tray, character and notifications stay
//! its own. The home's reminders fire there and are shown here when this is the device
//! the user is at; the replies to what is written here are said by this computer's
//! speakers when its Settings → Voice asks. Pairing keeps the home's address and
//! certificate in the data folder and this device's token in the keychain; on the next
//! start the link comes back by itself.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use futures_util::future::BoxFuture;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::broadcast;

use super::devices::TURNS;
use super::devices_sink::{tagged, DeviceNotification, DEVICE_NOTIFICATION};
use super::Companion;
use crate::devices_error::DevicesError;
use sidecar_domain::Secrets;
use sidecar_link::{pair, words, CallFailure, Home, LinkClient, LinkState};
use sidecar_proactive::NotificationAction;
use sidecar_voice::{ReplyFollower, ReplyStep, ReplyTexts};

/// The event the window hears when the link to the home core changes.
pub const HOME_LINK: &str = "home_link";

/// What opens the window on a message when a notification is clicked (the face's).
pub type OnOpen = Arc<dyn Fn(Option<i64>) + Send + Sync>;

/// The home core this computer is attached to, if any.
pub struct HomeLink {
    dir: PathBuf,
    secrets: Arc<Secrets>,
    attached: Mutex<Option<Attached>>,
    /// The home's events, and the link's changes, for the window.
    window: broadcast::Sender<Value>,
    on_open: Mutex<Option<OnOpen>>,
    /// Turns this window asked the home for that have not started there yet: the next
    /// of the home's turns from a device is this one's, and its reply is said here.
    asked: AtomicUsize,
}

struct Attached {
    home: Home,
    client: Arc<LinkClient>,
    watch: tokio::task::JoinHandle<()>,
}

impl Drop for Attached {
    fn drop(&mut self) {
        self.watch.abort();
    }
}

/// How the link to the home core is, as the window names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum HomeLinkState {
    Connecting,
    Up,
    Down,
    Refused,
    /// This computer stopped using the home (the event only).
    Left,
}

impl From<&LinkState> for HomeLinkState {
    fn from(state: &LinkState) -> Self {
        match state {
            LinkState::Connecting => Self::Connecting,
            LinkState::Up => Self::Up,
            LinkState::Down { .. } => Self::Down,
            LinkState::Refused { .. } => Self::Refused,
        }
    }
}

/// The event the window hears when the link changes (`"type": "home_link"`).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct HomeLinkChanged {
    pub state: HomeLinkState,
    /// The state in words, with what to do (not when left).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub said: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub waiting: Option<usize>,
}

/// Settings → Devices on a device: which home, and how the link is.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct HomeView {
    pub address: String,
    /// This device's name on the home core.
    pub name: String,
    pub fingerprint: String,
    pub state: HomeLinkState,
    /// The state in words, with what to do.
    pub said: String,
    /// Calls made while the link was down, waiting to be sent.
    pub waiting: usize,
}

impl HomeLink {
    pub(crate) fn new(data_dir: &std::path::Path, secrets: Arc<Secrets>) -> Self {
        Self {
            dir: data_dir.join("link"),
            secrets,
            attached: Mutex::new(None),
            window: broadcast::channel(1024).0,
            on_open: Mutex::new(None),
            asked: AtomicUsize::new(0),
        }
    }

    /// The link to the home core, while this computer is attached to one.
    pub fn client(&self) -> Option<Arc<LinkClient>> {
        self.attached.lock().expect("home").as_ref().map(|a| a.client.clone())
    }

    /// The home's events and the link's changes, from now on.
    pub fn events(&self) -> broadcast::Receiver<Value> {
        self.window.subscribe()
    }
}

/// Trades `code` for a token at the home core at `address`, as this device `name`, and
/// keeps the home in `dir` (the token in the keychain): the CLI's `devices pair` and
/// Settings' both.
pub async fn pair_and_keep(dir: &std::path::Path, secrets: &Secrets, address: &str, code: &str, name: &str) -> Result<(Home, String), sidecar_link::LinkError> {
    let paired = pair(address, code, name).await?;
    let home = Home { address: address.to_string(), fingerprint: paired.fingerprint, device: paired.device.id, name: paired.device.name };
    home.save(dir, &paired.token, secrets)?;
    Ok((home, paired.token))
}

/// This computer's name as the home core lists it.
pub fn device_name() -> String {
    std::fs::read_to_string("/etc/hostname").map(|h| h.trim().to_string()).ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "Device".into())
}

/// What was typed while the link was not up and waits to be sent (while it is up, calls
/// in flight are no one's concern).
fn unsent(state: &LinkState, client: &LinkClient) -> usize {
    if *state == LinkState::Up {
        0
    } else {
        client.waiting()
    }
}

impl Companion {
    pub fn home(&self) -> &Arc<HomeLink> {
        &self.home
    }

    /// Runs the window's command `name` at the home core `home`; a link that refuses or
    /// is down is said as the window's errors are (Retry makes sense only when down).
    pub(crate) fn call_home(&self, home: Arc<LinkClient>, name: String, args: Value) -> BoxFuture<'static, Result<Value, Value>> {
        let lang = self.preferences().lang();
        let turn = TURNS.contains(&name.as_str()).then(|| self.home.clone());
        if let Some(link) = &turn {
            link.asked.fetch_add(1, Ordering::SeqCst);
        }
        Box::pin(async move {
            let answer = home.call(&name, args).await;
            if let (Some(link), Err(_)) = (&turn, &answer) {
                // Refused before it started there: no reply of it will come.
                let _ = link.asked.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
            }
            answer.map_err(|failure| match failure {
                CallFailure::Answered(error) => error,
                CallFailure::Refused(reason) => json!({ "message": words::refusal(&reason, lang), "retryable": false }),
                CallFailure::Closed => json!({ "message": words::state(&LinkState::Down { reason: String::new() }, lang), "retryable": true }),
            })
        })
    }

    /// Settings → Devices on this computer: the home it uses, if any.
    pub fn home_view(&self) -> Option<HomeView> {
        let attached = self.home.attached.lock().expect("home");
        let attached = attached.as_ref()?;
        let state = attached.client.state().borrow().clone();
        Some(HomeView {
            address: attached.home.address.clone(),
            name: attached.home.name.clone(),
            fingerprint: attached.home.fingerprint.to_string(),
            state: HomeLinkState::from(&state),
            said: words::state(&state, self.preferences().lang()),
            waiting: unsent(&state, &attached.client),
        })
    }

    /// Pairs with the home core at `address` with `code` and uses it from now on.
    pub async fn attach_home(self: &Arc<Self>, address: &str, code: &str) -> Result<HomeView, DevicesError> {
        let (address, code) = (address.trim(), code.trim());
        let address = if address.contains(':') { address.to_string() } else { format!("{address}:{}", sidecar_settings::DEFAULT_LINK_PORT) };
        let (home, token) = pair_and_keep(&self.home.dir, &self.home.secrets, &address, code, &device_name()).await?;
        tracing::info!(address = %home.address, device = home.device, "this computer now uses a home Sidecar");
        self.connect_home(home, token);
        Ok(self.home_view().expect("just attached"))
    }

    /// Stops using the home core: this computer's own Sidecar answers again, and pairing
    /// anew is needed to attach (the home core still lists it until revoked there).
    pub async fn leave_home(&self) -> Result<(), DevicesError> {
        let attached = self.home.attached.lock().expect("home").take();
        drop(attached);
        Home::forget(&self.home.dir, &self.home.secrets)?;
        let _ = self.home.window.send(tagged(HOME_LINK, &HomeLinkChanged { state: HomeLinkState::Left, said: None, waiting: None }));
        Ok(())
    }

    /// At start: the home kept from an earlier pairing, attached again.
    pub(crate) fn attach_saved_home(self: &Arc<Self>, on_open: OnOpen) {
        *self.home.on_open.lock().expect("home") = Some(on_open);
        match Home::load(&self.home.dir, &self.home.secrets) {
            Ok(Some((home, token))) => self.connect_home(home, token),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "the home Sidecar this computer used could not be read"),
        }
    }

    fn connect_home(self: &Arc<Self>, home: Home, token: String) {
        let client = Arc::new(LinkClient::connect(&home.address, home.fingerprint, &token));
        let watch = tokio::spawn(watch(Arc::downgrade(self), client.clone()));
        *self.home.attached.lock().expect("home") = Some(Attached { home, client, watch });
    }
}

/// Passes the home's events to the window, shows its notifications here, and tells the
/// window when the link goes down, comes back or is refused.
async fn watch(core: Weak<Companion>, client: Arc<LinkClient>) {
    let (mut events, mut state) = (client.events(), client.state());
    let mut follower = ReplyFollower::default();
    loop {
        tokio::select! {
            event = events.recv() => match event {
                Ok(event) => {
                    let Some(core) = core.upgrade() else { break };
                    if event["type"] == DEVICE_NOTIFICATION {
                        match DeviceNotification::deserialize(&event) {
                            Ok(told) => notify(&core, &client, told),
                            Err(error) => tracing::warn!(%error, "the home told a notification this device cannot read"),
                        }
                    }
                    let step = reply_step(&event, &core.home.asked);
                    let _ = core.home.window.send(event);
                    if let Some(step) = step {
                        core.follow_reply(step, &mut follower, &HomeTexts(&client)).await;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => tracing::warn!(missed, "this device fell behind the home's events"),
                Err(broadcast::error::RecvError::Closed) => break,
            },
            changed = state.changed() => {
                if changed.is_err() {
                    break;
                }
                let Some(core) = core.upgrade() else { break };
                let now = state.borrow_and_update().clone();
                let said = words::state(&now, core.preferences().lang());
                let changed = HomeLinkChanged { state: HomeLinkState::from(&now), said: Some(said), waiting: Some(unsent(&now, &client)) };
                let _ = core.home.window.send(tagged(HOME_LINK, &changed));
            }
        }
    }
}

/// A step of a reply the home streams, as this computer's speakers follow it: a turn
/// from a device while this window waits for one it asked for is its own ("here").
fn reply_step(event: &Value, asked: &AtomicUsize) -> Option<ReplyStep> {
    let conversation = event["conversation_id"].as_i64()?;
    Some(match event["type"].as_str()? {
        "turn_started" => {
            let here = event["channel"] == "device" && asked.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
            ReplyStep::Started { conversation, here }
        }
        "delta" => ReplyStep::Piece { conversation, text: event["text"].as_str()?.to_string() },
        "notice" if event["notice"]["kind"] == "corrected" => ReplyStep::Corrected { conversation },
        "turn_finished" => ReplyStep::Finished { conversation, message_id: event["message_id"].as_i64()? },
        "turn_failed" => ReplyStep::Failed { conversation },
        _ => return None,
    })
}

/// A reply's words the home's events leave out, read on the home: a reply that arrived
/// whole. A conversation's own switch is this computer's Settings → Voice here.
struct HomeTexts<'a>(&'a Arc<LinkClient>);

impl ReplyTexts for HomeTexts<'_> {
    fn speaks(&self, _conversation: i64) -> BoxFuture<'_, Option<bool>> {
        Box::pin(async { None })
    }

    fn text(&self, message_id: i64) -> BoxFuture<'_, Option<String>> {
        Box::pin(async move {
            let recent = self.0.call("load_history", json!({ "limit": 4 })).await.ok()?;
            let message = recent.as_array()?.iter().find(|m| m["id"].as_i64() == Some(message_id))?;
            message["content"].as_str().map(str::to_string)
        })
    }
}

/// Shows a notification the home core told this device, with its own notifier; a
/// snooze button snoozes on the home, a click opens this window on the message.
fn notify(core: &Arc<Companion>, client: &Arc<LinkClient>, told: DeviceNotification) {
    let DeviceNotification { title, body, reminder_id, message_id, spontaneous } = told;
    let on_open = core.home.on_open.lock().expect("home").clone();
    let (client, runtime) = (Arc::downgrade(client), tokio::runtime::Handle::current());
    let on_action = Arc::new(move |action| match action {
        NotificationAction::Open { message_id, .. } => {
            if let Some(open) = &on_open {
                open(message_id)
            }
        }
        NotificationAction::Snooze { reminder_id, minutes } => {
            let Some(client) = client.upgrade() else { return };
            runtime.spawn(async move {
                if let Err(error) = client.call("snooze_reminder", json!({ "id": reminder_id, "minutes": minutes })).await {
                    tracing::warn!(?error, reminder_id, "could not snooze on the home Sidecar");
                }
            });
        }
        NotificationAction::Dismissed { .. } => {}
    });
    let (notifier, lang) = (core.notifier.clone(), core.preferences().lang());
    tokio::task::spawn_blocking(move || {
        if let Err(error) = notifier.show(&title, &body, reminder_id, message_id, spontaneous, lang, on_action) {
            tracing::warn!(%error, "could not show the home's notification");
        }
    });
}
