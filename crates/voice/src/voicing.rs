//! How replies sound: which of espeak-ng's voices says each language, how fast, and
//! through which speakers. The voices on offer are this module's; `[voice]` in
//! settings.toml names one of them (an unknown name is the language's first).

use sidecar_domain::Lang;
use sidecar_settings::VoiceSettings;

/// One voice on offer: an espeak-ng voice (with its variant) for one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfferedVoice {
    /// espeak-ng's name for it, as `-v` takes it.
    pub id: &'static str,
    pub lang: Lang,
    pub accent: Accent,
    pub female: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accent {
    Spain,
    LatinAmerica,
    American,
    British,
}

/// The voices, each language's default first.
pub const VOICES: &[OfferedVoice] = &[
    OfferedVoice { id: "es", lang: Lang::Es, accent: Accent::Spain, female: false },
    OfferedVoice { id: "es+f3", lang: Lang::Es, accent: Accent::Spain, female: true },
    OfferedVoice { id: "es-419", lang: Lang::Es, accent: Accent::LatinAmerica, female: false },
    OfferedVoice { id: "es-419+f3", lang: Lang::Es, accent: Accent::LatinAmerica, female: true },
    OfferedVoice { id: "en-us", lang: Lang::En, accent: Accent::American, female: false },
    OfferedVoice { id: "en-us+f3", lang: Lang::En, accent: Accent::American, female: true },
    OfferedVoice { id: "en-gb", lang: Lang::En, accent: Accent::British, female: false },
    OfferedVoice { id: "en-gb+f3", lang: Lang::En, accent: Accent::British, female: true },
];

/// The slowest and the fastest pace on offer, 1.0 being the voices' usual one.
pub const SPEEDS: (f32, f32) = (0.5, 2.0);
/// Words a minute at 1.0: espeak-ng's own 175 is hurried for a whole reply.
const WORDS_PER_MINUTE: f32 = 160.0;

/// The voice on offer called `id`.
pub fn offered(id: &str) -> Option<&'static OfferedVoice> {
    VOICES.iter().find(|v| v.id == id)
}

/// The sound of the replies, as settings.toml asks.
#[derive(Debug, Clone, PartialEq)]
pub struct Voicing {
    spanish: &'static str,
    english: &'static str,
    speed: f32,
    /// The speakers by name; `None`: the default output.
    pub output: Option<String>,
}

impl Default for Voicing {
    fn default() -> Self {
        Self::of(&VoiceSettings::default())
    }
}

impl Voicing {
    pub fn of(settings: &VoiceSettings) -> Self {
        let pick = |lang: Lang, asked: Option<&str>| {
            asked.and_then(offered).filter(|v| v.lang == lang).or_else(|| VOICES.iter().find(|v| v.lang == lang)).expect("a voice for each language").id
        };
        let speed = if settings.speed.is_finite() { settings.speed.clamp(SPEEDS.0, SPEEDS.1) } else { 1.0 };
        Self {
            spanish: pick(Lang::Es, settings.spanish_voice.as_deref()),
            english: pick(Lang::En, settings.english_voice.as_deref()),
            speed,
            output: settings.output_device.clone(),
        }
    }

    /// espeak-ng's voice for `lang`.
    pub fn voice(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Es => self.spanish,
            Lang::En => self.english,
        }
    }

    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// espeak-ng's `-s`.
    pub fn words_per_minute(&self) -> u32 {
        (WORDS_PER_MINUTE * self.speed).round() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_has_its_own_voice_and_an_unknown_or_foreign_one_is_the_first() {
        let asked = |spanish: &str, english: &str, speed: f32| {
            Voicing::of(&VoiceSettings { spanish_voice: Some(spanish.into()), english_voice: Some(english.into()), speed, ..Default::default() })
        };
        let chosen = asked("es-419+f3", "en-gb", 1.25);
        assert_eq!((chosen.voice(Lang::Es), chosen.voice(Lang::En), chosen.words_per_minute()), ("es-419+f3", "en-gb", 200));
        // A voice of the other language, or one not on offer, is not used.
        let odd = asked("en-gb", "klingon", 9.0);
        assert_eq!((odd.voice(Lang::Es), odd.voice(Lang::En), odd.speed()), ("es", "en-us", SPEEDS.1));
        assert_eq!(asked("es", "en-us", f32::NAN).speed(), 1.0);
        assert_eq!(Voicing::default().words_per_minute(), 160);
    }
}
