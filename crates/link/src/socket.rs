//! One device's link, once upgraded: reads its calls and runs each on its own task
//! (a long reply does not hold the others), writes replies and the core's events as they
//! come, and closes when the device is revoked or the listener stops.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{broadcast, mpsc};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;
use tokio_util::sync::CancellationToken;

use crate::calls::Calls;
use crate::devices::{Device, Devices};
use crate::present::Present;
use crate::protocol::{socket_config, Frame, Outcome, CLOSE_NOT_ALLOWED};
use crate::replies::{Replies, Run};

/// What a device's link reaches on the core.
pub(crate) struct Attached {
    pub calls: Arc<dyn Calls>,
    pub devices: Arc<Devices>,
    pub replies: Arc<Replies>,
    pub present: Arc<Present>,
}

/// How often an open link checks its device is still allowed.
const RECHECK: std::time::Duration = std::time::Duration::from_secs(3);

/// Serves `device`'s link; `shows` says whether it shows notifications (not a web page).
pub(crate) async fn serve<S>(server: Attached, device: Device, shows: bool, io: S, stop: CancellationToken)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let socket = WebSocketStream::from_raw_socket(io, Role::Server, Some(socket_config())).await;
    let (mut sink, mut stream) = socket.split();
    let (replies, mut to_send) = mpsc::channel::<Frame>(256);
    let mut events = server.calls.events();
    let mut revoked = server.devices.revocations();
    tracing::info!(device = device.id, "a device attached");
    let _attached = server.present.attach(device.id, shows);
    let close = |code: CloseCode, reason: &'static str| Message::Close(Some(CloseFrame { code, reason: reason.into() }));
    // A revoke in another process (`sidecar devices revoke` beside the app) is seen here
    // within a few seconds; one in this process, at once.
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.tick().await;
    loop {
        let message = tokio::select! {
            _ = stop.cancelled() => Some(close(CloseCode::Away, "the home Sidecar stopped listening")),
            _ = recheck.tick() => match server.devices.allowed(device.id).await {
                Ok(false) => Some(close(CloseCode::Library(CLOSE_NOT_ALLOWED), "revoked")),
                Ok(true) | Err(_) => continue,
            },
            id = revoked.recv() => match id {
                Ok(id) if id == device.id => Some(close(CloseCode::Library(CLOSE_NOT_ALLOWED), "revoked")),
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => None,
            },
            event = events.recv() => match event {
                Ok(addressed) if addressed.is_for(device.id) => Some(Message::text(Frame::Event { event: addressed.event }.text())),
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!(device = device.id, missed, "a device fell behind the core's events");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => None,
            },
            Some(frame) = to_send.recv() => Some(Message::text(frame.text())),
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    match serde_json::from_str::<Frame>(&text) {
                        Ok(Frame::Call { id, name, args }) => call(&server, &device, id, name, args, replies.clone()),
                        Ok(_) | Err(_) => tracing::debug!(device = device.id, "a frame that is no call was left unread"),
                    }
                    continue;
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => None,
                Some(Ok(_)) => continue,
            },
        };
        let Some(message) = message else { break };
        let closing = matches!(message, Message::Close(_));
        if sink.send(message).await.is_err() || closing {
            break;
        }
    }
    let _ = sink.close().await;
    tracing::info!(device = device.id, "a device's link closed");
}

/// Runs `name` for `device` unless this call (by its id) already ran or runs; its
/// reply goes to `replies` either way.
fn call(server: &Attached, device: &Device, id: String, name: String, args: serde_json::Value, replies: mpsc::Sender<Frame>) {
    if server.calls.is_input(&name) {
        server.present.input(device.id);
    }
    let mut answer = match server.replies.run(device.id, &id) {
        Run::Start(done, answer) => {
            let run = server.calls.call(device.clone(), name, args);
            tokio::spawn(async move {
                let outcome = match run.await {
                    Ok(value) => Outcome::Ok(value),
                    Err(error) => Outcome::Err(error),
                };
                let _ = done.send(Some(outcome));
            });
            answer
        }
        Run::Joined(answer) => answer,
    };
    tokio::spawn(async move {
        let outcome = match answer.wait_for(Option::is_some).await {
            Ok(outcome) => outcome.clone().expect("waited for an answer"),
            Err(_) => Outcome::Err(serde_json::json!({ "message": "the home Sidecar stopped before answering", "retryable": true })),
        };
        let _ = replies.send(Frame::Reply { id, outcome }).await;
    });
}
