//! The microphone's real path, headless: a PulseAudio server of this test's own (Debian's
//! `pulseaudio`, which `make test` installs) with a virtual microphone fed by a null sink;
//! `paplay` plays a person reading into it while Sidecar listens, and the speech model
//! hears what was said; replies played on a chosen output reach that output only. One
//! test in this binary: the sound server is named in the process's environment.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use sidecar_domain::Lang;
use sidecar_voice::word_errors;
use sidecar_voice::Language;
use sidecar_voice::Listening;
use sidecar_voice::Recording;
use sidecar_voice::SpeechModel;
use sidecar_voice::VoiceError;

const CLIP: &str = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav";

/// A private PulseAudio server: speakers (a null sink) and a microphone that hears
/// whatever is played into the `micfeed` sink. Killed when dropped.
struct SoundServer(Child);

impl SoundServer {
    fn start(dir: &Path) -> Self {
        let run = dir.join("run");
        std::fs::create_dir_all(&run).unwrap();
        let script = dir.join("sound.pa");
        std::fs::write(
            &script,
            "load-module module-native-protocol-unix auth-anonymous=1\n\
             load-module module-null-sink sink_name=speakers sink_properties=device.description=Speakers\n\
             load-module module-null-sink sink_name=micfeed sink_properties=device.description=Feed\n\
             load-module module-remap-source source_name=virtmic master=micfeed.monitor\n\
             set-default-sink speakers\nset-default-source virtmic\n",
        )
        .unwrap();
        // SAFETY: the only test in this binary, before any thread that reads them.
        unsafe {
            std::env::set_var("XDG_RUNTIME_DIR", &run);
            std::env::set_var("PULSE_SERVER", format!("unix:{}", run.join("pulse/native").display()));
        }
        let child = Command::new("pulseaudio")
            .args(["-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm", "--use-pid-file=no", "-F"])
            .arg(&script)
            .env("HOME", dir)
            .stderr(std::fs::File::create(dir.join("pulseaudio.log")).unwrap())
            .spawn()
            .expect("pulseaudio (Debian's pulseaudio) is installed");
        let until = Instant::now() + Duration::from_secs(10);
        while !run.join("pulse/native").exists() {
            assert!(Instant::now() < until, "pulseaudio did not start: {}", std::fs::read_to_string(dir.join("pulseaudio.log")).unwrap_or_default());
            std::thread::sleep(Duration::from_millis(50));
        }
        Self(child)
    }
}

impl Drop for SoundServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn what_is_said_into_the_microphone_is_heard_and_a_missing_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let _server = SoundServer::start(dir.path());
    let names = sidecar_voice::input_devices();
    assert!(!names.is_empty(), "the virtual microphone is listed");

    let levels = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let heard_levels = levels.clone();
    let listening = Listening::start(None, move |level| heard_levels.lock().unwrap().push(level)).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let played = Command::new("paplay").args(["--device=micfeed", CLIP]).status().expect("paplay (pulseaudio-utils)");
    assert!(played.success());
    std::thread::sleep(Duration::from_millis(500));
    let audio = listening.finish().unwrap();
    assert!(audio.seconds() > 3.0, "recorded {} s", audio.seconds());
    assert!(levels.lock().unwrap().iter().any(|l| *l > 0.01), "the level meter moved");

    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/lib/sidecar");
    let heard = SpeechModel::in_runtime(&runtime).transcribe(&audio, Language::Given(Lang::En), Recording::Utterance).unwrap();
    let (errors, words) = word_errors("he might even have been made amiable himself", &heard.text);
    assert!(errors <= 1, "{errors}/{words} wrong: heard {:?}", heard.text);

    // A cancelled recording is thrown away without a word; an input that is not there is named.
    drop(Listening::start(None, |_| {}).unwrap());
    match Listening::start(Some("a microphone that is not plugged in".into()), |_| {}) {
        Err(VoiceError::NoMicrophone(Some(name))) => assert_eq!(name, "a microphone that is not plugged in"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a missing input was opened"),
    }

    // Push-to-talk: the words show while the person still speaks (drafts on one core),
    // and the recording's own words are what is handed over.
    let drafts = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = drafts.clone();
    let events = sidecar_domain::Emitter::new(move |event| {
        if let sidecar_voice::VoiceEvent::VoiceHeard { text } = event {
            seen.lock().unwrap().push(text);
        }
    });
    let talk = sidecar_voice::Talk::new(std::sync::Arc::new(SpeechModel::in_runtime(&runtime)), events);
    talk.start(None, Lang::En).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("paplay").args(["--device=micfeed", CLIP]).status().unwrap().success());
    // The key is held until a draft shows (a person pauses; under load a draft on one
    // core can take longer than a pause, so the bound is generous: this checks that
    // drafts come while recording, not how fast; the `speech` bench measures the waits),
    // and let go as soon as the clip has played: the sound server's own buffering
    // delivers the last words after `paplay` returns, and `finish` keeps listening for
    // them (a key let go at once took "amiable himself" off the end).
    let until = Instant::now() + Duration::from_secs(30);
    while drafts.lock().unwrap().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    let shown_while_speaking = drafts.lock().unwrap().clone();
    let said = tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(talk.finish(Lang::En)).unwrap();
    assert!(!shown_while_speaking.is_empty(), "no words were shown while the person spoke");
    let (errors, words) = word_errors("he might even have been made amiable himself", &said);
    assert!(errors <= 1, "{errors}/{words} wrong: {said:?}");
    let first = &shown_while_speaking[0];
    assert!(first.to_lowercase().contains("amiable") || first.to_lowercase().contains("might"), "a draft of other words: {shown_while_speaking:?}");

    // Speakers chosen by name: a tone played on "Feed" reaches the microphone that hears
    // it; played on the default output, it does not.
    let outputs = sidecar_voice::output_devices();
    assert_eq!(outputs.first().map(String::as_str), Some("Speakers"), "the default output first: {outputs:?}");
    let feed = outputs.iter().find(|name| name.as_str() == "Feed").expect("each output is listed by its name");
    let tone: Vec<f32> = (0..16_000).map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / 16_000.0).sin() * 0.5).collect();
    let loudest_heard = |device: Option<&str>| {
        let levels = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let heard = levels.clone();
        let listening = Listening::start(None, move |level| heard.lock().unwrap().push(level)).unwrap();
        let speaker = sidecar_voice::Speaker::default();
        speaker.play(&tone, 16_000, device, || true).unwrap();
        while speaker.is_speaking() {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        drop(listening);
        let loudest = levels.lock().unwrap().iter().fold(0f32, |m, l| m.max(*l));
        loudest
    };
    assert!(loudest_heard(Some(feed)) > 0.05, "the tone played on Feed was not heard");
    assert!(loudest_heard(None) < 0.01, "the tone played on the default output reached Feed");
}
