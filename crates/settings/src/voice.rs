//! `[voice]`: talking to Sidecar. Which replies are said aloud, the microphone and the
//! speakers, and how the voice sounds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which of Sidecar's replies in the window are spoken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
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

/// The `[voice]` switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum VoiceSwitch {
    SpeakReminders,
    ReviewBeforeSending,
}

impl VoiceSwitch {
    /// Its key in `[voice]`.
    pub fn key(self) -> &'static str {
        match self {
            VoiceSwitch::SpeakReminders => "speak_reminders",
            VoiceSwitch::ReviewBeforeSending => "review_before_sending",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct VoiceSettings {
    pub speak_replies: SpeakReplies,
    /// Reminders and the messages Sidecar starts are said aloud too (never while quiet).
    pub speak_reminders: bool,
    /// What push-to-talk heard goes into the message box to be read over, not sent.
    pub review_before_sending: bool,
    /// The microphone, by the name the sound server gives it; unset: the default input.
    pub input_device: Option<String>,
    /// The speakers or headphones, by name; unset: the default output.
    pub output_device: Option<String>,
    /// The voice Spanish replies are said in (an espeak-ng voice the voice crate offers);
    /// unset: its first.
    pub spanish_voice: Option<String>,
    /// The voice English replies are said in; unset: the voice crate's first.
    pub english_voice: Option<String>,
    /// How fast, 1.0 being the voice's usual pace (0.5 to 2.0).
    pub speed: f32,
}

impl VoiceSettings {
    pub fn switch(&mut self, which: VoiceSwitch) -> &mut bool {
        match which {
            VoiceSwitch::SpeakReminders => &mut self.speak_reminders,
            VoiceSwitch::ReviewBeforeSending => &mut self.review_before_sending,
        }
    }
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            speak_replies: SpeakReplies::default(),
            speak_reminders: false,
            review_before_sending: false,
            input_device: None,
            output_device: None,
            spanish_voice: None,
            english_voice: None,
            speed: 1.0,
        }
    }
}
