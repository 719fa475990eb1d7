//! Settings → Voice through the core: the voices on offer are named in the window's
//! language, each language takes only its own, the pace stays in its range, and what is
//! chosen is written to settings.toml as a restart reads it.

use sidecar::companion::{Companion, CompanionOptions};
use sidecar::error::CompanionError;
use sidecar::said::Worded;
use sidecar::settings::voice::VoiceSwitch;
use sidecar::settings::Settings;

#[tokio::test]
async fn voices_and_pace_are_chosen_refused_when_foreign_and_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\nlanguage = \"es\"\n").unwrap();
    let settings = Settings::load(&config).unwrap();
    let options = CompanionOptions { config_path: Some(config.clone()), ..CompanionOptions::new(dir.path().join("data"), settings) };
    let core = Companion::open(options).await.unwrap();

    let view = core.voice_view();
    assert_eq!((view.spanish_voice, view.english_voice, view.speed, view.speeds), ("es", "en-us", 1.0, (0.5, 2.0)));
    let named: Vec<&str> = view.voices.iter().map(|v| v.name.as_str()).collect();
    assert!(named.contains(&"Latinoamérica, voz femenina") && named.contains(&"Reino Unido, voz masculina"), "{named:?}");

    let view = core.set_voicing("es-419+f3".into(), "en-gb".into(), 1.25).unwrap();
    assert_eq!((view.spanish_voice, view.english_voice, view.speed), ("es-419+f3", "en-gb", 1.25));
    let view = core.set_voice_switch(VoiceSwitch::ReviewBeforeSending, true).unwrap();
    assert!(view.review_before_sending && !view.speak_reminders);
    let view = core.set_output_device(Some("HDMI".into())).unwrap();
    assert_eq!(view.output_device.as_deref(), Some("HDMI"));

    // An English voice for Spanish, a voice not on offer, a pace out of range: refused, nothing changed.
    for (spanish, english, speed) in [("en-gb", "en-gb", 1.0), ("es", "robot", 1.0), ("es", "en-us", 3.0), ("es", "en-us", f32::NAN)] {
        let refused = core.set_voicing(spanish.into(), english.into(), speed).unwrap_err();
        assert!(matches!(refused, CompanionError::NotAVoice(_) | CompanionError::Range(_)), "{refused:?}");
        assert!(!refused.spanish().is_empty());
    }
    let written = std::fs::read_to_string(&config).unwrap();
    assert!(
        written.contains("review_before_sending = true")
            && written.contains("spanish_voice = \"es-419+f3\"")
            && written.contains("speed = 1.25")
            && written.contains("output_device = \"HDMI\""),
        "{written}"
    );
    let again = Settings::load(&config).unwrap();
    assert_eq!((again.voice.english_voice.as_deref(), again.voice.speed), (Some("en-gb"), 1.25));
}
