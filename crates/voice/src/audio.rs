//! Recordings as the speech model hears them: 16 kHz, one channel, samples in [-1, 1].
//! WAV (any rate, channels, integer or float samples) and OGG/Opus (the voice notes of
//! Telegram and WhatsApp) are read, mixed down and resampled.

use std::io::Cursor;

use crate::error::VoiceError;
use crate::resample::resample;

/// The rate Whisper and the VAD take.
pub const SAMPLE_RATE: u32 = 16_000;
/// Opus always decodes at 48 kHz.
const OPUS_RATE: u32 = 48_000;
/// The longest Opus frame (120 ms at 48 kHz), per channel.
const OPUS_MAX_FRAME: usize = 5_760;

/// Mono samples at [`SAMPLE_RATE`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Audio {
    samples: Vec<f32>,
}

impl Audio {
    /// Samples already at 16 kHz and mono (a microphone stream resampled upstream).
    pub fn from_16k_mono(samples: Vec<f32>) -> Self {
        Self { samples }
    }

    /// Interleaved samples of `channels` channels at `rate`, mixed down and resampled.
    pub fn from_interleaved(samples: &[f32], channels: u16, rate: u32) -> Result<Self, VoiceError> {
        if channels == 0 || rate == 0 {
            return Err(VoiceError::Malformed(format!("{channels} channels at {rate} Hz")));
        }
        let mono: Vec<f32> = samples.chunks(usize::from(channels)).map(|frame| frame.iter().sum::<f32>() / f32::from(channels)).collect();
        Ok(Self { samples: resample(&mono, rate, SAMPLE_RATE)? })
    }

    /// A WAV or OGG/Opus file's bytes, told apart by their first bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, VoiceError> {
        match bytes.get(..4) {
            Some(b"RIFF") => wav(bytes),
            Some(b"OggS") => ogg_opus(bytes),
            _ => Err(VoiceError::UnknownFormat),
        }
    }

    pub fn samples(&self) -> &[f32] {
        &self.samples
    }

    pub fn seconds(&self) -> f32 {
        self.samples.len() as f32 / SAMPLE_RATE as f32
    }
}

fn wav(bytes: &[u8]) -> Result<Audio, VoiceError> {
    let reader = hound::WavReader::new(Cursor::new(bytes)).map_err(|e| VoiceError::Malformed(format!("WAV: {e}")))?;
    let spec = reader.spec();
    let samples: Result<Vec<f32>, hound::Error> = match spec.sample_format {
        hound::SampleFormat::Float => reader.into_samples::<f32>().collect(),
        hound::SampleFormat::Int => {
            let scale = 2f32.powi(i32::from(spec.bits_per_sample.clamp(1, 32)) - 1);
            reader.into_samples::<i32>().map(|s| s.map(|s| s as f32 / scale)).collect()
        }
    };
    let samples = samples.map_err(|e| VoiceError::Malformed(format!("WAV: {e}")))?;
    Audio::from_interleaved(&samples, spec.channels, spec.sample_rate)
}

/// An Ogg stream of Opus packets (RFC 7845): the `OpusHead` packet gives the channels
/// and the samples to skip at the start, `OpusTags` follows, then the audio.
fn ogg_opus(bytes: &[u8]) -> Result<Audio, VoiceError> {
    let malformed = |what: String| VoiceError::Malformed(format!("OGG/Opus: {what}"));
    let mut packets = ogg::PacketReader::new(Cursor::new(bytes));
    let mut next = || packets.read_packet().map_err(|e| malformed(e.to_string()));
    let head = next()?.ok_or_else(|| malformed("empty stream".into()))?;
    let head = &head.data;
    if head.len() < 19 || &head[..8] != b"OpusHead" {
        return Err(malformed("not an Opus stream".into()));
    }
    let channels = head[9];
    let pre_skip = usize::from(u16::from_le_bytes([head[10], head[11]]));
    let layout = match channels {
        1 => opus::Channels::Mono,
        2 => opus::Channels::Stereo,
        n => return Err(malformed(format!("{n} channels"))),
    };
    let mut decoder = opus::Decoder::new(OPUS_RATE, layout).map_err(|e| malformed(e.to_string()))?;
    let width = usize::from(channels);
    let mut frame = vec![0f32; OPUS_MAX_FRAME * width];
    let mut pcm = Vec::new();
    while let Some(packet) = next()? {
        if packet.data.starts_with(b"OpusTags") {
            continue;
        }
        let per_channel = decoder.decode_float(&packet.data, &mut frame, false).map_err(|e| malformed(e.to_string()))?;
        pcm.extend_from_slice(&frame[..per_channel * width]);
    }
    let skip = (pre_skip * width).min(pcm.len());
    Audio::from_interleaved(&pcm[skip..], u16::from(channels), OPUS_RATE)
}
