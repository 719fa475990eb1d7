//! Real recordings through the real model: people reading (CMU Sphinx's test data, from
//! Debian's `pocketsphinx-testdata`), the same as a phone's voice note (OGG/Opus made by
//! `opusenc`), silence, and files that are not audio. `make test` installs both tools and
//! builds the runtime folder with the model.

use std::path::{Path, PathBuf};
use std::process::Command;

use sidecar_domain::Lang;
use sidecar_voice::word_errors;
use sidecar_voice::Audio;
use sidecar_voice::Language;
use sidecar_voice::Recording;
use sidecar_voice::SpeechModel;
use sidecar_voice::VoiceError;

const READ_SPEECH: &str = "/usr/share/pocketsphinx/test/data/librivox";

fn runtime() -> PathBuf {
    let runtime = std::env::var_os("SIDECAR_RUNTIME")
        .filter(|p| p != "off")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/lib/sidecar"));
    assert!(runtime.join("ggml-whisper-base.bin").is_file(), "the speech model is missing: run `make runtime` first");
    runtime
}

/// Each clip of the read-speech set with what was said.
fn read_speech() -> Vec<(PathBuf, String)> {
    let transcription = std::fs::read_to_string(Path::new(READ_SPEECH).join("transcription")).expect("pocketsphinx-testdata is installed");
    transcription
        .lines()
        .filter_map(|line| {
            let (words, id) = line.rsplit_once(" (")?;
            let words = words.replace("<s>", "").replace("</s>", "");
            Some((Path::new(READ_SPEECH).join(format!("{}.wav", id.trim_end_matches(')'))), words.trim().to_string()))
        })
        .collect()
}

#[test]
fn people_reading_are_transcribed_from_wav_and_from_a_voice_note() {
    let model = SpeechModel::in_runtime(&runtime());
    let (mut errors, mut words) = (0, 0);
    let clips = read_speech();
    assert_eq!(clips.len(), 5);
    for (wav, said) in &clips {
        let audio = Audio::decode(&std::fs::read(wav).unwrap()).unwrap();
        let heard = model.transcribe(&audio, Language::Given(Lang::En), Recording::Utterance).unwrap();
        let (e, n) = word_errors(said, &heard.text);
        eprintln!("{e}/{n}  said {said:?}  heard {:?}", heard.text);
        (errors, words) = (errors + e, words + n);
        assert_eq!(heard.lang, Lang::En);
    }
    assert!(errors * 10 <= words, "word error rate {errors}/{words} over 10%");

    // The same voice as Telegram and WhatsApp send it: Opus in an Ogg stream at 48 kHz.
    let dir = tempfile::tempdir().unwrap();
    let (wav, said) = &clips[4];
    let note = dir.path().join("note.ogg");
    let encoded = Command::new("opusenc").args(["--quiet", "--bitrate", "24"]).arg(wav).arg(&note).status().expect("opusenc (opus-tools) is installed");
    assert!(encoded.success());
    let audio = Audio::decode(&std::fs::read(&note).unwrap()).unwrap();
    let heard = model.transcribe(&audio, Language::Detect { otherwise: Lang::Es }, Recording::Note).unwrap();
    assert_eq!(word_errors(said, &heard.text).0, 0, "heard {:?}", heard.text);
    assert_eq!(heard.lang, Lang::En, "the language is told when not given");
    assert!(model.is_loaded());
    model.unload();
    assert!(!model.is_loaded());
}

#[test]
fn silence_is_no_speech_and_what_is_not_audio_is_refused() {
    let model = SpeechModel::in_runtime(&runtime());
    let silence = Audio::from_16k_mono(vec![0.0; 16_000 * 3]);
    let heard = model.transcribe(&silence, Language::Given(Lang::Es), Recording::Utterance);
    assert!(matches!(heard, Err(VoiceError::NoSpeech)), "{heard:?}");

    assert!(matches!(Audio::decode(b"%PDF-1.7 not a recording"), Err(VoiceError::UnknownFormat)));
    assert!(matches!(Audio::decode(b""), Err(VoiceError::UnknownFormat)));
    let wav = std::fs::read(&read_speech()[0].0).unwrap();
    assert!(matches!(Audio::decode(&wav[..30]), Err(VoiceError::Malformed(_))));
    let mut ogg = b"OggS".to_vec();
    ogg.extend_from_slice(&[0; 40]);
    assert!(matches!(Audio::decode(&ogg), Err(VoiceError::Malformed(_))));
}
