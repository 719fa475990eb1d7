//! `sidecar transcribe FILE`: the words of a recording (WAV, or OGG/Opus as phones send
//! voice notes), offline, with the speech model of the runtime folder.

use std::path::Path;

use sidecar_domain::Lang;
use sidecar_voice::Audio;
use sidecar_voice::Language;
use sidecar_voice::Recording;
use sidecar_voice::SpeechModel;

/// The language asked for on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum SpokenIn {
    Es,
    En,
}

/// Prints the words (or, with `json`, `text`, `lang` and `seconds`); exits 1 with what
/// to do when the recording cannot be heard.
pub(crate) fn transcribe(runtime: Option<&Path>, file: &Path, spoken_in: Option<SpokenIn>, ui: Lang, json: bool) -> anyhow::Result<i32> {
    let model = runtime.map_or_else(SpeechModel::not_installed, SpeechModel::in_runtime);
    let language = match spoken_in {
        Some(SpokenIn::Es) => Language::Given(Lang::Es),
        Some(SpokenIn::En) => Language::Given(Lang::En),
        None => Language::Detect { otherwise: ui },
    };
    let heard = Audio::read_file(file).and_then(|audio| model.transcribe(&audio, language, Recording::Note));
    match heard {
        Ok(transcript) if json => {
            let lang = if transcript.lang == Lang::Es { "es" } else { "en" };
            println!("{}", serde_json::json!({"text": transcript.text, "lang": lang, "seconds": transcript.seconds}));
            Ok(0)
        }
        Ok(transcript) => {
            println!("{}", transcript.text);
            Ok(0)
        }
        Err(error) => {
            let said = sidecar_voice::problem(ui, &error);
            if json {
                println!("{}", serde_json::json!({"error": error.to_string(), "message": said}));
            } else {
                eprintln!("sidecar: {said} ({error})");
            }
            Ok(1)
        }
    }
}
