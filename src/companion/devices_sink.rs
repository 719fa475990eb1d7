//! Reminders, task results and what Sidecar says on its own, shown on the user's other
//! computer: a notification told over the link to the attached device the user is at
//! (the one written on or looked at last, within minutes; every attached one when
//! none was), which that device shows with its own notifier (`home`).

use std::sync::{Arc, Weak};

use futures_util::future::BoxFuture;
use serde_json::json;

use super::devices::DeviceLink;
use crate::proactive::config::SinkId;
use crate::proactive::router::{Kind, Outgoing, Sink};
use crate::proactive::state::Channel;

/// The event's name a device shows as a notification.
pub const DEVICE_NOTIFICATION: &str = "device_notification";

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
        self.link.upgrade().is_some_and(|link| !link.at_hand().is_empty())
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, String>> {
        let told = self.link.upgrade().map(|link| {
            let devices = link.at_hand();
            let event = json!({
                "type": DEVICE_NOTIFICATION,
                "title": message.title,
                "body": message.body,
                "reminderId": message.reminder_id,
                "messageId": message.message_id,
                "spontaneous": message.kind == Kind::Spontaneous,
            });
            !devices.is_empty() && link.tell(event, devices)
        });
        Box::pin(async move {
            match told {
                Some(true) => Ok(None),
                _ => Err("no other device is attached now".into()),
            }
        })
    }
}
