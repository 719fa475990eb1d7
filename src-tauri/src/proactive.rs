//! Proactive messages on the desktop: registers the desktop's sinks with the core's
//! router (OS notifications whose click opens the window on the message and whose
//! buttons snooze a reminder; the tray's alert state), and runs the reminder
//! scheduler and the spontaneous loop when this process owns them.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use sidecar::proactive::config::SinkId;
use sidecar::proactive::router::{Outgoing, Sink};
use sidecar::proactive::state::Channel;
use sidecar::Companion;
use tauri::AppHandle;
use tokio_util::sync::CancellationToken;

use crate::{tray, window};

/// The tray icon switches to its alert state while a proactive message is unread
/// (the window is not focused); focusing the window clears it, and so does the tray
/// menu's Dismiss.
struct TraySink {
    app: AppHandle,
}

impl Sink for TraySink {
    fn id(&self) -> SinkId {
        SinkId::Tray
    }
    fn channel(&self) -> Channel {
        Channel::Desktop
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, String>> {
        let spontaneous = message.message_type.as_ref().and(message.message_id);
        let result = if window::is_focused(&self.app) { Ok(None) } else { tray::alert_for(&self.app, spontaneous).map(|_| None) };
        Box::pin(async move { result })
    }
}

/// Registers the sinks and starts the schedulers, unless another Sidecar process
/// (another data dir user, or `sidecar daemon`) owns them.
pub fn start(app: &AppHandle, companion: Arc<Companion>) {
    companion.proactive().router().register(Arc::new(TraySink { app: app.clone() }));
    let opener = app.clone();
    let on_open = Arc::new(move |message_id| window::show_message(&opener, message_id));
    match companion.deliveries(on_open, CancellationToken::new()) {
        Ok(Some(task)) => {
            tauri::async_runtime::spawn(task);
        }
        Ok(None) => tracing::warn!("another Sidecar process delivers reminders for this data folder"),
        Err(error) => tracing::warn!(%error, "could not start the reminder scheduler"),
    }
}
