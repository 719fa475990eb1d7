//! Voice notes from the phone: a paired chat's recording is fetched, turned into words
//! by the speech model and handed to the conversation as if typed. A stranger's note is
//! never fetched (the gate answers it first), a note past the limits is refused before
//! it is downloaded, and anything that goes wrong is said to the chat in its words. An
//! answer asked for as a voice note is said as Settings → Voice chose.

use std::sync::Arc;

use crate::error::PhoneError;
use sidecar_domain::Lang;
use sidecar_voice::Audio;
use sidecar_voice::Recording;
use sidecar_voice::SpeechModel;
use sidecar_voice::Unheard;
use sidecar_voice::VoiceError;
use sidecar_voice::MAX_SECONDS;

/// The largest note fetched (Telegram's bots may fetch up to 20 MB; ten minutes of
/// Opus at a phone's 32 kbit/s is about 2.4 MB).
pub(crate) const MAX_NOTE_BYTES: u64 = 20 * 1024 * 1024;

/// Refuses a note whose announced length or size is past the limits, before fetching it.
pub(crate) fn check(seconds: u32, bytes: u64, lang: Lang) -> Result<(), Unheard> {
    if seconds > MAX_SECONDS || bytes > MAX_NOTE_BYTES {
        return Err(Unheard::of(lang, &VoiceError::TooLong { seconds: seconds as f32, limit: MAX_SECONDS }));
    }
    Ok(())
}

/// The words of a fetched note, or what to tell the chat. The user's language is the
/// model's fallback when the note's own cannot be told.
pub(crate) async fn hear(speech: &Arc<SpeechModel>, bytes: Vec<u8>, lang: Lang) -> Result<String, Unheard> {
    let speech = speech.clone();
    let heard = tokio::task::spawn_blocking(move || {
        // A model loaded for this note alone is freed after it: notes are seldom, and
        // the weights are ~190 MB.
        let was_loaded = speech.is_loaded();
        let heard = Audio::decode(&bytes).and_then(|audio| speech.transcribe(&audio, sidecar_voice::Language::Detect { otherwise: lang }, Recording::Note));
        if !was_loaded {
            speech.unload();
        }
        heard
    })
    .await
    .map_err(|e| VoiceError::Engine(e.to_string()));
    match heard.and_then(|h| h) {
        Ok(transcript) => Ok(transcript.text),
        Err(error) => {
            tracing::warn!(%error, "a voice note could not be transcribed");
            Err(Unheard::of(lang, &error))
        }
    }
}

/// `reply` as a voice note, said with the voice, accent and pace Settings → Voice chose
/// (in the reply's own language, `lang` when it cannot be told).
pub(crate) async fn answer(settings: &sidecar_settings::SettingsOwner, reply: &str, lang: Lang) -> Result<sidecar_voice::VoiceNote, PhoneError> {
    let voicing = sidecar_voice::Voicing::of(&settings.current().voice);
    let reply = reply.to_string();
    tokio::task::spawn_blocking(move || sidecar_voice::voice_note_of(&reply, lang, &voicing))
        .await
        .map_err(|e| PhoneError::Voice(e.to_string()))?
        .map_err(|e| PhoneError::Voice(e.to_string()))
}
