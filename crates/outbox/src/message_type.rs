//! The kinds of message Sidecar says on its own, beside reminders: what the model may
//! answer in `messageType`, what learning keeps an allowance for, and what a channel
//! remembers of a message it delivered. Stored and sent as their lowercase names.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    Greeting,
    Checkin,
    Contextual,
}

impl MessageType {
    pub const ALL: [MessageType; 3] = [MessageType::Greeting, MessageType::Checkin, MessageType::Contextual];

    pub fn as_str(self) -> &'static str {
        match self {
            MessageType::Greeting => "greeting",
            MessageType::Checkin => "checkin",
            MessageType::Contextual => "contextual",
        }
    }

    /// The kind a name says, as the model or an older row may write it ("Check-in");
    /// `None` for anything else (a reminder's or a program's note's mark).
    pub fn named(name: &str) -> Option<MessageType> {
        match name.trim().to_lowercase().as_str() {
            "greeting" => Some(MessageType::Greeting),
            "checkin" | "check-in" => Some(MessageType::Checkin),
            "contextual" => Some(MessageType::Contextual),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_written_and_others_are_none() {
        for kind in MessageType::ALL {
            assert_eq!(MessageType::named(kind.as_str()), Some(kind));
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", kind.as_str()));
        }
        assert_eq!(MessageType::named(" Check-in "), Some(MessageType::Checkin));
        assert_eq!(MessageType::named("reminder"), None);
        assert_eq!(MessageType::named("connection"), None);
    }
}
