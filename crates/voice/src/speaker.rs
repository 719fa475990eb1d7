//! Playing speech through the desktop's sound server (cpal). Samples are queued and the
//! output stream drains them; `stop` empties the queue at once, so the voice stops within
//! one buffer of the sound server (barge-in). The stream lives on a thread of its own
//! while there is something to say and closes a little after, so Sidecar holds no audio
//! device while quiet. Another device asked for closes the open stream and opens its own.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use crate::error::VoiceError;
use crate::resample::resample;

/// Output periods a second (40 ms each).
const PERIODS_PER_SECOND: u32 = 25;
/// The stream closes after this long with nothing to play.
const LINGER: Duration = Duration::from_secs(2);

#[derive(Default)]
struct Queue {
    samples: VecDeque<f32>,
    /// The output's rate, once a stream is open.
    rate: Option<u32>,
    running: bool,
    /// The device the open stream plays on (`None`: the default output).
    device: Option<String>,
    /// Counts the streams opened: a stream's thread ends when a newer one is opened.
    opened: u64,
    /// When the queue last ran dry.
    empty_since: Option<Instant>,
}

/// The names of the outputs the sound server offers, the default first.
pub fn output_devices() -> Vec<String> {
    let host = cpal::default_host();
    let default = host.default_output_device().map(|d| d.to_string());
    let mut names: Vec<String> = host.output_devices().map(|devices| devices.map(|d| d.to_string()).collect()).unwrap_or_default();
    names.sort_by_key(|name| Some(name) != default.as_ref());
    names.dedup();
    names
}

/// The speakers, shared.
#[derive(Clone, Default)]
pub struct Speaker {
    queue: Arc<Mutex<Queue>>,
}

impl Speaker {
    /// Queues `samples` (mono at `rate`) after what is already queued, for `device` (by
    /// name; `None`: the default output), if `still` holds once the queue is taken: a
    /// `stop` that came while the samples were being made leaves them unplayed.
    pub fn play(&self, samples: &[f32], rate: u32, device: Option<&str>, still: impl Fn() -> bool) -> Result<(), VoiceError> {
        let device_rate = self.ensure_stream(device)?;
        let samples = resample(samples, rate, device_rate)?;
        let mut queue = self.queue.lock().expect("speaker lock");
        if !still() {
            return Ok(());
        }
        queue.samples.extend(samples);
        queue.empty_since = None;
        Ok(())
    }

    /// Silence now: what is queued is dropped.
    pub fn stop(&self) {
        self.queue.lock().expect("speaker lock").samples.clear();
    }

    /// Whether something is still being said.
    pub fn is_speaking(&self) -> bool {
        !self.queue.lock().expect("speaker lock").samples.is_empty()
    }

    /// The output's rate, opening the stream on its thread when none is open on `device`.
    fn ensure_stream(&self, device: Option<&str>) -> Result<u32, VoiceError> {
        let this_stream = {
            let mut queue = self.queue.lock().expect("speaker lock");
            if let (true, Some(rate)) = (queue.running, queue.rate) {
                if queue.device.as_deref() == device {
                    return Ok(rate);
                }
            }
            // The stream on another device, if any, ends at its next look.
            queue.running = false;
            queue.opened += 1;
            queue.opened
        };
        let (ready, opened) = std::sync::mpsc::channel();
        let (queue, device) = (self.queue.clone(), device.map(str::to_string));
        std::thread::Builder::new()
            .name("speaker".into())
            .spawn(move || run(queue, device, this_stream, ready))
            .map_err(|e| VoiceError::NoSpeakers(e.to_string()))?;
        opened.recv().map_err(|_| VoiceError::NoSpeakers("the output thread ended".into()))?
    }
}

fn run(queue: Arc<Mutex<Queue>>, device: Option<String>, this_stream: u64, ready: std::sync::mpsc::Sender<Result<u32, VoiceError>>) {
    let stream = match open(device.as_deref(), queue.clone()) {
        Ok((stream, rate)) => {
            let mut q = queue.lock().expect("speaker lock");
            (q.running, q.rate, q.device, q.empty_since) = (true, Some(rate), device, None);
            let _ = ready.send(Ok(rate));
            stream
        }
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let mut q = queue.lock().expect("speaker lock");
        if q.opened != this_stream {
            break;
        }
        if q.samples.is_empty() {
            let since = *q.empty_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= LINGER {
                q.running = false;
                break;
            }
        }
    }
    drop(stream);
}

fn open(name: Option<&str>, queue: Arc<Mutex<Queue>>) -> Result<(cpal::Stream, u32), VoiceError> {
    let no = |e: String| VoiceError::NoSpeakers(e);
    let host = cpal::default_host();
    let device = match name {
        Some(name) => {
            host.output_devices().ok().and_then(|mut all| all.find(|d| d.to_string() == name)).ok_or_else(|| no(format!("no output called {name}")))?
        }
        None => host.default_output_device().ok_or_else(|| no("no output device".into()))?,
    };
    let supported = device.default_output_config().map_err(|e| no(e.to_string()))?;
    let (channels, rate) = (usize::from(supported.channels()), supported.sample_rate());
    let format = supported.sample_format();
    // Periods of 40 ms: the sound server then holds about 80 ms, so `stop` is heard at
    // once (its default buffer held two seconds of speech after a barge-in).
    let short = cpal::StreamConfig { buffer_size: cpal::BufferSize::Fixed(rate / PERIODS_PER_SECOND), ..supported.config() };
    match build(&device, short, format, channels, queue.clone()) {
        Ok(stream) => Ok((stream, rate)),
        Err(error) => {
            tracing::info!(%error, "short output periods refused; the device's default buffer is used");
            Ok((build(&device, supported.config(), format, channels, queue)?, rate))
        }
    }
}

fn build(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    format: cpal::SampleFormat,
    channels: usize,
    queue: Arc<Mutex<Queue>>,
) -> Result<cpal::Stream, VoiceError> {
    let no = |e: String| VoiceError::NoSpeakers(e);
    let next = move || queue.lock().expect("speaker lock").samples.pop_front().unwrap_or(0.0);
    let on_data = move |data: &mut cpal::Data, _: &cpal::OutputCallbackInfo| match format {
        cpal::SampleFormat::F32 => {
            if let Some(out) = data.as_slice_mut::<f32>() {
                for frame in out.chunks_mut(channels) {
                    frame.fill(next());
                }
            }
        }
        cpal::SampleFormat::I16 => {
            if let Some(out) = data.as_slice_mut::<i16>() {
                for frame in out.chunks_mut(channels) {
                    frame.fill((next().clamp(-1.0, 1.0) * 32_767.0) as i16);
                }
            }
        }
        _ => {}
    };
    let stream = device
        .build_output_stream_raw(config, format, on_data, |error| tracing::warn!(%error, "speaker stream"), Some(Duration::from_secs(5)))
        .map_err(|e| no(e.to_string()))?;
    stream.play().map_err(|e| no(e.to_string()))?;
    Ok(stream)
}
