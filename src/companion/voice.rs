//! The companion's voice, as the faces reach it: which replies are said aloud (and the
//! loop that says them as they stream), and what Settings → Voice shows.

use std::sync::Arc;

use serde::Serialize;

use super::Companion;
use crate::agent::events::ChatEvent;
use crate::error::CompanionError;
use crate::events::CoreEvent;
use crate::proactive::state::Channel;
use crate::settings::voice::SpeakReplies;

/// How long Settings → Voice's microphone test listens.
const MICROPHONE_TEST: std::time::Duration = std::time::Duration::from_secs(3);

/// Settings → Voice.
#[derive(Debug, Clone, Serialize)]
pub struct VoiceView {
    pub speak_replies: SpeakReplies,
    /// The microphones the sound server offers, the default first.
    pub inputs: Vec<String>,
    pub input_device: Option<String>,
    /// Whether the speech model is in the runtime folder.
    pub speech_model: bool,
    /// What hears and what speaks, with sizes and licences.
    pub models: Vec<VoiceModel>,
}

#[derive(Debug, Clone, Serialize)]
pub struct VoiceModel {
    pub role: &'static str,
    pub name: &'static str,
    pub megabytes: Option<u64>,
    /// SPDX.
    pub licence: &'static str,
    /// Run as a program of its own, never linked into Sidecar (espeak-ng, GPL).
    pub separate_program: bool,
}

impl Companion {
    pub fn voice_view(&self) -> VoiceView {
        let settings = self.models.settings();
        let runtime = settings.local_model.runtime.clone();
        let size = |file: std::path::PathBuf| std::fs::metadata(file).ok().map(|m| m.len().div_ceil(1_000_000));
        VoiceView {
            speak_replies: settings.voice.speak_replies,
            inputs: crate::voice::microphone::input_devices(),
            input_device: settings.voice.input_device.clone(),
            speech_model: self.speech.installed(),
            models: vec![
                VoiceModel {
                    role: "hear",
                    name: "Whisper base (multilingual)",
                    megabytes: runtime.as_deref().and_then(|r| size(crate::runtime_files::speech_model(r))),
                    licence: "MIT",
                    separate_program: false,
                },
                VoiceModel {
                    role: "silence",
                    name: "Silero VAD v6.2",
                    megabytes: runtime.as_deref().and_then(|r| size(crate::runtime_files::voice_activity(r))),
                    licence: "MIT",
                    separate_program: false,
                },
                VoiceModel { role: "speak", name: "espeak-ng", megabytes: None, licence: "GPL-3.0-or-later", separate_program: true },
            ],
        }
    }

    pub fn set_speak_replies(&self, which: SpeakReplies) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(crate::settings::owner::Change::SpeakReplies(which))?;
        if which == SpeakReplies::Off {
            self.talk.narrator().stop();
        }
        Ok(self.voice_view())
    }

    /// The microphone push-to-talk listens to (`None`: the default input).
    pub fn set_input_device(&self, name: Option<String>) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(crate::settings::owner::Change::InputDevice(name))?;
        Ok(self.voice_view())
    }

    /// Push-to-talk starts listening on the chosen microphone.
    pub fn start_talking(&self) -> Result<(), String> {
        self.talk.start(self.models.settings().voice.input_device.clone(), self.preferences.lang())
    }

    /// Settings → Voice's microphone test: listens for three seconds and returns what it
    /// heard, which goes nowhere else.
    pub async fn test_microphone(&self) -> Result<String, String> {
        self.start_talking()?;
        tokio::time::sleep(MICROPHONE_TEST).await;
        let heard = self.talk.finish(self.preferences.lang()).await;
        self.talk.take_spoken_turn();
        heard
    }

    /// Settings → Voice's speaker test: a sentence said aloud in the app's language.
    pub fn test_speaking(&self) {
        let lang = self.preferences.lang();
        self.talk.narrator().say(crate::voice::words::voice_sample(lang), lang);
    }

    /// Says the window's replies aloud as they stream, as `[voice] speak_replies` asks:
    /// those answering words said through the microphone, or all of them.
    pub(crate) async fn speak_replies(self: Arc<Self>) {
        use tokio::sync::broadcast::error::RecvError;
        let mut events = self.events.subscribe();
        let mut saying: Option<i64> = None;
        loop {
            let event = match events.recv().await {
                Ok(CoreEvent::Chat(event)) => event,
                Ok(_) | Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            let narrator = self.talk.narrator();
            match event {
                ChatEvent::TurnStarted { conversation_id, channel, .. } => {
                    // Only the window's own turn answers what its microphone heard.
                    let spoken = channel == Channel::Desktop && self.talk.take_spoken_turn();
                    let aloud = match self.models.settings().voice.speak_replies {
                        SpeakReplies::Off => false,
                        SpeakReplies::VoiceOnly => spoken,
                        SpeakReplies::Always => channel == Channel::Desktop,
                    };
                    saying = aloud.then_some(conversation_id);
                    if aloud {
                        narrator.begin(self.preferences.lang());
                    }
                }
                ChatEvent::Delta { conversation_id, text } if saying == Some(conversation_id) => narrator.delta(&text),
                ChatEvent::TurnFinished { conversation_id, .. } | ChatEvent::TurnFailed { conversation_id, .. } if saying == Some(conversation_id) => {
                    narrator.end();
                    saying = None;
                }
                _ => {}
            }
        }
    }
}
