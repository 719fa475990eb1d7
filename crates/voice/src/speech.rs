//! Speech to text with Whisper base (multilingual), run by whisper.cpp in process through
//! `whisper-rs`. The model (148 MB, about 190 MB in memory) is loaded on first use and
//! dropped by [`SpeechModel::unload`], so a Sidecar that is never spoken to never holds it.
//!
//! Settings that matter, measured in `../shared/research/voice.md`: greedy decoding, no
//! context carried between recordings, the language given when it is known, only the
//! idle cores as threads (two threads on a busy two-core machine cost 8–9 times the CPU:
//! ggml's workers spin while llama.cpp holds the other core), silence cut by the VAD, and
//! an encoder window fitted to the speech with a floor of about 15 s (a shorter one makes
//! Whisper invent words on short clips, and lost words on FLEURS' development part).
//!
//! Over 400 lines: with its tests; the code is 365.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use sidecar_domain::runtime_files;
use sidecar_domain::Lang;
use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState, WhisperVadContext, WhisperVadContextParams, WhisperVadParams,
};

use crate::audio::{Audio, MAX_SECONDS, SAMPLE_RATE};
use crate::error::VoiceError;

/// The speech model is freed after this long unused (the assembly's loop asks).
pub const IDLE_UNLOAD: Duration = Duration::from_secs(5 * 60);
/// Whisper's encoder window is 30 s of 50 positions a second.
const FULL_WINDOW: i32 = 1_500;
/// The smallest fitted window (about 15 s): below it Whisper hallucinates on short clips.
const WINDOW_FLOOR: i32 = 768;
/// whisper.cpp gives nothing for less than a second: shorter clips are padded.
const MIN_SAMPLES: usize = SAMPLE_RATE as usize * 11 / 10;
/// A segment Whisper itself thinks is probably not speech is dropped.
const NO_SPEECH: f32 = 0.6;

/// What the recording is, which sets how it is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Push-to-talk: a few seconds, wanted at once.
    Utterance,
    /// A voice note from the phone: up to [`MAX_SECONDS`], in 30 s windows.
    Note,
}

/// Which language to decode a recording in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Known (the app's language while the user holds push-to-talk).
    Given(Lang),
    /// Told by Whisper from the audio; `otherwise` when it hears a language Sidecar does
    /// not speak (Whisper base takes some Spanish for Portuguese or Galician). When the
    /// language heard gives no words, the other one Sidecar speaks is tried.
    Detect { otherwise: Lang },
}

/// The words heard in a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    pub text: String,
    /// The language the words were decoded in: the one given, or the one Whisper heard
    /// when Sidecar speaks it (else the `otherwise` of [`Language::Detect`]; the other
    /// of the two when that one gave no words).
    pub lang: Lang,
    /// The recording's length.
    pub seconds: f32,
}

/// Whisper's weights and, when present, the VAD that skips silence.
pub struct SpeechModel {
    model: PathBuf,
    vad: Option<PathBuf>,
    /// Threads per recording; `None`: the idle cores ([`threads`]).
    threads: Option<i32>,
    loaded: Mutex<Option<Arc<WhisperContext>>>,
    /// When a recording last finished (what idle means for [`SpeechModel::unload_if_idle`]).
    last_used: Mutex<Option<Instant>>,
}

impl SpeechModel {
    pub fn new(model: PathBuf, vad: Option<PathBuf>) -> Self {
        Self { model, vad, threads: None, loaded: Mutex::new(None), last_used: Mutex::new(None) }
    }

    /// No model: every recording is answered with [`VoiceError::ModelMissing`] (a build
    /// without the offline runtime, `SIDECAR_RUNTIME=off`).
    pub fn not_installed() -> Self {
        Self::new(PathBuf::from(runtime_files::SPEECH_MODEL_FILE), None)
    }

    /// The model and VAD of the offline runtime folder.
    pub fn in_runtime(runtime: &Path) -> Self {
        let vad = runtime_files::voice_activity(runtime);
        Self::new(runtime_files::speech_model(runtime), vad.is_file().then_some(vad))
    }

    /// Always `threads` threads per recording (a setting, or a measurement).
    pub fn with_threads(mut self, threads: i32) -> Self {
        self.threads = Some(threads.max(1));
        self
    }

    /// Whether the weights are there to load.
    pub fn installed(&self) -> bool {
        self.model.is_file()
    }

    /// Whether the weights are in memory now.
    pub fn is_loaded(&self) -> bool {
        self.loaded.lock().expect("speech model lock").is_some()
    }

    /// Frees the weights when loaded and unused for `idle`; whether it did.
    pub fn unload_if_idle(&self, idle: Duration) -> bool {
        let unused = self.last_used.lock().expect("speech model lock").is_none_or(|at| at.elapsed() >= idle);
        unused && self.loaded.lock().expect("speech model lock").take().is_some()
    }

    /// Frees the weights; the next recording loads them again (about 0.2 s).
    pub fn unload(&self) {
        self.loaded.lock().expect("speech model lock").take();
    }

    /// The words in `audio`. Blocking and CPU-bound: call it off the async runtime.
    pub fn transcribe(&self, audio: &Audio, language: Language, recording: Recording) -> Result<Transcript, VoiceError> {
        let transcript = self.decode(audio, language, recording, None);
        *self.last_used.lock().expect("speech model lock") = Some(Instant::now());
        transcript
    }

    /// The words of an utterance still being spoken, shown while the user talks: one
    /// thread, given up as soon as `stop` is set (the recording ended and its own
    /// transcription wants the cores). Blocking, like [`SpeechModel::transcribe`].
    pub fn draft(&self, audio: &Audio, lang: Lang, stop: &Arc<AtomicBool>) -> Result<String, VoiceError> {
        let transcript = self.decode(audio, Language::Given(lang), Recording::Utterance, Some(stop));
        *self.last_used.lock().expect("speech model lock") = Some(Instant::now());
        if stop.load(Ordering::SeqCst) {
            return Err(VoiceError::NoSpeech);
        }
        transcript.map(|t| t.text)
    }

    fn decode(&self, audio: &Audio, language: Language, recording: Recording, stop: Option<&Arc<AtomicBool>>) -> Result<Transcript, VoiceError> {
        let seconds = audio.seconds();
        if seconds > MAX_SECONDS as f32 {
            return Err(VoiceError::TooLong { seconds, limit: MAX_SECONDS });
        }
        let span = tracing::info_span!("transcribe", seconds, ?recording, ?language);
        let _entered = span.enter();
        let context = self.context()?;
        let mut state = context.create_state().map_err(|e| VoiceError::Engine(e.to_string()))?;
        let threads = if stop.is_some() { 1 } else { self.threads.unwrap_or_else(threads) };
        let mut samples = match &self.vad {
            Some(vad) => speech_only(vad, audio.samples())?,
            None => audio.samples().to_vec(),
        };
        if samples.is_empty() {
            return Err(VoiceError::NoSpeech);
        }
        // The window fitted to the speech, whatever the recording: past 30 s it is the
        // full one anyway (a voice note of 10 s took 6 s with the full window, 1.4 s fitted).
        let window = window(samples.len() as f32 / SAMPLE_RATE as f32);
        if samples.len() < MIN_SAMPLES {
            samples.resize(MIN_SAMPLES, 0.0);
        }
        let (lang, detected) = match language {
            Language::Given(lang) => (lang, false),
            Language::Detect { otherwise } => (heard(&mut state, &samples, window, threads)?.unwrap_or(otherwise), true),
        };
        let mut text = words(&mut state, &samples, lang, window, threads, recording, stop)?;
        let mut lang = lang;
        if text.is_empty() && detected {
            // A short recording can sound more like the other language than its own (a
            // Spanish voice note detected as English came back empty): the other is tried.
            lang = if lang == Lang::Es { Lang::En } else { Lang::Es };
            text = words(&mut state, &samples, lang, window, threads, recording, stop)?;
        }
        if text.is_empty() {
            return Err(VoiceError::NoSpeech);
        }
        tracing::info!(words = text.split_whitespace().count(), ?lang, "transcribed");
        Ok(Transcript { text, lang, seconds })
    }

    fn context(&self) -> Result<Arc<WhisperContext>, VoiceError> {
        let mut loaded = self.loaded.lock().expect("speech model lock");
        if let Some(context) = loaded.as_ref() {
            return Ok(context.clone());
        }
        if !self.installed() {
            return Err(VoiceError::ModelMissing(self.model.clone()));
        }
        quiet_whisper_logs();
        let path = self.model.to_str().ok_or_else(|| VoiceError::ModelMissing(self.model.clone()))?;
        let mut params = WhisperContextParameters::default();
        params.use_gpu(false);
        let context = Arc::new(WhisperContext::new_with_params(path, params).map_err(|e| VoiceError::Engine(format!("loading {path}: {e}")))?);
        *loaded = Some(context.clone());
        Ok(context)
    }
}

/// Greedy decoding in `lang` with the encoder `window`, carrying nothing between
/// recordings and printing nothing.
fn quiet_params(lang: Lang, window: i32, threads: i32) -> FullParams<'static, 'static> {
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    params.set_n_threads(threads);
    params.set_language(Some(code(lang)));
    params.set_audio_ctx(window);
    params.set_no_context(true);
    params.set_no_timestamps(true);
    params.set_suppress_blank(true);
    params.set_suppress_nst(true);
    params.set_print_special(false);
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_timestamps(false);
    params
}

/// The language Sidecar speaks that Whisper hears in `samples` (`None`: another), told
/// with the encoder `window` fitted to the speech. whisper.cpp's own detection ("auto")
/// encodes the full 30 s window before it sets the fitted one: a 14 s clip took 12.3
/// CPU-s detected against 3.8 given (issue 68). A run stopped before its encoder leaves
/// the state with the spectrogram and the fitted window, and the detection encodes that.
fn heard(state: &mut WhisperState, samples: &[f32], window: i32, threads: i32) -> Result<Option<Lang>, VoiceError> {
    // Any language given keeps whisper.cpp's own detection off; nothing is decoded.
    let mut params = quiet_params(Lang::En, window, threads);
    // SAFETY: `no_encoding` reads nothing and only answers "do not encode".
    unsafe { params.set_start_encoder_callback(Some(no_encoding)) };
    state.full(params, samples).map_err(|e| VoiceError::Engine(e.to_string()))?;
    let (id, _) = state.lang_detect(0, threads.max(1) as usize).map_err(|e| VoiceError::Engine(e.to_string()))?;
    Ok(whisper_rs::get_lang_str(id).and_then(from_code))
}

/// whisper.cpp's question before it encodes, answered "no" (see [`heard`]).
unsafe extern "C" fn no_encoding(_: *mut whisper_rs::WhisperSysContext, _: *mut whisper_rs::WhisperSysState, _: *mut std::ffi::c_void) -> bool {
    false
}

/// whisper.cpp's question while it decodes a draft: has the recording ended?
unsafe extern "C" fn aborted(flag: *mut std::ffi::c_void) -> bool {
    // SAFETY: the user data set with this callback is always a live `AtomicBool`.
    unsafe { (*(flag as *const AtomicBool)).load(Ordering::SeqCst) }
}

/// The stretches of `samples` the VAD hears speech in, joined with a short pause: Whisper
/// left alone with silence or noise writes words nobody said ("y", "Gracias.").
fn speech_only(vad: &Path, samples: &[f32]) -> Result<Vec<f32>, VoiceError> {
    let engine = |e: whisper_rs::WhisperError| VoiceError::Engine(format!("voice activity: {e}"));
    quiet_whisper_logs();
    let mut params = WhisperVadContextParams::default();
    params.set_n_threads(1);
    params.set_use_gpu(false);
    let path = vad.to_str().ok_or_else(|| VoiceError::ModelMissing(vad.to_path_buf()))?;
    let mut context = WhisperVadContext::new(path, params).map_err(engine)?;
    let segments = context.segments_from_samples(WhisperVadParams::new(), samples).map_err(engine)?;
    let pause = SAMPLE_RATE as usize / 10;
    let mut speech = Vec::new();
    for segment in segments {
        // Timestamps in hundredths of a second.
        let at = |t: f32| ((t / 100.0 * SAMPLE_RATE as f32) as usize).min(samples.len());
        let (start, end) = (at(segment.start), at(segment.end));
        if end > start {
            if !speech.is_empty() {
                speech.resize(speech.len() + pause, 0.0);
            }
            speech.extend_from_slice(&samples[start..end]);
        }
    }
    tracing::debug!(heard = samples.len(), speech = speech.len(), "voice activity");
    Ok(speech)
}

/// Threads for one recording: the cores the machine leaves idle (its load over the last
/// minute taken off), one at least and four at most. Two threads halve the wait on an
/// idle two-core machine (5 s of speech: 1.32 s with one, 0.73 s with two) but cost
/// 8–9 times the CPU when llama.cpp holds the other core, as ggml's workers spin.
fn threads() -> i32 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let busy = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok()).unwrap_or(cores);
    (cores - busy).floor().clamp(1.0, 4.0) as i32
}

/// The encoder window for speech of `seconds`: its length and a second more, in
/// steps of 64 positions, never under [`WINDOW_FLOOR`] nor over the full 30 s.
fn window(seconds: f32) -> i32 {
    let positions = (50.0 * (seconds + 1.0)).ceil() as i32;
    ((positions + 63) / 64 * 64).clamp(WINDOW_FLOOR, FULL_WINDOW)
}

fn code(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Es => "es",
    }
}

fn from_code(code: &str) -> Option<Lang> {
    match code {
        "en" => Some(Lang::En),
        "es" => Some(Lang::Es),
        _ => None,
    }
}

/// The words Whisper hears in `samples` in `lang` (empty: none with speech in them).
fn words(
    state: &mut WhisperState,
    samples: &[f32],
    lang: Lang,
    window: i32,
    threads: i32,
    recording: Recording,
    stop: Option<&Arc<AtomicBool>>,
) -> Result<String, VoiceError> {
    let mut params = quiet_params(lang, window, threads);
    if let Some(stop) = stop {
        // whisper-rs 0.16's `set_abort_callback_safe` hands whisper.cpp a pointer to a
        // boxed `dyn FnMut` but reads it back as the closure's own type (every call
        // aborted with -6): the flag is passed as it is instead. `stop` is borrowed for
        // this whole call, so the pointer outlives the decoding.
        // SAFETY: `aborted` only reads an `AtomicBool` that lives until we return.
        unsafe {
            params.set_abort_callback(Some(aborted));
            params.set_abort_callback_user_data(Arc::as_ptr(stop) as *mut std::ffi::c_void);
        }
    }
    if recording == Recording::Utterance {
        params.set_single_segment(true);
    }
    state.full(params, samples).map_err(|e| VoiceError::Engine(e.to_string()))?;
    let mut text = String::new();
    for segment in state.as_iter() {
        if segment.no_speech_probability() > NO_SPEECH {
            continue;
        }
        text.push_str(&segment.to_str_lossy().map_err(|e| VoiceError::Engine(e.to_string()))?);
    }
    Ok(clean(&text))
}

/// The words without what Whisper writes for sounds (`[Música]`, `(applause)`) and the
/// spaces around them.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// whisper.cpp and ggml print every step to stderr; the hooks send them nowhere.
fn quiet_whisper_logs() {
    static ONCE: Once = Once::new();
    ONCE.call_once(whisper_rs::install_logging_hooks);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_utterance_gets_the_floor_and_a_long_one_the_full_window() {
        assert_eq!(window(0.5), WINDOW_FLOOR);
        assert_eq!(window(5.0), WINDOW_FLOOR);
        assert_eq!(window(20.0), 1_088);
        assert_eq!(window(29.5), FULL_WINDOW);
        assert_eq!(window(120.0), FULL_WINDOW);
    }

    #[test]
    fn sounds_in_brackets_are_not_words() {
        assert_eq!(clean(" [Música] Hola, ¿qué tal?  (risas) "), "Hola, ¿qué tal?");
        assert_eq!(clean("[BLANK_AUDIO]"), "");
        assert_eq!(clean(" Remind me at 9."), "Remind me at 9.");
    }

    #[test]
    fn a_missing_model_says_where_it_was_looked_for() {
        let model = SpeechModel::new(PathBuf::from("/nowhere/ggml.bin"), None);
        let error = model.transcribe(&Audio::from_16k_mono(vec![0.0; 16_000]), Language::Given(Lang::Es), Recording::Note).unwrap_err();
        assert!(matches!(error, VoiceError::ModelMissing(ref p) if p == Path::new("/nowhere/ggml.bin")), "{error}");
        assert!(!model.is_loaded());
    }

    #[test]
    fn a_recording_past_the_limit_is_refused_before_any_work() {
        let model = SpeechModel::new(PathBuf::from("/nowhere/ggml.bin"), None);
        let long = Audio::from_16k_mono(vec![0.0; (MAX_SECONDS as usize + 1) * SAMPLE_RATE as usize]);
        assert!(matches!(
            model.transcribe(&long, Language::Detect { otherwise: Lang::En }, Recording::Note),
            Err(VoiceError::TooLong { limit: MAX_SECONDS, .. })
        ));
    }
}
