//! Push-to-talk: one recording at a time from the microphone to words. `start` opens the
//! microphone, `finish` stops it and transcribes what was said, `cancel` throws it away.
//! What happens is said as [`VoiceEvent`]s (the window's level meter and its states); the
//! words go back to the caller, which sends them as the user's message.

use std::sync::{Arc, Mutex};

use serde::Serialize;
use sidecar_domain::emitter::Emitter;
use sidecar_domain::locale::Lang;

use crate::error::VoiceError;
use crate::microphone::Listening;
use crate::speech::{Language, Recording, SpeechModel};

/// What push-to-talk is doing, for the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VoiceEvent {
    /// The microphone is open.
    VoiceListening,
    /// How loud the microphone hears it now, 0 to 1.
    VoiceLevel { level: f32 },
    /// The recording is being turned into words.
    VoiceTranscribing,
    /// Done: the words, or nothing (cancelled, or what went wrong, said in `problem`).
    VoiceDone { text: Option<String>, problem: Option<String> },
}

/// The push-to-talk session of the app.
pub struct Talk {
    speech: Arc<SpeechModel>,
    listening: Mutex<Option<Listening>>,
    events: Emitter<VoiceEvent>,
}

impl Talk {
    pub fn new(speech: Arc<SpeechModel>, events: Emitter<VoiceEvent>) -> Self {
        Self { speech, listening: Mutex::new(None), events }
    }

    pub fn is_listening(&self) -> bool {
        self.listening.lock().expect("talk lock").is_some()
    }

    /// Opens the microphone (`device` by name, or the default); listening already is no
    /// error. A missing model is said now, before anyone speaks for nothing.
    pub fn start(&self, device: Option<String>, lang: Lang) -> Result<(), String> {
        let mut listening = self.listening.lock().expect("talk lock");
        if listening.is_some() {
            return Ok(());
        }
        let refused = |error: VoiceError| {
            tracing::warn!(%error, "push-to-talk could not start");
            crate::words::problem(lang, &error)
        };
        if !self.speech.installed() {
            return Err(refused(VoiceError::ModelMissing(std::path::PathBuf::from(sidecar_domain::runtime_files::SPEECH_MODEL_FILE))));
        }
        let events = self.events.clone();
        *listening = Some(Listening::start(device, move |level| events.publish(VoiceEvent::VoiceLevel { level })).map_err(refused)?);
        self.events.publish(VoiceEvent::VoiceListening);
        Ok(())
    }

    /// Stops listening and returns the words said, in `lang` (the app's language).
    pub async fn finish(&self, lang: Lang) -> Result<String, String> {
        let Some(listening) = self.listening.lock().expect("talk lock").take() else {
            return Err(crate::words::problem(lang, &VoiceError::NoSpeech));
        };
        self.events.publish(VoiceEvent::VoiceTranscribing);
        let speech = self.speech.clone();
        let heard = tokio::task::spawn_blocking(move || {
            let audio = listening.finish()?;
            speech.transcribe(&audio, Language::Given(lang), Recording::Utterance)
        })
        .await
        .unwrap_or_else(|e| Err(VoiceError::Engine(e.to_string())));
        let outcome = heard.map(|t| t.text).map_err(|error| {
            tracing::info!(%error, "push-to-talk heard nothing usable");
            crate::words::problem(lang, &error)
        });
        self.events.publish(VoiceEvent::VoiceDone { text: outcome.as_ref().ok().cloned(), problem: outcome.as_ref().err().cloned() });
        outcome
    }

    /// Stops listening and forgets what was heard.
    pub fn cancel(&self) {
        if self.listening.lock().expect("talk lock").take().is_some() {
            self.events.publish(VoiceEvent::VoiceDone { text: None, problem: None });
        }
    }
}
