//! What the phone channels say happened: one connected, went down, paired or got a message, or needs the user now.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChannelEvent {
    /// A phone channel connected, went down, paired or got a message.
    ChannelsChanged,
    /// A phone channel has been down long enough to tell the user (W1), or is back.
    ChannelAlert { channel: sidecar_domain::Channel, title: String, body: String, down: bool },
    /// Something about a phone channel the user must hear of now (someone guessing the
    /// pairing code), shown as a notification; the channel itself is fine.
    ChannelWarning { channel: sidecar_domain::Channel, title: String, body: String },
}
