//! The companion's voice, as the faces reach it: which replies are said aloud (and the
//! loop that says them as they stream), and what Settings → Voice shows.

use std::sync::Arc;

use serde::Serialize;

use super::aloud::{reply_step, Stored};
use super::Companion;
use crate::error::CompanionError;
use crate::events::CoreEvent;
use sidecar_domain::Lang;
use sidecar_proactive::ProactiveEvent;
use sidecar_reminders::ReminderEvent;
use sidecar_settings::SpeakReplies;
use sidecar_settings::VoiceSwitch;
use sidecar_voice::Unheard;
use sidecar_voice::Voicing;
use sidecar_voice::SPEEDS;
use sidecar_voice::VOICES;

/// How long Settings → Voice's microphone test listens.
const MICROPHONE_TEST: std::time::Duration = std::time::Duration::from_secs(3);

/// Settings → Voice.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct VoiceView {
    pub speak_replies: SpeakReplies,
    pub speak_reminders: bool,
    pub review_before_sending: bool,
    /// The microphones the sound server offers, the default first.
    pub inputs: Vec<String>,
    pub input_device: Option<String>,
    /// The speakers and headphones, the default first.
    pub outputs: Vec<String>,
    pub output_device: Option<String>,
    /// The voices on offer for each language, and the one in use for each.
    pub voices: Vec<VoiceChoice>,
    pub spanish_voice: &'static str,
    pub english_voice: &'static str,
    /// The pace, 1.0 the voices' usual one, and the slowest and fastest on offer.
    pub speed: f32,
    pub speeds: (f32, f32),
    /// Whether the speech model is in the runtime folder.
    pub speech_model: bool,
    /// What hears and what speaks, with sizes and licences.
    pub models: Vec<VoiceModel>,
}

/// What push-to-talk heard.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Heard {
    pub text: String,
    /// Put in the message box to read over, not sent.
    pub review: bool,
}

/// A voice Settings → Voice offers, named in the window's language.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct VoiceChoice {
    pub id: &'static str,
    pub lang: Lang,
    pub name: String,
}

/// What hears or speaks, for Settings → Voice.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
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
        let (lang, voicing) = (self.preferences.lang(), Voicing::of(&settings.voice));
        VoiceView {
            speak_replies: settings.voice.speak_replies,
            speak_reminders: settings.voice.speak_reminders,
            review_before_sending: settings.voice.review_before_sending,
            inputs: sidecar_voice::input_devices(),
            input_device: settings.voice.input_device.clone(),
            outputs: sidecar_voice::output_devices(),
            output_device: settings.voice.output_device.clone(),
            voices: VOICES.iter().map(|v| VoiceChoice { id: v.id, lang: v.lang, name: sidecar_voice::voice_name(lang, v) }).collect(),
            spanish_voice: voicing.voice(Lang::Es),
            english_voice: voicing.voice(Lang::En),
            speed: voicing.speed(),
            speeds: SPEEDS,
            speech_model: self.speech.installed(),
            models: vec![
                VoiceModel {
                    role: "hear",
                    name: "Whisper base (multilingual)",
                    megabytes: runtime.as_deref().and_then(|r| size(sidecar_domain::runtime_files::speech_model(r))),
                    licence: "MIT",
                    separate_program: false,
                },
                VoiceModel {
                    role: "silence",
                    name: "Silero VAD v6.2",
                    megabytes: runtime.as_deref().and_then(|r| size(sidecar_domain::runtime_files::voice_activity(r))),
                    licence: "MIT",
                    separate_program: false,
                },
                VoiceModel { role: "speak", name: "espeak-ng", megabytes: None, licence: "GPL-3.0-or-later", separate_program: true },
            ],
        }
    }

    /// One of Settings → Voice's switches: reminders said aloud too, what was heard
    /// read over before sending.
    pub fn set_voice_switch(&self, which: VoiceSwitch, on: bool) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(sidecar_settings::Change::VoiceSwitch(which, on))?;
        Ok(self.voice_view())
    }

    pub fn set_speak_replies(&self, which: SpeakReplies) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(sidecar_settings::Change::SpeakReplies(which))?;
        if which == SpeakReplies::Off {
            self.talk.narrator().stop();
        }
        Ok(self.voice_view())
    }

    /// The microphone push-to-talk listens to (`None`: the default input).
    pub fn set_input_device(&self, name: Option<String>) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(sidecar_settings::Change::InputDevice(name))?;
        Ok(self.voice_view())
    }

    /// The speakers replies are said through (`None`: the default output).
    pub fn set_output_device(&self, name: Option<String>) -> Result<VoiceView, CompanionError> {
        self.models.settings_owner().change(sidecar_settings::Change::OutputDevice(name))?;
        Ok(self.voice_view())
    }

    /// The voice for each language and the pace; a voice not on offer, or of the other
    /// language, is refused.
    pub fn set_voicing(&self, spanish: String, english: String, speed: f32) -> Result<VoiceView, CompanionError> {
        for (id, lang) in [(&spanish, Lang::Es), (&english, Lang::En)] {
            if sidecar_voice::offered(id).is_none_or(|v| v.lang != lang) {
                return Err(CompanionError::NotAVoice(id.to_string()));
            }
        }
        if !speed.is_finite() || !(SPEEDS.0..=SPEEDS.1).contains(&speed) {
            return Err(sidecar_settings::OutOfRange { name: "[voice] speed", low: SPEEDS.0.to_string(), high: SPEEDS.1.to_string() }.into());
        }
        let change = sidecar_settings::Change::Voicing { spanish: Some(spanish), english: Some(english), speed };
        self.models.settings_owner().change(change)?;
        Ok(self.voice_view())
    }

    /// Whether every reply of the current conversation is said aloud: its own switch,
    /// else Settings → Voice's "always".
    pub async fn speaks_here(&self) -> Result<bool, CompanionError> {
        let conversation = self.store.conversations().current_conversation().await?;
        let own = self.store.conversations().conversation_speaks(conversation).await?;
        Ok(own.unwrap_or(self.models.settings().voice.speak_replies == SpeakReplies::Always))
    }

    /// The current conversation's switch. Off goes back to Settings → Voice's rule
    /// (replies to spoken messages, by default), unless that rule says every reply.
    pub async fn set_speaks_here(&self, on: bool) -> Result<bool, CompanionError> {
        let conversation = self.store.conversations().current_conversation().await?;
        let always = self.models.settings().voice.speak_replies == SpeakReplies::Always;
        let own = match (on, always) {
            (true, _) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
        };
        self.store.conversations().set_conversation_speaks(conversation, own).await?;
        if !on {
            self.talk.narrator().stop();
        }
        Ok(on)
    }

    /// How replies sound now.
    pub(super) fn voicing(&self) -> Voicing {
        Voicing::of(&self.models.settings().voice)
    }

    /// Push-to-talk starts listening on the chosen microphone.
    pub fn start_talking(&self) -> Result<(), Unheard> {
        self.talk.start(self.models.settings().voice.input_device.clone(), self.preferences.lang())
    }

    /// Push-to-talk stops: the words heard, and whether they are to be read over in the
    /// message box rather than sent (`[voice] review_before_sending`).
    pub async fn finish_talking(&self) -> Result<Heard, Unheard> {
        let text = self.talk.finish(self.preferences.lang()).await?;
        Ok(Heard { text, review: self.models.settings().voice.review_before_sending })
    }

    /// A clip recorded on another device (a phone's browser microphone), base64 of a WAV
    /// or OGG/Opus recording: the words in it, as push-to-talk's are heard.
    pub async fn transcribe_clip(&self, clip: &str) -> Result<Heard, Unheard> {
        use base64::Engine;
        use sidecar_voice::Audio;
        use sidecar_voice::Language;
        use sidecar_voice::Recording;
        use sidecar_voice::VoiceError;
        let lang = self.preferences.lang();
        let bytes = base64::engine::general_purpose::STANDARD.decode(clip.trim()).map_err(|_| Unheard::of(lang, &VoiceError::UnknownFormat))?;
        let speech = self.speech.clone();
        let heard =
            tokio::task::spawn_blocking(move || Audio::decode(&bytes).and_then(|audio| speech.transcribe(&audio, Language::Given(lang), Recording::Utterance)))
                .await
                .unwrap_or_else(|e| Err(VoiceError::Engine(e.to_string())));
        let text = heard.map(|t| t.text).map_err(|error| {
            tracing::info!(%error, "a device's clip held nothing usable");
            Unheard::of(lang, &error)
        })?;
        Ok(Heard { text, review: self.models.settings().voice.review_before_sending })
    }

    /// Settings → Voice's microphone test: listens for three seconds and returns what it
    /// heard, which goes nowhere else.
    pub async fn test_microphone(&self) -> Result<String, Unheard> {
        self.start_talking()?;
        tokio::time::sleep(MICROPHONE_TEST).await;
        let heard = self.talk.finish(self.preferences.lang()).await;
        self.talk.take_spoken_turn();
        heard
    }

    /// Settings → Voice's speaker test: a sentence said aloud in the app's language.
    pub fn test_speaking(&self) {
        let lang = self.preferences.lang();
        self.talk.narrator().say(sidecar_voice::voice_sample(lang), lang, self.voicing());
    }

    /// Says the window's replies aloud as they stream, as `[voice] speak_replies` asks
    /// (those answering words said through the microphone, or all of them), and with
    /// `[voice] speak_reminders` the reminders and messages Sidecar starts.
    pub(crate) async fn speak_replies(self: Arc<Self>) {
        use tokio::sync::broadcast::error::RecvError;
        let mut events = self.events.subscribe();
        let mut follower = sidecar_voice::ReplyFollower::default();
        loop {
            match events.recv().await {
                Ok(CoreEvent::Chat(event)) => {
                    if let Some(step) = reply_step(event) {
                        self.follow_reply(step, &mut follower, &Stored(&self.store)).await;
                    }
                }
                Ok(CoreEvent::Reminders(ReminderEvent::ReminderDelivered { message_id, .. }))
                | Ok(CoreEvent::Proactive(ProactiveEvent::SpontaneousMessage { message_id, .. })) => {
                    if !follower.is_open() {
                        self.say_unprompted(message_id).await;
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            }
        }
    }

    /// A reminder or a message Sidecar started, said aloud when `[voice] speak_reminders`
    /// asks, unless Sidecar is quiet at the desk (quiet hours, /quiet) or the user is
    /// talking or being answered aloud: it is in the chat and the notification anyway.
    async fn say_unprompted(&self, message_id: i64) {
        let narrator = self.talk.narrator();
        if !self.models.settings().voice.speak_reminders || self.talk.is_listening() || narrator.is_speaking() {
            return;
        }
        match self.proactive.quiet_now().await {
            Ok(now) if !now.quiet => {}
            Ok(_) => return tracing::debug!(message_id, "quiet: not said aloud"),
            Err(error) => return tracing::warn!(%error, "whether Sidecar is quiet is unknown: not said aloud"),
        }
        match self.store.conversations().message(message_id).await {
            Ok(Some(message)) => narrator.say(&message.content, self.preferences.lang(), self.voicing()),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, message_id, "the message to say aloud could not be read"),
        }
    }
}
