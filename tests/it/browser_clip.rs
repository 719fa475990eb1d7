//! A phone's browser records with its own microphone and sends the clip to the home
//! core, which writes it down with its speech model (the browser has none): through the
//! same command table the link serves, as a WAV at the rate a browser records (48 kHz).

use base64::Engine;
use serde_json::json;

/// `samples` (16 kHz) as a 16-bit mono WAV at 48 kHz, as the web app encodes what its
/// microphone heard (each sample said three times: the core resamples it back).
fn browser_wav(samples: &[i16]) -> Vec<u8> {
    let spec = hound::WavSpec { channels: 1, sample_rate: 48_000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    let mut wav = std::io::Cursor::new(Vec::new());
    let mut writer = hound::WavWriter::new(&mut wav, spec).unwrap();
    for sample in samples.iter().flat_map(|s| [*s; 3]) {
        writer.write_sample(sample).unwrap();
    }
    writer.finalize().unwrap();
    wav.into_inner()
}

#[tokio::test]
async fn a_clip_from_a_browser_s_microphone_is_written_down_on_the_core_and_a_broken_one_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, format!("[local_model]\nruntime = {:?}\n[desktop]\nlanguage = \"es\"\n", crate::support::runtime())).unwrap();
    let core = crate::support::open_with_config(&dir.path().join("data"), &config).await;
    let fixture = hound::WavReader::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/voice/recuerdame-llamar-a-ana.wav")).unwrap();
    let samples: Vec<i16> = fixture.into_samples().map(Result::unwrap).collect();
    let clip = base64::engine::general_purpose::STANDARD.encode(browser_wav(&samples));

    let heard =
        sidecar::commands::dispatch_for_device(core.clone(), "transcribe_clip", json!({ "clip": clip })).expect("a command of the table").await.unwrap();
    let text = heard["text"].as_str().unwrap().to_lowercase();
    let (errors, words) = sidecar_voice::word_errors("recuerdame llamar a ana mañana a las 9", &text);
    assert!(errors <= 1, "{errors}/{words} words wrong: heard {text:?}");

    let broken = base64::engine::general_purpose::STANDARD.encode(b"not a recording at all");
    let refused = sidecar::commands::dispatch_for_device(core.clone(), "transcribe_clip", json!({ "clip": broken })).unwrap().await.unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("WAV u OGG"), "{refused}");
    let refused = sidecar::commands::dispatch_for_device(core, "transcribe_clip", json!({ "clip": "%%%" })).unwrap().await.unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("WAV u OGG"), "{refused}");
}
