//! The three greetings of the day and their windows (P11).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum GreetingKind {
    Morning,
    Afternoon,
    Evening,
}

impl GreetingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GreetingKind::Morning => "morning",
            GreetingKind::Afternoon => "afternoon",
            GreetingKind::Evening => "evening",
        }
    }
}

/// The greeting window a local hour falls in: 08–10, 14–16, 18–20 (P11).
pub fn greeting_window(hour: u32) -> Option<GreetingKind> {
    match hour {
        8 | 9 => Some(GreetingKind::Morning),
        14 | 15 => Some(GreetingKind::Afternoon),
        18 | 19 => Some(GreetingKind::Evening),
        _ => None,
    }
}
