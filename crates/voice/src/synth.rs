//! Text to speech with espeak-ng, run as a separate program (it is GPL-3; nothing of it is
//! linked into Sidecar): Spanish and English, offline, robotic but clear enough to follow,
//! about 20 ms for a sentence. A package dependency of the .deb and .rpm.

use std::io::Write;
use std::process::{Command, Stdio};

use sidecar_domain::Lang;

use crate::error::VoiceError;
use crate::voicing::Voicing;

/// The program.
const ESPEAK: &str = "espeak-ng";

/// A reply as phones play it: OGG/Opus, and how long it lasts.
#[derive(Debug, Clone)]
pub struct VoiceNote {
    pub ogg: Vec<u8>,
    pub seconds: u32,
}

/// A whole reply as a voice note: what of it is said aloud (code and marks left out),
/// in the language it is written in.
pub fn voice_note_of(reply: &str, fallback: Lang, voicing: &Voicing) -> Result<VoiceNote, VoiceError> {
    let mut sentences = crate::sentences::Sentences::default();
    let mut said = sentences.push(reply);
    said.extend(sentences.finish());
    let text = said.join(" ");
    if text.is_empty() {
        return Err(VoiceError::Speech("nothing in the reply can be said aloud".into()));
    }
    let lang = sidecar_dates::written_in(&text, fallback);
    let (samples, rate) = synthesize(&text, lang, voicing)?;
    let seconds = (samples.len() as f32 / rate as f32).ceil() as u32;
    Ok(VoiceNote { ogg: crate::voice_note_out::encode_voice_note(&samples, rate)?, seconds })
}

/// `text` said in `lang` with `voicing`'s voice and pace: mono samples and their rate.
pub fn synthesize(text: &str, lang: Lang, voicing: &Voicing) -> Result<(Vec<f32>, u32), VoiceError> {
    let mut child = Command::new(ESPEAK)
        .args(["-v", voicing.voice(lang), "-s", &voicing.words_per_minute().to_string(), "--stdout", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| VoiceError::NoVoice(e.to_string()))?;
    child.stdin.take().expect("piped").write_all(text.as_bytes()).map_err(|e| VoiceError::Speech(e.to_string()))?;
    let out = child.wait_with_output().map_err(|e| VoiceError::Speech(e.to_string()))?;
    if !out.status.success() {
        return Err(VoiceError::Speech(String::from_utf8_lossy(&out.stderr).trim().to_string()));
    }
    // A WAV whose sizes say "unknown" (espeak-ng writes as it speaks): the samples are
    // everything after the `data` chunk's header, 16-bit, mono.
    let wav = out.stdout;
    let bad = || VoiceError::Speech(format!("{ESPEAK} did not write a WAV"));
    if wav.len() < 44 || &wav[..4] != b"RIFF" || &wav[8..12] != b"WAVE" {
        return Err(bad());
    }
    let rate = u32::from_le_bytes([wav[24], wav[25], wav[26], wav[27]]);
    let data = wav.windows(4).position(|w| w == b"data").ok_or_else(bad)? + 8;
    let mono: Vec<f32> = wav[data.min(wav.len())..].chunks_exact(2).map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32_768.0).collect();
    Ok((mono, rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_are_said_as_sound_at_espeaks_rate() {
        for lang in [Lang::Es, Lang::En] {
            let (samples, rate) =
                synthesize("Hola, te recuerdo llamar a Ana mañana.", lang, &Voicing::default()).expect("espeak-ng (Debian's espeak-ng) is installed");
            assert_eq!(rate, 22_050);
            let seconds = samples.len() as f32 / rate as f32;
            assert!((1.0..6.0).contains(&seconds), "{seconds} s");
            let loudest = samples.iter().fold(0f32, |m, s| m.max(s.abs()));
            assert!(loudest > 0.1, "silent: {loudest}");
        }
    }

    #[test]
    fn every_voice_on_offer_speaks_and_a_faster_pace_is_shorter() {
        use sidecar_settings::VoiceSettings;
        let said = |voice: &str, speed: f32| {
            let lang = crate::voicing::offered(voice).unwrap().lang;
            let settings = VoiceSettings { spanish_voice: Some(voice.into()), english_voice: Some(voice.into()), speed, ..Default::default() };
            let (samples, rate) = synthesize("Uno, dos, tres, cuatro, cinco. One, two, three, four, five.", lang, &Voicing::of(&settings)).unwrap();
            samples.len() as f32 / rate as f32
        };
        for voice in crate::voicing::VOICES {
            assert!(said(voice.id, 1.0) > 1.0, "{} said nothing", voice.id);
        }
        let (slow, fast) = (said("es-419+f3", 0.75), said("es-419+f3", 1.5));
        assert!(fast < slow * 0.7, "1.5x took {fast} s, 0.75x {slow} s");
    }
}
