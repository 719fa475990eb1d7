//! What talking to Sidecar says happened, for the window: push-to-talk's states and
//! level, and when a reply is being said aloud.

use serde::Serialize;

/// What push-to-talk is doing, for the window.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VoiceEvent {
    /// The microphone is open.
    VoiceListening,
    /// How loud the microphone hears it now, 0 to 1.
    VoiceLevel { level: f32 },
    /// The words heard so far, while the user still speaks (a draft: the words sent are
    /// those of `VoiceDone`).
    VoiceHeard { text: String },
    /// The recording is being turned into words.
    VoiceTranscribing,
    /// Done: the words, or nothing (cancelled, or what went wrong, said in `problem`).
    VoiceDone { text: Option<String>, problem: Option<String> },
    /// Sidecar started or stopped saying a reply aloud (`problem`: why it could not).
    VoiceSpeaking { on: bool, problem: Option<String> },
}
