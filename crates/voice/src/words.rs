//! What a person is told when their voice could not be turned into words, in their
//! language, with what to do about it.

use sidecar_domain::Lang;

use crate::error::VoiceError;

/// Ways of asking for a reply as a voice note, lower case without accents.
const ASKS_FOR_VOICE: &[&str] = &[
    "nota de voz",
    "notas de voz",
    "en audio",
    "con audio",
    "un audio",
    "mensaje de voz",
    "respondeme con voz",
    "contestame con voz",
    "respondeme hablando",
    "voice note",
    "voice message",
    "reply by voice",
    "answer by voice",
    "reply with your voice",
    "send me an audio",
    "as audio",
    "in audio",
    "reply in audio",
    "say it out loud",
];

/// Whether `text` asks for the answer as a voice note ("respóndeme con una nota de voz",
/// "reply with a voice note").
pub fn asks_for_voice(text: &str) -> bool {
    let folded = sidecar_domain::word_overlap::fold(&text.to_lowercase());
    ASKS_FOR_VOICE.iter().any(|asked| folded.contains(asked))
}

/// What Settings → Voice's speaker test says.
pub fn voice_sample(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Hello! This is how I sound when I read my replies aloud.",
        Lang::Es => "¡Hola! Así sueno cuando leo mis respuestas en voz alta.",
    }
}

/// A voice on offer as Settings → Voice names it, in the window's language `lang`.
pub fn voice_name(lang: Lang, voice: &crate::voicing::OfferedVoice) -> String {
    use crate::voicing::Accent;
    let accent = match (lang, voice.accent) {
        (Lang::En, Accent::Spain) => "Spain",
        (Lang::En, Accent::LatinAmerica) => "Latin America",
        (Lang::En, Accent::American) => "United States",
        (Lang::En, Accent::British) => "United Kingdom",
        (Lang::Es, Accent::Spain) => "España",
        (Lang::Es, Accent::LatinAmerica) => "Latinoamérica",
        (Lang::Es, Accent::American) => "Estados Unidos",
        (Lang::Es, Accent::British) => "Reino Unido",
    };
    let kind = match (lang, voice.female) {
        (Lang::En, false) => "male voice",
        (Lang::En, true) => "female voice",
        (Lang::Es, false) => "voz masculina",
        (Lang::Es, true) => "voz femenina",
    };
    format!("{accent}, {kind}")
}

/// A recording that could not be heard (or a microphone that could not listen): what to
/// tell the user, in their words. The technical cause is logged where it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unheard(pub String);

impl Unheard {
    /// `error` as the user is told it, in `lang`.
    pub fn of(lang: Lang, error: &VoiceError) -> Self {
        Self(problem(lang, error))
    }
}

/// One sentence or two for `problem`, to show or send where the words would have gone.
pub fn problem(lang: Lang, problem: &VoiceError) -> String {
    match (lang, problem) {
        (Lang::En, VoiceError::UnknownFormat) => "I can't play that audio: send a voice note, or a WAV or OGG file.".into(),
        (Lang::Es, VoiceError::UnknownFormat) => "No puedo reproducir ese audio: manda una nota de voz, o un archivo WAV u OGG.".into(),
        (Lang::En, VoiceError::Malformed(_)) => "That recording is damaged and I couldn't read it. Please record it again.".into(),
        (Lang::Es, VoiceError::Malformed(_)) => "Esa grabación está dañada y no pude leerla. Grábala de nuevo, por favor.".into(),
        (Lang::En, VoiceError::NotAFile(_)) => "That is not a recording file: give the path of a WAV or OGG file.".into(),
        (Lang::Es, VoiceError::NotAFile(_)) => "Eso no es un archivo de grabación: indica la ruta de un archivo WAV u OGG.".into(),
        (Lang::En, VoiceError::TooBig { limit, .. }) => {
            format!("That file is too big to be a recording I can transcribe (up to {} MB). Send it in shorter parts.", limit / 1_000_000)
        }
        (Lang::Es, VoiceError::TooBig { limit, .. }) => {
            format!("Ese archivo es demasiado grande para una grabación que pueda transcribir (hasta {} MB). Mándala en partes más cortas.", limit / 1_000_000)
        }
        (Lang::En, VoiceError::TooLong { limit, .. }) => {
            format!("That recording is too long for me: I transcribe up to {} minutes. Send it in shorter parts.", limit / 60)
        }
        (Lang::Es, VoiceError::TooLong { limit, .. }) => {
            format!("Esa grabación es demasiado larga: transcribo hasta {} minutos. Mándala en partes más cortas.", limit / 60)
        }
        (Lang::En, VoiceError::NoSpeech) => "I didn't hear any words in that recording. Try again a little closer to the microphone.".into(),
        (Lang::Es, VoiceError::NoSpeech) => "No oí ninguna palabra en esa grabación. Prueba de nuevo un poco más cerca del micrófono.".into(),
        (Lang::En, VoiceError::ModelMissing(_)) => "Voice is not available: the speech model is not installed. Reinstall Sidecar, or write instead.".into(),
        (Lang::Es, VoiceError::ModelMissing(_)) => "La voz no está disponible: falta el modelo de voz. Reinstala Sidecar, o escríbeme.".into(),
        (Lang::En, VoiceError::NoMicrophone(_)) => "No microphone found: plug one in, or pick another input in Settings → Voice.".into(),
        (Lang::Es, VoiceError::NoMicrophone(_)) => "No encontré ningún micrófono: conecta uno, o elige otra entrada en Ajustes → Voz.".into(),
        (Lang::En, VoiceError::Microphone(_)) => {
            "The microphone could not be used: check that no other program holds it, or pick another input in Settings → Voice.".into()
        }
        (Lang::Es, VoiceError::Microphone(_)) => {
            "No pude usar el micrófono: comprueba que ningún otro programa lo esté usando, o elige otra entrada en Ajustes → Voz.".into()
        }
        (Lang::En, VoiceError::NoVoice(_)) => "Spoken replies need espeak-ng: install it (sudo apt install espeak-ng), or turn them off in Settings.".into(),
        (Lang::Es, VoiceError::NoVoice(_)) => {
            "Las respuestas habladas necesitan espeak-ng: instálalo (sudo apt install espeak-ng), o desactívalas en Ajustes.".into()
        }
        (Lang::En, VoiceError::Speech(_)) => "I couldn't say that reply aloud; it is written above.".into(),
        (Lang::Es, VoiceError::Speech(_)) => "No pude decir esa respuesta en voz alta; está escrita arriba.".into(),
        (Lang::En, VoiceError::NoSpeakers(_)) => "No speakers or headphones found: plug some in to hear the replies.".into(),
        (Lang::Es, VoiceError::NoSpeakers(_)) => "No encontré altavoces ni auriculares: conecta unos para oír las respuestas.".into(),
        (Lang::En, VoiceError::Engine(_)) => "I couldn't transcribe that recording. Please try again, or write instead.".into(),
        (Lang::Es, VoiceError::Engine(_)) => "No pude transcribir esa grabación. Prueba de nuevo, o escríbeme.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_voice_note_is_asked_for_in_either_language_and_not_otherwise() {
        for asked in ["Respóndeme con una nota de voz", "mandame un audio con el resumen", "Reply with a voice note please", "can you answer by voice?"] {
            assert!(asks_for_voice(asked), "{asked}");
        }
        for not in ["¿qué tiempo hace?", "I listened to an audiobook", "la voz de Ana", "remind me at 9"] {
            assert!(!asks_for_voice(not), "{not}");
        }
    }
}
