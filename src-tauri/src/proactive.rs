//! Proactive messages on the desktop: what the shell hands `Companion::run` (the tray's
//! alert state as a sink, a notification's click opening the window on its message, the
//! updater). The core runs every loop.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use sidecar::Face;
use sidecar_outbox::{Outgoing, Sink, SinkError};
use sidecar_proactive::Channel;
use sidecar_proactive::SinkId;
use sidecar_serve::McpEndpoint;
use tauri::AppHandle;

use crate::{tray, updater, window};

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
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        let spontaneous = message.message_type.as_ref().and(message.message_id);
        let result = if window::is_focused(&self.app) { Ok(None) } else { tray::alert_for(&self.app, spontaneous).map(|_| None).map_err(SinkError::failed) };
        Box::pin(async move { result })
    }
}

/// What the desktop hands the core when it starts it: the tray as a sink, a click on a
/// notification opening the window on its message, the endpoint Settings switches, the
/// plugin's updater, the model started at once (someone is about to type), and the
/// command table the link serves to the user's other devices.
pub(crate) fn face(app: &AppHandle, endpoint: Arc<McpEndpoint>) -> Face {
    let opener = app.clone();
    Face {
        sinks: vec![Arc::new(TraySink { app: app.clone() })],
        on_open: Arc::new(move |message_id| window::show_message(&opener, message_id)),
        endpoint,
        updates: Some((Arc::new(updater::PluginUpdates::new(app.clone())), updater::format())),
        warm_model: true,
        commands: Some(sidecar::commands::dispatch_for_device),
        window: true,
    }
}
