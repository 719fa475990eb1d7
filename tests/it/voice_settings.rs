//! Settings → Voice through the core: the voices on offer are named in the window's
//! language, each language takes only its own, the pace stays in its range, and what is
//! chosen is written to settings.toml as a restart reads it.

use sidecar::companion::Companion;
use sidecar::error::CompanionError;
use sidecar_domain::Worded;
use sidecar_settings::Settings;
use sidecar_settings::SpeakReplies;
use sidecar_settings::VoiceSwitch;

#[tokio::test]
async fn voices_and_pace_are_chosen_refused_when_foreign_and_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\nlanguage = \"es\"\n").unwrap();
    let core = crate::support::core().config_file(&config).open_in(&dir.path().join("data")).await;

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

/// Whether the core began saying a reply aloud while `send` ran (the narrator says so
/// before any sound: this test has no speakers).
async fn said_aloud(core: &std::sync::Arc<Companion>, text: &str) -> bool {
    use sidecar_voice::VoiceEvent;
    let mut events = core.events().subscribe();
    core.send(text).await.unwrap();
    let began = tokio::time::timeout(std::time::Duration::from_secs(2), async {
        loop {
            match events.recv().await {
                Ok(sidecar::CoreEvent::Voice(VoiceEvent::VoiceSpeaking { on: true, .. })) => return true,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return false,
            }
        }
    });
    let aloud = began.await.unwrap_or(false);
    core.talk().narrator().stop();
    aloud
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversations_own_switch_says_its_replies_aloud_and_no_others() {
    use crate::support::{reply_events, stream, ScriptedServer};
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Noted, and said."]))).await;
    let core = crate::support::core().answered_by(&server).open().await;
    let running = core.run(sidecar::Face::headless(Vec::new())).await;

    // By default a typed message's reply is read, not said.
    assert!(!core.speaks_here().await.unwrap());
    assert!(!said_aloud(&core, "first, typed").await, "a typed message's reply was said by default");
    // This conversation's switch: every reply here is said.
    assert!(core.set_speaks_here(true).await.unwrap());
    assert!(core.speaks_here().await.unwrap());
    assert!(said_aloud(&core, "second, typed").await, "the switch did not say the reply");
    // Another conversation follows Settings → Voice.
    core.context().new_conversation().await.unwrap();
    assert!(!core.speaks_here().await.unwrap());
    assert!(!said_aloud(&core, "elsewhere").await, "the switch reached another conversation");
    // Let go, Settings' rule again; with "always" in Settings, off means this one is silent.
    core.set_speak_replies(SpeakReplies::Always).unwrap();
    assert!(core.speaks_here().await.unwrap());
    assert!(!core.set_speaks_here(false).await.unwrap());
    assert!(!said_aloud(&core, "quiet here").await, "switched off under 'always' and still said");
    running.stop().await;
}
