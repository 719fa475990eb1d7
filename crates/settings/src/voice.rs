//! `[voice]`: talking to Sidecar. Which replies are said aloud, and which microphone.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which of Sidecar's replies in the window are spoken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpeakReplies {
    /// None: replies are read.
    Off,
    /// The replies to what was said through the microphone.
    #[default]
    VoiceOnly,
    /// Every reply in the window.
    Always,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct VoiceSettings {
    pub speak_replies: SpeakReplies,
    /// The microphone, by the name the sound server gives it; unset: the default input.
    pub input_device: Option<String>,
}
