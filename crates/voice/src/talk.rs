//! Push-to-talk: one recording at a time from the microphone to words, and the replies
//! said aloud ([`Narrator`]), which stop when the user starts talking. `start` opens the
//! microphone, `finish` stops it and transcribes what was said, `cancel` throws it away.
//! What happens is said as [`VoiceEvent`]s (the window's level meter, the words heard so
//! far while the user speaks, and its states); the words go back to the caller, which
//! sends them as the user's message.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sidecar_domain::Emitter;
use sidecar_domain::Lang;

use crate::error::VoiceError;
use crate::events::VoiceEvent;
use crate::microphone::Listening;
use crate::narrator::Narrator;
use crate::speech::{Language, Recording, SpeechModel};
use crate::words::Unheard;

/// A draft of the words is made this long after the last one was shown.
const DRAFT_EVERY: Duration = Duration::from_millis(800);
/// Drafts stop past one encoder window; the recording's own transcription takes the rest.
const DRAFT_SECONDS: f32 = 30.0;
/// The microphone keeps listening this long after the key is let go: the sound server
/// delivers the last words some hundreds of milliseconds after they are said, and a key
/// let go as the last word ends took it off the transcript ("amiable himself", issue 68;
/// "llamar a Ana" heard as "llamara Ana").
const RELEASE_TAIL: Duration = Duration::from_millis(800);

/// The push-to-talk session of the app.
pub struct Talk {
    speech: Arc<SpeechModel>,
    listening: Arc<Mutex<Option<Listening>>>,
    /// Set when the recording under way ends: its drafts stop.
    drafts_end: Mutex<Option<Arc<AtomicBool>>>,
    events: Emitter<VoiceEvent>,
    narrator: Narrator,
    /// The words of the last recording were handed over and their reply not begun yet.
    spoken_turn: AtomicBool,
}

impl Talk {
    pub fn new(speech: Arc<SpeechModel>, events: Emitter<VoiceEvent>) -> Self {
        Self {
            speech,
            listening: Arc::default(),
            drafts_end: Mutex::new(None),
            narrator: Narrator::new(events.clone()),
            events,
            spoken_turn: AtomicBool::new(false),
        }
    }

    pub fn is_listening(&self) -> bool {
        self.listening.lock().expect("talk lock").is_some()
    }

    /// Opens the microphone (`device` by name, or the default); listening already is no
    /// error. A missing model is said now, before anyone speaks for nothing.
    pub fn start(&self, device: Option<String>, lang: Lang) -> Result<(), Unheard> {
        // Barge-in: whatever Sidecar was saying stops at once.
        self.narrator.stop();
        let mut listening = self.listening.lock().expect("talk lock");
        if listening.is_some() {
            return Ok(());
        }
        let refused = |error: VoiceError| {
            tracing::warn!(%error, "push-to-talk could not start");
            Unheard::of(lang, &error)
        };
        if !self.speech.installed() {
            return Err(refused(VoiceError::ModelMissing(std::path::PathBuf::from(sidecar_domain::runtime_files::SPEECH_MODEL_FILE))));
        }
        let events = self.events.clone();
        *listening = Some(Listening::start(device, move |level| events.publish(VoiceEvent::VoiceLevel { level })).map_err(refused)?);
        self.events.publish(VoiceEvent::VoiceListening);
        let end = Arc::new(AtomicBool::new(false));
        if let Some(earlier) = self.drafts_end.lock().expect("talk lock").replace(end.clone()) {
            earlier.store(true, Ordering::SeqCst);
        }
        let (listening, speech, events) = (self.listening.clone(), self.speech.clone(), self.events.clone());
        let drafting = std::thread::Builder::new().name("drafts".into()).spawn(move || draft_while_listening(&listening, &speech, &events, lang, &end));
        if let Err(error) = drafting {
            tracing::warn!(%error, "no words will show while listening");
        }
        Ok(())
    }

    /// The drafts of the recording under way stop (and one being made is given up).
    fn end_drafts(&self) {
        if let Some(end) = self.drafts_end.lock().expect("talk lock").take() {
            end.store(true, Ordering::SeqCst);
        }
    }

    /// Stops listening and returns the words said, in `lang` (the app's language).
    pub async fn finish(&self, lang: Lang) -> Result<String, Unheard> {
        self.end_drafts();
        let Some(listening) = self.listening.lock().expect("talk lock").take() else {
            return Err(Unheard::of(lang, &VoiceError::NoSpeech));
        };
        self.events.publish(VoiceEvent::VoiceTranscribing);
        let speech = self.speech.clone();
        let heard = tokio::task::spawn_blocking(move || {
            std::thread::sleep(RELEASE_TAIL);
            let audio = listening.finish()?;
            speech.transcribe(&audio, Language::Given(lang), Recording::Utterance)
        })
        .await
        .unwrap_or_else(|e| Err(VoiceError::Engine(e.to_string())));
        let outcome = heard.map(|t| t.text).map_err(|error| {
            tracing::info!(%error, "push-to-talk heard nothing usable");
            Unheard::of(lang, &error)
        });
        self.events.publish(VoiceEvent::VoiceDone { text: outcome.as_ref().ok().cloned(), problem: outcome.as_ref().err().map(|unheard| unheard.0.clone()) });
        self.spoken_turn.store(outcome.is_ok(), Ordering::SeqCst);
        outcome
    }

    /// Whether the turn starting now answers words said through the microphone (asked
    /// once per turn: the flag is taken).
    pub fn take_spoken_turn(&self) -> bool {
        self.spoken_turn.swap(false, Ordering::SeqCst)
    }

    /// Spoken replies.
    pub fn narrator(&self) -> &Narrator {
        &self.narrator
    }

    /// Stops listening and forgets what was heard.
    pub fn cancel(&self) {
        self.end_drafts();
        if self.listening.lock().expect("talk lock").take().is_some() {
            self.events.publish(VoiceEvent::VoiceDone { text: None, problem: None });
        }
    }
}

/// Shows the words heard so far while the user speaks: a draft of the recording every
/// [`DRAFT_EVERY`], on one core, until `end` (then the draft being made is given up, so
/// the recording's own transcription has the cores).
fn draft_while_listening(listening: &Mutex<Option<Listening>>, speech: &SpeechModel, events: &Emitter<VoiceEvent>, lang: Lang, end: &Arc<AtomicBool>) {
    let mut shown = String::new();
    loop {
        std::thread::sleep(DRAFT_EVERY);
        if end.load(Ordering::SeqCst) {
            return;
        }
        let heard = match listening.lock().expect("talk lock").as_ref() {
            Some(listening) => listening.heard_so_far(DRAFT_SECONDS),
            None => return,
        };
        let Ok(audio) = heard else { continue };
        if audio.seconds() >= DRAFT_SECONDS - 0.1 {
            return;
        }
        if audio.seconds() < 1.0 {
            continue;
        }
        if let Ok(text) = speech.draft(&audio, lang, end) {
            if text != shown && !end.load(Ordering::SeqCst) {
                events.publish(VoiceEvent::VoiceHeard { text: text.clone() });
                shown = text;
            }
        }
    }
}
