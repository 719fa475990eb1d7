//! What travels on a link, one JSON text frame each: a device's call, the core's reply
//! to it (by the call's id, which the device makes and keeps until answered, so a call
//! sent again after a dropped link is run once), and the core's events.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Frame {
    Call {
        id: String,
        name: String,
        #[serde(default)]
        args: Value,
    },
    Reply {
        id: String,
        outcome: Outcome,
    },
    Event {
        event: Value,
    },
}

/// A command's answer, or the error the window shows (as the core words it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok(Value),
    Err(Value),
}

impl Frame {
    pub(crate) fn text(&self) -> String {
        serde_json::to_string(self).expect("a frame is JSON")
    }
}

/// The largest frame either side reads (an attachment's text, a long chat).
pub(crate) const MAX_FRAME: usize = 64 << 20;

pub(crate) fn socket_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().max_message_size(Some(MAX_FRAME)).max_frame_size(Some(MAX_FRAME))
}

/// The close code a core sends to a device it no longer allows.
pub(crate) const CLOSE_NOT_ALLOWED: u16 = 4401;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_answer_stays_an_answer() {
        let reply = Frame::Reply { id: "7".into(), outcome: Outcome::Ok(Value::Null) };
        let text = reply.text();
        assert_eq!(text, r#"{"t":"reply","id":"7","outcome":{"ok":null}}"#);
        assert_eq!(serde_json::from_str::<Frame>(&text).unwrap(), reply);
    }

    #[test]
    fn a_call_without_arguments_reads() {
        let call: Frame = serde_json::from_str(r#"{"t":"call","id":"a","name":"list_chats"}"#).unwrap();
        assert_eq!(call, Frame::Call { id: "a".into(), name: "list_chats".into(), args: Value::Null });
    }
}
