//! What reaches the user's other computers: reminders and task results as a notification
//! told over the link to the attached device the user is at (the one written on or
//! looked at last, within minutes; every attached one when none was; none when that was
//! this computer's own window, which shows its own), which that device
//! shows with its own notifier (`home`); and, on a home core with no window (the
//! daemon), a tool's permission question as a card in the attached devices' windows.

use std::sync::{Arc, Weak};

use futures_util::future::BoxFuture;

use super::devices::DeviceLink;
use sidecar_actions::Answer;
use sidecar_actions::AnswerFuture;
use sidecar_actions::Asker;
use sidecar_actions::Question;
use sidecar_actions::WindowQuestions;
use sidecar_outbox::{Kind, Outgoing, Sink, SinkError};
use sidecar_proactive::Channel;
use sidecar_proactive::SinkId;

/// The event's name a device shows as a notification.
pub(crate) const DEVICE_NOTIFICATION: &str = "device_notification";

/// What the home core tells the device the user is at (`"type": "device_notification"`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeviceNotification {
    pub title: String,
    pub body: String,
    #[serde(default)]
    pub reminder_id: Option<i64>,
    #[serde(default)]
    pub message_id: Option<i64>,
    #[serde(default)]
    pub spontaneous: bool,
}

/// `body` as an event the window reads: its fields, and `"type": kind`.
pub(super) fn tagged(kind: &str, body: &impl serde::Serialize) -> serde_json::Value {
    let mut event = serde_json::to_value(body).unwrap_or_default();
    event["type"] = kind.into();
    event
}

pub(crate) struct DevicesSink {
    pub link: Weak<DeviceLink>,
}

impl DevicesSink {
    pub(crate) fn new(link: &Arc<DeviceLink>) -> Self {
        Self { link: Arc::downgrade(link) }
    }
}

impl Sink for DevicesSink {
    fn id(&self) -> SinkId {
        SinkId::Devices
    }
    fn channel(&self) -> Channel {
        Channel::Device
    }
    fn available(&self) -> bool {
        self.link.upgrade().is_some_and(|link| link.any_attached())
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        let told = self.link.upgrade().map(|link| {
            let devices = link.at_hand();
            let told = DeviceNotification {
                title: message.title.clone(),
                body: message.body.clone(),
                reminder_id: message.reminder_id,
                message_id: message.message_id,
                spontaneous: message.kind == Kind::Spontaneous,
            };
            let event = tagged(DEVICE_NOTIFICATION, &told);
            // Nobody to tell while the user is at this computer's own window, which shows its own.
            if devices.is_empty() {
                link.any_attached()
            } else {
                link.tell(event, devices)
            }
        });
        Box::pin(async move {
            match told {
                Some(true) => Ok(None),
                _ => Err(SinkError::failed("no other device is attached now")),
            }
        })
    }
}

/// A home core with no window asks the attached devices' windows (their cards answer
/// through the link); with none attached there is no one to ask, as before.
pub(crate) struct DevicesAsker {
    link: Weak<DeviceLink>,
    questions: Arc<WindowQuestions>,
}

impl DevicesAsker {
    pub(crate) fn new(link: &Arc<DeviceLink>, questions: &Arc<WindowQuestions>) -> Self {
        Self { link: Arc::downgrade(link), questions: questions.clone() }
    }
}

impl Asker for DevicesAsker {
    fn ask(&self, question: Question) -> AnswerFuture<'_> {
        if self.link.upgrade().is_some_and(|link| link.any_attached()) {
            self.questions.ask(question)
        } else {
            Box::pin(async { Answer::NoOneToAsk })
        }
    }
}
