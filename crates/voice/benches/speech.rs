//! Speech to text, measured: word error rate on recordings made by people (FLEURS in
//! Spanish and English, LibriVox read English, Asterisk's Spanish prompts; development and
//! test parts, see `scripts/speech_sets.py`), the wait from the end of speech to the text, the real-time
//! factor, the model's load time and the memory it holds while loaded and after.
//!
//! `SPEECH_SETS` names the sets' folder (default `target/speech-sets`); `SIDECAR_RUNTIME`
//! the runtime folder with the model (default `target/lib/sidecar`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use sidecar_domain::Lang;
use sidecar_voice::word_errors;
use sidecar_voice::word_errors_unaccented;
use sidecar_voice::Audio;
use sidecar_voice::Language;
use sidecar_voice::Recording;
use sidecar_voice::SpeechModel;
use sidecar_voice::SAMPLE_RATE;

struct Clip {
    set: String,
    part: String,
    lang: Lang,
    audio: Audio,
    said: String,
}

fn clips(root: &Path) -> Vec<Clip> {
    let mut clips = Vec::new();
    let mut sets: Vec<PathBuf> = std::fs::read_dir(root).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    sets.sort();
    for set in sets {
        let name = set.file_name().unwrap().to_string_lossy().to_string();
        let lang = if name.ends_with("-es") { Lang::Es } else { Lang::En };
        for part in ["dev", "test"] {
            let mut files: Vec<PathBuf> = std::fs::read_dir(set.join(part)).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
            files.sort();
            for txt in files.iter().filter(|f| f.extension().is_some_and(|e| e == "txt")) {
                let Some(recording) = ["ogg", "wav"].iter().map(|e| txt.with_extension(e)).find(|p| p.is_file()) else { continue };
                let audio = Audio::decode(&std::fs::read(&recording).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", recording.display()));
                clips.push(Clip { set: name.clone(), part: part.into(), lang, audio, said: std::fs::read_to_string(txt).unwrap() });
            }
        }
    }
    clips
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()?.parse().ok()).unwrap_or(0.0);
    kb / 1024.0
}

/// This process's CPU seconds (user and system).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[((values.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let runtime =
        std::env::var_os("SIDECAR_RUNTIME").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/lib/sidecar"));
    let sets = std::env::var_os("SPEECH_SETS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/speech-sets"));
    // One thread for the tables: the figures do not depend on what else the machine runs.
    let model = SpeechModel::in_runtime(&runtime).with_threads(1);
    assert!(model.installed(), "no speech model in {}: run `make runtime`", runtime.display());
    let model_mb = std::fs::metadata(runtime.join(sidecar_domain::runtime_files::SPEECH_MODEL_FILE)).map(|m| m.len() as f64 / 1e6).unwrap_or(0.0);

    let idle = rss_mb();
    let started = Instant::now();
    let warm = model.transcribe(&Audio::from_16k_mono(vec![0.0; SAMPLE_RATE as usize]), Language::Given(Lang::En), Recording::Utterance);
    let load = started.elapsed().as_secs_f64();
    let loaded = rss_mb();
    println!("model: Whisper base (multilingual, F16), {model_mb:.0} MB on disk; load and a first (silent) clip {load:.2} s ({warm:?})");

    let clips = clips(&sets);
    if clips.is_empty() {
        println!("no speech sets in {}: run scripts/speech_sets.py first (see its header); figures below are latency only", sets.display());
    }
    println!("\nword error rate (words compared in lower case without punctuation; the second with accents folded, for transcripts written without them), one thread:");
    println!("\n| set | part | mode | clips | words | WER | WER unaccented | audio s | mean wait s | real-time factor | CPU s per audio s |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut peak = loaded;
    for (mode, recording) in [("push-to-talk", Recording::Utterance), ("voice note", Recording::Note)] {
        let mut keys: Vec<(String, String)> = clips.iter().map(|c| (c.set.clone(), c.part.clone())).collect();
        keys.dedup();
        for (set, part) in keys {
            let (mut errors, mut unaccented, mut words, mut audio, mut wait, mut cpu, mut n) = (0, 0, 0, 0.0, 0.0, 0.0, 0);
            for clip in clips.iter().filter(|c| c.set == set && c.part == part) {
                let language = match recording {
                    Recording::Utterance => Language::Given(clip.lang),
                    Recording::Note => Language::Detect { otherwise: clip.lang },
                };
                let (cpu_before, started) = (cpu_seconds(), Instant::now());
                let heard = model.transcribe(&clip.audio, language, recording).map(|t| t.text).unwrap_or_default();
                wait += started.elapsed().as_secs_f64();
                cpu += cpu_seconds() - cpu_before;
                let (e, w) = word_errors(&clip.said, &heard);
                if std::env::var_os("SPEECH_SHOW").is_some() {
                    println!("  {e}/{w}  said {:?}\n        heard {heard:?}", clip.said.trim());
                }
                unaccented += word_errors_unaccented(&clip.said, &heard).0;
                (errors, words, audio, n) = (errors + e, words + w, audio + clip.audio.seconds() as f64, n + 1);
                peak = peak.max(rss_mb());
            }
            let wer = 100.0 * errors as f64 / words.max(1) as f64;
            let folded = 100.0 * unaccented as f64 / words.max(1) as f64;
            println!(
                "| {set} | {part} | {mode} | {n} | {words} | {wer:.1}% | {folded:.1}% | {audio:.0} | {:.2} | {:.2} | {:.2} |",
                wait / n as f64,
                wait / audio,
                cpu / audio
            );
        }
    }

    // The push-to-talk figure: five seconds of speech (each clip's first five), released,
    // with one thread (a busy machine) and two (an idle two-core one).
    for threads in [1, 2] {
        let model = SpeechModel::in_runtime(&runtime).with_threads(threads);
        let (mut waits, mut cpus) = (Vec::new(), Vec::new());
        for clip in clips.iter().filter(|c| c.audio.seconds() >= 5.0) {
            let five = Audio::from_16k_mono(clip.audio.samples()[..5 * SAMPLE_RATE as usize].to_vec());
            let (cpu_before, started) = (cpu_seconds(), Instant::now());
            let _ = model.transcribe(&five, Language::Given(clip.lang), Recording::Utterance);
            waits.push(started.elapsed().as_secs_f64());
            cpus.push(cpu_seconds() - cpu_before);
        }
        if !waits.is_empty() {
            println!(
                "end of a 5 s utterance -> text ({} utterances, {threads} thread(s)): median {:.2} s, p90 {:.2} s; CPU median {:.2} s",
                waits.len(),
                percentile(&mut waits.clone(), 0.5),
                percentile(&mut waits, 0.9),
                percentile(&mut cpus, 0.5)
            );
        }
    }
    // Spoken replies: text -> first audio is the first sentence's synthesis (espeak-ng, a
    // separate program), before the sound server's ~80 ms of output periods.
    let sentences = [
        (Lang::Es, "Claro, mañana a las nueve te recuerdo llamar a Ana, y si quieres también te aviso media hora antes."),
        (Lang::En, "Sure, tomorrow at nine I will remind you to call Ana, and if you like I can also tell you half an hour before."),
    ];
    for (lang, sentence) in sentences {
        let mut waits = Vec::new();
        let mut audio = 0.0;
        for _ in 0..10 {
            let started = Instant::now();
            match sidecar_voice::synthesize(sentence, lang, &sidecar_voice::Voicing::default()) {
                Ok((samples, rate)) => audio = samples.len() as f64 / f64::from(rate),
                Err(error) => {
                    println!("text -> speech ({lang:?}): {error}");
                    break;
                }
            }
            waits.push(started.elapsed().as_secs_f64());
        }
        if !waits.is_empty() {
            let median = percentile(&mut waits, 0.5);
            println!(
                "text -> speech ({lang:?}, {} words, espeak-ng): {median:.3} s for {audio:.1} s of audio (real-time factor {:.3})",
                sentence.split_whitespace().count(),
                median / audio
            );
        }
    }

    model.unload();
    let after = rss_mb();
    println!("memory (RSS): {idle:.0} MB before the model, {loaded:.0} MB loaded, {peak:.0} MB at most while transcribing, {after:.0} MB after unloading");
}
