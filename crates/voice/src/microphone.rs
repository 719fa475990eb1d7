//! The microphone, through the desktop's sound server with cpal (PulseAudio's protocol,
//! which PipeWire desktops answer too; ALSA otherwise). A recording runs on a thread of
//! its own, which owns the stream (cpal's streams may not cross threads), keeps what it
//! hears and reports how loud it is for the level meter; `finish` hands the recording
//! over as [`Audio`], `cancel` drops it.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use crate::audio::Audio;
use crate::error::VoiceError;

/// The longest push-to-talk recording kept; what comes later is not (a forgotten toggle).
pub(crate) const MAX_LISTEN_SECONDS: u32 = 120;
/// The level meter is told at most this often.
const LEVEL_EVERY: Duration = Duration::from_millis(50);

/// The names of the inputs the sound server offers, the default first.
pub fn input_devices() -> Vec<String> {
    let host = cpal::default_host();
    let default = host.default_input_device().map(|d| d.to_string());
    let mut names: Vec<String> = host.input_devices().map(|devices| devices.map(|d| d.to_string()).collect()).unwrap_or_default();
    names.sort_by_key(|name| Some(name) != default.as_ref());
    names.dedup();
    names
}

/// A recording under way.
pub struct Listening {
    stop: mpsc::Sender<bool>,
    thread: Option<JoinHandle<Result<Audio, VoiceError>>>,
    /// What was heard so far, as the device gives it (interleaved), and its shape.
    heard: Heard,
}

/// The samples the stream keeps, interleaved, with their channels and rate.
type Heard = (std::sync::Arc<std::sync::Mutex<Vec<f32>>>, u16, u32);

impl Listening {
    /// Starts recording from `device` (by name; `None`: the default input), calling
    /// `level` with the loudness (RMS, 0 to 1) while it goes.
    pub fn start(device: Option<String>, level: impl Fn(f32) + Send + Sync + 'static) -> Result<Self, VoiceError> {
        let (stop, stopped) = mpsc::channel::<bool>();
        let (ready, started) = mpsc::channel::<Result<Heard, VoiceError>>();
        let thread = std::thread::Builder::new()
            .name("microphone".into())
            .spawn(move || record(device, level, ready, stopped))
            .map_err(|e| VoiceError::Microphone(e.to_string()))?;
        match started.recv() {
            Ok(Ok(heard)) => Ok(Self { stop, thread: Some(thread), heard }),
            Ok(Err(error)) => Err(error),
            Err(_) => Err(VoiceError::Microphone("the recording thread ended".into())),
        }
    }

    /// What was heard so far, up to its first `seconds`, as the speech model takes it
    /// (for the words shown while the user still speaks).
    pub fn heard_so_far(&self, seconds: f32) -> Result<Audio, VoiceError> {
        let (samples, channels, rate) = &self.heard;
        let wanted = (seconds * *rate as f32) as usize * usize::from(*channels);
        let copy = {
            let samples = samples.lock().expect("microphone lock");
            samples[..wanted.min(samples.len())].to_vec()
        };
        Audio::from_interleaved(&copy, *channels, *rate)
    }

    /// Stops and hands over what was heard, as the speech model takes it.
    pub fn finish(mut self) -> Result<Audio, VoiceError> {
        let _ = self.stop.send(true);
        self.thread.take().expect("joined once").join().map_err(|_| VoiceError::Microphone("the recording thread panicked".into()))?
    }
}

impl Drop for Listening {
    /// Dropped unfinished (cancelled): the stream closes, the recording is thrown away.
    fn drop(&mut self) {
        let _ = self.stop.send(false);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn record(
    device: Option<String>,
    level: impl Fn(f32) + Send + Sync + 'static,
    ready: mpsc::Sender<Result<Heard, VoiceError>>,
    stopped: mpsc::Receiver<bool>,
) -> Result<Audio, VoiceError> {
    let opened = open(device.as_deref(), level);
    let (stream, samples, channels, rate) = match opened {
        Ok(opened) => {
            let _ = ready.send(Ok((opened.1.clone(), opened.2, opened.3)));
            opened
        }
        Err(error) => {
            // Told to `start`, which returns it; this thread's own result is not read.
            let _ = ready.send(Err(error));
            return Ok(Audio::default());
        }
    };
    let keep = stopped.recv().unwrap_or(false);
    drop(stream);
    if !keep {
        return Ok(Audio::default());
    }
    let samples = std::mem::take(&mut *samples.lock().expect("microphone lock"));
    tracing::info!(seconds = samples.len() as f32 / f32::from(channels) / rate as f32, rate, channels, "recorded");
    Audio::from_interleaved(&samples, channels, rate)
}

type Opened = (cpal::Stream, std::sync::Arc<std::sync::Mutex<Vec<f32>>>, u16, u32);

fn open(device: Option<&str>, level: impl Fn(f32) + Send + Sync + 'static) -> Result<Opened, VoiceError> {
    let host = cpal::default_host();
    let device = match device {
        Some(name) => {
            host.input_devices().ok().and_then(|mut all| all.find(|d| d.to_string() == name)).ok_or_else(|| VoiceError::NoMicrophone(Some(name.to_string())))?
        }
        None => host.default_input_device().ok_or(VoiceError::NoMicrophone(None))?,
    };
    let supported = device.default_input_config().map_err(|e| VoiceError::Microphone(e.to_string()))?;
    let config = supported.config();
    let (channels, rate) = (config.channels, config.sample_rate);
    let samples = std::sync::Arc::new(std::sync::Mutex::new(Vec::<f32>::new()));
    let level = std::sync::Arc::new(level);
    let format = supported.sample_format();
    let build = |buffer_size: cpal::BufferSize| {
        let on_data = listener(format, samples.clone(), MAX_LISTEN_SECONDS as usize * rate as usize * usize::from(channels), level.clone());
        let config = cpal::StreamConfig { buffer_size, ..config };
        device.build_input_stream_raw(config, format, on_data, |error| tracing::warn!(%error, "microphone stream"), Some(Duration::from_secs(5)))
    };
    // The default buffer of some inputs is seconds long, and the meter moved once per
    // buffer (about every 2 s): a buffer of one meter step where the device allows it,
    // else the device's own.
    let stream = match supported.buffer_size() {
        cpal::SupportedBufferSize::Range { min, max } => {
            let step = (rate as f32 * LEVEL_EVERY.as_secs_f32()) as u32;
            build(cpal::BufferSize::Fixed(step.clamp(*min, *max))).or_else(|error| {
                tracing::info!(%error, "the microphone took no short buffer; using its own");
                build(cpal::BufferSize::Default)
            })
        }
        cpal::SupportedBufferSize::Unknown => build(cpal::BufferSize::Default),
    }
    .map_err(|e| VoiceError::Microphone(e.to_string()))?;
    stream.play().map_err(|e| VoiceError::Microphone(e.to_string()))?;
    Ok((stream, samples, channels, rate))
}

/// What the stream calls with each chunk: kept (up to `limit` samples) and its loudness
/// told to `level` once per meter step.
fn listener(
    format: cpal::SampleFormat,
    kept: std::sync::Arc<std::sync::Mutex<Vec<f32>>>,
    limit: usize,
    level: std::sync::Arc<impl Fn(f32) + Send + Sync + 'static>,
) -> impl FnMut(&cpal::Data, &cpal::InputCallbackInfo) + Send + 'static {
    let mut told = Instant::now();
    move |data: &cpal::Data, _: &cpal::InputCallbackInfo| {
        let chunk: Vec<f32> = match format {
            cpal::SampleFormat::F32 => data.as_slice::<f32>().map(<[f32]>::to_vec).unwrap_or_default(),
            cpal::SampleFormat::I16 => data.as_slice::<i16>().map(|s| s.iter().map(|v| f32::from(*v) / 32_768.0).collect()).unwrap_or_default(),
            cpal::SampleFormat::I32 => data.as_slice::<i32>().map(|s| s.iter().map(|v| *v as f32 / 2_147_483_648.0).collect()).unwrap_or_default(),
            cpal::SampleFormat::U8 => data.as_slice::<u8>().map(|s| s.iter().map(|v| (f32::from(*v) - 128.0) / 128.0).collect()).unwrap_or_default(),
            _ => Vec::new(),
        };
        // A little early counts: chunks of one step each arrive a hair apart.
        if told.elapsed() >= LEVEL_EVERY.mul_f32(0.8) && !chunk.is_empty() {
            level((chunk.iter().map(|s| s * s).sum::<f32>() / chunk.len() as f32).sqrt().min(1.0));
            told = Instant::now();
        }
        let mut kept = kept.lock().expect("microphone lock");
        let room = limit.saturating_sub(kept.len()).min(chunk.len());
        kept.extend_from_slice(&chunk[..room]);
    }
}
