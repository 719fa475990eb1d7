//! Recordings as the speech model hears them: 16 kHz, one channel, samples in [-1, 1].
//! WAV (any rate, channels, integer or float samples) and OGG/Opus (the voice notes of
//! Telegram and WhatsApp) are read, mixed down and resampled.
//!
//! A recording is measured before it is decoded, from the WAV header and from each Opus
//! packet's own sample count, and refused past [`MAX_SECONDS`]: a 50 kB OGG of empty
//! packets or a WAV at 1 Hz would otherwise be decoded and resampled into gigabytes.

use std::io::Cursor;

use crate::error::VoiceError;
use crate::resample::resample;

/// The rate Whisper and the VAD take.
pub const SAMPLE_RATE: u32 = 16_000;
/// Opus always decodes at 48 kHz.
const OPUS_RATE: u32 = 48_000;
/// The longest Opus frame (120 ms at 48 kHz), per channel.
const OPUS_MAX_FRAME: usize = 5_760;
/// The rates a recording may have: telephone speech is 8 kHz; studio audio 384 kHz at most.
const RATES: std::ops::RangeInclusive<u32> = 8_000..=384_000;

/// The longest recording read and transcribed (a voice note of ten minutes).
pub const MAX_SECONDS: u32 = 600;
/// The largest file read as a recording: [`MAX_SECONDS`] of 48 kHz stereo in 32-bit
/// samples (230 MB), with room for headers.
pub const MAX_FILE_BYTES: u64 = 240_000_000;

/// Refused past [`MAX_SECONDS`]: `frames` at `rate`.
fn within_limit(frames: u64, rate: u32) -> Result<(), VoiceError> {
    let seconds = frames as f64 / f64::from(rate);
    if seconds > f64::from(MAX_SECONDS) {
        return Err(VoiceError::TooLong { seconds: seconds as f32, limit: MAX_SECONDS });
    }
    Ok(())
}

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
        if channels == 0 || !RATES.contains(&rate) {
            return Err(VoiceError::Malformed(format!("{channels} channels at {rate} Hz")));
        }
        within_limit(samples.len() as u64 / u64::from(channels), rate)?;
        // A float file may hold NaN, infinities or values past full scale; the resampler's
        // FFT refuses (and panics on) what is not finite, and the speech model expects [-1, 1].
        let heard = |s: &f32| if s.is_finite() { s.clamp(-1.0, 1.0) } else { 0.0 };
        let mono: Vec<f32> = samples.chunks(usize::from(channels)).map(|frame| frame.iter().map(heard).sum::<f32>() / f32::from(channels)).collect();
        Ok(Self { samples: resample(&mono, rate, SAMPLE_RATE)? })
    }

    /// The recording in the file at `path`: a regular file (never a FIFO or a device,
    /// looked at before it is opened) of at most [`MAX_FILE_BYTES`], decoded.
    pub fn read_file(path: &std::path::Path) -> Result<Self, VoiceError> {
        use std::io::Read;
        let meta = std::fs::metadata(path).map_err(|_| VoiceError::NotAFile(path.to_path_buf()))?;
        if !meta.is_file() {
            return Err(VoiceError::NotAFile(path.to_path_buf()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(VoiceError::TooBig { bytes: meta.len(), limit: MAX_FILE_BYTES });
        }
        let mut bytes = Vec::new();
        let file = std::fs::File::open(path).map_err(|e| VoiceError::Malformed(format!("{}: {e}", path.display())))?;
        // A file that grows while read stops at the limit too.
        file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| VoiceError::Malformed(format!("{}: {e}", path.display())))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(VoiceError::TooBig { bytes: bytes.len() as u64, limit: MAX_FILE_BYTES });
        }
        Self::decode(&bytes)
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
    if spec.channels == 0 || !RATES.contains(&spec.sample_rate) {
        return Err(VoiceError::Malformed(format!("WAV: {} channels at {} Hz", spec.channels, spec.sample_rate)));
    }
    within_limit(u64::from(reader.duration()), spec.sample_rate)?;
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
/// and the samples to skip at the start, `OpusTags` follows, then the audio. The
/// packets are counted first, from their own headers, and decoded only when the whole
/// is within the limit.
fn ogg_opus(bytes: &[u8]) -> Result<Audio, VoiceError> {
    let malformed = |what: String| VoiceError::Malformed(format!("OGG/Opus: {what}"));
    let mut packets = ogg::PacketReader::new(Cursor::new(bytes));
    let head = packets.read_packet().map_err(|e| malformed(e.to_string()))?.ok_or_else(|| malformed("empty stream".into()))?;
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
    // The audio packets: an empty one carries no audio (decoded, it would be a frame of
    // concealment), and `OpusTags` is none.
    let mut audio = Vec::new();
    let mut frames = 0u64;
    while let Some(packet) = packets.read_packet().map_err(|e| malformed(e.to_string()))? {
        if packet.data.is_empty() || packet.data.starts_with(b"OpusTags") {
            continue;
        }
        frames += opus::packet::get_nb_samples(&packet.data, OPUS_RATE).map_err(|e| malformed(e.to_string()))? as u64;
        within_limit(frames.saturating_sub(pre_skip as u64), OPUS_RATE)?;
        audio.push(packet.data);
    }
    let mut decoder = opus::Decoder::new(OPUS_RATE, layout).map_err(|e| malformed(e.to_string()))?;
    let width = usize::from(channels);
    let mut frame = vec![0f32; OPUS_MAX_FRAME * width];
    let mut pcm = Vec::with_capacity(frames as usize * width);
    for packet in &audio {
        let per_channel = decoder.decode_float(packet, &mut frame, false).map_err(|e| malformed(e.to_string()))?;
        pcm.extend_from_slice(&frame[..per_channel * width]);
    }
    let skip = (pre_skip * width).min(pcm.len());
    Audio::from_interleaved(&pcm[skip..], u16::from(channels), OPUS_RATE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ogg::writing::{PacketWriteEndInfo, PacketWriter};

    /// An Ogg/Opus stream (mono) of `packets` after its head and tags.
    fn ogg(packets: &[Vec<u8>]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = PacketWriter::new(Cursor::new(&mut out));
        let mut head = b"OpusHead".to_vec();
        head.extend_from_slice(&[1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]);
        writer.write_packet(head, 1, PacketWriteEndInfo::EndPage, 0).unwrap();
        writer.write_packet(b"OpusTags\0\0\0\0\0\0\0\0".to_vec(), 1, PacketWriteEndInfo::EndPage, 0).unwrap();
        for (i, packet) in packets.iter().enumerate() {
            let end = if i + 1 == packets.len() { PacketWriteEndInfo::EndStream } else { PacketWriteEndInfo::NormalPacket };
            writer.write_packet(packet.clone(), 1, end, (i as u64 + 1) * 2880).unwrap();
        }
        out
    }

    #[test]
    fn an_ogg_of_tiny_packets_claiming_an_hour_is_refused_before_it_is_decoded() {
        // One byte each: a 60 ms SILK frame's header with no data (decoded: concealment).
        let note = ogg(&vec![vec![0x18]; 60_000]);
        assert!(note.len() < 200_000, "{} bytes", note.len());
        assert!(matches!(Audio::decode(&note), Err(VoiceError::TooLong { limit: MAX_SECONDS, .. })));
        // Empty packets carry no audio at all.
        assert_eq!(Audio::decode(&ogg(&vec![Vec::new(); 60_000])).unwrap().seconds(), 0.0);
    }

    #[test]
    fn only_a_regular_file_is_read_as_a_recording() {
        assert!(matches!(Audio::read_file(std::path::Path::new("/dev/zero")), Err(VoiceError::NotAFile(_))));
        assert!(matches!(Audio::read_file(std::path::Path::new("/")), Err(VoiceError::NotAFile(_))));
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert!(matches!(Audio::read_file(&fifo), Err(VoiceError::NotAFile(_))), "refused without blocking");
    }

    #[test]
    fn a_wav_at_an_absurd_rate_or_longer_than_the_limit_is_refused_from_its_header() {
        let wav = |rate: u32, data_len: u32| {
            let mut out = b"RIFF".to_vec();
            out.extend_from_slice(&(36 + data_len).to_le_bytes());
            out.extend_from_slice(b"WAVEfmt ");
            out.extend_from_slice(&16u32.to_le_bytes());
            out.extend_from_slice(&1u16.to_le_bytes());
            out.extend_from_slice(&1u16.to_le_bytes());
            out.extend_from_slice(&rate.to_le_bytes());
            out.extend_from_slice(&(rate * 2).to_le_bytes());
            out.extend_from_slice(&2u16.to_le_bytes());
            out.extend_from_slice(&16u16.to_le_bytes());
            out.extend_from_slice(b"data");
            out.extend_from_slice(&data_len.to_le_bytes());
            out.extend(std::iter::repeat_n(0u8, 32));
            out
        };
        assert!(matches!(Audio::decode(&wav(1, 32)), Err(VoiceError::Malformed(_))));
        // A header that says an hour at 16 kHz: refused before a sample is read.
        assert!(matches!(Audio::decode(&wav(16_000, 3_600 * 32_000)), Err(VoiceError::TooLong { .. })));
        assert_eq!(Audio::decode(&wav(16_000, 32)).unwrap().samples().len(), 16);
    }

    #[test]
    fn a_float_wav_of_nan_infinity_and_past_full_scale_is_heard_as_bounded_samples() {
        // Found by the random recordings: rubato's FFT panicked on a NaN sample.
        let mut bytes = Vec::new();
        let spec = hound::WavSpec { channels: 2, sample_rate: 48_000, bits_per_sample: 32, sample_format: hound::SampleFormat::Float };
        let mut writer = hound::WavWriter::new(Cursor::new(&mut bytes), spec).unwrap();
        for i in 0..48_000 {
            let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 3.0e38, -7.5][i % 5];
            writer.write_sample(odd).unwrap();
            writer.write_sample(((i as f32) / 48.0).sin() * 0.5).unwrap();
        }
        writer.finalize().unwrap();
        let audio = Audio::decode(&bytes).unwrap();
        assert_eq!(audio.samples().len(), 16_000);
        assert!(audio.samples().iter().all(|s| s.is_finite() && s.abs() <= 1.5), "a sample out of bounds");
    }
}
